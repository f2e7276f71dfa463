'use strict';
// An Antrean worker in Node.js: lease, heartbeat, run, report; drain and release on SIGTERM.
//
//   node worker.js --target 127.0.0.1:7400 --worker-id node-1
//
// It follows docs/protocol.md: one long-poll Lease at a time for as many jobs as there are free
// slots; one Heartbeat per interval (lease TTL / 3) for every held lease, acting on each answer
// (EXTENDED moves the local deadline, LOST and CANCEL_REQUESTED stop the handler, a local deadline
// that passes stops it too); outcomes reported with the fencing token (Complete; Fail with the kind
// and retry_after from handlers.classify; Release when cancelled or shutting down); LEASE_LOST and
// NOT_FOUND drop the job, UNAVAILABLE and DEADLINE_EXCEEDED are retried while the lease lasts.
// SIGTERM/SIGINT: stop leasing, let running jobs finish within --shutdown-grace, then stop the
// rest, release their jobs and exit 0.

const os = require('os');
const { parseArgs } = require('util');
const { clients, decodeError, duration, sleep, Backoff, RETRY, DROP, STOP } = require('./antrean');
const { HANDLERS, PermanentError, Stopped, classify } = require('./handlers');

// The longest result a coordinator stores (docs/protocol.md, "Complete"), as for a payload.
const MAX_RESULT_BYTES = 1 << 20;

const { values: args } = parseArgs({
  options: {
    target: { type: 'string', default: '127.0.0.1:7400' },
    queue: { type: 'string', default: '' },
    'worker-id': { type: 'string', default: 'node-' + os.hostname() + '-' + process.pid },
    types: { type: 'string', default: '' },
    concurrency: { type: 'string', default: '4' },
    'lease-ttl': { type: 'string', default: '30' },
    'heartbeat-interval': { type: 'string', default: '' },
    'shutdown-grace': { type: 'string', default: '10' },
  },
});

const workerId = args['worker-id'];
const ttlMs = Number(args['lease-ttl']) * 1000;
const intervalMs = args['heartbeat-interval'] ? Number(args['heartbeat-interval']) * 1000 : ttlMs / 3;
const concurrency = Number(args.concurrency);
const types = args.types ? args.types.split(',') : Object.keys(HANDLERS).sort();
const unknownTypes = types.filter((t) => !HANDLERS[t]);
if (unknownTypes.length > 0) {
  console.error('no handler for --types ' + unknownTypes.join(',') + '; known: ' + Object.keys(HANDLERS).sort().join(','));
  process.exit(2);
}
if (!(ttlMs > 0 && ttlMs <= 600000)) {
  // A coordinator grants at most 10 minutes; heartbeats timed from more would come late.
  console.error('--lease-ttl must be positive and at most 600 seconds');
  process.exit(2);
}
if (!(intervalMs > 0 && intervalMs < ttlMs)) {
  console.error('--heartbeat-interval must be positive and below --lease-ttl');
  process.exit(2);
}
const { workers } = clients(args.target);
// Optional, for operators: the coordinator lists workers with what they say here.
const workerInfo = {
  host: os.hostname(), version: 'antrean-examples-node', queues: [args.queue || 'default'], types,
  concurrency, heartbeat_interval: duration(intervalMs / 1000),
};

const held = new Map(); // job id -> ctx
let leasing = true;
let pollCall = null;
let wakeLeaser = () => {};
let heartbeatTimer = null;

function log(level, message) {
  console.log(new Date().toISOString() + ' ' + level + ' ' + message);
}

function unary(method, request, timeoutMs) {
  return new Promise((resolve, reject) =>
    workers[method](request, { deadline: Date.now() + timeoutMs }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
}

function newContext(job) {
  const ctx = {
    job,
    token: job.lease.fencing_token,
    // The lease's secret: echoed with the token on every report, never logged.
    leaseId: job.lease.lease_id,
    deadline: Date.now() + ttlMs,
    progress: '',
    stopReason: null,
    claimed: false,
    wakers: new Set(),
    stop(reason) {
      if (!ctx.stopReason) ctx.stopReason = reason;
      for (const wake of ctx.wakers) wake();
    },
    // Waits ms, or less when the job is stopped meanwhile.
    pause(ms) {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          ctx.wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        ctx.wakers.add(done);
      });
    },
    claim() {
      if (ctx.claimed) return false;
      ctx.claimed = true;
      return true;
    },
  };
  return ctx;
}

// ---- leasing ----

async function leaseLoop() {
  const backoff = new Backoff(100, 10000);
  while (leasing) {
    const free = concurrency - held.size;
    if (free <= 0) {
      await new Promise((resolve) => (wakeLeaser = resolve));
      continue;
    }
    let jobs;
    try {
      jobs = await new Promise((resolve, reject) => {
        pollCall = workers.Lease(
          { worker_id: workerId, queue: args.queue, types, max_jobs: Math.min(free, 256),
            lease_ttl: duration(ttlMs / 1000), wait: duration(20), worker: workerInfo },
          { deadline: Date.now() + 30000 },
          (err, res) => (err ? reject(err) : resolve(res.jobs)),
        );
      });
      backoff.reset();
    } catch (err) {
      if (!leasing) return;
      const failure = decodeError(err);
      if (failure.action === STOP) {
        log('ERROR', 'Lease refused, stopping: ' + failure);
        process.exitCode = 1;
        return shutdown();
      }
      const delay = backoff.next();
      log('WARN', 'Lease failed (' + failure + '); retrying in ' + Math.round(delay) + ' ms');
      await sleep(delay);
      continue;
    } finally {
      pollCall = null;
    }
    for (const job of jobs) {
      const ctx = newContext(job);
      held.set(job.id, ctx);
      run(ctx);
    }
  }
}

// ---- heartbeats ----

async function heartbeat() {
  const now = Date.now();
  const live = [...held.values()].filter((c) => c.stopReason !== 'lost' && c.stopReason !== 'expired');
  for (const ctx of live) {
    if (now > ctx.deadline) {
      log('WARN', 'job ' + ctx.job.id + ' passed its local lease deadline; stopping it');
      ctx.stop('expired');
    }
  }
  const beating = live.filter((c) => c.stopReason !== 'expired');
  let next = intervalMs;
  if (beating.length > 0) {
    try {
      const answer = await unary(
        'Heartbeat',
        { worker_id: workerId, lease_ttl: duration(ttlMs / 1000), worker: workerInfo,
          leases: beating.map((c) => ({ job_id: c.job.id, fencing_token: c.token, lease_id: c.leaseId, progress: c.progress })) },
        Math.min(intervalMs, 10000),
      );
      heartbeat.backoff.reset();
      for (const state of answer.leases) {
        const ctx = beating.find((c) => c.job.id === state.job_id && c.token === state.fencing_token);
        if (!ctx || ctx.claimed) continue; // reported meanwhile: LOST answers our own report
        if (state.status === 'LEASE_STATUS_EXTENDED') {
          ctx.deadline = now + ttlMs; // counted from the send, never past the coordinator's
        } else if (state.status === 'LEASE_STATUS_CANCEL_REQUESTED') {
          ctx.deadline = now + ttlMs;
          log('INFO', 'job ' + ctx.job.id + ': cancellation requested; stopping it');
          ctx.stop('cancelled');
        } else if (state.status === 'LEASE_STATUS_LOST') {
          log('WARN', 'job ' + ctx.job.id + ': lease lost, per the coordinator; stopping it');
          ctx.stop('lost');
        }
      }
    } catch (err) {
      next = heartbeat.backoff.next();
      log('WARN', 'Heartbeat failed (' + decodeError(err) + '); retrying in ' + Math.round(next) + ' ms');
    }
  }
  heartbeatTimer = setTimeout(heartbeat, next);
}
heartbeat.backoff = new Backoff(200, intervalMs);

// ---- running and reporting ----

async function run(ctx) {
  const job = ctx.job;
  log('INFO', 'job ' + job.id + ' (' + job.type + ') leased, attempt ' + job.attempts + ', token ' + ctx.token);
  try {
    let result;
    try {
      result = await HANDLERS[job.type](ctx);
      if (result && result.length > MAX_RESULT_BYTES) {
        // The coordinator refuses a longer result: fail the job, with the reason.
        throw new PermanentError('result of ' + result.length + ' bytes, past the ' + MAX_RESULT_BYTES + ' a coordinator stores');
      }
    } catch (error) {
      if (error instanceof Stopped) {
        if (ctx.stopReason === 'lost' || ctx.stopReason === 'expired') {
          log('INFO', 'job ' + job.id + ' dropped (' + ctx.stopReason + ')');
        } else if (ctx.claim()) {
          await release(ctx, ctx.stopReason);
        }
        return;
      }
      const { kind, retryAfter } = classify(error);
      const request = {
        job_id: job.id, fencing_token: ctx.token, lease_id: ctx.leaseId, worker_id: workerId, kind,
        error_type: error.constructor.name, error_message: String(error.message),
        stack_trace: String(error.stack || ''),
      };
      if (retryAfter !== null) request.retry_after = duration(retryAfter);
      if (ctx.claim()) {
        const answer = await report(ctx, 'Fail', request);
        if (answer) {
          log('INFO', 'job ' + job.id + ' failed (' + error.constructor.name + '): now ' +
            (answer.state === 'JOB_STATE_FAILED' ? 'dead-lettered' : 'retrying'));
        }
      }
      return;
    }
    if (ctx.claim()) {
      const answer = await report(ctx, 'Complete', {
        job_id: job.id, fencing_token: ctx.token, lease_id: ctx.leaseId, worker_id: workerId, result,
        result_content_type: 'application/json',
      });
      if (answer) log('INFO', 'job ' + job.id + ' completed');
    }
  } finally {
    held.delete(job.id);
    wakeLeaser();
  }
}

async function release(ctx, reason) {
  const answer = await report(ctx, 'Release', {
    job_id: ctx.job.id, fencing_token: ctx.token, lease_id: ctx.leaseId, worker_id: workerId, reason,
  });
  if (answer) log('INFO', 'job ' + ctx.job.id + ' released (' + reason + ')');
}

// Sends one report; retries transient errors while the lease lasts. Null when not taken.
async function report(ctx, method, request) {
  const backoff = new Backoff(100, 2000);
  for (;;) {
    const timeoutMs = Math.max(2000, Math.min(10000, ctx.deadline - Date.now()));
    try {
      return await unary(method, request, timeoutMs);
    } catch (err) {
      const failure = decodeError(err);
      if (failure.action === RETRY && Date.now() < ctx.deadline) {
        await sleep(backoff.next());
        continue;
      }
      if (failure.action === DROP) {
        log('WARN', 'job ' + ctx.job.id + ': ' + method + ' rejected, dropping the job: ' + failure);
      } else {
        log('ERROR', 'job ' + ctx.job.id + ': ' + method + ' failed: ' + failure);
      }
      return null;
    }
  }
}

// ---- lifecycle ----

async function waitEmpty(ms) {
  const deadline = Date.now() + ms;
  while (held.size > 0 && Date.now() < deadline) await sleep(50);
  return held.size === 0;
}

let shuttingDown = false;
async function shutdown() {
  if (shuttingDown) return;
  shuttingDown = true;
  const graceMs = Number(args['shutdown-grace']) * 1000;
  log('INFO', 'shutting down: leasing stopped, ' + held.size + ' jobs running, grace ' + graceMs + ' ms');
  leasing = false;
  if (pollCall) pollCall.cancel();
  wakeLeaser();
  if (!(await waitEmpty(graceMs))) {
    for (const ctx of held.values()) ctx.stop('shutdown');
    if (!(await waitEmpty(5000))) {
      for (const ctx of [...held.values()]) {
        if (ctx.claim()) {
          log('WARN', 'job ' + ctx.job.id + ': handler ignored the stop; releasing it');
          await release(ctx, 'shutdown');
        }
      }
    }
  }
  clearTimeout(heartbeatTimer);
  workers.close();
  log('INFO', 'worker ' + workerId + ' stopped');
  process.exit(process.exitCode || 0);
}

process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
log('INFO', 'worker ' + workerId + ' leasing ' + types.join(',') + ' from ' + args.target +
  ' (lease TTL ' + ttlMs + ' ms, heartbeat every ' + Math.round(intervalMs) + ' ms)');
heartbeatTimer = setTimeout(heartbeat, intervalMs);
leaseLoop();

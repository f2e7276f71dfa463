'use strict';
// Enqueues jobs and, with --wait, follows each until it ends.
//
//   node producer.js --target 127.0.0.1:7400 --type email.send --payload '{"to":"ada@example.com"}' --count 3 --wait
//
// Prints `enqueued job ID` per job and, with --wait, `job ID ended STATE`. Every job carries an
// idempotency key, so retrying after UNAVAILABLE never enqueues it twice. Exit status: 0 when all
// were enqueued (and with --wait SUCCEEDED), 1 otherwise, 2 when the request was rejected.

const crypto = require('crypto');
const { parseArgs } = require('util');
const { clients, decodeError, awaitServing, sleep, Backoff, RETRY, FIX } = require('./antrean');

const { values: args } = parseArgs({
  options: {
    target: { type: 'string', default: '127.0.0.1:7400' },
    queue: { type: 'string', default: '' },
    type: { type: 'string', default: 'email.send' },
    payload: { type: 'string', default: '{"to":"ada@example.com"}' },
    priority: { type: 'string', default: '0' },
    count: { type: 'string', default: '1' },
    'idempotency-key': { type: 'string', default: '' },
    wait: { type: 'boolean', default: false },
    'wait-timeout': { type: 'string', default: '120' },
  },
});

function unary(client, method, request, timeoutMs) {
  return new Promise((resolve, reject) =>
    client[method](request, { deadline: Date.now() + timeoutMs }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
}

async function enqueue(jobs, request) {
  const backoff = new Backoff(100, 5000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await unary(jobs, 'Enqueue', request, 10000);
    } catch (err) {
      const failure = decodeError(err);
      if (failure.action === RETRY && attempt < 8) {
        console.error('retrying after ' + failure);
        await sleep(backoff.next());
        continue;
      }
      console.error('enqueue failed: ' + failure);
      process.exit(failure.action === FIX ? 2 : 1);
    }
  }
}

function follow(jobs, id, timeoutMs) {
  return new Promise((resolve) => {
    let last = null;
    const call = jobs.WatchJob({ id }, { deadline: Date.now() + timeoutMs });
    call.on('data', (update) => (last = update.job));
    call.on('error', (err) => {
      console.log('job ' + id + ' watch failed: ' + decodeError(err));
      resolve(false);
    });
    call.on('end', () => {
      const state = last ? last.state.replace('JOB_STATE_', '') : 'UNKNOWN';
      console.log('job ' + id + ' ended ' + state + (last && last.last_error ? ' (' + last.last_error + ')' : ''));
      resolve(state === 'SUCCEEDED');
    });
  });
}

async function main() {
  const { jobs, health } = clients(args.target);
  await awaitServing(health, 30000);
  const ids = [];
  const count = Number(args.count);
  for (let i = 0; i < count; i++) {
    const key = args['idempotency-key']
      ? args['idempotency-key'] + (count > 1 ? '-' + i : '')
      : crypto.randomUUID();
    const response = await enqueue(jobs, {
      queue: args.queue,
      type: args.type,
      payload: Buffer.from(args.payload, 'utf8'),
      priority: Number(args.priority),
      idempotency_key: key,
    });
    console.log('enqueued job ' + response.job.id + (response.deduplicated ? ' (deduplicated)' : ''));
    ids.push(response.job.id);
  }
  let ok = true;
  if (args.wait) {
    for (const id of ids) ok = (await follow(jobs, id, Number(args['wait-timeout']) * 1000)) && ok;
  }
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

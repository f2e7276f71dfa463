'use strict';
// Loads the Antrean protos from the repository's proto/ folder at run time, and decodes the
// google.rpc error details the coordinator sends in the grpc-status-details-bin trailer.

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const PROTO = path.resolve(__dirname, '..', '..', 'proto');
const INCLUDES = [path.join(PROTO, 'src', 'main', 'proto'), path.join(PROTO, 'third_party')];
const FILES = [
  'antrean/v1/job_service.proto',
  'antrean/v1/worker_service.proto',
  'grpc/health/v1/health.proto',
];

const definition = protoLoader.loadSync(FILES, {
  includeDirs: INCLUDES,
  keepCase: true, // the proto's field names, as in the proto JSON mapping and the HTTP API
  longs: String, // int64 ids and tokens as decimal strings: no precision lost
  enums: String,
  defaults: true,
  oneofs: true,
});
const loaded = grpc.loadPackageDefinition(definition);

// protobufjs (what proto-loader uses underneath) decodes google.rpc.Status and its details.
const rpcTypes = new protobuf.Root();
rpcTypes.resolvePath = (origin, target) => {
  for (const dir of INCLUDES) {
    const candidate = path.join(dir, target);
    if (require('fs').existsSync(candidate)) return candidate;
  }
  return target;
};
rpcTypes.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto']);
rpcTypes.resolveAll();
const StatusType = rpcTypes.lookupType('google.rpc.Status');

const RETRY = 'retry'; // the same call again, with backoff
const DROP = 'drop'; // the lease is gone or the job does not exist: forget the job
const FIX = 'fix'; // the request is wrong: the same request cannot succeed
const STOP = 'stop'; // misconfigured or not allowed: stop and tell a person

const ACTIONS = {
  [grpc.status.UNAVAILABLE]: RETRY,
  [grpc.status.DEADLINE_EXCEEDED]: RETRY,
  [grpc.status.RESOURCE_EXHAUSTED]: RETRY,
  [grpc.status.ABORTED]: RETRY,
  [grpc.status.FAILED_PRECONDITION]: DROP,
  [grpc.status.NOT_FOUND]: DROP,
  [grpc.status.INVALID_ARGUMENT]: FIX,
  [grpc.status.ALREADY_EXISTS]: FIX,
  [grpc.status.OUT_OF_RANGE]: FIX,
  [grpc.status.UNAUTHENTICATED]: STOP,
  [grpc.status.PERMISSION_DENIED]: STOP,
  [grpc.status.UNIMPLEMENTED]: STOP,
};

const CODE_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));

/** What a failed call means: code, reason (ErrorInfo), field violations, and what to do. */
function decodeError(err) {
  const failure = {
    code: err.code,
    codeName: CODE_NAMES[err.code] || String(err.code),
    message: err.details || err.message,
    reason: '',
    domain: '',
    metadata: {},
    violations: [],
    action: ACTIONS[err.code] || RETRY,
  };
  const raw = err.metadata ? err.metadata.get('grpc-status-details-bin') : [];
  if (raw && raw.length > 0) {
    const status = StatusType.decode(raw[0]);
    for (const any of status.details) {
      const typeName = any.type_url.substring(any.type_url.lastIndexOf('/') + 1);
      let type;
      try {
        type = rpcTypes.lookupType(typeName);
      } catch (e) {
        continue; // a detail type this client does not know
      }
      const detail = type.decode(any.value);
      if (typeName === 'google.rpc.ErrorInfo') {
        failure.reason = detail.reason;
        failure.domain = detail.domain;
        failure.metadata = detail.metadata || {};
      } else if (typeName === 'google.rpc.BadRequest') {
        for (const v of detail.field_violations || detail.fieldViolations || []) {
          failure.violations.push({ field: v.field, description: v.description });
        }
      }
    }
  }
  failure.toString = () =>
    [failure.codeName + (failure.reason ? ' ' + failure.reason : '') + ': ' + failure.message]
      .concat(failure.violations.map((v) => '  ' + v.field + ': ' + v.description))
      .join('\n');
  return failure;
}

/** A proto Duration from seconds. */
function duration(seconds) {
  const whole = Math.floor(seconds);
  return { seconds: String(whole), nanos: Math.round((seconds - whole) * 1e9) };
}

function clients(target) {
  const credentials = grpc.credentials.createInsecure();
  // The coordinator keeps a Lease answer's payloads under 3 MiB, within gRPC's default 4 MiB;
  // reading any size also covers answers it does not budget (a job's whole history, say).
  const options = { 'grpc.max_receive_message_length': -1 };
  return {
    jobs: new loaded.antrean.v1.JobService(target, credentials, options),
    workers: new loaded.antrean.v1.WorkerService(target, credentials, options),
    health: new loaded.grpc.health.v1.Health(target, credentials, options),
  };
}

/** Resolves when the coordinator's health service says SERVING; rejects after timeoutMs. */
async function awaitServing(health, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const serving = await new Promise((resolve) =>
      health.Check({ service: '' }, { deadline: Date.now() + 2000 }, (err, res) =>
        resolve(!err && res.status === 'SERVING'),
      ),
    );
    if (serving) return;
    if (Date.now() > deadline) throw new Error('coordinator not serving after ' + timeoutMs + ' ms');
    await sleep(200);
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Jittered exponential backoff: the n-th failure waits between half and all of the cap. */
class Backoff {
  constructor(initialMs, maxMs) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
    this.failures = 0;
  }
  next() {
    const cap = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.failures, 30));
    this.failures += 1;
    return cap / 2 + Math.random() * (cap / 2);
  }
  reset() {
    this.failures = 0;
  }
}

module.exports = {
  grpc, clients, decodeError, duration, awaitServing, sleep, Backoff, RETRY, DROP, FIX, STOP,
};

'use strict';
// The example job handlers and how the worker classifies what they throw.
//
// A handler is an async function (ctx) => Buffer. PermanentError, a TypeError, a RangeError or a
// payload that is not JSON go to the dead-letter queue; RetryLater retries no earlier than its
// delay; anything else retries with the coordinator's backoff.

class Stopped extends Error {}
class PermanentError extends Error {}
class RetryLater extends Error {
  constructor(message, afterSeconds) {
    super(message);
    this.afterSeconds = afterSeconds;
  }
}

function classify(error) {
  if (error instanceof RetryLater) return { kind: 'ERROR_KIND_RETRYABLE', retryAfter: error.afterSeconds };
  if (error instanceof PermanentError || error instanceof TypeError || error instanceof RangeError) {
    return { kind: 'ERROR_KIND_PERMANENT', retryAfter: null };
  }
  return { kind: 'ERROR_KIND_RETRYABLE', retryAfter: null };
}

function payloadJson(ctx) {
  let value;
  try {
    value = JSON.parse(Buffer.from(ctx.job.payload).toString('utf8') || '{}');
  } catch (e) {
    throw new PermanentError('payload is not JSON: ' + e.message);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PermanentError('payload must be a JSON object');
  }
  return value;
}

// {"to": "a@b"} -> {"messageId": ...}; {"simulate": "timeout" | "rate_limited"} fails retryably.
async function emailSend(ctx) {
  const payload = payloadJson(ctx);
  if (typeof payload.to !== 'string' || !payload.to.includes('@')) {
    throw new PermanentError('payload needs a "to" address, got ' + JSON.stringify(payload.to));
  }
  if (payload.simulate === 'timeout') throw new Error('mail server did not answer');
  if (payload.simulate === 'rate_limited') throw new RetryLater('mail server said 429', 2);
  return Buffer.from(JSON.stringify({ messageId: 'node-' + ctx.job.id + '-' + ctx.job.attempts }));
}

// {"ms": N} -> {"sleptMs": N}. Time is checked before the stop: finished work is reported, and the
// coordinator's fencing decides whether the report still counts.
async function sleep(ctx) {
  const ms = Number(payloadJson(ctx).ms ?? 1000);
  if (!(ms >= 0)) throw new RangeError('ms must be a number, not negative');
  const deadline = Date.now() + ms;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    if (ctx.stopReason) throw new Stopped(ctx.stopReason);
    ctx.progress = remaining + ' ms left';
    await ctx.pause(Math.min(remaining, 100));
  }
  return Buffer.from(JSON.stringify({ sleptMs: ms }));
}

async function echo(ctx) {
  return Buffer.from(ctx.job.payload);
}

module.exports = {
  HANDLERS: { 'email.send': emailSend, sleep, echo },
  Stopped, PermanentError, RetryLater, classify,
};

"""The example job handlers, and the error classification the worker applies to them.

A handler takes a JobContext and returns the result bytes, or raises. The worker reports what it
raised as `classify` says: PermanentError, ValueError, KeyError, TypeError and bad JSON go straight
to the dead-letter queue; RetryLater retries no earlier than its delay; anything else (timeouts,
connection errors, bugs we hope are transient) retries with the coordinator's backoff.
"""

import json
import time

from antrean_stubs import job_pb2


class Stopped(Exception):
    """Raised by a handler that stopped because ctx.stop_reason was set."""


class PermanentError(Exception):
    """Retrying cannot help: bad payload, unknown id."""


class RetryLater(Exception):
    """Transient, and the downstream said when to come back (for example a 429's Retry-After)."""

    def __init__(self, message, after_seconds):
        super().__init__(message)
        self.after_seconds = after_seconds


def classify(error):
    """(ErrorKind, retry_after seconds or None) for an exception a handler raised."""
    if isinstance(error, RetryLater):
        return job_pb2.ERROR_KIND_RETRYABLE, error.after_seconds
    if isinstance(error, (PermanentError, ValueError, KeyError, TypeError)):
        return job_pb2.ERROR_KIND_PERMANENT, None
    return job_pb2.ERROR_KIND_RETRYABLE, None


def payload_json(ctx):
    try:
        value = json.loads(ctx.job.payload.decode("utf-8") or "{}")
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PermanentError("payload is not JSON: %s" % e) from e
    if not isinstance(value, dict):
        raise PermanentError("payload must be a JSON object")
    return value


def email_send(ctx):
    """{"to": "a@b"} -> {"messageId": ...}; a missing or implausible "to" is permanent.

    {"simulate": "timeout"} fails retryably; {"simulate": "rate_limited"} asks to retry in 2 s.
    """
    payload = payload_json(ctx)
    to = payload.get("to")
    if not isinstance(to, str) or "@" not in to:
        raise ValueError("payload needs a \"to\" address, got %r" % (to,))
    simulate = payload.get("simulate")
    if simulate == "timeout":
        raise TimeoutError("mail server did not answer")
    if simulate == "rate_limited":
        raise RetryLater("mail server said 429", 2.0)
    return json.dumps({"messageId": "py-%d-%d" % (ctx.job.id, ctx.job.attempts)}).encode()


def sleep(ctx):
    """{"ms": N} -> {"sleptMs": N}; stops early when told to (cancel, lost lease, shutdown).

    Time is checked before the stop flag: work that is done is reported even if a stop arrived
    meanwhile, and the coordinator's fencing decides whether the report still counts.
    """
    ms = int(payload_json(ctx).get("ms", 1000))
    if ms < 0:
        raise ValueError("ms must not be negative")
    deadline = time.monotonic() + ms / 1000.0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        if ctx.stop_reason:
            raise Stopped(ctx.stop_reason)
        ctx.progress = "%d ms left" % (remaining * 1000)
        ctx.stopping.wait(min(remaining, 0.1))
    return json.dumps({"sleptMs": ms}).encode()


def echo(ctx):
    """Returns the payload as the result."""
    return ctx.job.payload


HANDLERS = {"email.send": email_send, "sleep": sleep, "echo": echo}

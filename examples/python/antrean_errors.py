"""What a gRPC error from the coordinator means and what to do about it.

The coordinator puts a google.rpc.Status in the `grpc-status-details-bin` trailer: ErrorInfo (a
reason such as LEASE_LOST, domain antrean.io) and, for INVALID_ARGUMENT, BadRequest field
violations. `decode` reads them; `action` is the table of docs/protocol.md in code.
"""

import grpc

from antrean_stubs import error_details_pb2, status_pb2

RETRY = "retry"  # the same call again, with backoff (transient: store outage, draining, deadline)
DROP = "drop"  # the lease is gone or the job does not exist: forget the job, never retry
FIX = "fix"  # the request is wrong: retrying the same request cannot succeed
STOP = "stop"  # this process is misconfigured or not allowed: stop and tell a person

_ACTIONS = {
    grpc.StatusCode.UNAVAILABLE: RETRY,
    grpc.StatusCode.DEADLINE_EXCEEDED: RETRY,
    grpc.StatusCode.RESOURCE_EXHAUSTED: RETRY,
    grpc.StatusCode.ABORTED: RETRY,
    grpc.StatusCode.FAILED_PRECONDITION: DROP,
    grpc.StatusCode.NOT_FOUND: DROP,
    grpc.StatusCode.INVALID_ARGUMENT: FIX,
    grpc.StatusCode.ALREADY_EXISTS: FIX,
    grpc.StatusCode.OUT_OF_RANGE: FIX,
    grpc.StatusCode.UNAUTHENTICATED: STOP,
    grpc.StatusCode.PERMISSION_DENIED: STOP,
    grpc.StatusCode.UNIMPLEMENTED: STOP,
}


class Failure:
    """A decoded error: status code, message, ErrorInfo reason and metadata, field violations."""

    def __init__(self, code, message, reason="", domain="", metadata=None, violations=()):
        self.code = code
        self.message = message
        self.reason = reason
        self.domain = domain
        self.metadata = dict(metadata or {})
        self.violations = list(violations)

    @property
    def action(self):
        return action(self.code)

    def __str__(self):
        text = self.code.name
        if self.reason:
            text += " " + self.reason
        text += ": " + (self.message or "")
        for field, description in self.violations:
            text += "\n  " + field + ": " + description
        for key, value in sorted(self.metadata.items()):
            text += "\n  " + key + "=" + value
        return text


def action(code):
    """RETRY, DROP, FIX or STOP for a status code; INTERNAL and UNKNOWN count as RETRY."""
    return _ACTIONS.get(code, RETRY)


def decode(error):
    """Reads a grpc.RpcError, with its google.rpc details when the trailer carries them."""
    reason = domain = ""
    metadata = {}
    violations = []
    for key, value in error.trailing_metadata() or ():
        if key != "grpc-status-details-bin":
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                reason, domain, metadata = info.reason, info.domain, dict(info.metadata)
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                violations += [(v.field, v.description) for v in bad.field_violations]
    return Failure(error.code(), error.details(), reason, domain, metadata, violations)

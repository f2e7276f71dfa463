"""Generates Python stubs from the repository's proto/ folder on first use, and imports them.

Only Debian's python3-grpcio and python3-grpc-tools are needed. Our own protos become the
`antrean.v1` modules; the third-party ones (google.rpc status and error details, gRPC health) are
generated under the top-level name `antrean_deps`, so that `grpc/health/v1` never shadows the real
`grpc` package and `google/rpc` never competes with another `google` package. The protobuf
package names inside stay `google.rpc` and `grpc.health.v1`, which is what the wire and `Any` type
URLs use.
"""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.normpath(os.path.join(HERE, "..", "..", "proto"))
OURS = os.path.join(PROTO, "src", "main", "proto")
THIRD_PARTY = os.path.join(PROTO, "third_party")
GENERATED = os.path.join(HERE, "generated")
STAMP = os.path.join(GENERATED, ".stamp")


def _proto_files(root):
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".proto"):
                yield os.path.join(folder, name)


def _newest_proto_mtime():
    return max(os.path.getmtime(p) for root in (OURS, THIRD_PARTY) for p in _proto_files(root))


def _up_to_date():
    return os.path.exists(STAMP) and os.path.getmtime(STAMP) >= _newest_proto_mtime()


def _generate():
    from grpc_tools import protoc
    import grpc_tools

    well_known = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    work = tempfile.mkdtemp(prefix="antrean-stubs-")
    try:
        deps = os.path.join(work, "include")
        shutil.copytree(THIRD_PARTY, os.path.join(deps, "antrean_deps"))
        out = os.path.join(work, "out")
        os.makedirs(out)
        antrean_v1 = os.path.join(OURS, "antrean", "v1")
        sources = [p for p in _proto_files(antrean_v1)]
        sources += list(_proto_files(os.path.join(deps, "antrean_deps")))
        args = ["protoc", "-I" + OURS, "-I" + deps, "-I" + well_known,
                "--python_out=" + out, "--grpc_python_out=" + out] + sources
        if protoc.main(args) != 0:
            raise RuntimeError("protoc failed on " + PROTO)
        for folder, _, _ in os.walk(out):
            init = os.path.join(folder, "__init__.py")
            if not os.path.exists(init):
                open(init, "w").close()
        open(os.path.join(out, ".stamp"), "w").close()
        # Several processes may generate at once: the first rename wins, the others keep theirs.
        staged = GENERATED + ".new-" + str(os.getpid())
        shutil.move(out, staged)
        if os.path.exists(GENERATED):
            shutil.rmtree(GENERATED, ignore_errors=True)
        try:
            os.rename(staged, GENERATED)
        except OSError:
            shutil.rmtree(staged, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if not _up_to_date():
    _generate()
if GENERATED not in sys.path:
    sys.path.insert(0, GENERATED)

from antrean.v1 import job_pb2, job_service_pb2, job_service_pb2_grpc  # noqa: E402
from antrean.v1 import worker_service_pb2, worker_service_pb2_grpc  # noqa: E402
from antrean_deps.google.rpc import error_details_pb2, status_pb2  # noqa: E402
from antrean_deps.grpc.health.v1 import health_pb2, health_pb2_grpc  # noqa: E402

__all__ = [
    "job_pb2", "job_service_pb2", "job_service_pb2_grpc", "worker_service_pb2",
    "worker_service_pb2_grpc", "error_details_pb2", "status_pb2", "health_pb2", "health_pb2_grpc",
]

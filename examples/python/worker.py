#!/usr/bin/env python3
"""An Antrean worker in Python: lease, heartbeat, run, report; drain and release on SIGTERM.

    /usr/bin/python3 worker.py --target 127.0.0.1:7400 --worker-id py-1

The protocol is described in docs/protocol.md; this file follows it step by step:
  * one thread long-polls Lease for as many jobs as there are free slots;
  * one thread sends one Heartbeat per interval (lease TTL / 3) for every held lease and acts on
    each answer: EXTENDED moves the local deadline, LOST and CANCEL_REQUESTED stop the handler;
    a lease whose local deadline passes without a renewal is stopped too;
  * each job runs on its own thread; the outcome is reported with its fencing token: Complete,
    Fail (kind and retry_after from handlers.classify), or Release (cancelled or shutting down);
    FAILED_PRECONDITION (reason LEASE_LOST) and NOT_FOUND drop the job, UNAVAILABLE and
    DEADLINE_EXCEEDED are retried with backoff while the lease lasts;
  * SIGTERM or SIGINT: stop leasing, let running jobs finish within --shutdown-grace while
    heartbeating them, then stop the rest and release their jobs, and exit 0.
"""

import argparse
import logging
import os
import random
import signal
import socket
import sys
import threading
import time
import traceback

import grpc
from google.protobuf import duration_pb2

from antrean_errors import DROP, RETRY, STOP, decode
from antrean_stubs import job_pb2
from antrean_stubs import worker_service_pb2 as ws
from antrean_stubs import worker_service_pb2_grpc
from handlers import HANDLERS, PermanentError, Stopped, classify

log = logging.getLogger("antrean.worker")

# The longest result a coordinator stores (docs/protocol.md, "Complete"), as for a payload.
MAX_RESULT_BYTES = 1 << 20


def seconds(value):
    d = duration_pb2.Duration()
    d.FromNanoseconds(int(value * 1e9))
    return d


class Backoff:
    """Jittered exponential backoff: the n-th failure waits between half and all of the cap."""

    def __init__(self, initial=0.1, maximum=10.0):
        self.initial, self.maximum, self.failures = initial, maximum, 0

    def next(self):
        cap = min(self.maximum, self.initial * (2 ** min(self.failures, 30)))
        self.failures += 1
        return random.uniform(cap / 2, cap)

    def reset(self):
        self.failures = 0


class JobContext:
    """One held lease: the job, its token and lease id, its local deadline, and why it must stop."""

    def __init__(self, job, ttl):
        self.job = job
        self.token = job.lease.fencing_token
        # The lease's secret: echoed with the token on every report, never logged.
        self.lease_id = job.lease.lease_id
        self.deadline = time.monotonic() + ttl
        self.progress = ""
        self.stop_reason = None  # "lost", "expired", "cancelled" or "shutdown"
        self.stopping = threading.Event()
        self.outcome_claimed = False
        self.lock = threading.Lock()

    def stop(self, reason):
        with self.lock:
            if self.stop_reason is None:
                self.stop_reason = reason
        self.stopping.set()

    def claim_outcome(self):
        """True for the one caller allowed to report this job (handler thread or shutdown)."""
        with self.lock:
            if self.outcome_claimed:
                return False
            self.outcome_claimed = True
            return True


class Worker:
    def __init__(self, args):
        self.args = args
        self.worker_id = args.worker_id
        self.ttl = args.lease_ttl
        self.interval = args.heartbeat_interval or args.lease_ttl / 3.0
        if not 0 < self.ttl <= 600:
            # A coordinator grants at most 10 minutes; heartbeats timed from more would come late.
            raise SystemExit("--lease-ttl must be positive and at most 600 seconds")
        if not 0 < self.interval < self.ttl:
            raise SystemExit("--heartbeat-interval must be positive and below --lease-ttl")
        self.types = args.types.split(",") if args.types else sorted(HANDLERS)
        unknown = [t for t in self.types if t not in HANDLERS]
        if unknown:
            raise SystemExit("no handler for --types %s; known: %s"
                             % (",".join(unknown), ",".join(sorted(HANDLERS))))
        # Optional, for operators: the coordinator lists workers with what they say here.
        self.info = ws.WorkerInfo(host=socket.gethostname(), version="antrean-examples-python",
                                  queues=[args.queue or "default"], types=self.types,
                                  concurrency=args.concurrency,
                                  heartbeat_interval=seconds(self.interval))
        # The coordinator keeps a Lease answer's payloads under 3 MiB, within gRPC's default 4 MiB;
        # reading any size also covers answers it does not budget (a job's whole history, say).
        self.channel = grpc.insecure_channel(
            args.target, options=[("grpc.max_receive_message_length", -1)])
        self.stub = worker_service_pb2_grpc.WorkerServiceStub(self.channel)
        self.held = {}  # job id -> JobContext
        self.held_lock = threading.Lock()
        self.slots = threading.Semaphore(args.concurrency)
        self.leasing = True
        self.done = threading.Event()
        self.poll = None
        self.fatal = None

    # ---- leasing ----

    def lease_loop(self):
        backoff = Backoff()
        while self.leasing:
            free = self.take_slots()
            if free == 0:
                continue
            request = ws.LeaseRequest(worker_id=self.worker_id, queue=self.args.queue,
                                      types=self.types, max_jobs=free,
                                      lease_ttl=seconds(self.ttl), wait=seconds(20),
                                      worker=self.info)
            try:
                self.poll = self.stub.Lease.future(request, timeout=30)
                jobs = self.poll.result().jobs
                backoff.reset()
            except grpc.FutureCancelledError:
                self.give_back(free)
                return
            except grpc.RpcError as e:
                self.give_back(free)
                if not self.leasing:
                    return
                failure = decode(e)
                if failure.action == STOP:
                    self.fatal = "Lease refused, stopping: %s" % failure
                    self.done.set()
                    return
                delay = backoff.next()
                log.warning("Lease failed (%s); retrying in %.1fs", failure, delay)
                time.sleep(delay)
                continue
            self.give_back(free - len(jobs))
            for job in jobs:
                ctx = JobContext(job, self.ttl)
                with self.held_lock:
                    self.held[job.id] = ctx
                threading.Thread(target=self.run, args=(ctx,), daemon=True,
                                 name="job-%d" % job.id).start()

    def take_slots(self):
        """Blocks for one free slot (or a stop), then takes every other free one too."""
        while self.leasing and not self.slots.acquire(timeout=0.2):
            pass
        if not self.leasing:
            return 0
        taken = 1
        while taken < 256 and self.slots.acquire(blocking=False):
            taken += 1
        if not self.leasing:
            self.give_back(taken)
            return 0
        return taken

    def give_back(self, n):
        for _ in range(n):
            self.slots.release()

    # ---- heartbeats ----

    def heartbeat_loop(self):
        backoff = Backoff(0.2, self.interval)
        next_beat = time.monotonic() + self.interval
        while not self.done.is_set():
            now = time.monotonic()
            with self.held_lock:
                held = [c for c in self.held.values() if c.stop_reason not in ("lost", "expired")]
            for ctx in held:
                if now > ctx.deadline:
                    log.warning("job %d passed its local lease deadline; stopping it", ctx.job.id)
                    ctx.stop("expired")
            if now >= next_beat:
                next_beat = self.beat(held, backoff)
            self.done.wait(min(0.1, max(0.0, next_beat - time.monotonic())))

    def beat(self, held, backoff):
        sent = time.monotonic()
        live = [c for c in held if c.stop_reason not in ("lost", "expired")]
        if not live:
            return sent + self.interval
        request = ws.HeartbeatRequest(
            worker_id=self.worker_id, lease_ttl=seconds(self.ttl), worker=self.info,
            leases=[ws.LeaseRef(job_id=c.job.id, fencing_token=c.token, lease_id=c.lease_id,
                                progress=c.progress)
                    for c in live])
        try:
            answer = self.stub.Heartbeat(request, timeout=min(self.interval, 10))
        except grpc.RpcError as e:
            delay = backoff.next()
            log.warning("Heartbeat failed (%s); retrying in %.1fs", decode(e), delay)
            return sent + delay
        backoff.reset()
        by_key = {(c.job.id, c.token): c for c in live}
        for state in answer.leases:
            ctx = by_key.get((state.job_id, state.fencing_token))
            if ctx is None or ctx.outcome_claimed:
                continue  # reported meanwhile: LOST is the answer to our own Complete or Fail
            if state.status == ws.LEASE_STATUS_EXTENDED:
                ctx.deadline = sent + self.ttl  # counted from the send, never past the server's
            elif state.status == ws.LEASE_STATUS_CANCEL_REQUESTED:
                ctx.deadline = sent + self.ttl
                log.info("job %d: cancellation requested; stopping it", ctx.job.id)
                ctx.stop("cancelled")
            elif state.status == ws.LEASE_STATUS_LOST:
                log.warning("job %d: lease lost, per the coordinator; stopping it", ctx.job.id)
                ctx.stop("lost")
        return sent + self.interval

    # ---- running and reporting ----

    def run(self, ctx):
        job = ctx.job
        log.info("job %d (%s) leased, attempt %d, token %d", job.id, job.type, job.attempts,
                 ctx.token)
        try:
            try:
                result = HANDLERS[job.type](ctx)
                if result is not None and len(result) > MAX_RESULT_BYTES:
                    # The coordinator refuses a longer result: fail the job, with the reason.
                    raise PermanentError("result of %d bytes, past the %d a coordinator stores"
                                         % (len(result), MAX_RESULT_BYTES))
            except Stopped:
                self.settle_stopped(ctx)
            except Exception as error:  # noqa: BLE001 - every failure is classified and reported
                kind, retry_after = classify(error)
                request = ws.FailRequest(
                    job_id=job.id, fencing_token=ctx.token, lease_id=ctx.lease_id,
                    worker_id=self.worker_id, kind=kind,
                    error_type=type(error).__name__, error_message=str(error),
                    stack_trace=traceback.format_exc())
                if retry_after is not None:
                    request.retry_after.CopyFrom(seconds(retry_after))
                if ctx.claim_outcome():
                    answer = self.report(ctx, "Fail", lambda t: self.stub.Fail(request, timeout=t))
                    if answer is not None:
                        log.info("job %d failed (%s): now %s", job.id, type(error).__name__,
                                 "dead-lettered" if answer.state == job_pb2.JOB_STATE_FAILED else "retrying")
            else:
                if ctx.claim_outcome():
                    request = ws.CompleteRequest(job_id=job.id, fencing_token=ctx.token,
                                                 lease_id=ctx.lease_id,
                                                 worker_id=self.worker_id, result=result,
                                                 result_content_type="application/json")
                    if self.report(ctx, "Complete",
                                   lambda t: self.stub.Complete(request, timeout=t)) is not None:
                        log.info("job %d completed", job.id)
        finally:
            with self.held_lock:
                self.held.pop(job.id, None)
            self.slots.release()

    def settle_stopped(self, ctx):
        reason = ctx.stop_reason
        if reason in ("lost", "expired"):
            log.info("job %d dropped (%s)", ctx.job.id, reason)
        elif ctx.claim_outcome():
            self.release(ctx, reason)

    def release(self, ctx, reason):
        request = ws.ReleaseRequest(job_id=ctx.job.id, fencing_token=ctx.token,
                                    lease_id=ctx.lease_id,
                                    worker_id=self.worker_id, reason=reason)
        if self.report(ctx, "Release", lambda t: self.stub.Release(request, timeout=t)) is not None:
            log.info("job %d released (%s)", ctx.job.id, reason)

    def report(self, ctx, rpc, call):
        """Sends one report; retries transient errors while the lease lasts. None if not taken."""
        backoff = Backoff(0.1, 2.0)
        while True:
            # Sent even past the local deadline once: a stale token is harmless, the coordinator
            # answers FAILED_PRECONDITION/LEASE_LOST and changes nothing but the history.
            timeout = max(2.0, min(10.0, ctx.deadline - time.monotonic()))
            try:
                return call(timeout)
            except grpc.RpcError as e:
                failure = decode(e)
                if failure.action == RETRY and time.monotonic() < ctx.deadline:
                    time.sleep(backoff.next())
                    continue
                if failure.action == DROP:
                    log.warning("job %d: %s rejected, dropping the job: %s", ctx.job.id, rpc,
                                failure)
                else:
                    log.error("job %d: %s failed: %s", ctx.job.id, rpc, failure)
                return None

    # ---- lifecycle ----

    def start(self):
        log.info("worker %s leasing %s from %s (lease TTL %.1fs, heartbeat every %.1fs)",
                 self.worker_id, ",".join(self.types), self.args.target, self.ttl, self.interval)
        self.lease_thread = threading.Thread(target=self.lease_loop, name="lease", daemon=True)
        self.heartbeat_thread = threading.Thread(target=self.heartbeat_loop, name="heartbeat",
                                                 daemon=True)
        self.lease_thread.start()
        self.heartbeat_thread.start()

    def shutdown(self):
        with self.held_lock:
            running = len(self.held)
        log.info("shutting down: leasing stopped, %d jobs running, grace %.1fs", running,
                 self.args.shutdown_grace)
        self.leasing = False
        if self.poll is not None:
            self.poll.cancel()
        self.lease_thread.join(5)
        if not self.wait_empty(self.args.shutdown_grace):
            with self.held_lock:
                left = list(self.held.values())
            for ctx in left:
                ctx.stop("shutdown")
            if not self.wait_empty(5):
                with self.held_lock:
                    stuck = list(self.held.values())
                for ctx in stuck:
                    if ctx.claim_outcome():
                        log.warning("job %d: handler ignored the stop; releasing it", ctx.job.id)
                        self.release(ctx, "shutdown")
        self.done.set()
        self.heartbeat_thread.join(5)
        self.channel.close()
        log.info("worker %s stopped", self.worker_id)

    def wait_empty(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.held_lock:
                if not self.held:
                    return True
            time.sleep(0.05)
        with self.held_lock:
            return not self.held


def main():
    p = argparse.ArgumentParser(description="An Antrean worker in Python.")
    p.add_argument("--target", default="127.0.0.1:7400", help="coordinator HOST:PORT")
    p.add_argument("--queue", default="")
    p.add_argument("--worker-id", default="py-%d" % os.getpid())
    p.add_argument("--types", default="", help="comma-separated; default: every handler")
    p.add_argument("--concurrency", type=int, default=4)
    p.add_argument("--lease-ttl", type=float, default=30.0, help="seconds")
    p.add_argument("--heartbeat-interval", type=float, default=0.0,
                   help="seconds; default: a third of the lease TTL")
    p.add_argument("--shutdown-grace", type=float, default=10.0, help="seconds")
    args = p.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format="%(asctime)s %(levelname)s %(threadName)s %(message)s")

    worker = Worker(args)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    worker.start()
    while not stop.wait(0.2) and not worker.done.is_set():
        pass
    if worker.fatal:
        log.error(worker.fatal)
        worker.shutdown()
        return 1
    worker.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())

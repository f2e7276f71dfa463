#!/usr/bin/env python3
"""Enqueues jobs and, with --wait, follows each until it ends.

    /usr/bin/python3 producer.py --target 127.0.0.1:7400 --type email.send \
        --payload '{"to":"ada@example.com"}' --count 3 --wait

Prints one line per job: `enqueued job ID` and, with --wait, `job ID ended STATE`. Each job gets
an idempotency key (yours with --idempotency-key, else a random one), so a retry after UNAVAILABLE
or a lost answer never enqueues the job twice. Exit status: 0 when every job was enqueued (and,
with --wait, SUCCEEDED); 1 otherwise; 2 when the coordinator rejected the request (the field
violations are printed).
"""

import argparse
import random
import sys
import time
import uuid

import grpc

from antrean_errors import FIX, RETRY, decode
from antrean_stubs import health_pb2, health_pb2_grpc, job_pb2, job_service_pb2
from antrean_stubs import job_service_pb2_grpc


def main():
    args = parse_args()
    with grpc.insecure_channel(args.target) as channel:
        await_serving(channel, args.connect_timeout)
        jobs = job_service_pb2_grpc.JobServiceStub(channel)
        ids = []
        for i in range(args.count):
            key = args.idempotency_key + ("-" + str(i) if args.count > 1 else "") \
                if args.idempotency_key else str(uuid.uuid4())
            request = job_service_pb2.EnqueueRequest(
                queue=args.queue, type=args.type, payload=args.payload.encode("utf-8"),
                priority=args.priority, idempotency_key=key)
            response = call_with_retry(lambda: jobs.Enqueue(request, timeout=10))
            print("enqueued job %d%s" % (response.job.id,
                                         " (deduplicated)" if response.deduplicated else ""),
                  flush=True)
            ids.append(response.job.id)
        if args.wait:
            return 0 if all(follow(jobs, job_id, args.wait_timeout) for job_id in ids) else 1
        return 0


def follow(jobs, job_id, timeout):
    """Watches one job until it ends; True when it SUCCEEDED."""
    last = None
    for update in jobs.WatchJob(job_service_pb2.WatchJobRequest(id=job_id), timeout=timeout):
        last = update.job
    state = job_pb2.JobState.Name(last.state) if last else "UNKNOWN"
    print("job %d ended %s%s" % (job_id, state,
                                 (" (" + last.last_error + ")") if last and last.last_error else ""),
          flush=True)
    return last is not None and last.state == job_pb2.JOB_STATE_SUCCEEDED


def call_with_retry(call, attempts=8):
    """Retries transient errors with jittered exponential backoff; other errors end the run."""
    delay = 0.1
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except grpc.RpcError as e:
            failure = decode(e)
            if failure.action == RETRY and attempt < attempts:
                print("retrying after %s" % failure, file=sys.stderr, flush=True)
                time.sleep(random.uniform(delay / 2, delay))
                delay = min(delay * 2, 5.0)
                continue
            print("enqueue failed: %s" % failure, file=sys.stderr, flush=True)
            sys.exit(2 if failure.action == FIX else 1)


def await_serving(channel, timeout):
    """Waits until the coordinator's health service says SERVING."""
    health = health_pb2_grpc.HealthStub(channel)
    deadline = time.monotonic() + timeout
    while True:
        try:
            answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
            if answer.status == health_pb2.HealthCheckResponse.SERVING:
                return
        except grpc.RpcError:
            pass
        if time.monotonic() > deadline:
            sys.exit("coordinator at %s is not serving after %ss" % (channel, timeout))
        time.sleep(0.2)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", default="127.0.0.1:7400", help="coordinator HOST:PORT")
    p.add_argument("--queue", default="")
    p.add_argument("--type", default="email.send")
    p.add_argument("--payload", default='{"to":"ada@example.com"}', help="JSON payload")
    p.add_argument("--priority", type=int, default=0)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--idempotency-key", default="")
    p.add_argument("--wait", action="store_true", help="follow each job until it ends")
    p.add_argument("--wait-timeout", type=float, default=120.0, help="seconds")
    p.add_argument("--connect-timeout", type=float, default=30.0, help="seconds")
    return p.parse_args()


if __name__ == "__main__":
    sys.exit(main())

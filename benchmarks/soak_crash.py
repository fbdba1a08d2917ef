"""The crash tests' long version: a checkpointed Kafka job killed at random moments for many minutes.

The test suite kills a 100k-record job 20 times (tests/integration/test_checkpoints.py). This runs the same
job (tests/jobs/checkpointed_job.py, upper-casing values, checkpoints every micro-batch of at most 2,000
records) on a bigger input for a fixed time, killing it with SIGKILL (driver, JVM and Python workers) at
random moments and restarting it from its newest checkpoint with ``-s``, then lets the last restart finish
and checks the output:

- AT_LEAST_ONCE: every input record is in the output (repeats are allowed and counted);
- EXACTLY_ONCE: the committed output (read from the log's transaction markers, as a read_committed reader
  sees it) holds every record exactly once, in order per input partition.

    /work/venv/bin/python benchmarks/soak_crash.py                          # 30 min, both guarantees
    /work/venv/bin/python benchmarks/soak_crash.py --minutes 10 --guarantee exactly-once --seed 7

It starts its own Tansu broker, or uses ``KAFKA_BOOTSTRAP_SERVERS``. The result goes to
``benchmarks/results/<timestamp>-soak.json``; the exit code is 1 when a check fails.
"""
import argparse
import collections
import json
import os
import random
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, os.path.join(REPO, "tests")]

from broker import TansuBroker                                       # noqa: E402
from job_processes import run_with_kills, two_partition_input        # noqa: E402
from kafka_helpers import consume                                    # noqa: E402
from transaction_log_reader import read_committed                    # noqa: E402

GUARANTEES = ("at-least-once", "exactly-once")


def check_at_least_once(bootstrap, topic_out, inputs):
    output = [r.value.decode() for r in consume(bootstrap, topic_out, len(inputs), timeout_s=300, settle_s=5)]
    expected = set(v.upper() for v in inputs)
    missing = expected - set(output)
    return {"output_records": len(output), "missing": len(missing), "missing_examples": sorted(missing)[:5],
            "repeated": len(output) - len(set(output)),
            "unexpected": len(set(output) - expected), "ok": not missing and set(output) <= expected}


def check_exactly_once(bootstrap, topic_out, inputs):
    committed, aborted = read_committed(bootstrap, topic_out, timeout_s=300)
    output = [r.value.decode() for r in committed]
    counts = collections.Counter(output)
    repeated = sorted(value for value, n in counts.items() if n > 1)
    expected = set(v.upper() for v in inputs)
    missing = expected - set(counts)
    out_of_order = []
    for partition in sorted({r.partition for r in committed}):
        indexes = [int(r.value.decode()[len("RECORD-"):]) for r in committed if r.partition == partition]
        for parity in (0, 1):                # each input partition's records, in their order
            of_input = [i for i in indexes if i % 2 == parity]
            if of_input != sorted(of_input):
                out_of_order.append("output partition %d, input partition %d" % (partition, parity))
    return {"committed_records": len(output), "aborted_records_skipped": aborted,
            "repeated": len(repeated), "repeated_examples": repeated[:5],
            "missing": len(missing), "missing_examples": sorted(missing)[:5], "out_of_order": out_of_order,
            "ok": not repeated and not missing and not out_of_order and set(counts) <= expected}


def soak(bootstrap, guarantee, records, seconds, seed, work_dir):
    rng = random.Random(seed)
    print("%s: producing %d records ..." % (guarantee, records), flush=True)
    topic_in, topic_out, inputs = two_partition_input(bootstrap, "soak", records)
    log_path = os.path.join(work_dir, "%s-job.log" % guarantee)
    started = time.monotonic()
    print("%s: killing and restarting the job for %.0f s (log: %s) ..." % (guarantee, seconds, log_path),
          flush=True)
    killed, resumed_batches = run_with_kills("upper", bootstrap, topic_in, topic_out,
                                             os.path.join(work_dir, "%s-checkpoints" % guarantee), log_path, rng,
                                             until=started + seconds, guarantee=guarantee, final_timeout_s=1800)
    elapsed = time.monotonic() - started
    check = check_exactly_once if guarantee == "exactly-once" else check_at_least_once
    result = {"guarantee": guarantee, "seed": seed, "records": records, "kills": killed,
              "most_batches_in_a_restored_checkpoint": resumed_batches, "elapsed_s": round(elapsed, 1),
              "job_log": log_path}
    result.update(check(bootstrap, topic_out, inputs))
    print("%s: %s" % (guarantee, json.dumps(result)), flush=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="time spent killing, over all guarantees")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--guarantee", choices=GUARANTEES + ("both",), default="both")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    guarantees = GUARANTEES if args.guarantee == "both" else (args.guarantee,)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    results_dir = os.path.join(HERE, "results")
    os.makedirs(results_dir, exist_ok=True)
    work_dir = tempfile.mkdtemp(prefix="soak-%s-" % stamp, dir=results_dir)
    broker = None
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    if not bootstrap:
        broker = TansuBroker().start(os.path.join(work_dir, "broker.log"))
        bootstrap = broker.bootstrap_servers
    try:
        results = [soak(bootstrap, guarantee, args.records, args.minutes * 60 / len(guarantees), args.seed + i,
                        work_dir)
                   for i, guarantee in enumerate(guarantees)]
    finally:
        if broker is not None:
            broker.stop()
    path = os.path.join(results_dir, "%s-soak.json" % stamp)
    with open(path, "w") as f:
        json.dump({"timestamp": stamp, "bootstrap": "own Tansu" if broker else bootstrap, "results": results},
                  f, indent=2)
    for r in results:
        print("%-14s %s  kills %d in %.0f s, seed %d, %s" % (
            r["guarantee"], "ok" if r["ok"] else "FAILED", r["kills"], r["elapsed_s"], r["seed"],
            ", ".join("%s %s" % (k, r[k]) for k in ("missing", "repeated") if k in r)))
    print("result: %s" % os.path.relpath(path, REPO))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

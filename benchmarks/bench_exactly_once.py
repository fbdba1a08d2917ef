"""Fault-tolerance benchmark: the foundation job with EXACTLY_ONCE against AT_LEAST_ONCE, in the same run.

    /work/venv/bin/python benchmarks/bench_exactly_once.py [--records N] [--latency-records N] [--latency-rate R]

1. Rate: N records (default 1M, 100 B) in a 2-partition topic, read by a bounded job
   (``benchmarks/exactly_once_job.py``, checkpointing on), upper-cased and written with AT_LEAST_ONCE, then
   with EXACTLY_ONCE; each run measured as bench_upper.py measures its runs (end to end, steady rate, memory,
   output check). Target: EXACTLY_ONCE at >= 0.7x the AT_LEAST_ONCE rate.
2. Visibility delay: an unbounded job with the default trigger runs; records are produced at a steady rate
   (default 2,000/s for 30 s), each carrying its send time; a ``read_committed`` consumer notes when each
   becomes visible in the output. Delay = visible - sent; p50, p95, p99, max. Target: p50 <= 2 s with
   EXACTLY_ONCE.

Starts its own Tansu broker (or uses KAFKA_BOOTSTRAP_SERVERS). Results: benchmarks/results/<stamp>-exactly-once.json.
(Tansu does not expire or hide aborted transactions, see /work/notes/kafka_transactions_spike.md; a clean
run aborts none.)
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)

HERE = bench_upper.HERE
REPO = bench_upper.REPO
JOB = os.path.join(HERE, "exactly_once_job.py")
GUARANTEES = ("at-least-once", "exactly-once")
TARGETS = {"rate_ratio": 0.7, "visibility_p50_s": 2.0}


def _job_command(bootstrap, topic_in, topic_out, guarantee, bounded, checkpoint_dir):
    return [sys.executable, "-m", "pyflink_compat", "run", "-Dexecution.checkpointing.dir=%s" % checkpoint_dir,
            JOB, bootstrap, topic_in, topic_out, guarantee, bounded]


class VisibilityWatcher(threading.Thread):
    """A read_committed consumer of the output: when each record ("T<send ms> ...") became visible."""

    def __init__(self, bootstrap, topic):
        super().__init__(daemon=True)
        self.bootstrap, self.topic = bootstrap, topic
        self.delays_s = []
        self.count = 0
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self.error = None

    def run(self):
        from kafka import KafkaConsumer, TopicPartition
        try:
            consumer = KafkaConsumer(bootstrap_servers=self.bootstrap, isolation_level="read_committed",
                                     enable_auto_commit=False, fetch_max_wait_ms=10)
            partitions = [TopicPartition(self.topic, p) for p in range(bench_upper.PARTITIONS)]
            consumer.assign(partitions)
            consumer.seek_to_beginning(*partitions)
            self.ready.set()
            while not self.stopping.is_set():
                for records in consumer.poll(timeout_ms=100).values():
                    now_ms = time.time() * 1000.0
                    for record in records:
                        sent_ms = int(record.value.split(b" ", 1)[0][1:])
                        self.delays_s.append((now_ms - sent_ms) / 1000.0)
                    self.count += len(records)
            consumer.close()
        except Exception as e:                     # reported in the results
            self.error = repr(e)
            self.ready.set()


def _produce_at_rate(bootstrap, topic, records, rate):
    """Send ``records`` values "t<send ms> <index> ..." spread evenly over records / rate seconds."""
    from kafka import KafkaProducer
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
    started = time.monotonic()
    try:
        for index in range(records):
            due = started + index / rate
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            value = ("t%d %010d %s" % (int(time.time() * 1000), index, "x" * 60)).encode()
            if index >= records - bench_upper.PARTITIONS:
                # Each partition's last record alone and acknowledged: Tansu's end offsets are exact only
                # then (test-broker.md), and the job reads up to the end offsets it is told.
                producer.flush(timeout=60)
                producer.send(topic, value, partition=index % bench_upper.PARTITIONS).get(timeout=60)
                continue
            producer.send(topic, value, partition=index % bench_upper.PARTITIONS)
        producer.flush(timeout=60)
    finally:
        producer.close()
    return time.monotonic() - started


def _percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else None


def visibility_run(bootstrap, guarantee, records, rate, log_path, checkpoint_dir):
    suffix = uuid.uuid4().hex[:8]
    topic_in, topic_out = "bench-vis-in-%s" % suffix, "bench-vis-out-%s" % suffix
    bench_upper.create_topics(bootstrap, [topic_in, topic_out], bench_upper.PARTITIONS)
    watcher = VisibilityWatcher(bootstrap, topic_out)
    watcher.start()
    watcher.ready.wait(30)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with open(log_path, "wb") as log:
        process = subprocess.Popen(_job_command(bootstrap, topic_in, topic_out, guarantee, "unbounded",
                                                checkpoint_dir),
                                   env=env, stdout=log, stderr=subprocess.STDOUT, cwd=REPO, start_new_session=True)
        try:
            # Wait until the job writes (a first record goes through), so start-up is not counted as delay.
            _produce_at_rate(bootstrap, topic_in, 1, 1.0)
            deadline = time.monotonic() + 120
            while watcher.count < 1 and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.2)
            if watcher.count < 1:
                raise RuntimeError("the %s job wrote nothing within 120 s (see %s)" % (guarantee, log_path))
            watcher.delays_s.clear()
            produce_s = _produce_at_rate(bootstrap, topic_in, records, rate)
            deadline = time.monotonic() + 60
            while watcher.count < records + 1 and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
    watcher.stopping.set()
    watcher.join(10)
    delays = watcher.delays_s
    # What the output log holds, committed or not (tests/transaction_log_reader.py reads the markers).
    sys.path.insert(0, os.path.join(REPO, "tests"))
    from transaction_log_reader import read_committed
    committed, aborted = read_committed(bootstrap, topic_out, timeout_s=60)
    log_summary = {"records_in_log": bench_upper.end_offsets(bootstrap, topic_out), "committed": len(committed),
                   "aborted": aborted}
    return {"guarantee": guarantee, "records": records, "rate_per_s": rate, "produce_s": round(produce_s, 1),
            "visible": len(delays), "complete": len(delays) == records,
            "p50_s": _round(_percentile(delays, 0.5)), "p95_s": _round(_percentile(delays, 0.95)),
            "p99_s": _round(_percentile(delays, 0.99)), "max_s": _round(max(delays) if delays else None),
            "mean_s": _round(statistics.mean(delays) if delays else None), "watcher_error": watcher.error,
            "output_log": log_summary,
            "log": os.path.relpath(log_path, REPO)}


def _round(value):
    return None if value is None else round(value, 3)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--latency-records", type=int, default=60_000)
    parser.add_argument("--latency-rate", type=float, default=2_000.0)
    parser.add_argument("--skip-rate", action="store_true")
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args(argv)
    records = args.records
    os.makedirs(bench_upper.RESULTS, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    result = {"benchmark": "exactly-once", "timestamp": stamp, "records": records,
              "partitions": bench_upper.PARTITIONS, "cpus": os.cpu_count(), "versions": bench_upper.versions(),
              "targets": TARGETS, "rate_runs": [], "visibility": []}
    broker = None
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    checkpoint_dir = os.path.join(bench_upper.RESULTS, "%s-checkpoints" % stamp)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYFLINK_COMPAT_LOG_LEVEL=os.environ.get("PYFLINK_COMPAT_LOG_LEVEL", "INFO"))
    try:
        if not bootstrap:
            broker = bench_upper.load_test_broker()().start()
            bootstrap = broker.bootstrap_servers
        result["jvm_class_archive"] = bench_upper.ensure_jvm_class_archive(env, record=True)
        result["bytecode"] = bench_upper.ensure_bytecode()
        if not args.skip_rate:
            suffix = uuid.uuid4().hex[:8]
            topic_in = "bench-eo-in-%s" % suffix
            outputs = {g: "bench-eo-out-%s-%s" % (g, suffix) for g in GUARANTEES}
            bench_upper.create_topics(bootstrap, [topic_in] + list(outputs.values()), bench_upper.PARTITIONS)
            print("producing %s records ..." % format(records, ","), flush=True)
            bench_upper.produce_input(bootstrap, topic_in, records, 100)
            for guarantee in GUARANTEES:
                print("running %s (bounded) ..." % guarantee, flush=True)
                log_path = os.path.join(bench_upper.RESULTS, "%s-eo-rate-%s.log" % (stamp, guarantee))
                run = bench_upper.measured_run(
                    guarantee, _job_command(bootstrap, topic_in, outputs[guarantee], guarantee, "bounded",
                                            checkpoint_dir),
                    env, bootstrap, outputs[guarantee], records, 100, 180.0 + records / 1000.0, log_path,
                    own_pids=[broker.process.pid] if broker is not None else [], watch="offsets")
                run.pop("arrivals", None)
                result["rate_runs"].append(run)
                print("  %s: ok=%s end to end %.1f s (%.0f rec/s), steady %s rec/s, peak RSS %.0f MiB"
                      % (guarantee, run["ok"], run["end_to_end_s"], run["end_to_end_records_per_s"],
                         run["steady_records_per_s"], run["peak_rss_mib"]), flush=True)
        if not args.skip_latency:
            for guarantee in GUARANTEES:
                print("visibility delay, %s: %d records at %.0f/s ..."
                      % (guarantee, args.latency_records, args.latency_rate), flush=True)
                log_path = os.path.join(bench_upper.RESULTS, "%s-eo-visibility-%s.log" % (stamp, guarantee))
                vis = visibility_run(bootstrap, guarantee, args.latency_records, args.latency_rate, log_path,
                                     checkpoint_dir)
                result["visibility"].append(vis)
                print("  %s: %d of %d visible; delay p50 %s s, p95 %s s, p99 %s s, max %s s; output log %s"
                      % (guarantee, vis["visible"], vis["records"], vis["p50_s"], vis["p95_s"], vis["p99_s"],
                         vis["max_s"], vis["output_log"]), flush=True)
    finally:
        if broker is not None:
            broker.stop()
        verdict = {}
        rates = {r["name"]: r for r in result["rate_runs"]}
        if len(rates) == 2:
            ratio = (rates["exactly-once"]["end_to_end_records_per_s"]
                     / rates["at-least-once"]["end_to_end_records_per_s"])
            steady = [rates[g]["steady_records_per_s"] for g in GUARANTEES]
            verdict["rate_ratio_end_to_end"] = {"value": round(ratio, 3), "target": TARGETS["rate_ratio"],
                                                "met": ratio >= TARGETS["rate_ratio"]}
            if all(steady):
                verdict["rate_ratio_steady"] = {"value": round(steady[1] / steady[0], 3)}
        for vis in result["visibility"]:
            if vis["guarantee"] == "exactly-once" and vis["p50_s"] is not None:
                verdict["visibility_p50_s"] = {"value": vis["p50_s"], "target": TARGETS["visibility_p50_s"],
                                               "met": vis["p50_s"] <= TARGETS["visibility_p50_s"] and vis["complete"]}
        result["verdict"] = verdict
        path = os.path.join(bench_upper.RESULTS, "%s-exactly-once.json" % stamp)
        with open(path, "w") as f:
            json.dump(result, f, indent=1)
    print("verdict: %s" % json.dumps(verdict))
    print("result: %s" % os.path.relpath(path, REPO))
    ok = all(r["ok"] for r in result["rate_runs"]) and all(v["complete"] for v in result["visibility"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

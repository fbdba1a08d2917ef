"""Formats benchmark: N JSON rows of 5 fields, 2-partition topic -> filter on a field -> JSON -> Kafka, bounded.

    /work/venv/bin/python benchmarks/bench_json.py [--records N]
    PYFLINK_ORACLE_PYTHON=~/.cache/pyflink-compat/oracle-apache-flink-2.3.0/bin/python benchmarks/bench_json.py

Runs ``benchmarks/json_job.py`` on pyflink-compat and, when PYFLINK_ORACLE_PYTHON is set, on real PyFlink,
one after the other, each measured as ``bench_upper.py`` measures its runs (same process-tree sampling,
side consumer, output check): the output must hold exactly the rows with ``active`` true (even ids), each
once, with the JSON text the job's serializer writes. Target: pyflink-compat ≥ 3× real PyFlink's rate.
"""
import argparse
import json
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)

HERE = bench_upper.HERE
JOB = os.path.join(HERE, "json_job.py")
CITIES = ["Berlin", "Lisbon", "Osaka", "Quito", "Accra"]


def order_json(index: int) -> bytes:
    """Input row ``index``: active for even ids (the filter keeps those)."""
    return json.dumps({"id": index, "name": "customer-%07d" % index, "amount": index * 0.25,
                       "active": index % 2 == 0, "city": CITIES[index % len(CITIES)]},
                      separators=(",", ":")).encode()


def expected_output(index: int) -> bytes:
    """What Flink's JsonRowSerializationSchema writes for it: compact, field order, Java's double text."""
    amount = index * 0.25
    text = repr(amount) if 1e-3 <= abs(amount) < 1e7 or amount == 0 else None
    if text is None:                                   # Java's Double.toString uses E notation here
        mantissa, exponent = ("%.17g" % amount).split("e") if "e" in "%.17g" % amount else (repr(amount), "0")
        text = "%sE%d" % (repr(float(mantissa)), int(exponent))
    return ('{"id":%d,"name":"customer-%07d","amount":%s,"active":true,"city":"%s"}'
            % (index, index, text, CITIES[index % len(CITIES)])).encode()


class JsonOutputWatcher(bench_upper.OutputWatcher):
    """Checks output rows: slot ``id // 2`` for each kept (even) id, value exactly as expected."""

    def _check(self, records):
        for record in records:
            value = record.value
            try:
                index = json.loads(value)["id"]
            except (TypeError, ValueError, KeyError):
                index = -1
            slot = index // 2 if isinstance(index, int) and index >= 0 and index % 2 == 0 else -1
            if 0 <= slot < self.expected and value == expected_output(index):
                if self.seen[slot]:
                    self.duplicates += 1
                else:
                    self.seen[slot] = 1
            else:
                self.bad += 1
                if len(self.bad_examples) < 3:
                    self.bad_examples.append(repr(value[:80]))
        self.count += len(records)


def produce_input(bootstrap, topic, records):
    from kafka import KafkaProducer
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=20, batch_size=512 * 1024)
    started = time.monotonic()
    try:
        for partition in range(bench_upper.PARTITIONS):
            indexes = list(range(partition, records, bench_upper.PARTITIONS))
            for index in indexes[:-1]:
                producer.send(topic, order_json(index), partition=partition)
            producer.flush(timeout=120)
            # The last record alone (Tansu's end offsets are exact only then: test-broker.md).
            producer.send(topic, order_json(indexes[-1]), partition=partition).get(timeout=60)
    finally:
        producer.close()
    return time.monotonic() - started


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--watch", choices=("consumer", "offsets"), default="consumer")
    parser.add_argument("--timeout", type=float, default=None)
    args = parser.parse_args(argv)
    records = args.records
    kept = (records + 1) // 2
    timeout_s = args.timeout or 180.0 + records / 1000.0
    bench_upper.OutputWatcher = JsonOutputWatcher          # measured_run and recheck_output use it
    os.makedirs(bench_upper.RESULTS, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    broker = None
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    runs = []
    result = {"benchmark": "json", "timestamp": stamp, "records": records, "kept": kept,
              "partitions": bench_upper.PARTITIONS, "cpus": os.cpu_count(), "versions": bench_upper.versions()}
    try:
        if not bootstrap:
            broker = bench_upper.load_test_broker()().start()
            bootstrap = broker.bootstrap_servers
        suffix = uuid.uuid4().hex[:8]
        topics = {k: "bench-json-%s-%s" % (k, suffix) for k in ("in", "out-compat", "out-oracle")}
        bench_upper.create_topics(bootstrap, list(topics.values()), bench_upper.PARTITIONS)
        print("producing %s JSON rows to %s ..." % (format(records, ","), topics["in"]), flush=True)
        result["produce_s"] = round(produce_input(bootstrap, topics["in"], records), 1)
        end = bench_upper.end_offsets(bootstrap, topics["in"])
        if end != records:
            raise RuntimeError("input end offsets sum to %d, expected %d" % (end, records))
        env = dict(os.environ)
        env["PYTHONPATH"] = bench_upper.REPO + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        result["jvm_class_archive"] = bench_upper.ensure_jvm_class_archive(env, record=True)
        compat_env = dict(env)
        # Timestamps of the job's phases (session started, query running) in its log; driver only.
        compat_env.setdefault("PYFLINK_COMPAT_LOG_LEVEL", "INFO")
        plans = [("pyflink-compat", [sys.executable, "-m", "pyflink_compat", "run", JOB, bootstrap, topics["in"],
                                     topics["out-compat"]], compat_env, topics["out-compat"])]
        oracle = os.environ.get("PYFLINK_ORACLE_PYTHON")
        if oracle:
            oracle_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            # PyFlink starts its Python workers as 'python' from PATH: the oracle's own first.
            oracle_env["PATH"] = os.path.dirname(oracle) + os.pathsep + oracle_env.get("PATH", "")
            plans.append(("real PyFlink", [oracle, JOB, bootstrap, topics["in"], topics["out-oracle"]], oracle_env,
                          topics["out-oracle"]))
        for name, command, run_env, out_topic in plans:
            print("running %s ..." % name, flush=True)
            log_path = os.path.join(bench_upper.RESULTS, "%s-json-%s.log" % (stamp, name.replace(" ", "-")))
            run = bench_upper.measured_run(name, command, run_env, bootstrap, out_topic, kept, 0, timeout_s,
                                           log_path, own_pids=[broker.process.pid] if broker else [],
                                           watch=args.watch)
            runs.append(run)
            print("  %s: %.1f s end to end, output %s" % (name, run["end_to_end_s"],
                                                          "ok" if run["output_ok"] else run["output"]), flush=True)
            if not run["ok"] and run.get("log_tail"):
                print("    " + "\n    ".join(run["log_tail"]), flush=True)
        if not oracle:
            runs.append({"name": "real PyFlink", "skipped": "not installed (set PYFLINK_ORACLE_PYTHON)"})
    finally:
        if broker is not None:
            broker.stop()
        result["runs"] = runs
        by_name = {r["name"]: r for r in runs if not r.get("skipped")}
        compat, real = by_name.get("pyflink-compat"), by_name.get("real PyFlink")
        if compat and real:
            result["verdict"] = {
                "end_to_end_ratio": round(compat["end_to_end_records_per_s"] / real["end_to_end_records_per_s"], 2),
                "steady_ratio": (round(compat["steady_records_per_s"] / real["steady_records_per_s"], 2)
                                 if compat["steady_records_per_s"] and real["steady_records_per_s"] else None),
                "target": 3.0}
        path = os.path.join(bench_upper.RESULTS, "%s-json.json" % stamp)
        with open(path, "w") as f:
            json.dump(result, f, indent=1)
    print()
    print("%s JSON rows (5 fields), %d partitions -> filter(active) -> JSON -> Kafka, bounded, AT_LEAST_ONCE; "
          "%s rows out" % (format(records, ","), bench_upper.PARTITIONS, format(kept, ",")))
    print("(rates below are input rows per second: records / time)")
    for r in runs:
        if r.get("skipped"):
            print("%s: %s" % (r["name"], r["skipped"]))
            continue
        print("%-15s ok=%s  end-to-end %.1f s (%s in rows/s)  first out %s s  steady %s out rows/s  "
              "peak RSS %s MiB  CPU %.1f s" % (
                  r["name"], r["ok"], r["end_to_end_s"], format(round(records / r["end_to_end_s"]), ","),
                  bench_upper.fmt(r["first_output_s"], "{:.1f}"), bench_upper.fmt(r["steady_records_per_s"]),
                  bench_upper.fmt(r["peak_rss_mib"]), r["cpu_s"]))
    if result.get("verdict"):
        print("verdict: %s" % result["verdict"])
    print("result: %s" % os.path.relpath(path, bench_upper.REPO))
    return 0 if runs and all(r.get("ok", True) for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())

"""What bench_json.py and bench_windows.py share: start a broker, produce the input, run one job file on
pyflink-compat and (when PYFLINK_ORACLE_PYTHON is set) on real PyFlink, one after the other, each measured
as bench_upper.py measures its runs, and write the results.
"""
import json
import os
import sys
import time
import uuid
from typing import Callable, Optional

import bench_upper


def produce_indexed(bootstrap: str, topic: str, records: int, value_of: Callable[[int], bytes]) -> float:
    """Write ``value_of(i)`` for i in 0..records-1 to the topic, index i to partition i % PARTITIONS, each
    partition's last record alone and acknowledged (Tansu's end offsets are exact only then: test-broker.md).
    Returns the seconds it took."""
    from kafka import KafkaProducer
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=20, batch_size=512 * 1024)
    started = time.monotonic()
    try:
        for partition in range(bench_upper.PARTITIONS):
            indexes = list(range(partition, records, bench_upper.PARTITIONS))
            for index in indexes[:-1]:
                producer.send(topic, value_of(index), partition=partition)
            producer.flush(timeout=120)
            producer.send(topic, value_of(indexes[-1]), partition=partition).get(timeout=60)
    finally:
        producer.close()
    return time.monotonic() - started


def run_comparison(benchmark: str, job: str, records: int, expected_out: int, produce: Callable[[str, str], None],
                   watcher_class, watch: str, timeout_s: float, target: float, job_args=(),
                   describe: Optional[Callable[[dict], None]] = None, compat_variants=()) -> int:
    """Produce ``records`` input records with ``produce(bootstrap, topic)``, run ``job`` (arguments:
    BOOTSTRAP INPUT OUTPUT *job_args) on both engines, check ``expected_out`` outputs with ``watcher_class``
    (a bench_upper.OutputWatcher), print the table and write ``results/<stamp>-<benchmark>.json``.
    ``compat_variants``: further pyflink-compat runs, (name, [run options such as -Dkey=value]), each with its own
    output topic."""
    bench_upper.OutputWatcher = watcher_class              # measured_run and recheck_output use it
    os.makedirs(bench_upper.RESULTS, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    broker = None
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    runs = []
    result = {"benchmark": benchmark, "timestamp": stamp, "records": records, "expected_out": expected_out,
              "partitions": bench_upper.PARTITIONS, "cpus": os.cpu_count(), "versions": bench_upper.versions()}
    path = os.path.join(bench_upper.RESULTS, "%s-%s.json" % (stamp, benchmark))
    try:
        if not bootstrap:
            broker = bench_upper.load_test_broker()().start()
            bootstrap = broker.bootstrap_servers
        suffix = uuid.uuid4().hex[:8]
        topics = {k: "bench-%s-%s-%s" % (benchmark, k, suffix) for k in ("in", "out-compat", "out-oracle")}
        for number, _ in enumerate(compat_variants):
            topics["out-variant-%d" % number] = "bench-%s-out-variant-%d-%s" % (benchmark, number, suffix)
        bench_upper.create_topics(bootstrap, list(topics.values()), bench_upper.PARTITIONS)
        print("producing %s records to %s ..." % (format(records, ","), topics["in"]), flush=True)
        started = time.monotonic()
        produce(bootstrap, topics["in"])
        result["produce_s"] = round(time.monotonic() - started, 1)
        end = bench_upper.end_offsets(bootstrap, topics["in"])
        if end != records:
            raise RuntimeError("input end offsets sum to %d, expected %d" % (end, records))
        env = dict(os.environ)
        env["PYTHONPATH"] = bench_upper.REPO + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        result["jvm_class_archive"] = bench_upper.ensure_jvm_class_archive(env, record=True)
        result["bytecode"] = bench_upper.ensure_bytecode()
        compat_env = dict(env)
        # Timestamps of the job's phases (session started, query running) in its log; driver only.
        compat_env.setdefault("PYFLINK_COMPAT_LOG_LEVEL", "INFO")
        args = [str(a) for a in job_args]
        plans = [("pyflink-compat", [sys.executable, "-m", "pyflink_compat", "run", job, bootstrap, topics["in"],
                                     topics["out-compat"]] + args, compat_env, topics["out-compat"])]
        for number, (name, options) in enumerate(compat_variants):
            out = topics["out-variant-%d" % number]
            plans.append((name, [sys.executable, "-m", "pyflink_compat", "run", *options, job, bootstrap, topics["in"],
                                 out] + args, compat_env, out))
        oracle = os.environ.get("PYFLINK_ORACLE_PYTHON")
        if oracle:
            oracle_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            # PyFlink starts its Python workers as 'python' from PATH: the oracle's own first.
            oracle_env["PATH"] = os.path.dirname(oracle) + os.pathsep + oracle_env.get("PATH", "")
            plans.append(("real PyFlink", [oracle, job, bootstrap, topics["in"], topics["out-oracle"]] + args,
                          oracle_env, topics["out-oracle"]))
        for name, command, run_env, out_topic in plans:
            print("running %s ..." % name, flush=True)
            log_path = os.path.join(bench_upper.RESULTS, "%s-%s-%s.log" % (stamp, benchmark, name.replace(" ", "-")))
            run = bench_upper.measured_run(name, command, run_env, bootstrap, out_topic, expected_out, 0, timeout_s,
                                           log_path, own_pids=[broker.process.pid] if broker else [], watch=watch)
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
                "end_to_end_ratio": round(real["end_to_end_s"] / compat["end_to_end_s"], 2),
                "steady_ratio": (round(compat["steady_records_per_s"] / real["steady_records_per_s"], 2)
                                 if compat["steady_records_per_s"] and real["steady_records_per_s"] else None),
                "peak_rss_ratio": (round(compat["peak_rss_mib"] / real["peak_rss_mib"], 2)
                                   if compat.get("peak_rss_mib") and real.get("peak_rss_mib") else None),
                "target": target}
        for name, _ in compat_variants:
            variant = by_name.get(name)
            if compat and variant:
                result.setdefault("verdict", {})["%s / pyflink-compat end to end" % name] = round(
                    variant["end_to_end_s"] / compat["end_to_end_s"], 2)
        with open(path, "w") as f:
            json.dump(result, f, indent=1)
    print()
    if describe is not None:
        describe(result)
    print("(rates below are input records per second: records / time)")
    for r in runs:
        if r.get("skipped"):
            print("%s: %s" % (r["name"], r["skipped"]))
            continue
        print("%-15s ok=%s  end-to-end %.1f s (%s in records/s)  first out %s s  steady %s out records/s  "
              "peak RSS %s MiB  CPU %.1f s" % (
                  r["name"], r["ok"], r["end_to_end_s"], format(round(records / r["end_to_end_s"]), ","),
                  bench_upper.fmt(r["first_output_s"], "{:.1f}"), bench_upper.fmt(r["steady_records_per_s"]),
                  bench_upper.fmt(r["peak_rss_mib"]), r["cpu_s"]))
    if result.get("verdict"):
        print("verdict: %s" % result["verdict"])
    print("result: %s" % os.path.relpath(path, bench_upper.REPO))
    return 0 if runs and all(r.get("ok", True) for r in runs) else 1

"""Per-statement cost of a SQL script: ``sql_statements_job.py`` (a filter, a GROUP BY, a collected GROUP BY and a
self join over a small bounded Kafka table, each its own job, ROUNDS times) as a user runs it, in a fresh process:

    /work/venv/bin/python benchmarks/bench_sql_statements.py [--rounds 3] [--records 20]
    PYFLINK_ORACLE_PYTHON=~/.cache/pyflink-compat/oracle-apache-flink-2.3.0/bin/python benchmarks/bench_sql_statements.py

Runs pyflink-compat (default settings), pyflink-compat with ``-D pyflink-compat.python.fork-server=false``, with
Spark's own local file system and checkpoint manager (``SPARKS_LOCAL_CHECKPOINTS``), and,
when PYFLINK_ORACLE_PYTHON is set, real PyFlink, one after the other. For each: the whole run's seconds, each kind
of statement's median seconds (the job measures them), CPU seconds and peak RSS of the process tree
(``bench_upper.TreeSampler``). The collected GROUP BY must give the same rows on every engine.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)

JOB = os.path.join(bench_upper.HERE, "sql_statements_job.py")
KINDS = ("filter", "group-by", "collect", "join")
# Spark's own local file system and checkpoint manager (a chmod / readlink process per checkpoint file) in place of
# what local mode uses by default (third_party_patches.local_checkpoint_settings)
SPARKS_LOCAL_CHECKPOINTS = [
    "-Dspark.hadoop.fs.file.impl=org.apache.hadoop.fs.LocalFileSystem",
    "-Dspark.sql.streaming.checkpointFileManagerClass="
    "org.apache.spark.sql.execution.streaming.checkpointing.FileContextBasedCheckpointFileManager"]


def run(name, command, env, timeout_s):
    result = {"name": name, "command": command}
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=bench_upper.REPO, start_new_session=True)
    sampler = bench_upper.TreeSampler(process.pid)
    outputs = []

    def drain():
        outputs.append(process.communicate())

    import threading
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    while process.poll() is None and time.monotonic() - started < timeout_s:
        sampler.sample()
        time.sleep(0.1)
    if process.poll() is None:
        bench_upper._kill_group(process)
        result["timed_out"] = True
    reader.join(30)
    stdout, stderr = outputs[0] if outputs else (b"", b"")
    result["seconds"] = round(time.monotonic() - started, 1)
    result["exit_code"] = process.returncode
    result["cpu_s"] = round(sampler.cpu_seconds(), 1)
    result["peak_rss_mib"] = round(sampler.peak_rss_kib / 1024.0, 1)
    times = {}
    for line in stderr.decode(errors="replace").splitlines():
        if line.startswith("statement-seconds "):
            _, kind, seconds = line.split()
            times.setdefault(kind, []).append(float(seconds))
    result["median_s"] = {kind: round(statistics.median(values), 2) for kind, values in times.items()}
    result["statements"] = sum(len(values) for values in times.values())
    result["collected"] = sorted({line for line in stdout.decode(errors="replace").splitlines()
                                  if line.startswith("collected ")})
    if process.returncode != 0:
        result["stderr_tail"] = stderr.decode(errors="replace")[-2000:]
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--records", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args(argv)
    os.makedirs(bench_upper.RESULTS, exist_ok=True)
    broker = bench_upper.load_test_broker()().start(log_path=os.path.join(bench_upper.RESULTS, "tansu.log"))
    runs = []
    try:
        bootstrap = broker.bootstrap_servers
        topic = "bench-sql-statements-%s" % os.urandom(4).hex()
        bench_upper.create_topics(bootstrap, [topic], 1)
        from kafka import KafkaProducer
        producer = KafkaProducer(bootstrap_servers=bootstrap)
        for i in range(args.records):
            producer.send(topic, json.dumps({"id": i, "customer": "c%d" % (i % 5), "amount": i * 1.5}).encode()
                          ).get(timeout=30)
        producer.close()
        ours = [sys.executable, "-m", "pyflink_compat", "run"]
        env = dict(os.environ, PYTHONPATH=bench_upper.REPO, TZ="UTC")
        job_args = [JOB, bootstrap, topic, str(args.rounds)]
        runs.append(run("pyflink-compat", ours + job_args, env, args.timeout))
        runs.append(run("pyflink-compat, no fork server",
                        ours + ["-Dpyflink-compat.python.fork-server=false"] + job_args, env, args.timeout))
        runs.append(run("pyflink-compat, Spark's local fs", ours + SPARKS_LOCAL_CHECKPOINTS + job_args, env,
                        args.timeout))
        oracle = os.environ.get("PYFLINK_ORACLE_PYTHON")
        if oracle:
            oracle_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            oracle_env.update(PATH=os.path.dirname(oracle) + os.pathsep + oracle_env.get("PATH", ""),
                              VIRTUAL_ENV=os.path.dirname(os.path.dirname(oracle)), TZ="UTC")
            runs.append(run("real PyFlink", [oracle] + job_args, oracle_env, args.timeout))
        else:
            runs.append({"name": "real PyFlink", "skipped": "not installed (set PYFLINK_ORACLE_PYTHON)"})
    finally:
        broker.stop()
    measured = [r for r in runs if "skipped" not in r]
    agree = len({tuple(r["collected"]) for r in measured}) == 1 and all(r["collected"] for r in measured)
    print("%-32s %5s %9s %7s %9s  %s" % ("run", "exit", "seconds", "CPU s", "RSS MiB",
                                         "  ".join("%s s" % kind for kind in KINDS)))
    for r in runs:
        if "skipped" in r:
            print("%-32s skipped: %s" % (r["name"], r["skipped"]))
            continue
        print("%-32s %5s %9.1f %7.1f %9.0f  %s" % (r["name"], r["exit_code"], r["seconds"], r["cpu_s"],
                                                   r["peak_rss_mib"], "  ".join(
                                                       "%*s" % (len(kind) + 2, r["median_s"].get(kind, "—"))
                                                       for kind in KINDS)))
    print("collected rows equal on every run: %s" % agree)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    with open(os.path.join(bench_upper.RESULTS, "%s-sql-statements.json" % stamp), "w") as f:
        json.dump({"benchmark": "sql-statements", "rounds": args.rounds, "records": args.records,
                   "runs": runs, "collected_equal": agree}, f, indent=2)
    return 0 if agree and all(r.get("exit_code") == 0 for r in measured) else 1


if __name__ == "__main__":
    sys.exit(main())

"""The runner: unchanged PyFlink job files through ``pyflink-compat run``, locally and on a Spark cluster."""
import os
import re
import subprocess
import sys
import time

import pytest

from broker import free_port, wait_for_port
from kafka_helpers import consume, create_topic, produce, unique_topic, values

pytestmark = pytest.mark.integration

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOBS = os.path.join(REPO, "tests", "jobs")
UPPER_JOB = os.path.join(REPO, "pyflink_compat", "demo", "upper_job.py")


def run_cli(*args, extra_env=None, timeout=300, cwd=REPO):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "-m", "pyflink_compat", "run", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=cwd)


def test_unchanged_job_file_runs_through_the_cli_with_args_parallelism_and_settings():
    result = run_cli("-p", "1", "-D", "my.setting=42", "-Dspark.sql.shuffle.partitions=1",
                     os.path.join(JOBS, "print_job.py"), "hello", "a", "spark")
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert "ARGS ['hello', 'a', 'spark']" in lines
    assert "PARALLELISM 1" in lines
    assert "CONFIG 42" in lines
    assert "SAME CLASS pyflink_compat.common.types" in lines
    printed = [line for line in lines if line.startswith("+I[")]
    assert sorted(printed) == ["+I[hello,5]", "+I[spark,5]"]
    # What flink run prints of the job: its JobID when it starts, its result when execute() returns.
    submitted = [line for line in lines if line.startswith("Job has been submitted with JobID ")]
    assert len(submitted) == 1 and re.fullmatch(r"Job has been submitted with JobID [0-9a-f]{32}", submitted[0])
    job_id = submitted[0].rsplit(" ", 1)[1]
    end = lines.index("Program execution finished")
    assert lines[end + 1] == "Job with JobID %s has finished." % job_id
    assert re.fullmatch(r"Job Runtime: \d+ ms", lines[end + 2]) and lines[end + 3] == ""
    assert lines.index(submitted[0]) < min(lines.index(line) for line in printed) < end


def test_cli_reports_usage_errors():
    result = run_cli("--no-such-option", "job.py")
    assert result.returncode == 2
    assert "unknown option --no-such-option" in result.stderr


def test_the_issue_example_job_through_the_cli(bootstrap):
    src, out = create_topic(bootstrap, unique_topic("in")), create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, src, ["x", "", "yz"])
    result = run_cli("-py", UPPER_JOB, bootstrap, src, out)
    assert result.returncode == 0, result.stderr[-3000:]
    assert values(consume(bootstrap, out, 2)) == ["X", "YZ"]


@pytest.fixture(scope="module")
def standalone_cluster(tmp_path_factory):
    """A Spark standalone master and one worker from the installed pyspark: executors in other processes."""
    import pyspark
    spark_class = os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-class")
    logs = tmp_path_factory.mktemp("spark-standalone")
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", SPARK_WORKER_DIR=str(logs / "work"))
    master_port, worker_port = free_port(), free_port()
    processes = []
    try:
        processes.append(subprocess.Popen(
            [spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
             str(master_port), "--webui-port", str(free_port())],
            stdout=open(logs / "master.log", "wb"), stderr=subprocess.STDOUT, env=env, start_new_session=True))
        wait_for_port(master_port, timeout_s=60)
        master_url = "spark://127.0.0.1:%d" % master_port
        processes.append(subprocess.Popen(
            [spark_class, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--port",
             str(worker_port), "--webui-port", str(free_port()), "--cores", "2", "--memory", "2g", master_url],
            stdout=open(logs / "worker.log", "wb"), stderr=subprocess.STDOUT, env=env, start_new_session=True))
        wait_for_port(worker_port, timeout_s=60)
        deadline = time.monotonic() + 60               # the worker registers with the master
        while "Successfully registered with master" not in (logs / "worker.log").read_text(errors="replace"):
            assert time.monotonic() < deadline, (logs / "worker.log").read_text(errors="replace")[-2000:]
            time.sleep(0.5)
        yield master_url, logs
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def test_same_job_runs_on_a_spark_standalone_cluster(bootstrap, standalone_cluster):
    master_url, logs = standalone_cluster
    src, out = create_topic(bootstrap, unique_topic("in"), 2), create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, src, ["c%d" % i for i in range(20)], partition=0)
    produce(bootstrap, src, ["d%d" % i for i in range(20)], partition=1)
    result = run_cli("-D", "spark.master=%s" % master_url, "-D", "spark.driver.host=127.0.0.1",
                     "-D", "spark.driver.bindAddress=127.0.0.1", UPPER_JOB, bootstrap, src, out,
                     extra_env={"SPARK_LOCAL_IP": "127.0.0.1"})
    assert result.returncode == 0, result.stderr[-3000:]
    got = values(consume(bootstrap, out, 40))
    assert sorted(got) == sorted(["C%d" % i for i in range(20)] + ["D%d" % i for i in range(20)])
    # The work ran in executor processes started by the worker, not in the driver.
    executor_logs = list((logs / "work").rglob("stderr"))
    assert executor_logs, "no executor was launched by the standalone worker"


MULTI_MODULE_JOB = os.path.join(REPO, "tests", "side_by_side", "jobs", "multi_module", "job.py")
ORDERS = ["alice,1000,5", "bob,2000,7", "alice,4000,1", "alice,12000,3", "bob,9000,2", "carol,15000,4",
          "bob,21000,6", "alice,19000,8"]
# What the job computes from ORDERS (real PyFlink prints the same: tests/side_by_side, case multi-module-job).
ORDER_WINDOWS = ["alice [0,10000) n=2 sum=6 [1, 5]", "bob [0,10000) n=2 sum=9 [2, 7]",
                 "carol [10000,20000) n=1 sum=4 [4]", "alice [10000,20000) n=2 sum=11 [3, 8]",
                 "bob [20000,30000) n=1 sum=6 [6]"]
ORDER_TOTALS = ["alice total 5 after 1000", "bob total 7 after 2000", "alice total 6 after 4000",
                "alice total 9 after 12000", "bob total 9 after 9000", "carol total 4 after 15000",
                "bob total 15 after 21000", "alice total 17 after 19000"]


def test_a_job_of_several_modules_runs_on_a_spark_standalone_cluster(bootstrap, standalone_cluster, tmp_path):
    """The job's own modules and package (each importing pyflink) reach executors that share no path with
    the job's process: read tasks and keyed subtasks both import them."""
    master_url, _ = standalone_cluster
    src, out = create_topic(bootstrap, unique_topic("mm-in")), create_topic(bootstrap, unique_topic("mm-out"))
    produce(bootstrap, src, ORDERS)
    result = run_cli("-D", "spark.master=%s" % master_url, "-D", "spark.driver.host=127.0.0.1",
                     "-D", "spark.driver.bindAddress=127.0.0.1", MULTI_MODULE_JOB, bootstrap, src, out,
                     extra_env={"SPARK_LOCAL_IP": "127.0.0.1"}, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    assert sorted(values(consume(bootstrap, out, len(ORDER_WINDOWS)))) == sorted(ORDER_WINDOWS)
    lines = [line for line in result.stdout.splitlines() if line.startswith(("window> ", "total> "))]
    assert sorted(lines) == sorted(["window> " + w for w in ORDER_WINDOWS] + ["total> " + t for t in ORDER_TOTALS])


def test_a_job_of_several_modules_runs_from_another_directory(bootstrap, tmp_path):
    src, out = create_topic(bootstrap, unique_topic("mm-in")), create_topic(bootstrap, unique_topic("mm-out"))
    produce(bootstrap, src, ORDERS)
    result = run_cli(MULTI_MODULE_JOB, bootstrap, src, out, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    assert sorted(values(consume(bootstrap, out, len(ORDER_WINDOWS)))) == sorted(ORDER_WINDOWS)


def test_a_job_package_named_kafka_does_not_hide_kafka_python(bootstrap, tmp_path):
    src, out = create_topic(bootstrap, unique_topic("kn-in")), create_topic(bootstrap, unique_topic("kn-out"))
    produce(bootstrap, src, ["a", "bc"])
    result = run_cli(os.path.join(JOBS, "kafka_named_package", "job.py"), bootstrap, src, out, cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    assert values(consume(bootstrap, out, 2)) == ["A!", "BC!"]


def test_the_readme_demo_runs_and_prints_the_job_output():
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, "-m", "pyflink_compat", "demo"], capture_output=True, text=True,
                            timeout=300, env=env, cwd=REPO)
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout.split("Output topic 'demo-output':", 1)[1].split()
    assert output == ["HELLO", "PYFLINK", "ON", "SPARK", "KAFKA", "IN,", "KAFKA", "OUT"]

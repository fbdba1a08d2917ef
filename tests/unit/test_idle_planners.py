"""Which processes count as Spark's idle planning workers (runtime/idle_planners.py)."""
from pyflink_compat import options
from pyflink_compat.runtime import idle_planners

PY = "/venv/bin/python"


def daemon(module):
    return [PY, "-m", "pyspark.daemon", module]


def test_only_forked_workers_of_planning_fork_servers_under_the_root_are_found():
    commands = {
        1: [PY, "job.py"],                                            # the driver (root)
        2: ["java", "-cp", "..."],                                    # its JVM
        10: daemon("pyspark.sql.worker.create_data_source"),          # fork server: kept
        11: daemon("pyspark.sql.worker.create_data_source"),          # forked worker: found
        12: daemon("pyspark.sql.worker.create_data_source"),          # forked worker: found
        20: daemon("pyspark.sql.worker.plan_data_source_read"),
        21: daemon("pyspark.sql.worker.plan_data_source_read"),       # found
        30: daemon("pyspark.worker"),                                 # task workers: never
        31: daemon("pyspark.worker"),
        40: daemon("pyspark.sql.worker.commit_data_source_write"),    # used per micro-batch: never
        41: daemon("pyspark.sql.worker.commit_data_source_write"),
        50: [PY, "-m", "pyspark.sql.streaming.python_streaming_source_runner"],
        99: daemon("pyspark.sql.worker.create_data_source"),          # another process's: not under root
        100: daemon("pyspark.sql.worker.create_data_source"),
    }
    children = {1: [2], 2: [10, 20, 30, 40, 50], 10: [11, 12], 20: [21], 30: [31], 40: [41], 99: [100]}
    found = idle_planners.idle_planning_workers(1, children, commands.get)
    assert sorted(found) == [11, 12, 21]
    # once the queries are planned, before they start: only the workers that created the data sources
    creating = idle_planners.idle_planning_workers(1, children, commands.get, modules=idle_planners.CREATING_MODULES)
    assert sorted(creating) == [11, 12]


def test_processes_gone_while_looking_are_skipped():
    commands = {1: [PY, "job.py"], 10: daemon("pyspark.sql.worker.lookup_data_sources")}
    children = {1: [10], 10: [11]}                                    # 11 exited: no command line
    assert idle_planners.idle_planning_workers(1, children, commands.get) == []


def test_can_be_switched_off():
    assert idle_planners.enabled({})
    assert not idle_planners.enabled({options.RELEASE_PLANNER_WORKERS.key: "false"})
    assert idle_planners.enabled({options.RELEASE_PLANNER_WORKERS.key: "true"})


def test_a_job_with_a_large_bounded_input_ends_them_at_once_others_after_a_while():
    assert idle_planners.release_delay_s(idle_planners.LARGE_INPUT_RECORDS) == 0.0
    assert idle_planners.release_delay_s(10 * idle_planners.LARGE_INPUT_RECORDS) == 0.0
    assert idle_planners.release_delay_s(idle_planners.LARGE_INPUT_RECORDS - 1) == idle_planners.RELEASE_AFTER_S
    assert idle_planners.release_delay_s(0) == idle_planners.RELEASE_AFTER_S
    assert idle_planners.release_delay_s(None) == idle_planners.RELEASE_AFTER_S    # unbounded: not known


def test_a_query_reads_its_sources_sum_only_when_every_source_is_a_bounded_kafka_source():
    from pyflink_compat.runtime.translate import PlannedQuery, QuerySource

    def query(*counts):
        return PlannedQuery("q", None, None, [QuerySource("s%d" % i, None, records_to_read=n)
                                              for i, n in enumerate(counts)])
    assert query(30_000, 25_000).records_to_read == 55_000
    assert query(30_000, None).records_to_read is None
    assert query().records_to_read == 0

"""The job checkpoint directory: where it is, what a restore copies and refuses, what is kept at the end."""
import json
import os

import attrs
import pytest

from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.checkpoint_config import ExternalizedCheckpointRetention
from pyflink_compat.runtime import checkpoints
from pyflink_compat.plan.graph import Node
from pyflink_compat.util.durations import duration_ms
from pyflink_compat.util.exceptions import JavaStyleError


def sink(node_id, uid=None):
    node = Node(kind="kafka_sink", name="Sink", payload=None, output_type=None)
    node.id, node.uid = node_id, uid
    return node


def job(environment, configuration, sinks=()):
    """The environment's job plan with ``configuration`` as its settings."""
    return attrs.evolve(environment._job_plan(sinks), configuration=dict(configuration))


def checkpoint_plan(environment, configuration, job_name, job_id, sinks):
    return checkpoints.plan(job(environment, configuration, sinks), job_name, job_id)


def checkpointing_enabled(environment, configuration):
    return checkpoints.checkpointing_enabled(job(environment, configuration))


def env(interval=None, retention=None):
    environment = StreamExecutionEnvironment.get_execution_environment()
    if interval:
        environment.enable_checkpointing(interval)
    if retention:
        environment.get_checkpoint_config().set_externalized_checkpoint_retention(retention)
    return environment


@pytest.mark.parametrize("text, ms", [("10000", 10000), ("10 s", 10000), ("500ms", 500), ("1min", 60000),
                                      ("2 h", 7200000), ("soon", None)])
def test_flink_durations(text, ms):
    assert duration_ms(text) == ms


def test_checkpointing_is_enabled_by_the_api_or_the_interval_setting():
    assert not checkpointing_enabled(env(), {})
    assert checkpointing_enabled(env(1000), {})
    assert checkpointing_enabled(env(), {"execution.checkpointing.interval": "5 s"})


def test_sink_directories_use_the_uid_when_there_is_one():
    assert checkpoints.sink_directory_name(sink(7)) == "sink-7"
    assert checkpoints.sink_directory_name(sink(7, "orders out/v2")) == "sink-orders_out_v2"


def test_a_checkpointed_job_gets_a_directory_per_job_id_under_the_configured_one(tmp_path):
    plan = checkpoint_plan(env(1000), {"execution.checkpointing.dir": "file://%s" % tmp_path}, "my job", "abc", [])
    assert plan.durable and plan.directory == os.path.join(str(tmp_path), "abc")
    assert json.load(open(os.path.join(plan.directory, "job.json")))["job_name"] == "my job"


def test_the_default_directory_is_per_job_name(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    plan = checkpoint_plan(env(1000), {}, "orders: enrich", "j1", [])
    assert plan.directory == os.path.join(str(tmp_path), "pyflink-compat", "checkpoints", "orders_enrich", "j1")


def test_without_checkpointing_the_directory_is_temporary_and_always_deleted(tmp_path):
    plan = checkpoint_plan(env(), {"execution.checkpointing.dir": str(tmp_path)}, "job", "j1", [])
    assert not plan.directory.startswith(str(tmp_path))
    plan.finish(checkpoints.FAILED)
    assert not os.path.exists(plan.directory)


@pytest.mark.parametrize("retention, outcome, kept", [
    (None, checkpoints.FINISHED, False),
    (None, checkpoints.CANCELED, False),
    (None, checkpoints.FAILED, True),            # no automatic restart yet: -s is how a failed job goes on
    (ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION, checkpoints.CANCELED, False),
    (ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION, checkpoints.CANCELED, True),
    (ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION, checkpoints.FINISHED, True),
])
def test_what_is_kept_when_the_job_ends(tmp_path, retention, outcome, kept):
    plan = checkpoint_plan(env(1000, retention), {"execution.checkpointing.dir": str(tmp_path)}, "job", "j1", [])
    plan.finish(outcome)
    assert os.path.isdir(plan.directory) == kept


def _spark_checkpoint(location, committed, planned):
    """Spark's offset and commit logs: offsets/N for each planned batch, commits/N for committed ones."""
    os.makedirs(os.path.join(location, "offsets"))
    os.makedirs(os.path.join(location, "commits"))
    for batch in range(planned):
        with open(os.path.join(location, "offsets", str(batch)), "w") as f:
            f.write('v1\n{"batchWatermarkMs":0}\n{"t":{"0":%d}}\n' % ((batch + 1) * 10))
    for batch in range(committed):
        with open(os.path.join(location, "commits", str(batch)), "w") as f:
            f.write('v1\n{"nextBatchWatermarkMs":0}\n')


def test_the_last_committed_offsets_are_those_of_the_last_batch_with_a_commit(tmp_path):
    _spark_checkpoint(str(tmp_path / "q"), committed=2, planned=3)
    assert checkpoints.last_committed_offsets(str(tmp_path / "q")) == [{"t": {"0": 20}}]
    assert checkpoints.last_committed_offsets(str(tmp_path / "nothing")) is None


def _finished_job(root, sinks, stop_offsets=None):
    plan = checkpoint_plan(env(1000, ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION),
                            {"execution.checkpointing.dir": str(root)}, "job", "old", sinks)
    for node in sinks:
        _spark_checkpoint(plan.sink_location(node), committed=1, planned=1)
        plan.remember_stop_offsets(node, stop_offsets)
    plan.finish(checkpoints.FINISHED)
    return plan.directory


def test_a_restore_copies_the_sinks_state_and_keeps_the_original_as_it_was(tmp_path):
    old = _finished_job(tmp_path, [sink(3)], {"t": {"0": 50}})
    plan = checkpoint_plan(env(1000), {"execution.checkpointing.dir": str(tmp_path), "execution.savepoint.path": old},
                            "job", "new", [sink(3)])
    assert plan.restored_from == old
    assert checkpoints.last_committed_offsets(plan.sink_location(sink(3))) == [{"t": {"0": 10}}]
    assert plan.restored_stop_offsets(sink(3)) == {"t": {"0": 50}}
    assert os.path.isdir(os.path.join(old, "sink-3", "commits"))


def test_a_restore_refuses_state_the_new_job_cannot_take_unless_allowed(tmp_path):
    old = _finished_job(tmp_path, [sink(3), sink(4)])
    settings = {"execution.checkpointing.dir": str(tmp_path), "execution.savepoint.path": old}
    with pytest.raises(JavaStyleError, match="Cannot map checkpoint/savepoint state for operator sink-4"):
        checkpoint_plan(env(1000), settings, "job", "new", [sink(3)])
    assert not os.path.exists(os.path.join(str(tmp_path), "new"))
    settings["execution.savepoint.ignore-unclaimed-state"] = "true"
    plan = checkpoint_plan(env(1000), settings, "job", "new", [sink(3)])
    assert sorted(os.listdir(plan.directory)) == ["job.json", "sink-3"]


def test_a_restore_from_a_directory_that_is_no_job_checkpoint_fails(tmp_path):
    with pytest.raises(JavaStyleError, match="Cannot find meta data file 'job.json'"):
        checkpoint_plan(env(1000), {"execution.savepoint.path": str(tmp_path)}, "job", "new", [])
    with pytest.raises(JavaStyleError, match="Cannot find checkpoint or savepoint file/directory"):
        checkpoint_plan(env(1000), {"execution.savepoint.path": str(tmp_path / "gone")}, "job", "new", [])


def test_each_route_of_a_sink_behind_a_union_has_its_own_location():
    assert checkpoints.sink_directory_name(sink(3)) == "sink-3"
    assert checkpoints.sink_directory_name(sink(3), 1) == "sink-3-route-1"


def test_a_restore_drops_the_unfinished_log_writes_of_a_killed_run(tmp_path):
    # kill -9 while Spark wrote its first offsets entry leaves only the temporary file: the restored query starts
    # afresh, which Spark refuses in a log directory that is not empty
    location = tmp_path / "sink-3"
    (location / "offsets").mkdir(parents=True)
    (location / "commits").mkdir()
    (location / "offsets" / ".0.2ef77c6c.tmp").write_text("v1")
    (location / "offsets" / "..0.2ef77c6c.tmp.crc").write_text("")
    (location / "offsets" / "0").write_text("v1\n{}\n-")
    (location / "commits" / ".1.a.tmp").write_text("v1")
    (location / "metadata").write_text("{}")
    checkpoints.drop_unfinished_log_writes(str(location))
    assert sorted(os.listdir(location / "offsets")) == ["0"]
    assert os.listdir(location / "commits") == []
    assert (location / "metadata").is_file()


"""Checkpoints and restarts, proven by killing jobs: the job runs in its own process (``pyflink-compat run``),
is killed with SIGKILL (its whole process group: driver, JVM, Python workers) at random points, and is
started again from its checkpoint with ``-s``, as a Flink user resumes a job from a retained checkpoint.

AT_LEAST_ONCE: every input record is in the output. EXACTLY_ONCE: a read_committed reader sees every record
exactly once, in order per partition (read from the log's transaction markers: tests/transaction_log_reader.py).
A keyed running sum: every output is one of the key's true running sums and each of them appears, so state
was restored, never lost or counted twice.
"""
import collections
import os
import random
import time

import pytest

from job_processes import run_with_kills, start_checkpointed_job as _start, tail as _tail, two_partition_input
from kafka_helpers import consume, create_topic, produce, unique_topic, values
from transaction_log_reader import read_committed

pytestmark = pytest.mark.integration

# The default run (CI) kills the broadcast connect job and the plain AT_LEAST_ONCE and EXACTLY_ONCE jobs 3 times each;
# pytest -m crash_full kills the broadcast connect job 10 times and runs the further keyed crash tests;
# PYFLINK_COMPAT_CRASH_KILLS=20 (or more) sets the kills of all.
KILLS_OVERRIDE = os.environ.get("PYFLINK_COMPAT_CRASH_KILLS")
PLAIN_KILLS = int(KILLS_OVERRIDE or "3")
SEED = int(os.environ.get("PYFLINK_COMPAT_CRASH_SEED", str(int(time.time()))))


def test_a_job_killed_repeatedly_and_restored_from_its_checkpoint_loses_nothing(bootstrap, tmp_path):
    # Enough input that 20 runs, each killed soon after it wrote something, cannot get through all of it.
    records = 160_000
    topic_in, topic_out, inputs = two_partition_input(bootstrap, "crash", records)
    rng = random.Random(SEED)
    log_path = str(tmp_path / "job.log")
    killed, resumed_batches = run_with_kills("upper", bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"),
                                             log_path, rng, kills=PLAIN_KILLS)

    output = values(consume(bootstrap, topic_out, records, timeout_s=120, settle_s=3))
    missing = set(v.upper() for v in inputs) - set(output)
    assert not missing, "seed %d: %d records lost, e.g. %s" % (SEED, len(missing), sorted(missing)[:5])
    assert set(output) <= set(v.upper() for v in inputs)
    print("seed %d: %d kills, %d output records for %d inputs (%d repeated, allowed with AT_LEAST_ONCE)"
          % (SEED, killed, len(output), records, len(output) - records))
    assert killed == PLAIN_KILLS, "the job finished after %d of %d kills: %s" % (killed, PLAIN_KILLS, _tail(log_path))
    assert resumed_batches >= 2, "no restart resumed a checkpoint with progress"


def test_exactly_once_killed_repeatedly_a_read_committed_reader_sees_every_record_once_in_order(bootstrap,
                                                                                                tmp_path):
    records = 160_000                 # enough that 20 runs cannot get through it (see the AT_LEAST_ONCE test)
    topic_in, topic_out, inputs = two_partition_input(bootstrap, "crash-eo", records)
    rng = random.Random(SEED + 2)
    log_path = str(tmp_path / "job.log")
    killed, resumed_batches = run_with_kills("upper", bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"),
                                             log_path, rng, kills=PLAIN_KILLS, guarantee="exactly-once")

    committed, aborted = read_committed(bootstrap, topic_out)
    output = [r.value.decode() for r in committed]
    counts = collections.Counter(output)
    repeated = {value: n for value, n in counts.items() if n > 1}
    assert not repeated, "seed %d: %d records committed more than once, e.g. %s" % (
        SEED, len(repeated), sorted(repeated.items())[:5])
    assert sorted(output) == sorted(v.upper() for v in inputs), "seed %d: records lost" % SEED
    # In order per partition: the records of each input partition keep their order in every output partition.
    for partition in {r.partition for r in committed}:
        for parity in (0, 1):
            indexes = [int(r.value.decode()[len("RECORD-"):]) for r in committed if r.partition == partition]
            indexes = [i for i in indexes if i % 2 == parity]
            assert indexes == sorted(indexes), "seed %d: out of order in output partition %d" % (SEED, partition)
    print("seed %d: %d kills, %d records committed once each, %d records of aborted transactions skipped"
          % (SEED, killed, len(output), aborted))
    assert killed == PLAIN_KILLS, "the job finished after %d of %d kills: %s" % (killed, PLAIN_KILLS, _tail(log_path))
    assert resumed_batches >= 2, "no restart resumed a checkpoint with progress"


def _produce_keyed_amounts(bootstrap, topic, records, keys):
    """Write "key:amount" records to the topic's 2 partitions; returns each key's running sums in order.

    Each key lives in one input partition, so its records have one order and its running sums are known."""
    per_partition = {0: [], 1: []}
    running, expected = {}, {}
    for i in range(records):
        key = "k%02d" % (i % keys)
        amount = 1 + (i * 7919) % 97
        running[key] = running.get(key, 0) + amount
        expected.setdefault(key, []).append(running[key])
        per_partition[(i % keys) % 2].append("%s:%d" % (key, amount))
    for partition, items in per_partition.items():
        produce(bootstrap, topic, items, partition=partition)
    return expected


def _sums_by_key(lines):
    """Each key's running sums in "key:sum" output lines."""
    seen = {}
    for line in lines:
        key, total = line.split(":")
        seen.setdefault(key, set()).add(int(total))
    return seen


def _run_keyed_job_with_kills(job, bootstrap, tmp_path, records, keys, seed_offset, kills, outputs_per_record=1):
    """Run a keyed crash job over fresh amounts, killing it ``kills`` times; its expected running sums per
    key, its output values, and a check to call once they are verified (the report and the resume check)."""
    topic_in = create_topic(bootstrap, unique_topic("crash-%s-in" % job), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("crash-%s-out" % job), partitions=2)
    rng = random.Random(SEED + seed_offset)
    expected = _produce_keyed_amounts(bootstrap, topic_in, records, keys)
    killed, resumed_batches = run_with_kills(job, bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"),
                                             str(tmp_path / "job.log"), rng, kills=kills)
    output = values(consume(bootstrap, topic_out, records * outputs_per_record, timeout_s=120, settle_s=3))

    def report_and_check_resumed():
        print("seed %d: %d kills, %d outputs for %d inputs, up to %d batches resumed"
              % (SEED, killed, len(output), records, resumed_batches))
        assert resumed_batches >= 1, "no restart resumed a checkpoint with state in it"
    return expected, output, report_and_check_resumed


@pytest.mark.crash_full
def test_keyed_state_survives_restarts_from_checkpoints(bootstrap, tmp_path):
    expected, output, report_and_check_resumed = _run_keyed_job_with_kills(
        "keyed-sum", bootstrap, tmp_path, records=40_000, keys=50, seed_offset=1,
        kills=max(3, int(KILLS_OVERRIDE or "10") // 4))
    seen = _sums_by_key(output)
    for key, sums in expected.items():
        assert seen.get(key) == set(sums), (
            "seed %d, key %s: outputs that are no running sum %s, running sums never output %s"
            % (SEED, key, sorted(seen.get(key, set()) - set(sums))[:5], sorted(set(sums) - seen.get(key, set()))[:5]))
    report_and_check_resumed()


@pytest.mark.crash_full
def test_keyed_state_after_a_union_of_two_sources_survives_restarts_from_checkpoints(bootstrap, tmp_path):
    # One query reads both sources; its checkpoint holds the offsets of both and the keyed state they share.
    expected, output, report_and_check_resumed = _run_keyed_job_with_kills(
        "union-sum", bootstrap, tmp_path, records=16_000, keys=20, seed_offset=3, kills=3)
    seen = _sums_by_key(output)
    assert seen == {key: set(sums) for key, sums in expected.items()}, "seed %d" % SEED
    report_and_check_resumed()


@pytest.mark.parametrize("kills", [3, pytest.param(10, marks=pytest.mark.crash_full)])
def test_keyed_and_broadcast_state_of_a_broadcast_connect_survive_kill_9_and_restore(kills, bootstrap, tmp_path):
    kills = int(KILLS_OVERRIDE or kills)
    # Events of two sources (a union), keyed and connected with a broadcast stream of one label, read once at the
    # start: after each restore the label comes from the restored broadcast state, the sums from keyed state.
    topic_in = create_topic(bootstrap, unique_topic("crash-broadcast-sum-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("crash-broadcast-sum-out"), partitions=2)
    create_topic(bootstrap, topic_in + "-rules")
    produce(bootstrap, topic_in + "-rules", ["label-%d" % SEED])
    records = 4_800 * kills           # enough that the runs cannot get through it before the last kill
    expected = _produce_keyed_amounts(bootstrap, topic_in, records, keys=20)
    rng = random.Random(SEED + 4)
    killed, resumed_batches = run_with_kills("broadcast-sum", bootstrap, topic_in, topic_out,
                                             str(tmp_path / "checkpoints"), str(tmp_path / "job.log"), rng,
                                             kills=kills)
    output = values(consume(bootstrap, topic_out, records, timeout_s=120, settle_s=3))
    seen = {}
    for line in output:
        key, total, label = line.split(":")
        assert label == "label-%d" % SEED, "seed %d: %s lost the broadcast state" % (SEED, line)
        seen.setdefault(key, set()).add(int(total))
    assert seen == {key: set(sums) for key, sums in expected.items()}, "seed %d" % SEED
    print("seed %d: %d kills, %d outputs for %d inputs, up to %d batches resumed"
          % (SEED, killed, len(output), records, resumed_batches))
    assert killed == kills, "the job finished after %d of %d kills: %s" % (killed, kills,
                                                                           _tail(str(tmp_path / "job.log")))
    assert resumed_batches >= 1, "no restart resumed a checkpoint with state in it"


@pytest.mark.crash_full
def test_the_states_of_a_keyed_stage_and_of_a_keyed_connect_after_it_survive_restarts_from_checkpoints(
        bootstrap, tmp_path):
    # Even keys summed by a first keyed stage, then connected with the odd keys' values (read into the second
    # stage through the first), which a KeyedCoProcessFunction sums: both stages' state in the checkpoints.
    expected, output, report_and_check_resumed = _run_keyed_job_with_kills(
        "connect-after-keyed-sum", bootstrap, tmp_path, records=12_000, keys=20, seed_offset=7, kills=3)
    seen = _sums_by_key(output)
    assert seen == {key: set(sums) for key, sums in expected.items()}, "seed %d" % SEED
    report_and_check_resumed()


@pytest.mark.crash_full
def test_the_shared_state_of_a_keyed_connect_survives_restarts_from_checkpoints(bootstrap, tmp_path):
    # Even keys through the first input, odd through the second: one KeyedCoProcessFunction sums both.
    expected, output, report_and_check_resumed = _run_keyed_job_with_kills(
        "connect-sum", bootstrap, tmp_path, records=12_000, keys=20, seed_offset=5, kills=3)
    seen = _sums_by_key(output)
    assert seen == {key: set(sums) for key, sums in expected.items()}, "seed %d" % SEED
    report_and_check_resumed()


# crash_full keeps the default run under 45 minutes; the broadcast crash test above covers keyed state by default
@pytest.mark.crash_full
def test_the_state_of_two_keyed_stages_survives_restarts_from_checkpoints(bootstrap, tmp_path):
    # Stage 1: running sums per key; stage 2: how many sums of the key it has seen. Both restore from the same
    # micro-batch, so the n-th sum of a key always comes out as n, however often the job was killed.
    expected, output, report_and_check_resumed = _run_keyed_job_with_kills(
        "two-stage-sum", bootstrap, tmp_path, records=12_000, keys=20, seed_offset=2, kills=3)
    seen = {}
    for line in output:
        key, total, n = line.split(":")
        assert expected[key][int(n) - 1] == int(total), "seed %d: %s is not the key's %s-th sum" % (SEED, line, n)
        seen.setdefault(key, set()).add(int(n))
    assert seen == {key: set(range(1, len(sums) + 1)) for key, sums in expected.items()}, "seed %d" % SEED
    report_and_check_resumed()


@pytest.mark.crash_full
def test_the_states_of_two_keyed_operations_of_one_key_by_survive_restarts_from_checkpoints(bootstrap, tmp_path):
    # A rolling sum ("key:sum") and, beside it on the same key_by, a KeyedProcessFunction counting and summing
    # on its own ("key:sum:n"): one stage, two states, both restored from the same micro-batch.
    expected, output, report_and_check_resumed = _run_keyed_job_with_kills(
        "sibling-sum", bootstrap, tmp_path, records=40_000, keys=20, seed_offset=8, kills=3, outputs_per_record=2)
    sums = _sums_by_key([line for line in output if line.count(":") == 1])
    assert sums == {key: set(values) for key, values in expected.items()}, "seed %d" % SEED
    counted = {}
    for line in output:
        if line.count(":") == 2:
            key, total, n = line.split(":")
            assert expected[key][int(n) - 1] == int(total), "seed %d: %s is not the key's %s-th sum" % (SEED, line, n)
            counted.setdefault(key, set()).add(int(n))
    assert counted == {key: set(range(1, len(values) + 1)) for key, values in expected.items()}, "seed %d" % SEED
    report_and_check_resumed()


def test_a_finished_job_deletes_its_checkpoints_unless_retained(bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("ckpt-retain-in"))
    topic_out = create_topic(bootstrap, unique_topic("ckpt-retain-out"))
    produce(bootstrap, topic_in, ["a", "b"])
    checkpoint_dir = tmp_path / "checkpoints"
    log_path = str(tmp_path / "job.log")
    process = _start("upper", bootstrap, topic_in, topic_out, str(checkpoint_dir), log_path)
    assert process.wait(timeout=300) == 0, _tail(log_path)
    assert sorted(values(consume(bootstrap, topic_out, 2, timeout_s=60))) == ["A", "B"]
    # Flink's default (NO_EXTERNALIZED_CHECKPOINTS): a finished job leaves no checkpoint behind.
    assert os.listdir(checkpoint_dir) == []


def test_restoring_from_a_path_that_does_not_exist_fails_naming_it(bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("ckpt-missing-in"))
    log_path = str(tmp_path / "job.log")
    missing = str(tmp_path / "no-such-checkpoint")
    process = _start("upper", bootstrap, topic_in, topic_in, str(tmp_path / "checkpoints"), log_path, missing)
    assert process.wait(timeout=300) != 0
    assert ("Cannot find checkpoint or savepoint file/directory '%s'" % missing) in _tail(log_path, 200)

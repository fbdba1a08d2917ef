"""runtime/live_functions.py: which objects take part, what is handed over, and a reader's instance as tasks of
micro-batches come to one worker or another (two "workers" are simulated by clearing the worker's table)."""
import tempfile
import threading

import pytest

from pyflink_compat.datastream.data_stream import _CallableMap
from pyflink_compat.datastream.functions import MapFunction
from pyflink_compat.runtime import live_functions


class Counter(MapFunction):
    def __init__(self):
        self.calls = 0
        self.items = []
        self.opened = 0
        self.closed = 0

    def open(self, runtime_context):
        self.opened += 1
        self.model = object()           # made by open(), never reassigned: not handed over

    def map(self, value):
        self.calls += 1
        self.items.append(value)
        return value

    def close(self):
        self.closed += 1


@pytest.fixture(autouse=True)
def private_files(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(live_functions, "_LIVE", {})


def run_task(function, batch_id, values, reader=0, split="t:0", last_of_reader=None, pass_id="1-pass"):
    """One read task: lease the reader's function, map the values, return the instance that ran."""
    with live_functions.lease(pass_id, reader, batch_id, function, lambda f: [f], lambda f: f.open(None),
                              lambda f: f.close(), last_of_reader, split) as live:
        for value in values:
            live.map(value)
    return live


def other_worker():
    live_functions._LIVE.clear()


def test_stateful_objects_are_the_users_own_also_inside_our_wrappers():
    counter = Counter()
    callable_object = Counter()
    assert live_functions.stateful_objects([counter, _CallableMap(lambda v: v), _CallableMap(callable_object), None]) \
        == [counter, callable_object]
    assert live_functions.stateful_objects([_CallableMap(str.upper), _CallableMap(len)]) == []


def test_the_same_worker_keeps_its_instance_opened_once():
    first = run_task(Counter(), 0, ["a", "b"])
    second = run_task(Counter(), 1, ["c"])
    assert second is first
    assert (first.calls, first.items, first.opened, first.closed) == (3, ["a", "b", "c"], 1, 0)


def test_another_worker_takes_the_hand_over_and_opens_its_own_instance():
    first = run_task(Counter(), 0, ["a", "b"])
    model = first.model
    other_worker()
    second = run_task(Counter(), 1, ["c"])
    assert second is not first
    assert (second.calls, second.items, second.opened) == (3, ["a", "b", "c"], 1)
    assert second.model is not model                 # its own open() made it
    other_worker()
    third = run_task(Counter(), 2, ["d"])
    assert (third.calls, third.items) == (4, ["a", "b", "c", "d"])


def test_a_stale_instance_catches_up_with_a_newer_hand_over():
    workers = [{}, {}]

    def on(worker, batch_id, values):
        live_functions._LIVE = workers[worker]
        return run_task(Counter(), batch_id, values)

    on(0, 0, ["a"])
    on(1, 1, ["b"])
    on(1, 2, ["c"])
    stale = on(0, 3, ["d"])
    assert (stale.calls, stale.items, stale.opened) == (4, ["a", "b", "c", "d"], 1)


def test_tasks_of_one_micro_batch_build_on_each_other():
    """A reader of two partitions: the second task of the batch (in another worker) sees the first's updates."""
    run_task(Counter(), 0, ["a"], split="t:0")
    other_worker()
    second = run_task(Counter(), 0, ["b"], split="t:1")
    assert (second.calls, second.items) == (2, ["a", "b"])


def test_a_micro_batch_run_again_starts_from_the_hand_over_before_it():
    run_task(Counter(), 0, ["a"])
    run_task(Counter(), 1, ["b"])
    again = run_task(Counter(), 1, ["b"])
    assert (again.calls, again.items) == (2, ["a", "b"])
    assert again.opened == 1


def test_a_failed_task_leaves_no_half_updated_instance():
    run_task(Counter(), 0, ["a"])
    with pytest.raises(ValueError):
        with live_functions.lease("1-pass", 0, 1, Counter(), lambda f: [f], lambda f: f.open(None),
                                  lambda f: f.close(), None, "t:0") as live:
            live.map("b")
            raise ValueError("boom")
    retried = run_task(Counter(), 1, ["b"])
    assert (retried.calls, retried.items) == (2, ["a", "b"])


def test_the_last_task_of_the_readers_final_micro_batch_closes_it():
    first = run_task(Counter(), 0, ["a"])
    run_task(Counter(), 1, ["b"], split="t:0", last_of_reader=2)
    assert first.closed == 0
    run_task(Counter(), 1, ["c"], split="t:1", last_of_reader=2)
    assert (first.closed, first.calls) == (1, 3)
    assert live_functions._LIVE == {}


def test_readers_have_their_own_instances():
    zero = run_task(Counter(), 0, ["a", "b"], reader=0)
    one = run_task(Counter(), 0, ["c"], reader=1)
    assert (zero.calls, one.calls) == (2, 1)


def test_an_attribute_that_cannot_be_pickled_stays_behind(caplog):
    class WithLock(Counter):
        def map(self, value):
            self.lock = threading.Lock()
            return super().map(value)

    run_task(WithLock(), 0, ["a"])
    other_worker()
    second = run_task(WithLock(), 1, [])
    assert second.calls == 1 and not hasattr(second, "lock")
    assert "cannot be pickled" in caplog.text


def test_functions_without_attributes_of_their_own_are_opened_per_task():
    opened = []

    class Plain:
        pass

    wrapper = _CallableMap(str.upper)
    with live_functions.lease("1-pass", 0, 0, wrapper, lambda f: [f], lambda f: opened.append("open"),
                              lambda f: opened.append("close"), None, "t:0") as live:
        assert live is wrapper
    assert opened == ["open", "close"]
    assert live_functions._LIVE == {}


def test_hand_overs_keep_the_newest_of_two_micro_batches(tmp_path):
    for batch_id in range(5):
        run_task(Counter(), batch_id, ["x"], split="t:0")
        run_task(Counter(), batch_id, ["y"], split="t:1")
    files = live_functions._ReaderFiles("1-pass", 0)
    assert files.stamps() == [(3, 2), (4, 2)]


def test_a_bound_method_given_as_the_function_carries_its_objects_state():
    counter = Counter()
    assert live_functions.stateful_objects([_CallableMap(counter.map)]) == [counter]


def test_after_the_final_micro_batch_a_tick_neither_opens_nor_closes_again():
    first = run_task(Counter(), 0, ["a"], last_of_reader=1)
    assert (first.opened, first.closed) == (1, 1)
    after = Counter()
    assert run_task(after, 1, []) is after
    assert (after.opened, after.closed) == (0, 0)

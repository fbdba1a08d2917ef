"""User functions that live from micro-batch to micro-batch, as a Flink operator's instance lives for the job.

Spark runs a read task per Kafka split per micro-batch, in whichever of its Python workers is free, and each
task unpickles the query's functions afresh. Flink opens a function once per parallel instance and its instance
attributes (a counter, a cache, running statistics) carry on from element to element. So that they do here:

- each Python worker keeps the opened functions of a pass by reader (the parallel instance owning the split)
  and reuses them for that reader's later tasks: ``open()`` is not called again in this worker;
- at the end of a task, the attributes it may have changed are handed over through a file on this machine,
  stamped with the micro-batch number; a task whose worker holds an older instance (or none) takes the newest
  hand-over first;
- a reader's tasks of one micro-batch (a reader owning several partitions) take turns under a file lock, as
  one Flink subtask reads its splits one after the other.

Only instances of the user's own classes take part (lambdas and plain functions have no attributes; a callable
object given to ``map`` does). Handed over: attributes rebound since the task began, attributes handed over
before, and plain mutable data (lists, dicts, sets, deques, bytearrays, numpy arrays) that may have changed in
place. An object that ``open()`` made and the task did not rebind (a model, a client) is not pickled: a worker
taking over makes its own by calling ``open()``. An attribute that cannot be pickled is not handed over (logged
once). ``close()`` is called when the reader's last split is done (a bounded source); the functions of an
unbounded job are not closed (Flink closes them when the job is cancelled).
"""
import atexit
import collections
import contextlib
import fcntl
import logging
import os
import pickle
import shutil
import tempfile
import time
import types
import uuid
from typing import Callable, Dict, List, Optional

from pyflink_compat.metrics import group as metric_group
from pyflink_compat.util.files import write_atomically

log = logging.getLogger("pyflink_compat.runtime")

#: How long a reader's task waits for the reader's other task of the same micro-batch before failing.
TURN_TIMEOUT_S = 600.0
#: A worker drops functions no task used for this long (a finished job's; a quiet reader takes the hand-over).
IDLE_EVICTION_S = 300.0
KEEP_VERSIONS = 2

_PLAIN_MUTABLE = (list, dict, set, bytearray, collections.deque)
_NOT_STATEFUL_TYPES = (types.BuiltinFunctionType, types.FunctionType, type, types.ModuleType)


def _root() -> str:
    return os.path.join(tempfile.gettempdir(), "pyflink-compat-%d" % os.getuid(), "live")


# -- driver side --------------------------------------------------------------------------------------

_cleanup_registered = False


def new_pass_id() -> str:
    """An identity for one read-side pass of a job run (made on the driver, carried by the pass's transform).
    Its hand-over files live under it until the driver process exits."""
    global _cleanup_registered
    if not _cleanup_registered:
        _cleanup_registered = True
        _remove_dead_drivers_files()
        atexit.register(_remove_own_files)
    return "%d-%s" % (os.getpid(), uuid.uuid4().hex[:16])


def _remove_own_files():
    prefix = "%d-" % os.getpid()
    root = _root()
    for name in _listdir(root):
        if name.startswith(prefix):
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def _remove_dead_drivers_files():
    root = _root()
    for name in _listdir(root):
        pid = name.partition("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _listdir(path) -> List[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


# -- what takes part ----------------------------------------------------------------------------------

def stateful_objects(functions) -> list:
    """The objects among ``functions`` whose instance attributes are the user's: instances of classes that are
    not pyflink-compat's, also where pyflink-compat's own wrappers hold them."""
    found = []

    def visit(obj, depth):
        if isinstance(obj, types.MethodType):         # a bound method given as the function: its object's state
            obj = obj.__self__
        if obj is None or not hasattr(obj, "__dict__") or isinstance(obj, _NOT_STATEFUL_TYPES):
            return
        if _is_ours(obj):
            if depth < 3:
                for value in list(vars(obj).values()):
                    visit(value, depth + 1)
        elif not any(obj is f for f in found):
            found.append(obj)

    for function in functions:
        visit(function, 0)
    return found


def _is_ours(obj) -> bool:
    return type(obj).__module__.startswith("pyflink_compat.")


def _plain_mutable(value) -> bool:
    if isinstance(value, _PLAIN_MUTABLE):
        return True
    return type(value).__module__ == "numpy" and type(value).__name__ == "ndarray"


# -- worker side --------------------------------------------------------------------------------------

def current_batch_id() -> Optional[int]:
    """The micro-batch the running Spark task belongs to (None outside a streaming task)."""
    from pyspark import TaskContext
    context = TaskContext.get()
    if context is None:
        return None
    value = context.getLocalProperty("streaming.sql.batchId")
    return int(value) if value is not None else None


class AttributeCarrier:
    """Hands the user's instance attributes of some function objects from one instance of them to another (in
    another Python worker): ``begin()`` before a task processes, ``hand_over()`` after it (the attributes as
    pickled bytes), ``take()`` on the receiving side."""

    def __init__(self, objects: list):
        self.objects = objects
        self.carried = set()                          # (object index, attribute) handed over before
        self.memo: Dict[tuple, tuple] = {}            # (object index, attribute) -> (value, pickled bytes)
        self.started: List[dict] = []

    def begin(self):
        self.started = [dict(vars(obj)) for obj in self.objects]

    def take(self, attributes: dict):
        for (index, name), data in attributes.items():
            value = pickle.loads(data)
            setattr(self.objects[index], name, value)
            self.memo[(index, name)] = (value, data)
            self.carried.add((index, name))

    def hand_over(self) -> dict:
        from pyspark import cloudpickle
        attributes = {}
        for index, (obj, before) in enumerate(zip(self.objects, self.started)):
            for name, value in vars(obj).items():
                slot = (index, name)
                rebound = name not in before or before[name] is not value
                if not (rebound or slot in self.carried or _plain_mutable(value)):
                    continue
                remembered = self.memo.get(slot)
                if remembered is not None and remembered[0] is value and not _plain_mutable(value):
                    attributes[slot] = remembered[1]
                    continue
                try:
                    data = cloudpickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception as e:
                    where = (type(obj).__qualname__, name)
                    if where not in _UNPICKLABLE_LOGGED:
                        _UNPICKLABLE_LOGGED.add(where)
                        log.warning("%s.%s cannot be pickled (%s): it is not carried to the next micro-batch "
                                    "when another Python worker runs it", where[0], name, e)
                    continue
                self.memo[slot] = (value, data)
                self.carried.add(slot)
                attributes[slot] = data
        return attributes


class _Live:
    """One reader's opened functions in this worker."""

    def __init__(self, value, objects: list):
        self.value = value
        self.carrier = AttributeCarrier(objects)
        # The hand-over its attributes match: (micro-batch, how many of the reader's tasks of it were done), and
        # the splits done in that micro-batch.
        self.stamp: Optional[tuple] = None
        self.splits: tuple = ()
        self.used = time.monotonic()
        self.instances: list = []      # the (operator, subtask) of its metric groups (metrics/group.py)


_LIVE: Dict[tuple, _Live] = {}
_UNPICKLABLE_LOGGED = set()


class _ReaderFiles:
    """A reader's directory: its turn lock and its hand-overs, ``v<micro-batch>.<task of it>.pkl``."""

    def __init__(self, pass_id: str, reader: int):
        self.path = os.path.join(_root(), pass_id, "reader-%d" % reader)
        os.makedirs(self.path, mode=0o700, exist_ok=True)

    @contextlib.contextmanager
    def turn(self, describe: str):
        with open(os.path.join(self.path, "lock"), "a+") as lock:
            deadline = time.monotonic() + TURN_TIMEOUT_S
            while True:
                try:
                    fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise TimeoutError("%s waited %.0f s for the same reader's other task of this micro-batch "
                                           "(lock %s)" % (describe, TURN_TIMEOUT_S, lock.name)) from None
                    time.sleep(0.01)
            try:
                yield
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)

    def stamps(self) -> List[tuple]:
        found = []
        for name in _listdir(self.path):
            parts = name[1:-4].split(".") if name.startswith("v") and name.endswith(".pkl") else ()
            if len(parts) == 2 and all(part.isdigit() for part in parts):
                found.append((int(parts[0]), int(parts[1])))
        return sorted(found)

    def load(self, stamp: tuple) -> dict:
        with open(self._file(stamp), "rb") as f:
            return pickle.load(f)

    def save(self, stamp: tuple, splits: tuple, attributes: dict):
        write_atomically(self._file(stamp), pickle.dumps({"splits": splits, "attributes": attributes},
                                                         protocol=pickle.HIGHEST_PROTOCOL), binary=True)
        stamps = self.stamps()
        newest_by_batch = {}
        for each in stamps:
            newest_by_batch[each[0]] = each
        keep = set(sorted(newest_by_batch.values())[-KEEP_VERSIONS:])
        for old in stamps:
            if old not in keep:
                with contextlib.suppress(OSError):
                    os.remove(self._file(old))

    def _file(self, stamp: tuple) -> str:
        return os.path.join(self.path, "v%d.%d.pkl" % stamp)

    def closed(self) -> bool:
        return os.path.exists(os.path.join(self.path, "closed"))

    def mark_closed(self):
        open(os.path.join(self.path, "closed"), "w").close()

    def count_done(self, batch_id: int) -> int:
        """One more of the reader's final tasks of ``batch_id`` done (under the turn lock): how many are."""
        path = os.path.join(self.path, "done-%d" % batch_id)
        count = 0
        with contextlib.suppress(OSError, ValueError):
            with open(path) as f:
                count = int(f.read() or 0)
        count += 1
        with open(path, "w") as f:
            f.write(str(count))
        return count


@contextlib.contextmanager
def lease(pass_id: str, reader: int, batch_id: Optional[int], fresh, functions_of: Callable,
          open_all: Callable, close_all: Callable, last_of_reader: Optional[int] = None, split: str = ""):
    """The reader's opened functions for one task: ``fresh`` (the task's own unpickled copy, opened here) or the
    ones this worker keeps, brought up to the newest hand-over. ``last_of_reader``: when this task belongs to
    the reader's final micro-batch, how many tasks the reader has in it (the last of them closes the
    functions); None otherwise. ``split``: what the task reads (a task run again is told by it)."""
    objects = stateful_objects(functions_of(fresh))
    if not objects or batch_id is None:          # nothing to carry (or not in a Spark task): per task, as is
        open_all(fresh)
        try:
            yield fresh
        finally:
            close_all(fresh)
        return
    _evict_idle()
    files = _ReaderFiles(pass_id, reader)
    key = (pass_id, reader)
    with files.turn("Reader %d of %s" % (reader, pass_id)):
        if files.closed():                       # a batch after the source's last one (a tick): reads nothing
            yield fresh
            return
        live = _LIVE.get(key)
        if live is not None and live.stamp is not None and _ran_before(live.stamp, live.splits, batch_id, split):
            live = None                          # a micro-batch run again: start from the hand-over before it
        if live is None:
            live = _Live(fresh, objects)
            with metric_group.instances_opened() as live.instances:
                open_all(fresh)
        else:
            metric_group.ran(live.instances)
        _catch_up(live, files, batch_id, split)
        _LIVE[key] = live
        live.carrier.begin()
        try:
            yield live.value
        except BaseException:
            _LIVE.pop(key, None)                 # half-updated by a failed task: the next one starts afresh
            raise
        if live.stamp is not None and live.stamp[0] == batch_id:
            live.stamp, live.splits = (batch_id, live.stamp[1] + 1), live.splits + (split,)
        else:
            live.stamp, live.splits = (batch_id, 1), (split,)
        live.used = time.monotonic()
        attributes = live.carrier.hand_over()
        if attributes:
            files.save(live.stamp, live.splits, attributes)
        if last_of_reader is not None and files.count_done(batch_id) >= last_of_reader:
            _LIVE.pop(key, None)
            files.mark_closed()
            close_all(live.value)


def _ran_before(stamp: tuple, splits: tuple, batch_id: int, split: str) -> bool:
    """Whether state at ``stamp`` (with ``splits`` done in its micro-batch) already includes this task's input."""
    return stamp[0] > batch_id or (stamp[0] == batch_id and split in splits)


def _catch_up(live: _Live, files: _ReaderFiles, batch_id: int, split: str):
    for stamp in reversed(files.stamps()):
        if live.stamp is not None and stamp <= live.stamp:
            return                               # what this worker holds is as new
        handed = files.load(stamp)
        if _ran_before(stamp, tuple(handed["splits"]), batch_id, split):
            continue                             # written by an earlier run of this task's micro-batch
        live.carrier.take(handed["attributes"])
        live.stamp, live.splits = stamp, tuple(handed["splits"])
        return


def _evict_idle():
    now = time.monotonic()
    for key, live in list(_LIVE.items()):
        if now - live.used > IDLE_EVICTION_S:
            del _LIVE[key]

"""Side-by-side runs: one PyFlink job file on real PyFlink (the oracle) and on pyflink-compat.

A :class:`Case` names a job file under ``jobs/`` (plain PyFlink imports, identical for both engines), the
input records per topic and partition, the output topics with how to compare them, and whether the job's
printed lines are compared. For each engine the harness creates fresh input and output topics on the same
broker, produces the same input, runs the job with the topic names as command-line arguments, collects
the output records and the printed lines, and stops the job (a bounded job must end by itself; an
unbounded one is stopped once the expected outputs arrived and a settle time passed). The two engines run at
the same time, each on topics of its own.

"Compatible" means: the oracle's outputs are what the case expects to see (counts, and the order
guarantees below hold for it), and pyflink-compat's outputs equal the oracle's under the case's comparison.

Comparisons of a Kafka output (``Output.compare``):

- ``"exact"``: per output partition, the same records (key, value) in the same order;
- ``"multiset"``: the same records regardless of order; with ``partitioned=True`` each record must also be
  in the same output partition (deterministic for keyed records: ``murmur2(key) % partitions``), with
  ``partitioned=False`` partitions are ignored (unkeyed records: the sticky partitioner's choice is not
  deterministic on either engine).

``Output.order_key`` (value -> (group, sequence number)) adds what both engines guarantee about order when
records travel in parallel: within one output partition, records of the same group (e.g. the same input
partition, read by one source subtask and written by one sink subtask) keep their input order. It is
checked on each engine's output separately.

Printed lines (``Prints``) are compared as multisets (print sinks of parallel subtasks interleave). With a
parallelism above 1 the subtask number in ``N> `` / ``id:N> `` depends on how each engine assigns input
partitions to subtasks, so ``strip_subtask=True`` compares the lines without it and only checks that it
is between 1 and the parallelism.
"""
import collections
import concurrent.futures
import difflib
import functools
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from typing import Callable, Dict, List, Optional, Tuple

import attr
from kafka import KafkaConsumer, TopicPartition

from kafka_helpers import create_topic, produce, unique_topic

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jobs")

ORACLE, OURS = "PyFlink (oracle)", "pyflink-compat"

# Lines on a job's stdout that are not print() output: JVM / log4j / Spark chatter.
NOISE = re.compile(r"^(\d\d/\d\d/\d\d \d\d:\d\d:\d\d |\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d|WARNING:|SLF4J|"
                   r"Using Spark's default log4j|Setting default log level|To adjust logging level|"
                   r"Job has been submitted with JobID)")
# What ``flink run`` (and ``pyflink-compat run``) prints when execute() returns; the oracle runs as
# ``python job.py`` and prints none of it.
CLIENT_RESULT = re.compile(r"^(Program execution finished|Job with JobID [0-9a-f]{32} has finished\.|"
                           r"Job Runtime: \d+ ms)$")
SUBTASK = re.compile(r"^(?P<ident>[^\s>]*?:)?(?P<subtask>\d+)> ")


@attr.s(auto_attribs=True)
class Input:
    """One input topic: records per partition (a value, or a (key, value) pair), and records produced only
    after the running job wrote its first output (``late``; for unbounded cases)."""
    partitions: int = 1
    records: Dict[int, list] = attr.Factory(dict)
    late: Dict[int, list] = attr.Factory(dict)
    timestamp_ms: Optional[int] = None         # record timestamp (CreateTime) of every input record
    timestamp_step_ms: int = 0                 # with timestamp_ms: the n-th record of a partition at + n * step
    # (parallelism, reader): name the topic so that Flink's split assignment gives its partition 0 to that
    # reader (the rule starts at an index taken from the topic name's hash). Both engines' topics then
    # have the same assignment, and "N>" prefixes and RuntimeContext indices can be compared as they are.
    first_reader: Optional[Tuple[int, int]] = None


@attr.s(auto_attribs=True)
class Output:
    """One output topic and how to compare it. ``count``: how many records the oracle must write."""
    count: int
    partitions: int = 1
    compare: str = "exact"                     # "exact" | "multiset"
    partitioned: bool = True                   # multiset: are output partitions part of the comparison
    keys: bool = False                         # compare record keys too
    timestamps: bool = False                   # compare record timestamps too
    timestamps_from_input: bool = True         # with timestamps: each is an input record's
    order_key: Optional[Callable[[str], Tuple]] = None


@attr.s(auto_attribs=True)
class Prints:
    """The job's print() lines. ``count``: how many lines the oracle must print."""
    count: int
    strip_subtask: bool = False
    parallelism: int = 1
    # "multiset"; "exact" (the same lines in the same order); "per-identifier" (in order among the lines of each
    # print identifier, "wc> ..." apart from "hop> ...", lines without one (a tableau) in order among themselves)
    order: str = "multiset"
    # with "per-identifier": identifiers whose lines are compared as a multiset only (the branches of a union
    # interleave differently from run to run on Flink)
    unordered: Tuple[str, ...] = ()


@attr.s(auto_attribs=True)
class Case:
    name: str
    job: str                                   # file name under jobs/
    args: List[str]                            # "{bootstrap}", "{<input or output name>}" are filled in
    inputs: Dict[str, Input] = attr.Factory(dict)
    outputs: Dict[str, Output] = attr.Factory(dict)
    prints: Optional[Prints] = None
    bounded: bool = True                       # the job ends by itself
    timeout_s: float = 360.0                   # per engine run: a deadline for a hang, with room for a slow machine
    # The late input comes once a printed line contains this text (default: once any output appeared).
    late_after: Optional[str] = None
    settle_s: Optional[float] = None           # after the expected outputs arrived, wait for extras this long
                                               # (default: 0.5 s once a bounded job ended, else 3 s)


@attr.s(auto_attribs=True)
class Run:
    engine: str
    records: Dict[str, List[Tuple[int, Optional[str], str, int]]]  # output -> (partition, key, value, timestamp)
    printed: List[str]
    returncode: Optional[int]
    seconds: float
    stderr_tail: str
    stopped: bool                              # the harness stopped it (unbounded)


class SideBySideFailure(AssertionError):
    pass


@functools.lru_cache(maxsize=None)
def oracle_java_options(oracle_python: str) -> str:
    import oracle_env
    return oracle_env.oracle_java_options(oracle_python)


# -- engines ------------------------------------------------------------------------------------------

def oracle_command(oracle_python: str, job: str, args: List[str]):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYSPARK_PYTHON")}
    # Like an activated virtualenv: PyFlink starts its Python workers as "python" from PATH.
    env["PATH"] = os.path.dirname(oracle_python) + os.pathsep + env.get("PATH", "")
    env["VIRTUAL_ENV"] = os.path.dirname(os.path.dirname(oracle_python))
    env["JAVA_TOOL_OPTIONS"] = oracle_java_options(oracle_python)
    return [oracle_python, job, *args], env


def ours_command(job: str, args: List[str]):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return [sys.executable, "-m", "pyflink_compat", "run", job, *args], env


# -- output collection ----------------------------------------------------------------------------------

class OutputWatcher:
    """Reads every partition of the output topics from the beginning, incrementally."""

    def __init__(self, bootstrap: str, topics: Dict[str, str], partitions: Dict[str, int]):
        self.names = {topic: name for name, topic in topics.items()}
        self.records: Dict[str, list] = {name: [] for name in topics}
        self.consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                      fetch_max_wait_ms=10)
        tps = [TopicPartition(topic, p) for name, topic in topics.items() for p in range(partitions[name])]
        if tps:
            self.consumer.assign(tps)
            self.consumer.seek_to_beginning(*tps)

    def poll(self, timeout_ms: int = 200):
        if not self.consumer.assignment():
            time.sleep(timeout_ms / 1000.0)
            return
        for tp, batch in self.consumer.poll(timeout_ms=timeout_ms).items():
            for r in batch:
                self.records[self.names[tp.topic]].append(
                    (r.partition, r.offset, _text(r.key), _text(r.value), r.timestamp))

    def result(self):
        return {name: [(p, k, v, t) for p, _, k, v, t in sorted(recs, key=lambda r: (r[0], r[1]))]
                for name, recs in self.records.items()}

    def counts(self):
        return {name: len(recs) for name, recs in self.records.items()}

    def close(self):
        self.consumer.close()


def _text(raw):
    return None if raw is None else raw.decode("utf-8", errors="backslashreplace")


def printed_lines(stdout_path: str) -> List[str]:
    lines, after_result = [], False
    with open(stdout_path, encoding="utf-8", errors="backslashreplace") as f:
        for line in f:
            line = line.rstrip("\n")
            if CLIENT_RESULT.match(line):
                after_result = line.startswith("Job Runtime: ")
                continue
            if after_result and line == "":         # the result's closing empty line
                after_result = False
                continue
            after_result = False
            if not NOISE.match(line):
                lines.append(line)
    return lines


def _tail(path: str, chars: int = 4000) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()[-chars:]
    except OSError:
        return ""


def _stop(process: subprocess.Popen):
    """Stop the job and everything it started (JVMs, Python workers): its whole process group."""
    if process.poll() is not None:
        _kill_group(process.pid, signal.SIGKILL)       # leftovers of an ended job, if any
        return
    _kill_group(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    _kill_group(process.pid, signal.SIGKILL)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def _kill_group(pgid: int, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


# -- one engine run ---------------------------------------------------------------------------------------

def input_topic_name(prefix: str, first_reader: Optional[Tuple[int, int]]) -> str:
    if first_reader is None:
        return unique_topic(prefix)
    from pyflink_compat.kafka_io.source import split_owner
    parallelism, reader = first_reader
    while True:
        name = unique_topic(prefix)
        if split_owner(name, 0, parallelism) == reader:
            return name


def run_engine(case: Case, engine: str, command_for, bootstrap: str, workdir: str) -> Run:
    """Fresh topics, input, the job, its outputs. ``command_for(job_path, args) -> (argv, env)``."""
    tag = "sbs-%s-%s" % (case.name, "oracle" if engine == ORACLE else "ours")
    topics = {}
    for name, spec in case.inputs.items():
        topics[name] = create_topic(bootstrap, input_topic_name("%s-%s" % (tag, name), spec.first_reader),
                                    spec.partitions)
        for partition, records in sorted(spec.records.items()):
            if records and spec.timestamp_step_ms:
                for n, record in enumerate(records):
                    produce(bootstrap, topics[name], [record], partition=partition,
                            timestamp_ms=spec.timestamp_ms + n * spec.timestamp_step_ms)
            elif records:
                produce(bootstrap, topics[name], records, partition=partition, timestamp_ms=spec.timestamp_ms)
    partitions = {}
    for name, spec in case.outputs.items():
        topics[name] = create_topic(bootstrap, unique_topic("%s-%s" % (tag, name)), spec.partitions)
        partitions[name] = spec.partitions
    args = [a.format(bootstrap=bootstrap, **topics) for a in case.args]
    argv, env = command_for(os.path.join(JOBS, case.job), args)

    out_path = os.path.join(workdir, "%s.stdout" % tag)
    err_path = os.path.join(workdir, "%s.stderr" % tag)
    expected = {name: spec.count for name, spec in case.outputs.items()}
    expected_prints = case.prints.count if case.prints else 0
    late = {name: spec.late for name, spec in case.inputs.items() if any(spec.late.values())}
    output_topics = {name: topics[name] for name in case.outputs}
    watcher = OutputWatcher(bootstrap, output_topics, partitions)
    started = time.monotonic()
    deadline = started + case.timeout_s
    stopped = False
    try:
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            process = subprocess.Popen(argv, stdout=out, stderr=err, env=env, cwd=workdir, start_new_session=True)
    except BaseException:
        watcher.close()
        raise
    try:
        def arrived():
            counts = watcher.counts()
            return (all(counts[n] >= c for n, c in expected.items())
                    and len(printed_lines(out_path)) >= expected_prints)

        def fail_if_ended_early(what):
            if process.poll() is not None:
                raise SideBySideFailure("%s: %s ended (exit code %s) before %s\n--- stderr tail ---\n%s"
                                        % (case.name, engine, process.returncode, what, _tail(err_path)))

        def ready_for_late():
            if case.late_after is not None:
                return any(case.late_after in line for line in printed_lines(out_path))
            return any(watcher.counts().values()) or len(printed_lines(out_path)) > 0

        if late:
            # The job is running and reading once its first output appears; then the rest of the input comes.
            while not ready_for_late():
                if time.monotonic() > deadline:
                    raise SideBySideFailure("%s: %s wrote no output within %.0f s\n--- stderr tail ---\n%s"
                                            % (case.name, engine, case.timeout_s, _tail(err_path)))
                if not case.bounded:
                    fail_if_ended_early("its first output")
                watcher.poll()
            for name, by_partition in late.items():
                for partition, records in sorted(by_partition.items()):
                    if records:
                        produce(bootstrap, topics[name], records, partition=partition,
                                timestamp_ms=case.inputs[name].timestamp_ms)

        if case.bounded:
            while process.poll() is None:
                if time.monotonic() > deadline:
                    raise SideBySideFailure("%s: bounded job on %s did not end within %.0f s\n--- stderr tail "
                                            "---\n%s" % (case.name, engine, case.timeout_s, _tail(err_path)))
                watcher.poll()
            if process.returncode != 0:
                raise SideBySideFailure("%s: job failed on %s (exit code %s)\n--- stderr tail ---\n%s"
                                        % (case.name, engine, process.returncode, _tail(err_path)))
            # Everything is written once the job ended; read until the expected counts (or a short deadline).
            read_deadline = min(deadline, time.monotonic() + 20)
            while not arrived() and time.monotonic() < read_deadline:
                watcher.poll()
        else:
            while not arrived():
                if time.monotonic() > deadline:
                    break
                fail_if_ended_early("writing the expected outputs")
                watcher.poll()
        settle_s = case.settle_s if case.settle_s is not None else (0.5 if case.bounded else 3.0)
        settle_until = time.monotonic() + settle_s
        while time.monotonic() < settle_until:
            watcher.poll()
        if not case.bounded:
            fail_if_ended_early("the harness stopped it (an unbounded job must keep running)")
            stopped = True
    finally:
        _stop(process)
        seconds = time.monotonic() - started
        try:
            watcher.poll(300)
        finally:
            watcher.close()
    return Run(engine=engine, records=watcher.result(), printed=printed_lines(out_path),
               returncode=process.returncode, seconds=seconds, stderr_tail=_tail(err_path), stopped=stopped)


# -- comparison ------------------------------------------------------------------------------------------

def _records_view(records, spec: Output):
    """What is compared of one output topic's records."""
    def item(k, v, t):
        shown = ((k,) if spec.keys else ()) + (v,) + (("ts=%s" % t,) if spec.timestamps else ())
        return shown if len(shown) > 1 else v
    if spec.compare == "exact":
        view = {}
        for p, k, v, t in records:
            view.setdefault(p, []).append(item(k, v, t))
        return view
    if spec.partitioned:
        return collections.Counter((p, item(k, v, t)) for p, k, v, t in records)
    return collections.Counter(item(k, v, t) for p, k, v, t in records)


def _counter_diff(expected: collections.Counter, got: collections.Counter) -> str:
    missing = expected - got
    extra = got - expected
    lines = []
    if missing:
        lines.append("  only on the oracle (%d): %s" % (sum(missing.values()), _show(missing)))
    if extra:
        lines.append("  only on pyflink-compat (%d): %s" % (sum(extra.values()), _show(extra)))
    return "\n".join(lines)


def _show(counter: collections.Counter, limit: int = 30) -> str:
    items = sorted(counter.elements(), key=repr)
    shown = ", ".join(repr(i) for i in items[:limit])
    return shown + (" ... (%d more)" % (len(items) - limit) if len(items) > limit else "")


def _exact_diff(expected: dict, got: dict) -> str:
    lines = []
    for p in sorted(set(expected) | set(got)):
        a, b = expected.get(p, []), got.get(p, [])
        if a != b:
            lines.append("  partition %d:" % p)
            lines.extend("    " + line for line in difflib.unified_diff(
                [repr(x) for x in a], [repr(x) for x in b], "oracle", "pyflink-compat", lineterm="", n=2))
    return "\n".join(lines)


def order_violations(records, order_key) -> List[str]:
    """Within each output partition, each group's sequence numbers must increase."""
    last = {}
    problems = []
    for p, _, v, _ in records:
        group, seq = order_key(v)
        previous = last.get((p, group))
        if previous is not None and seq <= previous:
            problems.append("partition %d, group %r: %r after sequence %r" % (p, group, v, previous))
        last[(p, group)] = seq
    return problems


def _print_view(lines: List[str], spec: Prints):
    if not spec.strip_subtask:
        return collections.Counter(lines)
    return collections.Counter(SUBTASK.sub(lambda m: (m.group("ident") or "") + "*> ", line) for line in lines)


def _ordered_prints(lines: List[str], spec: Prints) -> Dict[str, List[str]]:
    """The printed lines in order: all of them, or per print identifier (the text before "> ")."""
    if spec.order == "exact":
        return {"": list(lines)}
    groups: Dict[str, List[str]] = {}
    for line in lines:
        identifier = line.split("> ", 1)[0] if "> " in line and not line.startswith(("|", "+")) else ""
        if identifier not in spec.unordered:
            groups.setdefault(identifier, []).append(line)
    return groups


def _bad_subtasks(lines: List[str], spec: Prints) -> List[str]:
    bad = []
    for line in lines:
        m = SUBTASK.match(line)
        if spec.parallelism > 1 and (m is None or not 1 <= int(m.group("subtask")) <= spec.parallelism):
            bad.append(line)
    return bad


def check_oracle(case: Case, run: Run):
    """The oracle's run must show what the case is about; otherwise the comparison would prove nothing."""
    problems = []
    for name, spec in case.outputs.items():
        got = len(run.records[name])
        if got != spec.count:
            problems.append("output %s: %d records, the case expects %d" % (name, got, spec.count))
        if spec.order_key:
            problems.extend("output %s: %s" % (name, p) for p in order_violations(run.records[name], spec.order_key))
        if spec.timestamps and spec.timestamps_from_input:
            stamps = {i.timestamp_ms for i in case.inputs.values()}
            odd = [r for r in run.records[name] if r[3] not in stamps]
            if odd:
                problems.append("output %s: record timestamps not taken from the input (%s): %r"
                                % (name, sorted(stamps, key=str), odd[:5]))
    if case.prints is not None:
        if len(run.printed) != case.prints.count:
            problems.append("%d printed lines, the case expects %d" % (len(run.printed), case.prints.count))
        problems.extend("printed line without a valid subtask prefix: %r" % line
                        for line in _bad_subtasks(run.printed, case.prints))
    elif run.printed:
        problems.append("unexpected stdout lines: %r" % run.printed[:10])
    if problems:
        raise SideBySideFailure("%s: the ORACLE run does not match the case (harness or case problem):\n  %s\n"
                                "oracle records: %r\noracle printed: %r\n--- oracle stderr tail ---\n%s"
                                % (case.name, "\n  ".join(problems), run.records, run.printed, run.stderr_tail))


def compare(case: Case, oracle: Run, ours: Run):
    problems = []
    for name, spec in case.outputs.items():
        expected, got = _records_view(oracle.records[name], spec), _records_view(ours.records[name], spec)
        if expected != got:
            diff = (_exact_diff(expected, got) if spec.compare == "exact" else _counter_diff(expected, got))
            problems.append("output topic %s (%s%s%s):\n%s" % (
                name, spec.compare, ", keys" if spec.keys else "", ", timestamps" if spec.timestamps else "",
                diff))
        if spec.order_key:
            problems.extend("output %s order: %s" % (name, p)
                            for p in order_violations(ours.records[name], spec.order_key))
    if case.prints is not None:
        expected, got = _print_view(oracle.printed, case.prints), _print_view(ours.printed, case.prints)
        if expected != got:
            problems.append("printed lines (multiset%s):\n%s" % (
                ", subtask numbers ignored" if case.prints.strip_subtask else "", _counter_diff(expected, got)))
        elif case.prints.order != "multiset":
            expected, got = _ordered_prints(oracle.printed, case.prints), _ordered_prints(ours.printed, case.prints)
            if expected != got:
                problems.append("printed lines in another order (%s):\n%s" % (case.prints.order, "\n".join(
                    "\n".join(difflib.unified_diff(expected[group], got.get(group, []), "oracle %s" % group,
                                                   "pyflink-compat", lineterm="", n=2))
                    for group in expected if expected[group] != got.get(group))))
        problems.extend("printed line without a valid subtask prefix: %r" % line
                        for line in _bad_subtasks(ours.printed, case.prints))
    elif ours.printed:
        problems.append("unexpected stdout lines on pyflink-compat: %r" % ours.printed[:10])
    if problems:
        raise SideBySideFailure("%s: pyflink-compat differs from PyFlink:\n%s\n--- pyflink-compat stderr tail "
                                "---\n%s" % (case.name, "\n".join(problems), ours.stderr_tail[-2500:]))


def run_case(case: Case, oracle_python: str, bootstrap: str) -> Tuple[Run, Run]:
    with tempfile.TemporaryDirectory(prefix="side-by-side-%s-" % case.name) as workdir:
        # The engines run at the same time, on topics of their own: most of each run is a JVM starting.
        with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="oracle") as pool:
            oracle_run = pool.submit(run_engine, case, ORACLE,
                                     lambda job, args: oracle_command(oracle_python, job, args), bootstrap, workdir)
            try:
                ours = run_engine(case, OURS, ours_command, bootstrap, workdir)
            except BaseException:
                oracle_run.exception()       # the oracle's process ends before its workdir goes
                raise
            oracle = oracle_run.result()
        check_oracle(case, oracle)
    sys.stderr.write("[side-by-side] %s: oracle %.1f s, pyflink-compat %.1f s\n"
                     % (case.name, oracle.seconds, ours.seconds))
    compare(case, oracle, ours)
    return oracle, ours


def run_probe_script(script: str, oracle_python: str, timeout_s: float = 180) -> Tuple[List[str], List[str]]:
    """Run a probe script (prints one line per probe) under real PyFlink and under pyflink-compat
    (``--compat``: pyflink imports resolve to pyflink_compat); return (theirs, ours) stdout lines."""
    def run(command, env):
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, env=env)
        assert result.returncode == 0, result.stderr[-2000:]
        return result.stdout.splitlines()

    oracle_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    oracle_env["PATH"] = os.path.dirname(oracle_python) + os.pathsep + oracle_env.get("PATH", "")
    oracle_env["JAVA_TOOL_OPTIONS"] = oracle_java_options(oracle_python)
    # both at once, as the cases run: most of each run is a JVM starting
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="oracle-probe") as pool:
        oracle_lines = pool.submit(run, [oracle_python, script], oracle_env)
        ours = run([sys.executable, script, "--compat"], dict(os.environ, PYTHONPATH=REPO))
        theirs = oracle_lines.result()
    return theirs, ours

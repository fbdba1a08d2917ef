"""Foundation benchmark: N records of B bytes, 2-partition topic -> map(str.upper) -> Kafka, bounded.

    /work/venv/bin/python benchmarks/bench_upper.py [--records N] [--value-bytes B] [--skip-raw]

Starts its own Tansu broker (or uses KAFKA_BOOTSTRAP_SERVERS), writes the input,
then runs, one after the other, each measured the same way:

* pyflink-compat: ``python -m pyflink_compat run benchmarks/upper_job.py ...`` as a fresh process;
* the raw loop: ``benchmarks/raw_upper_loop.py`` (kafka-python consume -> upper -> produce, one process);
* real PyFlink: the same job file under $PYFLINK_ORACLE_PYTHON, when that is set.

For every run: end-to-end time (process start -> exit), time to the first output
record, steady rate (output records between 10 % and 90 % of the total over the
time between their arrivals, seen by a side consumer), peak memory (summed RSS,
and PSS, of the process and all its descendants, sampled every 0.2 s), CPU seconds
of the process tree, and a check of the output: exactly N records, each input
index once, each value upper-cased. Prints a table and writes
benchmarks/results/<timestamp>.json. See benchmarks/README.md.
"""
import argparse
import importlib.util
import json
import multiprocessing
import os
import platform
import signal
import subprocess
import sys
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
JOB = os.path.join(HERE, "upper_job.py")
RAW_LOOP = os.path.join(HERE, "raw_upper_loop.py")

PARTITIONS = 2
SAMPLE_INTERVAL_S = 0.2
INDEX_DIGITS = 10
TARGETS = {"steady_records_per_s": 40_000, "ratio_to_raw": 0.8, "first_output_s": 10.0}


# -- input ---------------------------------------------------------------------------------------

def filler(value_bytes: int) -> bytes:
    """The lower-case tail after the index: upper-casing changes every letter of it."""
    size = max(0, value_bytes - INDEX_DIGITS - 1)
    alphabet = b"abcdefghijklmnopqrstuvwxyz"
    return (alphabet * (size // len(alphabet) + 1))[:size]


def value_of(index: int, tail: bytes) -> bytes:
    return b"%0*d " % (INDEX_DIGITS, index) + tail


def _produce_partition(args):
    """Child process: write the records of one partition, the last one alone and acknowledged."""
    bootstrap, topic, partition, records, value_bytes = args
    from kafka import KafkaProducer
    tail = filler(value_bytes)
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks=1, enable_idempotence=False, linger_ms=5,
                             batch_size=256 * 1024, max_in_flight_requests_per_connection=5)
    try:
        indexes = range(partition, records, PARTITIONS)
        last = indexes[-1] if len(indexes) else None
        for i in indexes:
            if i == last:
                break
            producer.send(topic, value=value_of(i, tail), partition=partition)
        producer.flush(timeout=300)
        if last is not None:
            # Tansu's end offset is the last batch's base offset + 1: a batch of one makes it exact.
            producer.send(topic, value=value_of(last, tail), partition=partition).get(timeout=60)
        return len(indexes)
    finally:
        producer.close(timeout=10)


def produce_input(bootstrap, topic, records, value_bytes):
    started = time.monotonic()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(PARTITIONS) as pool:
        result = pool.map_async(_produce_partition,
                                [(bootstrap, topic, p, records, value_bytes) for p in range(PARTITIONS)])
        counts = result.get(timeout=max(120.0, records / 5000.0))
    elapsed = time.monotonic() - started
    return sum(counts), elapsed


def create_topics(bootstrap, names, partitions):
    from kafka import KafkaAdminClient
    from kafka.admin import NewTopic
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(n, partitions, 1) for n in names])
        deadline = time.monotonic() + 20
        while True:
            described = admin.describe_topics(list(names))
            if all(d["error_code"] == 0 and len(d["partitions"]) == partitions for d in described):
                return
            if time.monotonic() > deadline:
                raise TimeoutError("topics %s not ready: %s" % (names, described))
            time.sleep(0.1)
    finally:
        admin.close()


def end_offsets(bootstrap, topic):
    from kafka import KafkaConsumer, TopicPartition
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    try:
        return sum(consumer.end_offsets([TopicPartition(topic, p) for p in range(PARTITIONS)]).values())
    finally:
        consumer.close()


# -- watching the output -------------------------------------------------------------------------

class OutputWatcher(threading.Thread):
    """Watches the output topic while a run goes on, and checks every output record.

    mode "consumer": consumes during the run; an arrival is (time a poll returned, records so far).
    mode "offsets": during the run only asks for the end offsets, every 50 ms until the first output
    and every 100 ms after it (each lookup also costs the broker CPU on the run's cores); an arrival
    is (time, sum of end offsets). On Tansu an end offset is the base offset
    of the partition's last batch + 1, so it lags by at most one producer batch. Once the run is over
    (``run_done()``) it consumes everything for the checks.
    """

    OFFSETS_INTERVAL_S = 0.05              # until the first output record: first output within 50 ms
    OFFSETS_INTERVAL_AFTER_FIRST_S = 0.1

    def __init__(self, bootstrap, topic, expected, value_bytes, mode="consumer"):
        super().__init__(name="watch-" + topic, daemon=True)
        self.bootstrap, self.topic, self.expected, self.mode = bootstrap, topic, expected, mode
        self.upper_tail = filler(value_bytes).upper()
        self.arrivals = []                  # (monotonic time, cumulative count)
        self.count = 0
        self.seen = bytearray(expected)
        self.duplicates = 0
        self.bad = 0
        self.bad_examples = []
        self.error = None
        self.cpu_s_during_run = None
        self.cpu_s = 0.0
        self.ready = threading.Event()
        self._run_done = threading.Event()
        self._stop_requested = threading.Event()

    def run_done(self):
        self._run_done.set()

    def stop(self):
        self._run_done.set()
        self._stop_requested.set()

    def run(self):
        try:
            self._run()
        except BaseException as e:           # reported with the run's results
            self.error = repr(e)
        finally:
            self.ready.set()

    def _run(self):
        from kafka import KafkaConsumer, TopicPartition
        # fetch_max_wait_ms: Tansu sleeps about half of it on every fetch; 50 ms keeps an idle
        # watcher cheap and arrival times within ~25 ms.
        consumer = KafkaConsumer(bootstrap_servers=self.bootstrap, enable_auto_commit=False,
                                 fetch_max_wait_ms=50, check_crcs=False)
        try:
            tps = [TopicPartition(self.topic, p) for p in range(PARTITIONS)]
            consumer.assign(tps)
            consumer.seek_to_beginning(*tps)
            consumer.poll(timeout_ms=0)       # connect before the run starts
            self.ready.set()
            if self.mode == "offsets":
                last = 0
                while not self._run_done.is_set():
                    total = sum(consumer.end_offsets(tps).values())
                    if total > last:
                        self.arrivals.append((time.monotonic(), total))
                        last = total
                    self._run_done.wait(self.OFFSETS_INTERVAL_AFTER_FIRST_S if last else self.OFFSETS_INTERVAL_S)
                self.cpu_s_during_run = time.thread_time()
            while not self._stop_requested.is_set():
                polled = consumer.poll(timeout_ms=100, max_records=50_000)
                if self.cpu_s_during_run is None and self._run_done.is_set():
                    self.cpu_s_during_run = time.thread_time()
                if not polled:
                    continue
                now = time.monotonic()
                for records in polled.values():
                    self._check(records)
                if self.mode == "consumer":
                    self.arrivals.append((now, self.count))
        finally:
            self.cpu_s = time.thread_time()
            if self.cpu_s_during_run is None:
                self.cpu_s_during_run = self.cpu_s
            consumer.close()

    def _check(self, records):
        seen, tail, digits, expected = self.seen, self.upper_tail, INDEX_DIGITS, self.expected
        for record in records:
            value = record.value
            try:
                index = int(value[:digits])
            except (TypeError, ValueError):
                index = -1
            if 0 <= index < expected and value[digits + 1:] == tail and value[digits:digits + 1] == b" ":
                if seen[index]:
                    self.duplicates += 1
                else:
                    seen[index] = 1
            else:
                self.bad += 1
                if len(self.bad_examples) < 3:
                    self.bad_examples.append(repr(value[:40]))
        self.count += len(records)

    def mark(self, slot: int, value: bytes):
        """Count one output record: the first of its slot, a duplicate, or (slot -1) a bad record."""
        if 0 <= slot < self.expected:
            if self.seen[slot]:
                self.duplicates += 1
            else:
                self.seen[slot] = 1
        else:
            self.bad += 1
            if len(self.bad_examples) < 3:
                self.bad_examples.append(repr(value[:80]))

    def missing(self):
        return self.expected - sum(self.seen)

    def missing_ranges(self, limit=10):
        """Up to ``limit`` runs of missing input records, as input partition and offset ranges."""
        runs, seen = [], self.seen
        for partition in range(PARTITIONS):
            first = None
            for offset, index in enumerate(range(partition, self.expected, PARTITIONS)):
                if not seen[index]:
                    if first is None:
                        first = offset
                elif first is not None:
                    runs.append("partition %d offsets %d-%d" % (partition, first, offset - 1))
                    first = None
            if first is not None:
                runs.append("partition %d offsets %d-%d" % (partition, first, offset))
        return runs[:limit] + (["... %d more" % (len(runs) - limit)] if len(runs) > limit else [])


# -- process tree sampling -----------------------------------------------------------------------

def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except (OSError, ValueError):
        return None


def _stat(pid):
    """(ppid, utime+stime ticks, starttime) from /proc/<pid>/stat, or None."""
    text = _read("/proc/%d/stat" % pid)
    if text is None:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[19])


def _kib(text, key):
    for line in (text or "").splitlines():
        if line.startswith(key):
            return int(line.split()[1])
    return 0


def process_tree(root):
    """{pid: (cpu ticks, starttime)} for root and all its descendants."""
    stats, children = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        stat = _stat(int(name))
        if stat is not None:
            stats[int(name)] = stat
            children.setdefault(stat[0], []).append(int(name))
    tree, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in stats and pid not in tree:
            tree[pid] = stats[pid][1:]
            todo.extend(children.get(pid, ()))
    return tree


def _cmdline(pid):
    return [a for a in (_read("/proc/%d/cmdline" % pid) or "").split("\0") if a]


# A child of the JVM that has not yet run its program: Java starts processes with posix_spawn, whose child
# shares the JVM's memory until it execs, so its RSS is the JVM's own. Caught by a sample, it would count the
# JVM twice (seen as a second 500 MiB "jvm" at the peak).
SPAWNING_JVM_CHILD = "jvm child before exec (shares the JVM's memory)"


def _label(pid, root):
    """A short name for a process of the run: jvm, driver, or the Python worker module it runs."""
    cmdline = _cmdline(pid)
    if not cmdline:
        return "?"
    exe = os.path.basename(cmdline[0])
    if exe.startswith("java"):
        stat = _stat(pid)
        if pid != root and stat is not None and _cmdline(stat[0]) == cmdline:
            return SPAWNING_JVM_CHILD
        return "jvm"
    if pid == root:
        return "driver (%s)" % exe
    if "-m" in cmdline:
        modules = [a for a in cmdline[cmdline.index("-m") + 1:] if not a.startswith("-")]
        name = " ".join(m.rsplit(".", 1)[-1] if m != "pyspark.worker" else "worker" for m in modules)
        stat = _stat(pid)
        forked = stat is not None and _cmdline(stat[0]) == cmdline
        return "py %s%s" % (name, " (forked)" if forked else "")
    return exe


def machine_busy_ticks():
    """Non-idle CPU ticks of the whole machine so far (all cores), from /proc/stat."""
    fields = [int(x) for x in _read("/proc/stat").splitlines()[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields[:8]) - idle


def own_cpu_ticks(pids):
    """CPU ticks used so far by the given processes (this benchmark, the broker)."""
    total = 0
    for pid in pids:
        stat = _stat(pid)
        if stat is not None:
            total += stat[1]
    return total


def wait_until_quiet(max_wait_s, busy_limit=0.25, window_s=3.0):
    """Wait (at most max_wait_s) for a window in which the machine is < busy_limit busy. Returns the
    busy fraction of the last window."""
    deadline = time.monotonic() + max_wait_s
    cores = os.cpu_count() or 1
    hz = os.sysconf("SC_CLK_TCK")
    while True:
        before = machine_busy_ticks()
        time.sleep(window_s)
        busy = (machine_busy_ticks() - before) / hz / window_s / cores
        if busy < busy_limit or time.monotonic() + window_s > deadline:
            return busy


class TreeSampler:
    """Summed RSS of a process tree every SAMPLE_INTERVAL_S, summed PSS every PSS_INTERVAL_S, and CPU
    time per process.

    PSS comes from /proc/<pid>/smaps_rollup, which the kernel computes by walking the process's page
    tables: about 14 ms of CPU per GiB mapped, taken from the run's own cores. Read at every sample
    it slowed a 13 s run by about 1 s, so it is read less often (peak PSS is then a lower bound).
    """

    PSS_INTERVAL_S = 1.0

    def __init__(self, root):
        self.root = root
        self.peak_rss_kib = 0
        self.peak_pss_kib = 0
        self.peak_breakdown = {}
        self.cpu_ticks = {}                  # (pid, starttime) -> last seen ticks
        self.labels = {}
        self.peak_processes = 0
        self.known = set()                   # (pid, starttime) ever in the tree
        self.last_pss_at = None

    def sample(self):
        tree = process_tree(self.root)
        rss = pss = 0
        now = time.monotonic()
        read_pss = self.last_pss_at is None or now - self.last_pss_at >= self.PSS_INTERVAL_S
        if read_pss:
            self.last_pss_at = now
        breakdown = {}
        for pid, (ticks, start) in tree.items():
            key = (pid, start)
            self.known.add(key)
            self.cpu_ticks[key] = ticks
            self.labels[key] = _label(pid, self.root)  # each time: the launcher script execs into java
            if self.labels[key] == SPAWNING_JVM_CHILD:
                continue
            r = _kib(_read("/proc/%d/status" % pid), "VmRSS:")
            rss += r
            if read_pss:
                pss += _kib(_read("/proc/%d/smaps_rollup" % pid), "Pss:")
            label = self.labels[key]
            total, count = breakdown.get(label, (0, 0))
            breakdown[label] = (total + r, count + 1)
        if rss > self.peak_rss_kib:
            self.peak_rss_kib = rss
            self.peak_breakdown = breakdown
        self.peak_pss_kib = max(self.peak_pss_kib, pss)
        self.peak_processes = max(self.peak_processes, len(tree))

    def cpu_seconds(self):
        return sum(self.cpu_ticks.values()) / os.sysconf("SC_CLK_TCK")

    def started_by_label(self):
        """How many processes of each kind the run started (each pid seen once)."""
        result = {}
        for label in self.labels.values():
            result[label] = result.get(label, 0) + 1
        return dict(sorted(result.items(), key=lambda kv: -kv[1]))

    def cpu_by_label(self):
        result = {}
        for key, ticks in self.cpu_ticks.items():
            label = self.labels[key]
            result[label] = result.get(label, 0.0) + ticks / os.sysconf("SC_CLK_TCK")
        return {k: round(v, 1) for k, v in sorted(result.items(), key=lambda kv: -kv[1])}

    def leftovers(self):
        """Processes of the tree still alive after the root exited (same pid and start time)."""
        alive = []
        for pid, start in self.known:
            stat = _stat(pid)
            if stat is not None and stat[2] == start and pid != self.root:
                alive.append(pid)
        return alive


# -- one measured run ----------------------------------------------------------------------------

def steady_rate(arrivals, total, low=0.1, high=0.9):
    """Records/s between the poll that reached low*total and the one that reached high*total."""
    first = next(((t, c) for t, c in arrivals if c >= low * total), None)
    last = next(((t, c) for t, c in arrivals if c >= high * total), None)
    if first is None or last is None or last[0] <= first[0]:
        return None
    return (last[1] - first[1]) / (last[0] - first[0])


def measured_run(name, command, env, bootstrap, output_topic, records, value_bytes, timeout_s, log_path,
                 own_pids=(), watch="consumer"):
    watcher = OutputWatcher(bootstrap, output_topic, records, value_bytes, watch)
    watcher.start()
    if not watcher.ready.wait(30):
        raise TimeoutError("output watcher for %s did not start" % name)
    if watcher.error:
        raise RuntimeError("output watcher failed: %s" % watcher.error)
    result = {"name": name, "command": command}
    own_pids = [os.getpid()] + list(own_pids)
    hz = os.sysconf("SC_CLK_TCK")
    with open(log_path, "wb") as log:
        busy_before, own_before = machine_busy_ticks(), own_cpu_ticks(own_pids)
        started = time.monotonic()
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=REPO,
                                   start_new_session=True)
        sampler = TreeSampler(process.pid)
        timed_out = False
        try:
            while process.poll() is None:
                sampler.sample()
                if time.monotonic() - started > timeout_s:
                    timed_out = True
                    break
                time.sleep(SAMPLE_INTERVAL_S)
        finally:
            if process.poll() is None:
                _kill_group(process)
        ended = time.monotonic()
        busy_after, own_after = machine_busy_ticks(), own_cpu_ticks(own_pids)
    # CPU the machine spent on neither the run, this benchmark (watcher) nor the broker: other work.
    other_cpu_s = ((busy_after - busy_before) - (own_after - own_before)) / hz - sampler.cpu_seconds()
    # Descendants that outlive the run: give them a grace period to exit by themselves, then kill them.
    leftovers = sampler.leftovers()
    grace_deadline = time.monotonic() + 10
    while leftovers and time.monotonic() < grace_deadline:
        time.sleep(0.2)
        leftovers = sampler.leftovers()
    for pid in leftovers:                    # processes this run started, by id
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

    watcher.run_done()
    # Everything the run wrote should be readable now; give the watcher a deadline to catch up.
    catch_up_deadline = time.monotonic() + max(30.0, records / 20000.0)
    while watcher.count < records and time.monotonic() < catch_up_deadline and watcher.is_alive():
        time.sleep(0.1)
    time.sleep(1.0)                          # anything beyond the expected count shows up as extra
    watcher.stop()
    watcher.join(30)

    e2e_s = ended - started
    arrivals = watcher.arrivals
    first_output = (arrivals[0][0] - started) if arrivals else None
    last_output = (arrivals[-1][0] - started) if arrivals else None
    steady = steady_rate(arrivals, records)
    missing = watcher.missing()
    result.update({
        "exit_code": process.returncode,
        "timed_out": timed_out,
        "end_to_end_s": round(e2e_s, 3),
        "end_to_end_records_per_s": round(records / e2e_s, 1),
        "first_output_s": round(first_output, 3) if first_output is not None else None,
        "last_output_s": round(last_output, 3) if last_output is not None else None,
        "steady_records_per_s": round(steady, 1) if steady is not None else None,
        "peak_rss_mib": round(sampler.peak_rss_kib / 1024.0, 1),
        "peak_pss_mib": round(sampler.peak_pss_kib / 1024.0, 1),
        "peak_rss_breakdown": {k: "%.0f MiB in %d process%s" % (v / 1024.0, n, "" if n == 1 else "es")
                               for k, (v, n) in sorted(sampler.peak_breakdown.items(), key=lambda kv: -kv[1][0])},
        "peak_processes": sampler.peak_processes,
        "cpu_s": round(sampler.cpu_seconds(), 1),
        "cpu_us_per_record": round(sampler.cpu_seconds() * 1e6 / records, 1),
        "cpu_s_by_process": sampler.cpu_by_label(),
        "processes_started": sampler.started_by_label(),
        "other_cpu_s_during_run": round(max(0.0, other_cpu_s), 1),
        "machine_cpus": os.cpu_count(),
        "leftover_processes_killed_after_10s": len(leftovers),
        "output": {"records": watcher.count, "missing": missing, "duplicates": watcher.duplicates,
                   "missing_input": watcher.missing_ranges() if missing else [],
                   "not_upper_cased_or_unknown": watcher.bad, "bad_examples": watcher.bad_examples,
                   "watcher_error": watcher.error, "watcher_mode": watch,
                   "watcher_cpu_s_during_run": round(watcher.cpu_s_during_run or 0.0, 1)},
        "output_ok": (watcher.count == records and missing == 0 and watcher.duplicates == 0
                      and watcher.bad == 0 and watcher.error is None),
        "ok": False,
        "log": os.path.relpath(log_path, REPO),
        "arrivals": _thin(arrivals, started),
    })
    if missing:
        # Read the whole output again with a fresh consumer: tells records the run never wrote from records
        # the watcher, reading while they were written, did not get.
        result["output_recheck"] = recheck_output(bootstrap, output_topic, records, value_bytes)
        if result["output_recheck"]["missing"] == 0 and result["output_recheck"]["duplicates"] == 0:
            result["output_ok"] = result["output_recheck"]["records"] == records and watcher.bad == 0
    result["ok"] = result["output_ok"] and process.returncode == 0 and not timed_out
    if process.returncode != 0 or timed_out:
        result["log_tail"] = _tail(log_path)
    return result


def recheck_output(bootstrap, topic, records, value_bytes):
    checker = OutputWatcher(bootstrap, topic, records, value_bytes, "offsets")
    checker.start()
    checker.ready.wait(30)
    checker.run_done()
    deadline = time.monotonic() + max(30.0, records / 20000.0)
    while checker.count < records and time.monotonic() < deadline and checker.is_alive():
        time.sleep(0.1)
    time.sleep(1.0)
    checker.stop()
    checker.join(30)
    missing = checker.missing()
    return {"records": checker.count, "missing": missing, "duplicates": checker.duplicates,
            "missing_input": checker.missing_ranges() if missing else [], "error": checker.error}


def _thin(arrivals, started, points=200):
    """The arrival curve as (seconds since start, cumulative records), at most ``points`` of it."""
    step = max(1, len(arrivals) // points)
    chosen = arrivals[::step]
    if arrivals and chosen[-1] is not arrivals[-1]:
        chosen.append(arrivals[-1])
    return [[round(t - started, 3), c] for t, c in chosen]


def _tail(path, lines=30):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace").splitlines()[-lines:]


def _kill_group(process):
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except OSError:
        pass
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        process.wait(10)


# -- the benchmark -------------------------------------------------------------------------------

def load_test_broker():
    if REPO not in sys.path:                 # tests/broker.py may import pyflink_compat
        sys.path.insert(0, REPO)
    spec = importlib.util.spec_from_file_location("pyflink_compat_test_broker",
                                                  os.path.join(REPO, "tests", "broker.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TansuBroker


def versions():
    found = {"python": platform.python_version()}
    for module in ("pyspark", "kafka", "pyarrow", "crc32c"):
        try:
            found[module] = getattr(__import__(module), "__version__", "installed")
        except ImportError:
            found[module] = None
    return found


def fmt(value, spec="{:,.0f}", none="—"):
    return none if value is None else spec.format(value)


def print_table(runs, records, value_bytes, watch):
    print()
    print("%s records of %d B, %d partitions -> map(str.upper) -> Kafka, bounded, AT_LEAST_ONCE (output timed by %s)"
          % (format(records, ","), value_bytes, PARTITIONS,
             "a side consumer" if watch == "consumer" else "end offsets"))
    header = ("run", "ok", "end-to-end s", "e2e rec/s", "first out s", "steady rec/s", "peak RSS MiB",
              "peak PSS MiB", "CPU s", "CPU us/rec", "other load CPU s")
    rows = []
    for r in runs:
        if r.get("skipped"):
            continue
        rows.append((r["name"], "yes" if r["ok"] else "NO", fmt(r["end_to_end_s"], "{:.1f}"),
                     fmt(r["end_to_end_records_per_s"]), fmt(r["first_output_s"], "{:.1f}"),
                     fmt(r["steady_records_per_s"]), fmt(r["peak_rss_mib"]), fmt(r["peak_pss_mib"]),
                     fmt(r["cpu_s"], "{:.1f}"), fmt(r["cpu_us_per_record"], "{:.1f}"),
                     fmt(r["other_cpu_s_during_run"], "{:.1f}")))
    widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths))))


def evaluate(runs):
    by_name = {r["name"]: r for r in runs if not r.get("skipped")}
    compat, raw = by_name.get("pyflink-compat"), by_name.get("raw loop")
    verdict = {}
    if compat:
        steady = compat["steady_records_per_s"]
        verdict["steady_records_per_s"] = {"value": steady, "target": TARGETS["steady_records_per_s"],
                                           "met": steady is not None and steady >= TARGETS["steady_records_per_s"]}
        first = compat["first_output_s"]
        verdict["first_output_s"] = {"value": first, "target": TARGETS["first_output_s"],
                                     "met": first is not None and first <= TARGETS["first_output_s"]}
        if raw and raw["steady_records_per_s"] and steady:
            ratio = steady / raw["steady_records_per_s"]
            verdict["ratio_to_raw_steady"] = {"value": round(ratio, 3), "target": TARGETS["ratio_to_raw"],
                                              "met": ratio >= TARGETS["ratio_to_raw"]}
        if raw:
            verdict["ratio_to_raw_end_to_end"] = {
                "value": round(compat["end_to_end_records_per_s"] / raw["end_to_end_records_per_s"], 3)}
    return verdict


def ensure_bytecode() -> str:
    """pip compiles an installed package's modules to bytecode; a source checkout's are compiled on first import,
    unless PYTHONDONTWRITEBYTECODE is set, and then in every Python worker of every run. Compile pyflink_compat as
    pip would, so that the runs measure an installed package."""
    import compileall
    package = os.path.join(os.path.dirname(HERE), "pyflink_compat")
    compiled = compileall.compile_dir(package, quiet=1)
    return "compiled before the runs, as pip install does" if compiled else "compiling failed: runs compile it"


def ensure_jvm_class_archive(env, record: bool) -> str:
    """pyflink-compat's driver JVM starts from a class archive it records on first use
    (pyflink_compat/runtime/jvm_archive.py). Users run with it from their second job on: record it
    before the timed run unless --cold, and say which case was measured."""
    probe = ("import os, sys\n"
             "from pyflink_compat.runtime import jvm_archive, session\n"
             "home = session._spark_home_without_zipped_python()\n"
             "launch = dict(session._launch_settings({}).settings)\n"
             "path = jvm_archive.archive_path(home, session.DEFAULT_DRIVER_JAVA_OPTIONS,\n"
             "                                launch.get('spark.driver.extraClassPath', ''))\n"
             "print('present' if path and os.path.isfile(path) else 'missing')\n")
    def probed():
        return subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                              timeout=60).stdout.strip()

    state = probed()
    if state != "missing":
        return state or "unknown"
    if not record:
        return "missing: the measured run records it (a first run on this machine)"
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "from pyflink_compat.runtime import session; session.get_session({})"],
                   env=env, capture_output=True, timeout=300)
    if probed() != "present":        # e.g. another process is recording it: the runs start without it
        print("WARNING: the JVM class archive could not be recorded; the runs are measured without it",
              flush=True)
        return "missing: recording it failed, the runs start without it (cold JVM)"
    return "recorded before the runs, in %.0f s (once per machine)" % (time.monotonic() - started)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--skip-raw", action="store_true", help="don't run the raw kafka-python loop")
    parser.add_argument("--skip-compat", action="store_true", help="don't run pyflink-compat")
    parser.add_argument("--parallelism", type=int, default=None, help="passed to the job (default: none set)")
    parser.add_argument("--watch", choices=("consumer", "offsets"), default="consumer",
                        help="how the output is timed during a run: a consuming side thread (default), or end "
                             "offsets only (takes no CPU from the run; records are checked after it)")
    parser.add_argument("--compat-arg", action="append", default=[], metavar="ARG",
                        help="extra argument for 'pyflink-compat run' before the job file, e.g. "
                             "--compat-arg=-Dspark.sql.shuffle.partitions=2 (repeatable)")
    parser.add_argument("--wait-quiet", type=float, default=0.0, metavar="S",
                        help="before each run, wait up to S seconds for the machine to be < 25%% busy")
    parser.add_argument("--cold", action="store_true",
                        help="don't record the JVM class archive before the runs when it is missing (then the "
                             "pyflink-compat run records it: a first run on this machine)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="deadline per run in seconds (default: 120 + records / 2000)")
    args = parser.parse_args(argv)
    if args.value_bytes < INDEX_DIGITS + 1:
        parser.error("--value-bytes must be at least %d" % (INDEX_DIGITS + 1))
    records, value_bytes = args.records, args.value_bytes
    timeout_s = args.timeout or 120.0 + records / 2000.0

    os.makedirs(RESULTS, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    broker = None
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    runs = []
    result = {"benchmark": "upper", "timestamp": stamp, "watch": args.watch, "records": records,
              "value_bytes": value_bytes,
              "partitions": PARTITIONS, "cpus": os.cpu_count(), "versions": versions(), "targets": TARGETS}
    try:
        if not bootstrap:
            broker = load_test_broker()().start()
            bootstrap = broker.bootstrap_servers
            result["broker"] = "tansu (tests/broker.py)"
        else:
            result["broker"] = "KAFKA_BOOTSTRAP_SERVERS"
        result["bootstrap_servers"] = bootstrap
        suffix = uuid.uuid4().hex[:8]
        topics = {k: "bench-upper-%s-%s" % (k, suffix) for k in ("in", "out-compat", "out-raw", "out-oracle")}
        create_topics(bootstrap, list(topics.values()), PARTITIONS)

        print("producing %s records of %d B to %s ..." % (format(records, ","), value_bytes, topics["in"]),
              flush=True)
        produced, produce_s = produce_input(bootstrap, topics["in"], records, value_bytes)
        end = end_offsets(bootstrap, topics["in"])
        result["input"] = {"topic": topics["in"], "produced": produced, "produce_s": round(produce_s, 2),
                           "produce_records_per_s": round(produced / produce_s, 1), "end_offsets_sum": end}
        print("  %s records in %.1f s (%s/s); end offsets sum %s"
              % (format(produced, ","), produce_s, format(round(produced / produce_s), ","), format(end, ",")),
              flush=True)
        if end != records:
            raise RuntimeError("input end offsets sum to %d, expected %d" % (end, records))

        job_args = [bootstrap, topics["in"]]
        extra = [str(args.parallelism)] if args.parallelism else []
        env = dict(os.environ)
        env["PYTHONPATH"] = REPO + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")

        compat_env = dict(env)
        # Timestamps of the job's phases (session started, query running) in its log; driver only.
        compat_env.setdefault("PYFLINK_COMPAT_LOG_LEVEL", "INFO")
        plans = []
        if not args.skip_compat:
            result["jvm_class_archive"] = ensure_jvm_class_archive(compat_env, record=not args.cold)
            result["bytecode"] = ensure_bytecode()
            print("JVM class archive: %s" % result["jvm_class_archive"], flush=True)
            plans.append(("pyflink-compat",
                          [sys.executable, "-m", "pyflink_compat", "run"] + args.compat_arg + [JOB] + job_args
                          + [topics["out-compat"]] + extra, compat_env, topics["out-compat"]))
        if not args.skip_raw:
            plans.append(("raw loop", [sys.executable, RAW_LOOP] + job_args + [topics["out-raw"], str(timeout_s)],
                          env, topics["out-raw"]))
        oracle = os.environ.get("PYFLINK_ORACLE_PYTHON")
        if oracle:
            oracle_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            # PyFlink starts its Python workers as 'python' from PATH: the oracle's own first.
            oracle_env["PATH"] = os.path.dirname(oracle) + os.pathsep + oracle_env.get("PATH", "")
            plans.append(("real PyFlink", [oracle, JOB] + job_args + [topics["out-oracle"]] + extra, oracle_env,
                          topics["out-oracle"]))

        for name, command, run_env, out_topic in plans:
            busy = wait_until_quiet(args.wait_quiet) if args.wait_quiet else None
            print("running %s ...%s" % (name, "" if busy is None else " (machine %.0f%% busy before)" % (busy * 100)),
                  flush=True)
            log_path = os.path.join(RESULTS, "%s-%s.log" % (stamp, name.replace(" ", "-")))
            run = measured_run(name, command, run_env, bootstrap, out_topic, records, value_bytes, timeout_s,
                               log_path, own_pids=[broker.process.pid] if broker is not None else [],
                               watch=args.watch)
            run["machine_busy_before"] = None if busy is None else round(busy, 3)
            runs.append(run)
            print("  %s: %.1f s end to end, output %s" % (name, run["end_to_end_s"],
                                                          "ok" if run["output_ok"] else run["output"]), flush=True)
            if not run["ok"] and run.get("log_tail"):
                print("  exit code %s%s; log tail:\n    %s" % (run["exit_code"],
                                                            " (timed out)" if run["timed_out"] else "",
                                                            "\n    ".join(run["log_tail"])), flush=True)
        if not oracle:
            runs.append({"name": "real PyFlink", "skipped": "not installed (set PYFLINK_ORACLE_PYTHON)"})
    finally:
        if broker is not None:
            broker.stop()
        result["runs"] = runs
        result["verdict"] = evaluate(runs)
        path = os.path.join(RESULTS, "%s.json" % stamp)
        with open(path, "w") as f:
            json.dump(result, f, indent=1)

    print_table(runs, records, value_bytes, args.watch)
    for run in runs:
        if run.get("skipped"):
            print("%s: %s" % (run["name"], run["skipped"]))
    print()
    for key, v in result["verdict"].items():
        met = v.get("met")
        print("%-26s %s%s" % (key, v["value"],
                               "" if met is None else "   (target %s: %s)" % (v["target"], "met" if met else "MISSED")))
    print("\nresult: %s" % os.path.relpath(path, REPO))
    return 0 if runs and all(r.get("ok", True) for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())

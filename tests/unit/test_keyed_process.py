"""The keyed engine's timers and KeyedProcessOperator."""
from pyflink_compat.common.time import Time
from pyflink_compat.common.typeinfo import Types
from pyflink_compat.datastream.functions import KeyedProcessFunction
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.datastream.state import StateTtlConfig, ValueStateDescriptor
from pyflink_compat.datastream.time_domain import TimeDomain
from pyflink_compat.runtime.keyed import (MAX_WATERMARK, MIN_WATERMARK, InternalTimerService,
                                          KeyedProcessOperator, KeyedStateBackend, ListCollector)


class Clock(object):
    def __init__(self, now=0):
        self.now = now

    def __call__(self):
        return self.now


def _timer_service():
    backend = KeyedStateBackend()
    ts = InternalTimerService(backend)
    fired = []
    ts.on_event_time = lambda t: fired.append(("E", t.key, t.namespace, t.timestamp))
    ts.on_processing_time = lambda t: fired.append(("P", t.key, t.namespace, t.timestamp))
    return backend, ts, fired


def test_timers_dedup_delete_and_order():
    backend, ts, fired = _timer_service()
    assert ts.current_watermark() == MIN_WATERMARK
    backend.set_current_key("a")
    ts.register_event_time_timer(None, 10)
    ts.register_event_time_timer(None, 10)       # same timer
    ts.register_event_time_timer(None, 5)
    ts.register_event_time_timer("w", 10)        # other namespace: another timer
    backend.set_current_key("b")
    ts.register_event_time_timer(None, 7)
    ts.register_event_time_timer(None, 8)
    ts.delete_event_time_timer(None, 8)
    assert ts.num_event_time_timers() == 4
    ts.advance_watermark(4)
    assert fired == []
    ts.advance_watermark(10)                     # a timer at t fires when watermark >= t
    # equal timestamps: Flink's heap order (here the later registration first)
    assert fired == [("E", "a", None, 5), ("E", "b", None, 7), ("E", "a", "w", 10),
                     ("E", "a", None, 10)]
    ts.advance_watermark(3)                      # never goes back
    assert ts.current_watermark() == 10


def test_timer_registered_while_firing_waits_for_next_advance_as_pyflink():
    backend, ts, fired = _timer_service()

    def on_event(t):
        fired.append(t.timestamp)
        backend.set_current_key_with_id(t.key, t.key_id)
        if t.timestamp < 30:
            ts.register_event_time_timer(None, t.timestamp + 10)

    ts.on_event_time = on_event
    backend.set_current_key("k")
    ts.register_event_time_timer(None, 10)
    ts.register_event_time_timer(None, 15)
    ts.advance_watermark(25)
    assert fired == [10, 15]          # 20 and 25 were registered while firing: deferred
    ts.advance_watermark(26)
    assert fired == [10, 15, 20, 25]
    ts.advance_watermark(MAX_WATERMARK)
    assert fired == [10, 15, 20, 25, 30, 35]


def test_timer_registered_while_firing_fires_in_same_advance_as_flink():
    backend, ts, fired = _timer_service()
    ts.pyflink_timers = False

    def on_event(t):
        fired.append(t.timestamp)
        backend.set_current_key_with_id(t.key, t.key_id)
        if t.timestamp < 30:
            ts.register_event_time_timer(None, t.timestamp + 10)

    ts.on_event_time = on_event
    backend.set_current_key("k")
    ts.register_event_time_timer(None, 10)
    ts.advance_watermark(25)
    assert fired == [10, 20]
    ts.advance_watermark(MAX_WATERMARK)
    assert fired == [10, 20, 30]


def test_processing_time_timers():
    clock = Clock(100)
    backend = KeyedStateBackend()
    ts = InternalTimerService(backend, clock=clock)
    fired = []
    ts.on_processing_time = lambda t: fired.append(t.timestamp)
    backend.set_current_key("k")
    assert ts.current_processing_time() == 100
    ts.register_processing_time_timer(None, 150)
    ts.register_processing_time_timer(None, 120)
    ts.advance_processing_time()
    assert fired == []
    clock.now = 130
    ts.advance_processing_time()
    assert fired == [120]
    ts.advance_processing_time(200)              # explicit time
    assert fired == [120, 150]


class CountWithTimeout(KeyedProcessFunction):
    """Counts per key; emits (key, count) 10 ms (event time) after the last element; side-outputs
    odd values; a processing-time timer 50 ms after the first element emits ("pt", key)."""

    side = OutputTag("odd", Types.INT())

    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))
        self.last = runtime_context.get_state(ValueStateDescriptor("last", Types.LONG()))

    def process_element(self, value, ctx):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        if self.last.value() is not None:
            ctx.timer_service().delete_event_time_timer(self.last.value() + 10)
        else:
            ctx.timer_service().register_processing_time_timer(
                ctx.timer_service().current_processing_time() + 50)
        self.last.update(ctx.timestamp())
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 10)
        if value % 2:
            yield self.side, value
        yield ("seen", ctx.get_current_key(), value, ctx.timer_service().current_watermark())

    def on_timer(self, timestamp, ctx):
        if ctx.time_domain() == TimeDomain.EVENT_TIME:
            yield (ctx.get_current_key(), self.count.value(), ctx.timestamp())
            self.count.clear()
            self.last.clear()
        else:
            yield ("pt", ctx.get_current_key(), timestamp)


def _run(op, steps):
    for step in steps:
        if step[0] == "e":
            op.process_element(*step[1:])
        elif step[0] == "w":
            op.advance_watermark(step[1])
        else:
            op.advance_processing_time(step[1])


def test_keyed_process_operator_timers_and_side_outputs():
    clock = Clock(1000)
    out = ListCollector()
    op = KeyedProcessOperator(CountWithTimeout(), output=out, clock=clock)
    op.open()
    _run(op, [("e", "a", 1, 1), ("e", "b", 2, 3), ("e", "a", 3, 5), ("w", 14), ("w", 15),
              ("p", 1050), ("e", "b", 4, 20), ("w", MAX_WATERMARK)])
    assert out.records == [
        (("seen", "a", 1, MIN_WATERMARK), 1),
        (("seen", "b", 2, MIN_WATERMARK), 3),
        (("seen", "a", 3, MIN_WATERMARK), 5),
        (("b", 1, 13), 13),                  # on_timer results carry the timer's timestamp
        (("a", 2, 15), 15),                  # a's first timer (11) was deleted
        (("pt", "a", 1050), 1050),
        (("pt", "b", 1050), 1050),
        (("seen", "b", 4, 15), 20),
        (("b", 1, 30), 30),
    ]
    assert out.side == [("odd", 1, 1), ("odd", 3, 5)]


def test_without_side_output_the_tuple_is_a_main_output():
    out = ListCollector()
    op = KeyedProcessOperator(CountWithTimeout(), output=out, has_side_output=False, clock=Clock())
    op.open()
    op.process_element("a", 1, 1)
    assert out.records[0][0][0] is CountWithTimeout.side and out.side == []


def test_keyed_process_snapshot_restore_continues_identically():
    steps_a = [("e", "a", 1, 1), ("e", "b", 2, 3), ("e", "a", 3, 5), ("w", 12)]
    steps_b = [("e", "b", 5, 14), ("w", 15), ("p", 1100), ("w", MAX_WATERMARK)]

    clock = Clock(1000)
    whole = ListCollector()
    op = KeyedProcessOperator(CountWithTimeout(), output=whole, clock=clock)
    op.open()
    _run(op, steps_a + steps_b)

    clock2 = Clock(1000)
    first = ListCollector()
    op1 = KeyedProcessOperator(CountWithTimeout(), output=first, clock=clock2)
    op1.open()
    _run(op1, steps_a)
    data = op1.snapshot()
    op1.close()
    second = ListCollector()
    op2 = KeyedProcessOperator(CountWithTimeout(), output=second, clock=clock2)
    op2.restore(data)
    op2.open()
    _run(op2, steps_b)
    assert first.records + second.records == whole.records
    assert first.side + second.side == whole.side
    assert op2.current_watermark() == MAX_WATERMARK


class TtlCounter(KeyedProcessFunction):
    def open(self, runtime_context):
        d = ValueStateDescriptor("c", Types.LONG())
        d.enable_time_to_live(StateTtlConfig.new_builder(Time.milliseconds(100)).build())
        self.c = runtime_context.get_state(d)

    def process_element(self, value, ctx):
        c = (self.c.value() or 0) + 1
        self.c.update(c)
        yield c


def test_state_ttl_with_injected_clock():
    clock = Clock(0)
    out = ListCollector()
    op = KeyedProcessOperator(TtlCounter(), output=out, clock=clock)
    op.open()
    for now in (0, 50, 149, 249, 300):
        clock.now = now
        op.process_element("k", None, None)
    # 0 -> 1, 50 -> 2 (written at 0, alive until 100), 149 -> 3 (written at 50), 249 -> 1
    # (written at 149, expired at 249), 300 -> 2
    assert out.values() == [1, 2, 3, 1, 2]


class OracleKPF(KeyedProcessFunction):
    side = OutputTag("side", Types.STRING())

    def open(self, rc):
        self.cnt = rc.get_state(ValueStateDescriptor("cnt", Types.INT()))

    def process_element(self, value, ctx):
        c = (self.cnt.value() or 0) + 1
        self.cnt.update(c)
        wm = ctx.timer_service().current_watermark()
        ctx.timer_service().register_event_time_timer(value[1] + 5)
        if value[1] % 2:
            yield self.side, "odd-%s" % value[1]
        yield ("el", value[0], value[1], c, wm)

    def on_timer(self, timestamp, ctx):
        wm = ctx.timer_service().current_watermark()
        yield ("timer", ctx.get_current_key(), timestamp, ctx.timestamp(), wm, str(ctx.time_domain()))
        if timestamp % 10 == 6 and timestamp + 1 <= wm:
            ctx.timer_service().register_event_time_timer(timestamp + 1)   # already due


def test_oracle_keyed_process_function():
    # Replays a real PyFlink 2.3.0 job (parallelism 1, bounded out-of-orderness 0, watermarks
    # recorded at each element): outputs, side outputs and timestamps are PyFlink's.
    out = ListCollector()
    op = KeyedProcessOperator(OracleKPF(), output=out)
    op.open()
    for key, ts, wm in (("a", 1, MIN_WATERMARK), ("b", 2, 0), ("a", 11, 1), ("b", 3, 10),
                        ("a", 30, 10), ("b", 31, 10), ("a", 40, 30)):
        op.advance_watermark(wm)
        op.process_element(key, (key, ts), ts)
    op.advance_watermark(39)
    op.end_input()
    mn, mx = MIN_WATERMARK, MAX_WATERMARK
    ev = "TimeDomain.EVENT_TIME"
    assert out.records == [
        (("el", "a", 1, 1, mn), 1), (("el", "b", 2, 1, 0), 2), (("el", "a", 11, 2, 1), 11),
        (("timer", "a", 6, 6, 10, ev), 6), (("timer", "b", 7, 7, 10, ev), 7),
        (("el", "b", 3, 2, 10), 3), (("el", "a", 30, 3, 10), 30), (("el", "b", 31, 3, 10), 31),
        (("timer", "a", 7, 7, 30, ev), 7), (("timer", "b", 8, 8, 30, ev), 8),
        (("timer", "a", 16, 16, 30, ev), 16), (("el", "a", 40, 4, 30), 40),
        (("timer", "a", 17, 17, 39, ev), 17), (("timer", "a", 35, 35, 39, ev), 35),
        (("timer", "b", 36, 36, 39, ev), 36), (("timer", "b", 37, 37, mx, ev), 37),
        (("timer", "a", 45, 45, mx, ev), 45)]
    assert out.side == [("side", "odd-1", 1), ("side", "odd-11", 11), ("side", "odd-3", 3),
                        ("side", "odd-31", 31)]


class NoTs(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield ("nots", ctx.timestamp(), ctx.timer_service().current_watermark())


def test_oracle_record_without_timestamp():
    # PyFlink: ctx.timestamp() is Long.MIN_VALUE and so is the output's timestamp
    out = ListCollector()
    op = KeyedProcessOperator(NoTs(), output=out)
    op.open()
    op.process_element("x", ("x", 1), None)
    assert out.records == [(("nots", MIN_WATERMARK, MIN_WATERMARK), MIN_WATERMARK)]


def test_oracle_equal_timestamp_order_is_flinks_heap_order():
    # Real PyFlink 2.3.0, parallelism 1: keys k0..k39 each register an event-time timer at 100
    # (and k3, k10, k17, ... one at 50 too) in that order; one watermark fires them all:
    backend, ts, fired = _timer_service()
    for i in range(40):
        backend.set_current_key("k%d" % i)
        ts.register_event_time_timer(None, 100)
        if i % 7 == 3:
            ts.register_event_time_timer(None, 50)
    data = ts.snapshot_object()
    ts.advance_watermark(MAX_WATERMARK)
    oracle = (
        "k3 k17 k31 k38 k10 k24 | k35 k34 k33 k32 k15 k31 k30 k29 k28 k27 k26 k25 k11 k24 k23 k22 "
        "k21 k20 k19 k9 k8 k17 k16 k7 k14 k13 k12 k5 k4 k10 k0 k1 k3 k6 k37 k2 k18 k39 k36 k38")
    expected = [(k, 50) for k in oracle.split(" | ")[0].split()] + \
               [(k, 100) for k in oracle.split(" | ")[1].split()]
    assert [(f[1], f[3]) for f in fired] == expected
    # a restored queue keeps the heap layout, so the order stays the same
    backend2, ts2, fired2 = _timer_service()
    ts2.restore_object(data)
    ts2.advance_watermark(MAX_WATERMARK)
    assert [(f[1], f[3]) for f in fired2] == expected


def test_pyflink_mode_defers_deletes_made_while_firing():
    backend, ts, fired = _timer_service()

    def on_event(t):
        fired.append(t.timestamp)
        backend.set_current_key_with_id(t.key, t.key_id)
        if t.timestamp == 5:
            ts.delete_event_time_timer(None, 8)     # oracle: PyFlink still fires 8

    ts.on_event_time = on_event
    backend.set_current_key("k")
    ts.register_event_time_timer(None, 5)
    ts.register_event_time_timer(None, 8)
    ts.advance_watermark(10)
    assert fired == [5, 8]
    ts.pyflink_timers = False
    fired.clear()
    ts.register_event_time_timer(None, 15)
    ts.register_event_time_timer(None, 18)
    ts.on_event_time = lambda t: (fired.append(t.timestamp),
                                  ts.delete_event_time_timer(None, 18))
    ts.advance_watermark(20)
    assert fired == [15]


class TtlProbe(KeyedProcessFunction):
    """value() / list and count per element, as in the oracle TTL job (TTL 1000 ms)."""

    def open(self, rc):
        cfg = StateTtlConfig.new_builder(Time.milliseconds(1000)).build()
        d = ValueStateDescriptor("c", Types.INT())
        d.enable_time_to_live(cfg)
        self.c = rc.get_state(d)
        from pyflink_compat.datastream.state import ListStateDescriptor
        ld = ListStateDescriptor("l", Types.INT())
        ld.enable_time_to_live(cfg)
        self.l = rc.get_list_state(ld)

    def process_element(self, value, ctx):
        if value[1] == 'r':
            yield ("R", self.c.value(), list(self.l.get()))
        else:
            c = (self.c.value() or 0) + 1
            self.c.update(c)
            self.l.add(value[0])
            yield ("W", c, list(self.l.get()))


def test_ttl_flink_semantics_and_pyflink_cache_behaviour():
    # Oracle run (one key, TTL 1 s, writes/reads at these milliseconds): PyFlink 2.3.0 never
    # expired anything -- its Python state cache serves the values without TTL checks.
    steps = [(0, 'w'), (293, 'w'), (997, 'r'), (1701, 'r'), (2001, 'w'), (3305, 'w'), (3518, 'r')]
    oracle = [("W", 1, [0]), ("W", 2, [0, 293]), ("R", 2, [0, 293]), ("R", 2, [0, 293]),
              ("W", 3, [0, 293, 2001]), ("W", 4, [0, 293, 2001, 3305]),
              ("R", 4, [0, 293, 2001, 3305])]
    for apply_ttl in (False, True):
        clock = Clock(0)
        out = ListCollector()
        op = KeyedProcessOperator(TtlProbe(), output=out, clock=clock, apply_ttl=apply_ttl)
        op.open()
        for now, kind in steps:
            clock.now = now
            op.process_element("a", (now, kind), now)
        if not apply_ttl:
            assert out.values() == oracle
        else:   # Flink's semantics: expired 1000 ms after the last write
            assert out.values() == [
                ("W", 1, [0]), ("W", 2, [0, 293]), ("R", 2, [0, 293]), ("R", None, []),
                ("W", 1, [2001]), ("W", 1, [3305]), ("R", 1, [3305])]


def test_keyed_co_process_operator_shares_state_and_timers():
    from pyflink_compat.datastream.functions import KeyedCoProcessFunction
    from pyflink_compat.runtime.keyed.operators import KeyedCoProcessOperator

    class Join(KeyedCoProcessFunction):
        def open(self, rc):
            self.left = rc.get_state(ValueStateDescriptor("left", Types.STRING()))

        def process_element1(self, value, ctx):
            self.left.update(value)
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 10)
            return []

        def process_element2(self, value, ctx):
            yield (ctx.get_current_key(), self.left.value(), value)

        def on_timer(self, timestamp, ctx):
            yield ("expire", ctx.get_current_key(), self.left.value(), ctx.time_domain())
            self.left.clear()

    out = ListCollector()
    op = KeyedCoProcessOperator(Join(), output=out)
    op.open()
    op.process_elements([(1, "k", "L1", 1), (2, "k", "R1", 2), (2, "j", "R2", 3)])
    op.advance_watermark(11)
    op.process_element2("k", "R3", 12)
    assert out.records == [(("k", "L1", "R1"), 2), (("j", None, "R2"), 3),
                           (("expire", "k", "L1", TimeDomain.EVENT_TIME), 11),
                           (("k", None, "R3"), 12)]
    op2 = KeyedCoProcessOperator(Join(), output=ListCollector())
    op2.restore(op.snapshot())
    assert op2.current_watermark() == 11

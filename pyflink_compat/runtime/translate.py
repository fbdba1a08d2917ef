"""Turning one sink's chain of graph nodes into a Spark streaming query.

Source node -> a streaming DataFrame of (element, event_ts) from our Python
data sources. The map/filter/flat_map nodes after it become one function over
whole Arrow batches (``mapInArrow``-style), run by the source's read task right
after decoding, so records cross between the JVM and Python once on the way in
and once on the way out. Sink node -> our Kafka writer, or ``foreachBatch`` for
print/collect (which must happen in this process).
"""
import json
import logging
import traceback
import uuid
from typing import Callable, List, Optional

import attrs
import pyarrow as pa

from pyflink_compat.kafka_io import offsets as koffsets
from pyflink_compat.kafka_io import sink as ksink
from pyflink_compat.kafka_io import spec as kspec
from pyflink_compat.kafka_io import source as ksource
from pyflink_compat.kafka_io.cluster import Cluster, check_reachable
from pyflink_compat.common.typeinfo import Types
from pyflink_compat import options
from pyflink_compat.plan import graph
from pyflink_compat.plan.job import JobPlan
from pyflink_compat import codec
from pyflink_compat.runtime import collection_source, datagen_source, live_functions, metrics, printing, stage_graph
from pyflink_compat.third_party_patches import pandas_version_checked_without_import
from pyflink_compat.util import session_zone
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError, illegal_state

log = logging.getLogger("pyflink_compat")



@attrs.define
class QuerySource:
    """One source a query reads, and how to tell that it has read everything."""
    name: str                              # the task a source-side failure is reported in
    done_offsets: Optional[dict]           # end offset (JSON dict) meaning "all read"; None: unbounded
    already_done: bool = False             # a bounded source with nothing to read
    offset_committer: Optional[object] = None   # commits a Kafka source's offsets after each micro-batch
    metrics_operator: Optional[str] = None   # a Kafka source's operator name in metrics (None: not Kafka)
    parallelism: int = 1
    watermark_spec: Optional[object] = None  # the source's WatermarkSpec (its readers' watermarks in metrics)
    records_to_read: Optional[int] = None    # what a bounded Kafka source reads; None: unbounded or not Kafka


@attrs.define
class SourceRead:
    """A source's DataFrame and what is known at planning of how much it reads."""
    df: object
    done: Optional[dict]                   # see QuerySource.done_offsets
    already_done: bool
    records: Optional[int] = None          # see QuerySource.records_to_read


@attrs.define
class PlannedQuery:
    """A query ready to start, and its sources (several after a union), in the order Spark lists them in
    its progress reports."""
    name: str
    sink: graph.Node
    start: Callable[[], object]            # () -> StreamingQuery
    sources: list

    @property
    def already_done(self) -> bool:
        return all(source.already_done for source in self.sources)

    @property
    def records_to_read(self) -> Optional[int]:
        """What its sources read in all when every one is a bounded Kafka source, else None."""
        return total_records([source.records_to_read for source in self.sources])

    def source_ends(self, progress) -> list:
        """(source, end offset of the last completed micro-batch or None) for each source."""
        reported = (progress or {}).get("sources") or []
        ends = []
        for index, source in enumerate(self.sources):
            end = reported[index].get("endOffset") if index < len(reported) else None
            ends.append((source, json.loads(end) if isinstance(end, str) else end))
        return ends

    def is_done(self, progress) -> bool:
        """Every source is bounded and has read up to its end."""
        return bool(progress) and all(
            source.done_offsets is not None and end is not None and offsets_reached(end, source.done_offsets)
            for source, end in self.source_ends(progress))


def total_records(counts) -> Optional[int]:
    """The sum of record counts, None when one of them is not known."""
    return None if None in counts else sum(counts)


def offsets_reached(current: dict, target: dict) -> bool:
    if "index" in target:                                   # collection source
        return current.get("index", -1) >= target["index"]
    have = koffsets.from_json(current)
    return all(have.get(tp, -1) >= off for tp, off in koffsets.from_json(target).items())


def _offset_committer(source: graph.Node, checkpoints):
    from pyflink_compat.kafka_io import offset_commits
    if source.kind != graph.KAFKA_SOURCE or not offset_commits.commits_enabled(source.payload, checkpoints.durable):
        return None
    return offset_commits.OffsetCommitter(source.payload, source.name)


def _query_source(source: graph.Node, read: SourceRead, checkpoints) -> QuerySource:
    kafka = source.kind == graph.KAFKA_SOURCE
    return QuerySource(source.name, read.done, read.already_done, _offset_committer(source, checkpoints),
                       metrics.source_operator_name(source) if kafka else None,
                       metrics.source_parallelism(source), source.watermark_spec, read.records)


def _check_chain(chain: List[graph.Node], runtime_mode):
    source = chain[0]
    from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode
    if (runtime_mode == RuntimeExecutionMode.BATCH and source.kind == graph.KAFKA_SOURCE
            and not source.payload.bounded):
        raise illegal_state("Detected an UNBOUNDED source with the 'execution.runtime-mode' set to 'BATCH'. "
                            "This combination is not allowed, please set the 'execution.runtime-mode' to "
                            "STREAMING or AUTOMATIC", "execute")
    if source.kind not in graph.SOURCE_KINDS:
        raise UnsupportedFeatureError("A stream starting at %s" % source.name, "unsupported-apis")
    for index in (i for i, node in enumerate(chain) if node.kind == graph.KEY_BY):
        following = chain[index + 1] if index + 1 < len(chain) - 1 else None
        if following is not None and following.kind == graph.CO_INPUT:
            following = chain[index + 2]
        if following is None or following.kind not in (graph.KEYED_PROCESS, graph.WINDOW, graph.KEYED_CO_PROCESS,
                                                        graph.KEYED_BROADCAST_PROCESS):
            raise UnsupportedFeatureError("A key_by() without a keyed operation after it", "state-and-windows")
    for i, node in enumerate(chain[1:-1], start=1):
        if (node.kind in graph.KEYED_KINDS or node.kind in graph.TWO_INPUT_KINDS
                or node.kind in (graph.CO_INPUT, graph.PARTITION_CUSTOM)):
            continue
        if node.kind == graph.SIDE_OUTPUT and chain[i - 1].kind in graph.STAGE_OPERATOR_KINDS:
            continue
        if node.kind not in graph.FUNCTION_KINDS:
            raise UnsupportedFeatureError(node.name, "unsupported-apis")


# -- sources ------------------------------------------------------------------------------------

def _transform_options(transform, output_type, schema_ddl: str = None, source: graph.Node = None) -> dict:
    reader_options = {"schema": schema_ddl or codec.spark_ddl(output_type)}
    transform = metrics.with_reporting(transform, source)
    if transform is not None:
        reader_options[ksource.TRANSFORM_OPTION] = ksource.encode_object(transform)
    return reader_options


def _check_consumer_properties(spec):
    """What Kafka's consumer checks when it is created (a legacy FlinkKafkaConsumer's properties are
    not validated before the job runs)."""
    if not spec.properties.get("bootstrap.servers"):
        raise JavaStyleError("org.apache.kafka.common.config.ConfigException",
                             'Missing required configuration "bootstrap.servers" which has no default value.',
                             "execute")
    reset = spec.properties.get("auto.offset.reset")
    if reset is not None and reset.strip().lower() not in (kspec.RESET_EARLIEST, kspec.RESET_LATEST,
                                                           kspec.RESET_NONE):
        raise JavaStyleError("org.apache.kafka.common.config.ConfigException",
                             "Invalid value %s for configuration auto.offset.reset: String must be one of: "
                             "latest, earliest, none" % reset, "execute")


def _kafka_source(spark, node: graph.Node, configuration: dict, checkpoints, sink: graph.Node, transform=None,
                  output_type=None, schema_ddl: str = None, extra_options: dict = None, keyed: bool = False,
                  branch: int = 0, query_branch: Optional[int] = None, position: int = 0):
    """The source's DataFrame, its end offsets when it is bounded, whether it has nothing left to read and how
    many records it reads when it is bounded.
    ``branch``: the route of ``sink`` this source starts; ``query_branch`` and ``position``: the route whose
    checkpoint location the query uses and this source's place among the query's sources (a union)."""
    spec = node.payload
    _check_consumer_properties(spec)
    restored_stop = checkpoints.restored_stop_offsets(sink, branch)
    with Cluster(spec.properties) as cluster:
        partitions = koffsets.subscribed_partitions(cluster, spec.subscription)
        start = koffsets.resolve(cluster, spec.starting_offsets, partitions, spec.group_id)
        stop = None
        if spec.stopping_offsets is not None:
            stop = koffsets.resolve(cluster, spec.stopping_offsets, partitions, spec.group_id, starting=False)
            # A restored job stops where the original run would have (Flink keeps that in its splits).
            stop.update({tp: off for tp, off in koffsets.from_json(restored_stop).items() if tp in stop})
    checkpoints.remember_stop_offsets(sink, koffsets.to_json(stop) if stop is not None else None, branch)
    log.info("Kafka source %s: %d partition(s), start offsets %s, stop offsets %s",
             node.name, len(partitions), start, stop)
    reader_options = {
        ksource.SPEC_OPTION: ksource.encode_object(spec),
        "start_offsets": json.dumps(koffsets.to_json(start)),
        "stop_offsets": json.dumps(koffsets.to_json(stop)) if stop is not None else "",
        "element_type": ksource.encode_object(node.output_type),
        "max_records_per_batch": str(options.max_records_per_batch(configuration, keyed)),
        **_transform_options(session_zone.zoned(transform, session_zone.job_tz(configuration)),
                             output_type or node.output_type, schema_ddl, node),
        **(extra_options or {}),
    }
    df = spark.readStream.format(ksource.FORMAT_NAME).options(**reader_options).load()
    # The job finishes when every partition reaches its stopping offset: always when bounded,
    # and for set_unbounded() only without partition discovery (as Flink's enumerator does).
    finishes = stop is not None and (spec.bounded or spec.partition_discovery_interval_ms <= 0)
    done = None
    if finishes:
        done = koffsets.to_json({tp: max(stop[tp], start[tp]) for tp in partitions})
    already_done = finishes and all(start[tp] >= stop[tp] for tp in partitions)
    if finishes and not already_done:                    # a restored run may have nothing left to read
        committed = checkpoints.last_committed_source_offsets(sink, branch if query_branch is None else query_branch)
        already_done = (bool(committed) and len(committed) > position and committed[position] is not None
                        and offsets_reached(committed[position], done))
    records = sum(max(0, stop[tp] - start[tp]) for tp in partitions) if finishes else None
    return SourceRead(df, done, already_done, records)


def _generated_source(spark, node: graph.Node, job: JobPlan, transform=None, output_type=None,
                      schema_ddl: str = None):
    """A source that is not Kafka: a collection, or a 'datagen' table."""
    transform = session_zone.zoned(transform, session_zone.job_tz(job.configuration))
    if node.kind == graph.DATAGEN_SOURCE:
        return _datagen_source(spark, node, node.parallelism or job.parallelism, transform, output_type, schema_ddl)
    return _collection_source(spark, node, transform, output_type, schema_ddl)


def _datagen_source(spark, node: graph.Node, parallelism: int, transform=None, output_type=None,
                    schema_ddl: str = None):
    reader_options = {
        "spec": ksource.encode_object(node.payload),
        "parallelism": str(parallelism),
        "row_type": ksource.encode_object(node.output_type),
        **_transform_options(transform, output_type or node.output_type, schema_ddl),
    }
    df = spark.readStream.format(datagen_source.FORMAT_NAME).options(**reader_options).load()
    done = datagen_source.final_offset(node.payload, parallelism)
    return SourceRead(df, done, done is not None and done["index"] == 0)


def _collection_source(spark, node: graph.Node, transform=None, output_type=None, schema_ddl: str = None):
    elements = node.payload.elements
    reader_options = {
        "elements": ksource.encode_object(elements),
        "element_type": ksource.encode_object(node.output_type),
        "size": str(len(elements)),
        **_transform_options(transform, output_type or node.output_type, schema_ddl),
    }
    df = spark.readStream.format(collection_source.FORMAT_NAME).options(**reader_options).load()
    return SourceRead(df, collection_source.final_offset(len(elements)), len(elements) == 0)


# -- user functions -----------------------------------------------------------------------------

def fused_functions(nodes: List[graph.Node], input_type, output_type, job_name: str, parallelism: int):
    """One function over Arrow batches applying the per-element nodes in order (mapInArrow-style).

    Elements keep their timestamp (see runtime/chain.py). A node with a declared (non-pickled) output
    type converts its outputs to that type, as the operator boundary does in PyFlink, so a later
    function sees the same values it would there.
    """
    from pyflink_compat.runtime.chain import FilterStep, build_steps, converted
    steps = build_steps(nodes, parallelism)
    settings = [(node.name, node.parallelism or parallelism) for node in nodes if node.kind != graph.SIDE_OUTPUT]

    # While only filters ran, the kept elements are the stored input values themselves, unless a
    # user function changed a Row in place (Row counts such changes) or the type's Python form could
    # differ from what is stored: then the stored rows are kept (Arrow ``take``), not re-encoded.
    may_pass_through = codec.passes_through(input_type) and output_type == input_type

    def process(steps, batch, mutation_count):
        """The output batch for one input batch, or None when nothing is left."""
        from itertools import compress
        elements = codec.to_python(codec.column(batch, codec.ELEMENT), input_type)
        timestamps = codec.column(batch, codec.EVENT_TS).to_pylist()
        # Positions in ``batch`` of the current elements, while they are still its stored values.
        positions = list(range(len(elements))) if may_pass_through else None
        changes_before = mutation_count()
        for i, step in enumerate(steps):
            elements, timestamps = step.apply(elements, timestamps)
            if positions is not None and isinstance(step, FilterStep):
                positions = list(compress(positions, step.last_flags))
                continue                   # kept elements are unchanged: nothing to convert
            positions = None
            if i != last:
                elements = converted(elements, step.convert_to)
        if not elements:
            return None
        if positions is not None and mutation_count() == changes_before:
            return batch.take(pa.array(positions, pa.int64()))
        return codec.make_batch(codec.from_python(elements, output_type), pa.array(timestamps, pa.int64()))

    last = len(steps) - 1
    pass_id = live_functions.new_pass_id()

    def open_steps(task_steps):
        from pyflink_compat.datastream.functions import SimpleRuntimeContext
        for step, (name, node_parallelism) in zip(task_steps, settings):
            index = ksource.reader_index(node_parallelism)
            step.instance = (name, index)
            if hasattr(step.function, "open"):
                step.function.open(SimpleRuntimeContext(name, index, node_parallelism, {}))

    def close_steps(task_steps):
        for step in task_steps:
            if hasattr(step.function, "close"):
                step.function.close()

    def run(batches):
        from pyflink_compat.common.types import mutation_count
        from pyflink_compat.runtime import gc_pause
        with live_functions.lease(pass_id, ksource.reader_index(parallelism), live_functions.current_batch_id(),
                                  steps, _step_functions, open_steps, close_steps,
                                  ksource.reader_tasks_if_final(parallelism),
                                  ksource.current_split_name()) as task_steps:
            for batch in batches:
                with gc_pause.paused():
                    output = process(task_steps, batch, mutation_count)
                if output is not None:
                    yield output

    return run


def _step_functions(steps) -> list:
    return [step.function for step in steps]


def direct_kafka_writes(transform, sink_spec, element_type):
    """The read task's whole job for a Kafka sink: decode, run the functions, send, flush.

    Records then never cross into the JVM and back; Spark sees one row per task (the count) and
    discards it (``noop`` sink). The micro-batch still completes only after every send of its
    tasks was acknowledged, so AT_LEAST_ONCE holds as with the Spark-side writer.
    """
    def run(batches):
        from pyflink_compat.kafka_io.sink import send_batches
        if transform is not None:
            batches = transform(batches)
        sent = send_batches(sink_spec, element_type, batches)
        yield codec.make_batch(pa.array([sent], pa.int64()), pa.array([None], pa.int64()))

    return run


def _source_tasks(source: graph.Node, parallelism: int) -> int:
    """How many read tasks a micro-batch can have: one per Kafka partition (at least ``parallelism``)."""
    if source.kind == graph.DATAGEN_SOURCE:
        return source.parallelism or parallelism
    if source.kind != graph.KAFKA_SOURCE:
        return 1
    with Cluster(source.payload.properties) as cluster:
        return max(parallelism, len(koffsets.subscribed_partitions(cluster, source.payload.subscription)))


def readers_without_partitions(source: graph.Node, parallelism: int) -> tuple:
    """The readers of an unbounded KafkaSource that Flink's split assignment gives no partition (parallelism
    above the partition count): they stay and emit no watermark, so they hold event time back downstream
    (see KeyedStagePlan.silent_inputs). A bounded source's such readers finish at once; a
    legacy consumer's mark themselves idle."""
    if source.kind != graph.KAFKA_SOURCE:
        return ()
    spec = source.payload
    if spec.bounded or spec.idle_without_partitions:
        return ()
    readers = source.parallelism or parallelism
    with Cluster(spec.properties) as cluster:
        partitions = koffsets.subscribed_partitions(cluster, spec.subscription)
    owners = {ksource.split_owner(topic, partition, readers) for topic, partition in partitions}
    return tuple(r for r in range(readers) if r not in owners)


def _prepared_kafka_sink(sink: graph.Node, spec, job_name: str, checkpoints, parallelism: int,
                         writing_tasks: Callable[[], int], branch: int = 0, job_sinks: tuple = ()):
    """The sink's spec as its tasks use it; for EXACTLY_ONCE, open transactions of earlier runs ended
    (``writing_tasks()``: how many tasks write, hence how many transactional ids there are)."""
    check_reachable(spec.bootstrap_servers)
    if spec.fixed_partitioner:
        # FlinkFixedPartitioner needs the parallel instance numbers: Spark partition id mod parallelism.
        spec = attrs.evolve(spec, subtask_parallelism=parallelism)
    if spec.delivery_guarantee != ksink.EXACTLY_ONCE:
        return spec
    if spec.origin == "FlinkKafkaProducer":
        if not checkpoints.durable:
            # Flink's legacy producer does the same: transactions only commit on checkpoints.
            log.warning("FlinkKafkaProducer with Semantic.EXACTLY_ONCE and checkpointing disabled: writing "
                        "with Semantic.NONE instead, as Flink does")
            return attrs.evolve(spec, delivery_guarantee=ksink.NONE)
        # Flink names the legacy producer's transactions after the task; ours after the job and sink.
        prefix = "%s-%s" % (job_name, sink.uid or sink.name)
        spec = attrs.evolve(spec, transactional_id_prefix=prefix)
    earlier = _earlier_sinks_of_prefix(sink, spec.transactional_id_prefix, job_sinks)
    if earlier:
        # Sinks given one prefix (Flink asks for one per sink) would write the same transactional ids from one
        # task, one transaction right after the other's: each gets ids of its own.
        spec = attrs.evolve(spec, transactional_id_prefix="%s-sink-%d" % (spec.transactional_id_prefix, earlier))
    if branch and spec.transactional_id_prefix:
        # each route's query writes with its own transactional ids (their tasks are numbered alike)
        spec = attrs.evolve(spec, transactional_id_prefix="%s-route-%d" % (spec.transactional_id_prefix, branch))
    from pyflink_compat.kafka_io import transactions
    transactions.abort_lingering(spec, writing_tasks())
    return spec


def _earlier_sinks_of_prefix(sink: graph.Node, prefix, job_sinks: tuple) -> int:
    """How many EXACTLY_ONCE Kafka sinks created before ``sink`` have the transactional id prefix ``prefix``."""
    if not prefix:
        return 0
    count = 0
    for other in job_sinks:
        if other is sink:
            return count
        if (other.kind == graph.KAFKA_SINK and other.payload.delivery_guarantee == ksink.EXACTLY_ONCE
                and other.payload.transactional_id_prefix == prefix):
            count += 1
    return 0


# -- sinks ---------------------------------------------------------------------------------------

#: The column a read task adds for a print sink: the parallel instance that printed the row.
SUBTASK_COLUMN = "subtask"


def with_reader_index(transform, parallelism: int):
    """The read task's function for a print sink: the transform's batches with the reader's instance number
    (Flink's split assignment, kafka_io/source.reader_index) as a column, for print()'s "N>" prefix."""
    def run(batches):
        if transform is not None:
            batches = transform(batches)
        index = None
        for batch in batches:
            if index is None:
                index = ksource.reader_index(parallelism)
            yield batch.append_column(SUBTASK_COLUMN, pa.array([index] * batch.num_rows, pa.int32()))

    return run


# How py4j's error text begins: Spark matches text after it against ``((.|\r\n|\r|\n)*)`` when a stopped query's
# batch function failed (was the stop the cause?), one stack frame per character: a few thousand characters
# overflow the stream thread's stack (a StackOverflowError, a thousand lines on standard error at every Ctrl-C
# of a job whose batch was in flight).
_PY4J_ERROR_TEXT = "Py4JJavaError: An error occurred while calling"


class BatchFunctionError(Exception):
    """A foreachBatch function's error, its whole text kept, without py4j's opening words (_PY4J_ERROR_TEXT)."""


def _stop_safe(write):
    """The foreachBatch function ``write``, its errors with py4j's opening words reworded."""
    def run(batch_df, batch_id):
        try:
            return write(batch_df, batch_id)
        except Exception as error:                  # noqa: BLE001 - re-raised, reworded when needed
            text = "".join(traceback.format_exception(error))
            if _PY4J_ERROR_TEXT not in text:
                raise
            raise BatchFunctionError(text.replace(_PY4J_ERROR_TEXT, "Py4JJavaError: an error occurred while calling")) \
                from None
    return run


def _print_batch_writer(sink: graph.Node, element_type, parallelism: int, out):
    identifier = sink.payload

    def write(batch_df, batch_id):
        table = batch_df.toArrow()
        if table.num_rows == 0:
            return
        elements = codec.to_python(table.column(codec.ELEMENT).combine_chunks(), element_type)
        subtasks = [s % parallelism for s in table.column(SUBTASK_COLUMN).to_pylist()]
        _print_lines(out(), identifier, elements, subtasks, element_type, parallelism)

    return write


def _print_lines(out, identifier, elements, subtasks, element_type, parallelism: int):
    """print()'s lines for elements printed by the given parallel instances, written at once."""
    lines = [printing.line_prefix(identifier, s, parallelism) + printing.element_string(e, element_type) + "\n"
             for e, s in zip(elements, subtasks)]
    if lines:
        out.write("".join(lines))
        out.flush()


def _stream_writer(df, sink: graph.Node, job_name: str, checkpoints, configuration: dict, branch: int = 0):
    """(query name, DataStreamWriter) for the query ending at ``sink``: its own checkpoint location in the
    job's checkpoint directory (runtime/checkpoints.py), the configured trigger."""
    name = "%s: %s (%s)" % (job_name, sink.name, uuid.uuid4().hex[:8])
    writer = df.writeStream.queryName(name).option("checkpointLocation", checkpoints.sink_location(sink, branch))
    interval = options.TRIGGER_INTERVAL.get(configuration)
    if interval:
        writer = writer.trigger(processingTime=interval)
    return name, writer


def _collect_batch_writer(element_type, deliver):
    def write(batch_df, batch_id):
        table = batch_df.toArrow()
        if table.num_rows:
            deliver(codec.to_collected(codec.to_python(table.column(codec.ELEMENT).combine_chunks(), element_type),
                                       element_type))

    return write


def plan_query(spark, job: JobPlan, route: "Route", job_name: str, checkpoints,
               deliver: Callable = None) -> PlannedQuery:
    sink, chain, branch = route.sink, list(route.chain), route.branch
    _check_chain(chain, job.runtime_mode)
    if any(node.kind in graph.STAGE_ENTRY_KINDS for node in chain):
        return plan_keyed_query(spark, job, [route], job_name, checkpoints, deliver)
    source, functions = chain[0], chain[1:-1]
    configuration = job.configuration
    parallelism = sink.parallelism or job.parallelism

    element_type, transform = source.output_type, None
    if functions:
        element_type = functions[-1].output_type
        # Functions without a parallelism of their own have the job's (as in Flink), also before a sink
        # with another one: they run as that many parallel instances (runtime contexts, metrics, state)
        transform = fused_functions(functions, source.output_type, element_type, job_name,
                                    functions[0].parallelism or job.parallelism)
    sink_spec = sink.payload
    if sink.kind == graph.KAFKA_SINK:
        sink_spec = _prepared_kafka_sink(sink, sink_spec, job_name, checkpoints, parallelism,
                                         lambda: _source_tasks(source, parallelism), branch, job.sinks)
    # Kafka sinks write from the read task itself unless configured otherwise.
    direct = sink.kind == graph.KAFKA_SINK and options.DIRECT_KAFKA_SINK.get(configuration)
    stream_type, schema_ddl = element_type, None
    if direct:
        transform = direct_kafka_writes(transform, sink_spec, element_type)
        stream_type = Types.LONG()
    elif sink.kind == graph.PRINT_SINK:
        transform = with_reader_index(transform, parallelism)
        schema_ddl = codec.spark_ddl(element_type, [pa.field(SUBTASK_COLUMN, pa.int32())])
    if source.kind == graph.KAFKA_SOURCE:
        read = _kafka_source(spark, source, configuration, checkpoints, sink, transform, stream_type, schema_ddl,
                             branch=branch)
    else:
        read = _generated_source(spark, source, job, transform, stream_type, schema_ddl)

    name, writer = _stream_writer(read.df, sink, job_name, checkpoints, configuration, branch)

    if sink.kind == graph.KAFKA_SINK:
        spec = sink_spec
        if direct:
            return PlannedQuery(name=name, sink=sink, start=writer.format("noop").start,
                                sources=[_query_source(source, read, checkpoints)])
        writer = (writer.format(ksource.FORMAT_NAME)
                  .option(ksource.SPEC_OPTION, ksource.encode_object(spec))
                  .option("element_type", ksource.encode_object(element_type))
                  .option("schema", codec.spark_ddl(element_type)))
        around = metrics.writer_reporting()
        if around is not None:
            writer = writer.option(ksink.TASK_AROUND_OPTION, ksource.encode_object(around))
        start = writer.start
    elif sink.kind == graph.PRINT_SINK:
        import sys
        writer = writer.foreachBatch(_stop_safe(_print_batch_writer(sink, element_type, parallelism,
                                                                    lambda: sys.stdout)))
        start = writer.start
    elif sink.kind == graph.COLLECT_SINK:
        writer = writer.foreachBatch(_stop_safe(_collect_batch_writer(element_type, deliver)))
        start = writer.start
    elif sink.kind == graph.DISCARD_SINK:
        start = writer.format("noop").start
    else:
        raise UnsupportedFeatureError(sink.name, "connectors")
    return PlannedQuery(name=name, sink=sink, start=start,
                        sources=[_query_source(source, read, checkpoints)])


# -- several sinks of one source --------------------------------------------------------------------

@attrs.frozen
class Route:
    """One path from a source to a sink (graph.Node.routes): what one query, or one outlet of a shared pass,
    runs. A sink behind a union has one route per source on the way."""
    sink: graph.Node
    chain: tuple                          # source first, sink last, without union and partition nodes
    branch: int                           # the route's index among its sink's routes
    group: object                         # routes of one group can run as one query
    staged: bool = False                  # it runs through keyed or two-input operations (stages)


def _last_stage_operator(chain) -> Optional[graph.Node]:
    return next((node for node in reversed(chain) if node.kind in graph.STAGE_OPERATOR_KINDS), None)


def job_routes(sinks, shared: bool = True) -> List[Route]:
    """The routes of every sink. Routes through the same last keyed or two-input operation form one group
    (one query): the routes of a sink meeting in it (a union before key_by, connect) and, with ``shared``,
    the routes of every sink reading that operation (its main output and side outputs), so that it runs once."""
    routes = []
    for sink in sinks:
        chains = sink.routes()
        if sink.kind == graph.DISCARD_SINK:          # a key_by nothing reads runs up to its input
            chains = [_without_trailing_key_by(chain) for chain in chains]
        for branch, chain in enumerate(chains):
            last = _last_stage_operator(chain)
            if last is None:
                routes.append(Route(sink, tuple(chain), branch, chain[0].id))
            else:
                group = ("stage", last.id) if shared else ("stage", last.id, sink.id)
                routes.append(Route(sink, tuple(chain), branch, group, staged=True))
    if shared:
        routes = _siblings_merged(_operations_shared(routes))
    for group in route_groups(routes):
        if group[0].staged:
            job_stage_graph(group)           # refuses what one query of stages cannot run
    return routes


def _operations_shared(routes: List["Route"]) -> List["Route"]:
    """An operation whose outputs go both to sinks and on to later operations runs once, in one query: the
    group of the routes ending in it joins the group of every route passing through it (and so on, groups
    that share an operation become one). A group keeps the name of the one the job made first."""
    first_seen = {}
    for position, route in enumerate(routes):
        first_seen.setdefault(route.group, position)
    joined = {}

    def found(group):
        while group in joined:
            group = joined[group]
        return group

    for route in routes:
        if not route.staged:
            continue
        chain = list(route.chain)
        for index in stage_graph.stage_operators(chain)[:-1]:
            one, other = found(route.group), found(("stage", chain[index].id))
            if other in first_seen and one != other:
                earlier, later = sorted((one, other), key=first_seen.get)
                joined[later] = earlier
    return [attrs.evolve(route, group=found(route.group)) if route.group in joined else route for route in routes]


SIBLING_KINDS = (graph.KEYED_PROCESS, graph.WINDOW)


def _siblings_merged(routes: List["Route"]) -> List["Route"]:
    """Keyed operations that read one key_by (each the only stage of its routes: several windows of one keyed
    stream, a window beside a rolling reduce) run side by side in one stage: their groups become one, so their
    sources are read, and the functions before the key_by called, once for all of them. Operations of different
    parallelism or key groups keep their own queries."""
    merged_into, first_of, sinks_of = {}, {}, {}
    for group in route_groups(routes):
        if not group[0].staged:
            continue
        chains = [list(route.chain) for route in group]
        operators = [stage_graph.stage_operators(chain) for chain in chains]
        if any(len(indexes) != 1 or chain[indexes[0] - 1].kind != graph.KEY_BY
               or chain[indexes[0]].kind not in SIBLING_KINDS for chain, indexes in zip(chains, operators)):
            continue
        operator = chains[0][operators[0][0]]
        entries = frozenset(tuple(node.id for node in chain[:indexes[0]]) for chain, indexes in zip(chains, operators))
        signature = (entries, operator.parallelism, operator.max_parallelism)
        target = first_of.setdefault(signature, group[0].group)
        sinks = {route.sink.id for route in group}
        if target != group[0].group and sinks & sinks_of[target]:
            continue                         # a union of two of the operations' outputs: one query each
        sinks_of.setdefault(target, set()).update(sinks)
        merged_into[group[0].group] = target
    return [attrs.evolve(route, group=merged_into.get(route.group, route.group)) for route in routes]


def _without_trailing_key_by(chain):
    chain = list(chain)
    while len(chain) > 2 and chain[-2].kind == graph.KEY_BY:
        del chain[-2]
    return chain


def route_groups(routes: List[Route]) -> List[List[Route]]:
    """The routes grouped: by their source (one pass over it can feed all of them), or by the keyed operation
    they meet in. Groups keep the order the job created the sinks in."""
    groups = {}
    for route in routes:
        groups.setdefault(route.group, []).append(route)
    return list(groups.values())


def _one_pass(group: List[Route], configuration: dict) -> bool:
    """Whether the group's sinks can be fed by one read of the source: several of them, none behind a keyed
    stage (stage queries feed those), print sinks and Kafka sinks written from the read task."""
    return (len(group) > 1 and _passes_along(group, configuration)
            and not any(node.kind == graph.KEY_BY for route in group for node in route.chain))


def _python_chaining(configuration: dict) -> bool:
    return str(configuration.get("python.operator-chaining.enabled", "true")).strip().lower() != "false"


def plan_queries(spark, job: JobPlan, job_name: str, checkpoints, deliver: Callable = None) -> List[PlannedQuery]:
    """The job's queries: one per group of routes that one pass over their source can feed, else one per
    route."""
    configuration = job.configuration
    planned = []
    graph.count_readers(job.sinks, _python_chaining(configuration))   # where PyFlink's chains of functions end
    groups = route_groups(job_routes(job.sinks, options.SHARED_PASS.get(configuration)))
    # Sinks of a source outside any stage join the first stage query reading that source, where one pass feeds
    # them too (print and direct Kafka sinks, as in a shared pass).
    plain_of = {}
    for group in groups:
        if group[0].staged:
            for route in group:
                source = route.chain[0]
                for other in groups:
                    if (not other[0].staged and other[0].chain[0] is source and id(other) not in plain_of
                            and _passes_along(other, configuration)):
                        plain_of[id(other)] = id(group)
    for group in groups:
        if group[0].staged:                            # one query, each operation once, all its sources read
            plain = [route for other in groups if plain_of.get(id(other)) == id(group) for route in other]
            planned.append(plan_keyed_query(spark, job, group, job_name, checkpoints, deliver, plain))
            continue
        if id(group) in plain_of:
            continue
        if _one_pass(group, configuration):
            planned.append(plan_shared_query(spark, job, group, job_name, checkpoints))
            continue
        if len(group) > 1:
            log.info("Sinks %s read their source once each (a Spark-side writer is on the way)",
                     ", ".join(route.sink.name for route in group))
        planned.extend(plan_query(spark, job, route, job_name, checkpoints, deliver) for route in group)
    return planned


def _passes_along(group: List[Route], configuration: dict) -> bool:
    """Whether the group's sinks can ride along a stage query's read of their source."""
    direct = options.DIRECT_KAFKA_SINK.get(configuration)
    return options.SHARED_PASS.get(configuration) and all(
        route.sink.kind in (graph.PRINT_SINK, graph.DISCARD_SINK) or route.sink.kind == graph.KAFKA_SINK and direct
        for route in group)


def plan_shared_query(spark, job: JobPlan, routes: List[Route], job_name: str, checkpoints) -> PlannedQuery:
    """One query for several sinks of one source (runtime/fan_out.py): the source is read once, each function
    runs once per element, offsets are committed once. Its checkpoint location is its first sink's."""
    from pyflink_compat.runtime import fan_out
    sinks, chains = [route.sink for route in routes], [list(route.chain) for route in routes]
    for chain in chains:
        _check_chain(chain, job.runtime_mode)
    source = chains[0][0]
    configuration = job.configuration
    outlets = []
    for index, (route, sink, chain) in enumerate(zip(routes, sinks, chains)):
        parallelism = sink.parallelism or job.parallelism
        element_type = chain[-2].output_type
        spec = None
        if sink.kind == graph.KAFKA_SINK:
            spec = _prepared_kafka_sink(sink, sink.payload, job_name, checkpoints, parallelism,
                                        lambda: _source_tasks(source, parallelism), route.branch, job.sinks)
        outlets.append(fan_out.Outlet(index=index, kind=sink.kind, nodes=tuple(chain[1:-1]),
                                      element_type=element_type, parallelism=parallelism, spec=spec,
                                      identifier=sink.payload if sink.kind == graph.PRINT_SINK else None))
    transform = fan_out.shared_pass(source.output_type, outlets, job.parallelism)
    first = routes[0]
    if source.kind == graph.KAFKA_SOURCE:
        read = _kafka_source(spark, source, configuration, checkpoints, first.sink, transform,
                             schema_ddl=fan_out.SCHEMA_DDL, branch=first.branch)
    else:
        read = _generated_source(spark, source, job, transform, schema_ddl=fan_out.SCHEMA_DDL)
    name, writer = _stream_writer(read.df, first.sink, job_name, checkpoints, configuration, first.branch)
    if any(sink.kind == graph.PRINT_SINK for sink in sinks):
        import sys
        start = writer.foreachBatch(_stop_safe(fan_out.print_lines_writer(lambda: sys.stdout))).start
    else:
        start = writer.format("noop").start
    log.info("Sinks %s are fed by one pass over %s", ", ".join(sink.name for sink in sinks), source.name)
    return PlannedQuery(name=name, sink=first.sink, start=start,
                        sources=[_query_source(source, read, checkpoints)])


# -- keyed stages -----------------------------------------------------------------------------------

ROCKSDB_PROVIDER = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"


def _max_parallelism(operator: graph.Node, job: JobPlan) -> Optional[int]:
    """The keyed operator's key groups: its own setting, else the environment's, else None (the default)."""
    if operator.max_parallelism:
        return operator.max_parallelism
    configured = job.max_parallelism
    return configured if configured > 0 else None


@attrs.frozen
class _StageInput:
    """How one source's read enters the stages of a keyed query (a stage_graph.Head, planned)."""
    route: "Route"
    operator: graph.Node              # the operation it enters
    source: graph.Node
    pre_nodes: tuple                  # its per-element nodes before the stage
    assigned: bool                    # an assign_timestamps_and_watermarks among them
    spec: object                      # the WatermarkSpec generating its watermark
    prefix: str                       # put before its input names (several routes)
    side: int                         # the input of a two-input operator it feeds (1 or 2), else 0
    key_selection: object             # its key_by, or None
    distribution: str                 # keyed_stage.BY_KEY / FORWARD / ROUND_ROBIN / TO_ALL


def _stage_distribution(operator: graph.Node, key_node: Optional[graph.Node]) -> Optional[str]:
    """How records reach the subtasks of a stage where the operator decides (None: where the input does)."""
    from pyflink_compat.runtime import keyed_stage
    if key_node is not None:
        return keyed_stage.BY_KEY
    if operator.kind == graph.PARTITION_CUSTOM:
        return keyed_stage.CUSTOM
    return None


def _handoff_distribution(operator: graph.Node, key_node, side: int, sender_parallelism: int,
                          own_parallelism: int) -> str:
    """How a stage's outputs reach the subtasks of the operation after it: Flink keys, partitions or
    broadcasts as the job says, forwards between equal parallelisms and rebalances otherwise."""
    from pyflink_compat.runtime import keyed_stage
    distribution = _stage_distribution(operator, key_node)
    if distribution is not None:
        return distribution
    if side == 2 and operator.kind in graph.BROADCAST_KINDS:
        return keyed_stage.TO_ALL
    return keyed_stage.FORWARD if sender_parallelism == own_parallelism else keyed_stage.ROUND_ROBIN


def job_stage_graph(routes: List["Route"]) -> stage_graph.StageGraph:
    """The stage graph of one group of routes (refusing what one query cannot run)."""
    return stage_graph.build(routes)


def _input_types(operator: graph.Node, chain, operator_index: int):
    """(the type of the operator's (first) input, of its second input or None)."""
    if operator.kind in graph.TWO_INPUT_KINDS:
        return operator.inputs[0].output_type, operator.inputs[1].output_type
    return chain[operator_index - 1].output_type, None


def _batched_read(reading) -> bool:
    """Whether a stage's read side runs its chain a batch at a time (chain.batch_form_of): it makes no Python
    object per record, so its micro-batches may be as large as a plain query's."""
    from pyflink_compat.runtime import keyed_stage
    from pyflink_compat.runtime.chain import build_steps
    return not reading.pass_outlets and keyed_stage.read_batch_form(
        reading, build_steps(list(reading.pre_nodes))) is not None


def _stage_heads(stages: stage_graph.StageGraph, own_parallelism: dict, parallelism: int) -> List[_StageInput]:
    """Each source's way into the stages: its read's per-element nodes, watermark strategy and distribution."""
    from pyflink_compat.common.watermark_strategy import NO_WATERMARKS, WatermarkSpec
    from pyflink_compat.runtime import keyed_stage
    heads = []
    for head in stages.heads:
        route = head.route
        assigners = [node for node in head.pre_nodes if node.kind == graph.ASSIGN_TIMESTAMPS]
        spec = (assigners[-1] if assigners else head.source).watermark_spec or WatermarkSpec(NO_WATERMARKS)
        prefix = "route-%d/" % route.branch if len(stages.heads) > 1 else ""
        operator = head.operator
        distribution = _stage_distribution(operator, head.key_node)
        if distribution is None:
            if head.side == 2 and operator.kind in graph.BROADCAST_KINDS:
                distribution = keyed_stage.TO_ALL
            elif (own_parallelism[operator.id] == parallelism
                  and _source_tasks(head.source, parallelism) == parallelism):
                distribution = keyed_stage.FORWARD
            else:
                distribution = keyed_stage.ROUND_ROBIN
        heads.append(_StageInput(route, operator, head.source, head.pre_nodes, bool(assigners), spec, prefix,
                                 head.side, head.key_node.payload if head.key_node is not None else None,
                                 distribution))
    return heads


def _stage_plans(stages: stage_graph.StageGraph, heads: List[_StageInput], outlets_of: dict, own_parallelism: dict,
                 common_routes: list, silent_inputs: dict, job: JobPlan, job_name: str) -> dict:
    """Each operation's KeyedStagePlan, by operation id: from the deepest, so that each plan holds the plans of
    the operations its outputs go to, as it enters them. ``outlets_of``: operation id -> its sinks' outlets."""
    from pyflink_compat.runtime import keyed_stage
    plans = {}
    for depth in reversed(range(stages.depths)):
        for operator in stages.at_depth(depth):
            chain, operator_index = stages.chains[operator.id]
            chain = list(chain)
            into = stages.handoffs_into(operator)
            entering = [head for head in heads if head.operator is operator]
            if into:             # the first way in names its key_by and port (each handoff evolves them)
                key_node, side = into[0].key_node, into[0].side
                sender_parallelism = own_parallelism[into[0].sender.id]
            else:
                key_node = None
                side = entering[0].side
                sender_parallelism = job.parallelism
            distribution = _handoff_distribution(operator, key_node, side, sender_parallelism,
                                                 own_parallelism[operator.id])
            first_type, second_type = _input_types(operator, chain, operator_index)
            reaching = [head for head in heads if any(head.route is each.route for each in stages.sources_of(operator))]
            watermark_spec = (entering or reaching or heads)[0].spec
            input_specs = tuple((head.prefix, head.spec) for head in entering) if len(entering) > 1 else ()
            # the outlets of the operations after it first (a handoff names its outlet's place), then its sinks'
            handoffs, stage_outlets = [], []
            for number, each in enumerate(stages.handoffs_of(operator)):
                stage_outlets.append(keyed_stage.StageOutlet(
                    number, each.side_tag, each.post_nodes,
                    _handed_on_type(operator, each.side_tag, each.post_nodes)))
                own = own_parallelism[each.operator.id]
                target = attrs.evolve(
                    plans[each.operator.id],
                    key_selection=each.key_node.payload if each.key_node is not None else None,
                    input_side=each.side, sender_parallelism=own_parallelism[operator.id],
                    distribution=_handoff_distribution(each.operator, each.key_node, each.side,
                                                       own_parallelism[operator.id], own))
                handoffs.append(keyed_stage.StageHandoff(number, target))
            stage_outlets = tuple(stage_outlets) + tuple(outlets_of.get(operator.id, ()))
            siblings = stages.siblings if stages.siblings and operator is stages.siblings[0] else ()
            plans[operator.id] = keyed_stage.KeyedStagePlan(
                pre_nodes=(), key_selection=key_node.payload if key_node is not None else None,
                operator_node=operator, outlets=stage_outlets,
                input_type=first_type, keyed_type=first_type,
                parallelism=own_parallelism[operator.id],
                routes=tuple(common_routes[:own_parallelism[operator.id]]),
                sender_parallelism=sender_parallelism, watermark_spec=watermark_spec,
                assigner_in_chain=False, job_name=job_name, handoffs=tuple(handoffs),
                plan_id="%s-%d-%d" % (uuid.uuid4().hex, depth, stages.lane[operator.id]),
                silent_inputs=tuple(silent_inputs.get(operator.id, ())),
                max_parallelism=_max_parallelism(operator, job), input_side=side,
                second_type=second_type, input_specs=input_specs, distribution=distribution, depth=depth,
                lane=stages.lane[operator.id], sibling_nodes=tuple(siblings[1:]))
    return plans


def plan_keyed_query(spark, job: JobPlan, routes: List["Route"], job_name: str, checkpoints,
                     deliver: Callable = None, plain_routes: List["Route"] = ()) -> PlannedQuery:
    """source -> per-element nodes -> key_by -> keyed operation [-> side output] -> per-element nodes
    [-> key_by -> keyed operation ...] -> sink, as read tasks that hand records to keyed subtasks, and one
    transformWithState per depth of the stage graph (runtime/stage_graph.py, runtime/keyed_stage.py). Several
    routes (a union before key_by, a connect, two aggregations joined): one read per source, each feeding the
    operation it enters. ``plain_routes``: routes of sinks outside the stages from one of those sources, fed by
    the same read (runtime/fan_out.py)."""
    from pyflink_compat.runtime import exchange, fan_out, keyed_stage
    for route in routes:
        _check_chain(list(route.chain), job.runtime_mode)
    first = routes[0]
    stages = job_stage_graph(routes)
    sink = first.sink
    sinks = []
    for route in routes:
        if route.sink not in sinks:
            sinks.append(route.sink)
    configuration = job.configuration
    parallelism = job.parallelism
    # Each stage runs at its operator's parallelism (set_parallelism on it), the job's otherwise; Spark's
    # shuffle has as many partitions as the widest stage, and each stage's subtasks take some of them.
    own_parallelism = {}
    for operator in stages.operators:
        chain, operator_index = stages.chains[operator.id]
        own_parallelism[operator.id] = _stage_parallelism(list(chain), operator_index, parallelism)
    shuffle_partitions = max(own_parallelism.values())
    # Subtask s of every stage has the same route value (records for a later stage pass the stages before with it).
    common_routes = keyed_stage.route_values(shuffle_partitions, shuffle_partitions)
    heads = _stage_heads(stages, own_parallelism, parallelism)
    siblings = list(stages.siblings)
    outlets, outlet_sinks, outlets_of = [], [], {}     # one outlet per way from an operation to a sink
    for index, tail in enumerate(stages.tails):
        each, operator = tail.sink, tail.operator
        side_tag, rest = stage_graph.side_output_first(tail.nodes)
        spec = None
        if each.kind == graph.KAFKA_SINK:
            writing = own_parallelism[tail.stage.id]
            spec = _prepared_kafka_sink(each, each.payload, job_name, checkpoints, parallelism,
                                        lambda: writing, tail.branch, job.sinks)
        outlet = keyed_stage.StageOutlet(index, side_tag, tuple(rest), _handed_on_type(operator, side_tag, rest),
                                         spec, operator=siblings.index(operator) if siblings else 0)
        outlets.append(outlet)
        outlet_sinks.append(each)
        outlets_of.setdefault(tail.stage.id, []).append(outlet)
    silent_inputs = {}                # operation id -> the inputs of its sources that never send records
    for head in heads:
        silent_readers = readers_without_partitions(head.source, parallelism)
        if silent_readers:
            log.info("%s: reader(s) %s of %d get no Kafka partition; as on Flink they hold the watermark back",
                     head.source.name, ", ".join(str(r) for r in silent_readers),
                     head.source.parallelism or parallelism)
        silent_inputs.setdefault(head.operator.id, []).extend(head.prefix + keyed_stage.reader_input(r)
                                                              for r in silent_readers)
    stage_plans = _stage_plans(stages, heads, outlets_of, own_parallelism, common_routes, silent_inputs, job,
                               job_name)
    operators = list(stages.operators) + siblings[1:]
    schema = "%s int, %s binary" % (keyed_stage.ROUTE, exchange.PAYLOAD)
    pass_outlets = {}                 # head position -> the plain sinks its read feeds
    plain_sinks = []
    for index, route in enumerate(plain_routes):
        route_chain = list(route.chain)
        _check_chain(route_chain, job.runtime_mode)
        position = next(i for i, head in enumerate(heads) if head.source is route_chain[0])
        each = route.sink
        own_parallelism = each.parallelism or parallelism
        spec = None
        if each.kind == graph.KAFKA_SINK:
            spec = _prepared_kafka_sink(each, each.payload, job_name, checkpoints, own_parallelism,
                                        lambda: _source_tasks(route_chain[0], own_parallelism), route.branch, job.sinks)
        pass_outlets.setdefault(position, []).append(fan_out.Outlet(
            index=index, kind=each.kind, nodes=tuple(route_chain[1:-1]), element_type=route_chain[-2].output_type,
            parallelism=own_parallelism, spec=spec, identifier=each.payload if each.kind == graph.PRINT_SINK else None))
        plain_sinks.append(each)
    frames, sources = [], []
    for position, head in enumerate(heads):
        route, source = head.route, head.source
        # the read side of the stage this route enters, as its source feeds it
        reading = attrs.evolve(stage_plans[head.operator.id], pre_nodes=head.pre_nodes, input_type=source.output_type,
                               assigner_in_chain=head.assigned, input_prefix=head.prefix, input_side=head.side,
                               key_selection=head.key_selection, distribution=head.distribution,
                               pass_outlets=tuple(pass_outlets.get(position, ())), sender_parallelism=parallelism)
        transform = keyed_stage.exchange_transform(reading)
        if source.kind == graph.KAFKA_SOURCE:
            extra = {"plan_all_partitions": "true"}
            if any(_needs_processing_time_ticks(operator, other.spec) for operator in operators for other in heads):
                extra["tick_interval_ms"] = str(options.TICK_INTERVAL_MS.get(configuration))
            read = _kafka_source(spark, source, configuration, checkpoints, sink, transform, schema_ddl=schema,
                                 extra_options=extra, keyed=not _batched_read(reading), branch=route.branch,
                                 query_branch=first.branch, position=position)
        else:
            read = _generated_source(spark, source, job, transform, schema_ddl=schema)
        frames.append(read.df)
        sources.append(_query_source(source, read, checkpoints))
    stage = frames[0]
    for df in frames[1:]:
        stage = stage.union(df)

    # One Spark partition per keyed subtask; Spark pins this in the query's checkpoint.
    spark.conf.set("spark.sql.shuffle.partitions", str(shuffle_partitions))
    for depth in range(stages.depths):
        lanes = tuple(stage_plans[operator.id] for operator in stages.at_depth(depth))
        with pandas_version_checked_without_import():
            stage = (stage.groupBy(keyed_stage.ROUTE)
                     .transformWithState(keyed_stage.stateful_processor(lanes, session_zone.job_tz(configuration),
                                                                       metrics.with_reporting(None),
                                                                       last=depth == stages.depths - 1),
                                         keyed_stage.OUTPUT_SCHEMA_DDL, "Append", "None"))
    name, writer = _stream_writer(stage, sink, job_name, checkpoints, configuration, first.branch)
    unsupported_sinks = [each.name for each in sinks if each.kind not in graph.SINK_KINDS]
    if unsupported_sinks:
        raise UnsupportedFeatureError(unsupported_sinks[0], "connectors")
    if all(each.kind in (graph.KAFKA_SINK, graph.DISCARD_SINK) for each in sinks + plain_sinks):
        start = writer.format("noop").start
    else:
        import sys
        start = writer.foreachBatch(_stop_safe(_keyed_outlets_writer(outlet_sinks, outlets, parallelism,
                                                                     lambda: sys.stdout, deliver))).start
    if len(sinks) + len(plain_sinks) > 1:
        log.info("Sinks %s are fed by one query: one instance of %s, one read of %s",
                 ", ".join(each.name for each in sinks + plain_sinks),
                 ", ".join(node.name for node in siblings or stages.operators),
                 ", ".join(head.source.name for head in heads))
    return PlannedQuery(name=name, sink=sink, start=start, sources=sources)


def _stage_parallelism(chain, operator_index: int, parallelism: int) -> int:
    """How many subtasks a stage has: its operator's parallelism; for partition_custom, the parallelism of the
    operation after it (PyFlink runs the partitioner's target there: its ``num_partitions``)."""
    operator = chain[operator_index]
    if operator.kind == graph.PARTITION_CUSTOM:
        following = chain[operator_index + 1] if operator_index + 1 < len(chain) - 1 else None
        return (following.parallelism if following is not None and following.kind in graph.FUNCTION_KINDS
                and following.parallelism else parallelism)
    return operator.parallelism or parallelism


def _handed_on_type(operator: graph.Node, side_tag, rest):
    """The element type after an operator's output (or side output) and the per-element nodes after it."""
    if rest:
        return rest[-1].output_type
    if side_tag is not None:
        return operator.side_output_tags[side_tag].type_info
    return operator.output_type


def _needs_processing_time_ticks(operator: graph.Node, watermark_spec) -> bool:
    """Whether the keyed operation must run while no records come: processing-time windows or triggers,
    a KeyedProcessFunction (it may set processing-time timers), or idleness (measured in processing time)."""
    if operator.kind == graph.KEYED_PROCESS or operator.kind in graph.TWO_INPUT_KINDS:
        return True
    if watermark_spec is not None and watermark_spec.idle_timeout_ms:
        return True
    if operator.kind == graph.WINDOW:
        from pyflink_compat.datastream.window import ContinuousProcessingTimeTrigger, ProcessingTimeTrigger
        descriptor = operator.payload
        return (not descriptor.assigner.is_event_time()
                or isinstance(descriptor.trigger, (ProcessingTimeTrigger, ContinuousProcessingTimeTrigger)))
    return False


def _keyed_rows(table):
    """(subtask, outlet, Arrow batch) of each output row of a keyed query's last stage (print lines left out)."""
    from pyflink_compat.runtime import exchange, keyed_stage
    out = []
    for subtask, outlet, payload in zip(table.column("subtask").to_pylist(), table.column("outlet").to_pylist(),
                                        table.column("payload").to_pylist()):
        if payload and not exchange.is_lines(payload):
            for batch in keyed_stage.unpack_outputs([payload]):
                out.append((subtask, outlet, batch))
    return out


def _keyed_outlets_writer(sinks, outlets, parallelism: int, out, deliver):
    """The driver's side of a keyed query: print the outlets of print sinks (by subtask, each outlet's lines
    together), hand a collect sink's elements over; Kafka outlets were written by the subtasks. ``sinks``: the
    sink of each outlet."""
    def write(batch_df, batch_id):
        from pyflink_compat.runtime import exchange
        table = batch_df.toArrow()
        printed = [line for payload in table.column("payload").to_pylist()
                   if payload and exchange.is_lines(payload) for line in exchange.decode_lines(payload)]
        if printed:                                   # sinks outside the stages, formatted by the read tasks
            stream = out()
            stream.write("".join(line + "\n" for line in printed))
            stream.flush()
        rows = sorted(_keyed_rows(table), key=lambda item: (item[1], item[0]))
        for sink, outlet in zip(sinks, outlets):
            if sink.kind in (graph.KAFKA_SINK, graph.DISCARD_SINK):
                continue
            elements, subtasks = [], []
            for subtask, number, batch in rows:
                if number == outlet.index and batch.num_rows:
                    values = codec.to_python(codec.column(batch, codec.ELEMENT), outlet.output_type)
                    elements.extend(values)
                    subtasks.extend([subtask] * len(values))
            if sink.kind == graph.PRINT_SINK:
                # a narrower print sink gets the stage's outputs rebalanced (Flink picks no fixed instance)
                own = sink.parallelism or parallelism
                _print_lines(out(), sink.payload, elements, [s % own for s in subtasks], outlet.output_type, own)
            elif elements:
                deliver(codec.to_collected(elements, outlet.output_type))

    return write

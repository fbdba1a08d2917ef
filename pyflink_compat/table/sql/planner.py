"""INSERT INTO ... SELECT planned as a DataStream pipeline of the mirror: the source table's connector and
format as a source, the projection and filter as one function (Flink's Calc), the sink table's connector and
format as a sink. The statements of one statement set go into one job, and every statement reading a table
reads the same stream: the source is read once (Flink reuses identical sources likewise)."""
from typing import Dict

import attrs
from sqlglot import exp

from pyflink_compat.common.watermark_strategy import TimestampAssigner
from pyflink_compat.table.sql import expressions
from pyflink_compat.table.sql.catalog import SECTION, CatalogTable
from pyflink_compat.util.exceptions import UnsupportedFeatureError

CATALOG_PATH = "default_catalog.default_database"


def _refuse(what: str, advice: str = None):
    raise UnsupportedFeatureError(what, SECTION, advice)


# Column types whose values travel as typed row fields; rows with any other column are pickled: a TIMESTAMP, whose
# microseconds a SQL_TIMESTAMP field would cut to milliseconds (Flink keeps the fraction it reads), or the NULL
# type of a column that is only NULL.
_TYPED = ("INT", "BIGINT", "SMALLINT", "TINYINT", "STRING", "BOOLEAN", "DOUBLE", "FLOAT")


def _row_type(table: CatalogTable):
    """The type of the table's rows between the operators (None: pickled rows)."""
    from pyflink_compat.common.typeinfo import Types
    if any(column.type.name not in _TYPED for column in table.columns):
        return None
    return Types.ROW_NAMED(table.column_names, [column.type.type_info() for column in table.columns])


def _format(table: CatalogTable) -> str:
    return table.option("value.format", table.option("format"))


class JobBuilder:
    """The DataStream job of one or more INSERT statements."""

    def __init__(self, env, tables: Dict[str, CatalogTable], options: Dict[str, str] = None):
        self.env, self.tables, self.options = env, tables, options or {}
        self.streams = {}                         # source table name -> its stream of Rows

    def table(self, name: str) -> CatalogTable:
        return _lookup(self.tables, name)

    def add_insert(self, insert: exp.Insert):
        if not isinstance(insert.this, exp.Table):
            _refuse("INSERT INTO with a column list", "select the sink's columns in its order")
        target = self.table(insert.this.name)
        select = insert.expression
        if isinstance(select, exp.Subquery):
            select = select.this
        if not isinstance(select, exp.Select):
            _refuse("INSERT INTO ... %s" % type(select).__name__.upper())
        source = relation_of(select, self.tables)
        compiler = expressions.Compiler({column.name: (position, column.type)
                                         for position, column in enumerate(source.columns)})
        if select.args.get("group"):
            return self._add_group_by(select, source, target, compiler)
        projections = _projections(select, source, compiler)
        if len(projections) != len(target.columns):
            raise expressions.validation_error(
                "Column types of query result and sink for '%s.%s' do not match.\nCause: Different number of "
                "columns." % (CATALOG_PATH, target.name))
        condition = _condition(select, compiler)
        converters = [expressions.cast_to(compiled, column.type)
                      for (_, compiled), column in zip(projections, target.columns)]
        calc = _calc(condition, converters)
        rows = self._source_stream(source).flat_map(calc, output_type=_row_type(target))
        rows.name("Calc")
        self._sink(rows, target)

    def _add_group_by(self, select: exp.Select, source: CatalogTable, target: CatalogTable, compiler):
        """GROUP BY with aggregates, as Flink's GroupAggregate: per key, the first row is an insertion (+I), each
        later input row retracts the previous result (-U) and sends the new one (+U), unless it is unchanged."""
        from pyflink_compat.table.sql import aggregates
        group = select.args["group"]
        if group.args.get("rollup") or group.args.get("cube") or group.args.get("grouping_sets"):
            _refuse("GROUPING SETS, ROLLUP and CUBE")
        windows = [each for each in group.expressions
                   if isinstance(each, exp.Anonymous) and each.name.upper() in aggregates.GROUP_WINDOWS]
        if len(windows) > 1:
            _refuse("Two group windows in one GROUP BY")
        window = aggregates.group_window(windows[0], source) if windows else None
        key_nodes = [each for each in group.expressions if each not in windows]
        keys = [compiler.compile(each) for each in key_nodes]
        key_sql = [each.sql() for each in key_nodes]
        outputs = []          # per output column: ("key", index), ("agg", index) or ("window", "start" / "end")
        calls = []            # (aggregate name, compiled argument or None)
        for item in select.expressions:
            node = item.this if isinstance(item, exp.Alias) else item
            if node.sql() in key_sql:
                outputs.append(("key", key_sql.index(node.sql())))
                continue
            bound = window.bound_of(node) if window is not None else None
            if bound is not None:
                outputs.append(("window", bound))
                continue
            call = aggregates.call_of(node, compiler)
            if call is None:
                raise expressions.validation_error(
                    "SQL validation failed. Expression '%s' is not being grouped" % node.sql())
            outputs.append(("agg", len(calls)))
            calls.append(call)
        if len(outputs) != len(target.columns):
            raise expressions.validation_error(
                "Column types of query result and sink for '%s.%s' do not match.\nCause: Different number of "
                "columns." % (CATALOG_PATH, target.name))
        if window is None and target.option("connector") not in ("print", "blackhole"):
            raise expressions.validation_error(
                "Table sink '%s.%s' doesn't support consuming update changes which is produced by node "
                "GroupAggregate(groupBy=[%s])" % (CATALOG_PATH, target.name, ", ".join(key_sql)))
        condition = _condition(select, compiler)
        key_functions = [function for function, _ in keys]
        argument_functions = [argument for _, argument in calls]
        converters = [column.type for column in target.columns]

        def keyed_input(row):
            if row is None:
                return
            values = tuple(row)
            if condition is not None and condition(values) is not True:
                return
            yield (tuple(function(values) for function in key_functions),
                   tuple(None if argument is None else argument(values) for argument in argument_functions))

        names = [name for name, _ in calls]
        keyed = self._source_stream(source).flat_map(keyed_input).name("Calc").key_by(_group_key)
        if window is None:
            changes = keyed.process(aggregates.GroupAggregate(names, outputs, converters)).name("GroupAggregate")
        else:
            windowed = keyed.window(window.assigner())
            if window.kind == "SESSION":
                # merging windows keep their elements: our DataStream window operator reproduces PyFlink's keeping
                # one accumulator when a record bridges sessions, and Flink SQL's planner merges them all
                changes = windowed.process(aggregates.SessionAggregate(names, outputs, converters))
            else:
                changes = windowed.aggregate(aggregates.Accumulate(names),
                                             aggregates.WindowAggregate(names, outputs, converters))
            changes = changes.name("GroupWindowAggregate")
        self._sink_changes(changes, target)

    def _sink_changes(self, changes, target: CatalogTable):
        """A changelog stream of (row kind, values) into a print or blackhole table (or, insertions only, into
        any sink table)."""
        from pyflink_compat.common.typeinfo import Types
        if target.option("connector") == "blackhole":
            return
        if target.option("connector") != "print":
            self._sink(changes.map(_values_row, output_type=_row_type(target)), target)
            return
        identifier = target.option("print-identifier")
        lines = changes.map(_change_line([column.type for column in target.columns]), output_type=Types.STRING())
        lines.print(identifier)

    # sources ---------------------------------------------------------------------------------------
    def _source_stream(self, table: CatalogTable):
        if table.query is not None:
            return self._view_stream(table)
        if table.name not in self.streams:
            connector = table.option("connector")
            if connector != "kafka":
                _refuse("The '%s' connector as a source" % connector, "sources are Kafka tables")
            self.streams[table.name] = self._kafka_source(table)
        return self.streams[table.name]

    def _view_stream(self, view: CatalogTable):
        """The rows of a view: its query's projections and filter over its own source (read once per job)."""
        key = ("view", view.name, id(view.query))
        if key not in self.streams:
            select = view.query
            source = relation_of(select, self.tables)
            compiler = expressions.Compiler({column.name: (position, column.type)
                                             for position, column in enumerate(source.columns)})
            if select.args.get("group"):
                _refuse("A view or subquery with GROUP BY", "insert the aggregation into its sink directly")
            projections = _projections(select, source, compiler)
            condition = _condition(select, compiler)
            calc = _calc(condition, [function for _, (function, _) in projections])
            self.streams[key] = self._source_stream(source).flat_map(calc, output_type=_row_type(view)) \
                .name("Calc[%s]" % view.name)
        return self.streams[key]

    def _kafka_source(self, table: CatalogTable):
        _check_kafka_options(table)
        from pyflink_compat.common.serialization import SimpleStringSchema
        from pyflink_compat.common.watermark_strategy import WatermarkStrategy
        from pyflink_compat.datastream.connectors.kafka import KafkaSource
        builder = KafkaSource.builder().set_bootstrap_servers(_required(table, "properties.bootstrap.servers"))
        if table.option("topic"):
            builder = builder.set_topics(*[topic.strip() for topic in table.option("topic").split(";")])
        elif table.option("topic-pattern"):
            builder = builder.set_topic_pattern(table.option("topic-pattern"))
        else:
            _required(table, "topic")
        for key, value in _client_properties(table).items():
            builder = builder.set_property(key, value)
        if table.option("properties.group.id"):
            builder = builder.set_group_id(table.option("properties.group.id"))
        builder = builder.set_starting_offsets(_starting_offsets(table))
        bounded = _stopping_offsets(table)
        if bounded is not None:
            builder = builder.set_bounded(bounded)
        value_format = _format(table)
        builder = builder.set_value_only_deserializer(SimpleStringSchema())
        if value_format == "json":
            to_values = _json_rows(table)
        elif value_format == "raw":
            if len(table.physical_columns) != 1:
                raise expressions.validation_error(
                    "The 'raw' format only supports single physical column. However the defined schema "
                    "contains multiple physical columns: [%s]" % ", ".join(
                        "`%s` %s" % (c.name, c.type.name) for c in table.columns))
            to_values = _single_column_row
        else:
            _refuse("The '%s' format" % value_format, "Kafka tables read 'json' or 'raw'")
        stream = self.env.from_source(builder.build(), WatermarkStrategy.no_watermarks(),
                                      "KafkaSource-%s.%s" % (CATALOG_PATH, table.name))
        physical = attrs.evolve(table, columns=tuple(table.physical_columns))
        rows = stream.flat_map(to_values, output_type=_row_type(physical)).name("%s[%s]" % (value_format, table.name))
        if len(physical.columns) != len(table.columns):
            rows = rows.map(_with_computed_columns(table), output_type=_row_type(table)).name("computed columns")
        if table.watermark is not None:
            rows = rows.assign_timestamps_and_watermarks(self._watermark_strategy(table))
        return rows

    def _watermark_strategy(self, table: CatalogTable):
        """WATERMARK FOR ts AS ts - INTERVAL d: each record's timestamp is ts (a TIMESTAMP read as UTC), the
        watermark trails the largest by d, idle sources per table.exec.source.idle-timeout."""
        from pyflink_compat.common.time import Duration
        from pyflink_compat.common.watermark_strategy import WatermarkStrategy
        column, delay_ms = table.watermark
        position = table.column_names.index(column)
        # Flink SQL's watermark is the expression's value; the DataStream strategies emit it minus 1 ms
        strategy = (WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(delay_ms - 1)) if delay_ms > 0
                    else WatermarkStrategy.for_monotonous_timestamps())
        idle = self.env_option("table.exec.source.idle-timeout")
        if idle and idle not in ("0", "0 ms", "0ms"):
            strategy = strategy.with_idleness(Duration.of_millis(_duration_ms(idle)))
        return strategy.with_timestamp_assigner(_RowtimeAssigner(position))

    def env_option(self, key: str):
        return self.options.get(key)

    # sinks -----------------------------------------------------------------------------------------
    def _sink(self, rows, table: CatalogTable):
        connector = table.option("connector")
        if connector == "print":
            identifier = table.option("print-identifier")
            if table.option("standard-error", "false") == "true":
                _refuse("The print connector's standard-error option")
            from pyflink_compat.common.typeinfo import Types
            lines = rows.map(_inserted_line([column.type for column in table.columns]), output_type=Types.STRING())
            sink = lines.print(identifier)
            if table.option("sink.parallelism"):
                lines.set_parallelism(int(table.option("sink.parallelism")))
                sink.set_parallelism(int(table.option("sink.parallelism")))
        elif connector == "blackhole":
            pass                     # a stream nothing reads: its records are computed and dropped
        elif connector == "kafka":
            from pyflink_compat.common.typeinfo import Types
            if _format(table) == "raw":
                rows = rows.map(_single_value, output_type=Types.STRING())
            elif _format(table) == "json":
                rows = rows.map(_json_writer(table), output_type=Types.STRING())
            rows.sink_to(self._kafka_sink(table))
        else:
            _refuse("The '%s' connector as a sink" % connector, "sinks are Kafka, print or blackhole tables")

    def _kafka_sink(self, table: CatalogTable):
        _check_kafka_options(table)
        from pyflink_compat.common.serialization import SimpleStringSchema
        from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
        from pyflink_compat.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink
        topic = _required(table, "topic")
        value_format = _format(table)
        if value_format in ("json", "raw"):
            serializer = SimpleStringSchema()
        else:
            _refuse("The '%s' format" % value_format, "Kafka tables write 'json' or 'raw'")
        record = KafkaRecordSerializationSchema.builder().set_topic(topic).set_value_serialization_schema(serializer)
        builder = KafkaSink.builder().set_bootstrap_servers(_required(table, "properties.bootstrap.servers")) \
            .set_record_serializer(record.build())
        for key, value in _client_properties(table).items():
            builder = builder.set_property(key, value)
        guarantee = table.option("sink.delivery-guarantee", "at-least-once")
        builder = builder.set_delivery_guarantee({"none": DeliveryGuarantee.NONE,
                                                  "at-least-once": DeliveryGuarantee.AT_LEAST_ONCE,
                                                  "exactly-once": DeliveryGuarantee.EXACTLY_ONCE}[guarantee])
        if table.option("sink.transactional-id-prefix"):
            builder = builder.set_transactional_id_prefix(table.option("sink.transactional-id-prefix"))
        return builder.build()


# Options of the kafka connector and its formats that run; the other options Flink knows are refused by name, so
# that none is ignored.
_KAFKA_OPTIONS = {"connector", "topic", "topic-pattern", "format", "value.format", "scan.startup.mode",
                  "scan.startup.timestamp-millis", "scan.bounded.mode", "scan.bounded.timestamp-millis",
                  "sink.delivery-guarantee", "sink.transactional-id-prefix", "sink.parallelism",
                  "scan.topic-partition-discovery.interval", "json.ignore-parse-errors", "json.fail-on-missing-field",
                  "raw.charset"}


def _check_kafka_options(table: CatalogTable):
    for key, value in table.options.items():
        if key.startswith("properties.") or key in _KAFKA_OPTIONS:
            continue
        if key == "json.timestamp-format.standard" and value.upper() == "SQL":
            continue
        if key == "raw.charset" and value.upper().replace("-", "") != "UTF8":
            _refuse("raw.charset '%s'" % value)
        _refuse("The option '%s' = '%s' of table '%s'" % (key, value, table.name),
                "Kafka tables run with topic(s), properties.*, format json or raw, scan.startup.* and "
                "scan.bounded.* modes, sink.delivery-guarantee; message keys (key.format, key.fields) are not "
                "read or written yet")


def _condition(select: exp.Select, compiler):
    """The WHERE clause's function, or None."""
    where = select.args.get("where")
    return compiler.compile(where.this)[0] if where is not None else None


def _projections(select: exp.Select, source: CatalogTable, compiler) -> list:
    """(output name, (function, type)) of each item of the select list (``*`` expanded)."""
    projections = []
    for item in select.expressions:
        if isinstance(item, exp.Star):
            projections.extend((name, compiler.compile(exp.column(name))) for name in source.column_names)
        else:
            projections.append((item.alias_or_name, compiler.compile(item)))
    return projections


def relation_of(select: exp.Select, tables: Dict[str, CatalogTable]) -> CatalogTable:
    """The one table, view or subquery a SELECT reads (what a first version of SQL support runs)."""
    for clause in ("joins", "having", "order", "limit", "distinct", "windows", "laterals", "with"):
        if select.args.get(clause):
            _refuse("%s in a query" % clause.upper(), "queries of one table, view or subquery run: projections, "
                                                      "filters, GROUP BY and group windows")
    source_clause = select.args.get("from") or select.args.get("from_")
    if source_clause is None:
        _refuse("A query without a FROM clause")
    relation = source_clause.this
    if isinstance(relation, exp.Subquery):
        return view_of(relation.alias_or_name or "subquery", relation.this, tables)
    if not isinstance(relation, exp.Table):
        _refuse("FROM %s" % relation.sql())
    return _lookup(tables, relation.name)


def _lookup(tables: Dict[str, CatalogTable], name: str) -> CatalogTable:
    if name not in tables:
        raise expressions.validation_error(
            "SQL validation failed. From line 1, column 1 to line 1, column %d: Object '%s' not found"
            % (len(name), name))
    return tables[name]


def view_of(name: str, select, tables: Dict[str, CatalogTable]) -> CatalogTable:
    """A view of ``select``: its columns (names and types of the select list), the source's watermark when the
    rowtime column is selected as it is."""
    from pyflink_compat.table.sql.catalog import Column
    if isinstance(select, exp.Subquery):
        select = select.this
    if not isinstance(select, exp.Select):
        _refuse("A view of %s" % type(select).__name__.upper())
    source = relation_of(select, tables)
    compiler = expressions.Compiler({column.name: (position, column.type)
                                     for position, column in enumerate(source.columns)})
    if select.args.get("group"):
        _refuse("A view or subquery with GROUP BY", "insert the aggregation into its sink directly")
    projections = _projections(select, source, compiler)
    columns = tuple(Column(column_name, column_type) for column_name, (_, column_type) in projections)
    watermark = None
    if source.watermark is not None:
        rowtime = source.watermark[0]
        for item in select.expressions:
            if isinstance(item, exp.Star) or (isinstance(item, exp.Column) and item.name == rowtime):
                watermark = source.watermark
            elif isinstance(item, exp.Alias) and isinstance(item.this, exp.Column) and item.this.name == rowtime:
                watermark = (item.alias, source.watermark[1])
    return CatalogTable(name, columns, {}, watermark, select)


def _client_properties(table: CatalogTable) -> Dict[str, str]:
    """The Kafka client properties of a table: its ``properties.*`` options but the bootstrap servers."""
    return {key[len("properties."):]: value for key, value in table.options.items()
            if key.startswith("properties.") and key != "properties.bootstrap.servers"}


def _required(table: CatalogTable, key: str) -> str:
    value = table.option(key)
    if value is None:
        raise expressions.validation_error(
            "Unable to create a source for reading table '%s.%s'.\n\nOne or more required options are missing."
            "\n\nMissing required options are:\n\n%s" % (CATALOG_PATH, table.name, key))
    return value


def _starting_offsets(table: CatalogTable):
    from pyflink_compat.datastream.connectors.kafka import KafkaOffsetResetStrategy, KafkaOffsetsInitializer
    mode = table.option("scan.startup.mode", "group-offsets")
    if mode == "earliest-offset":
        return KafkaOffsetsInitializer.earliest()
    if mode == "latest-offset":
        return KafkaOffsetsInitializer.latest()
    if mode == "group-offsets":
        reset = table.option("properties.auto.offset.reset", "none").upper()
        return KafkaOffsetsInitializer.committed_offsets(KafkaOffsetResetStrategy[reset])
    if mode == "timestamp":
        return KafkaOffsetsInitializer.timestamp(int(_required(table, "scan.startup.timestamp-millis")))
    _refuse("scan.startup.mode '%s'" % mode)


def _stopping_offsets(table: CatalogTable):
    from pyflink_compat.datastream.connectors.kafka import KafkaOffsetsInitializer
    mode = table.option("scan.bounded.mode", "unbounded")
    if mode == "unbounded":
        return None
    if mode == "latest-offset":
        return KafkaOffsetsInitializer.latest()
    if mode == "timestamp":
        return KafkaOffsetsInitializer.timestamp(int(_required(table, "scan.bounded.timestamp-millis")))
    _refuse("scan.bounded.mode '%s'" % mode)


def _json_rows(table: CatalogTable):
    """The 'json' format's rows of a table: Flink SQL's JSON reading (a number or a numeric string for a numeric
    column, any scalar's text for a STRING, NULL for a missing field unless json.fail-on-missing-field; a
    message that is no JSON object of the schema fails the job, or is skipped with json.ignore-parse-errors)."""
    ignore_errors = table.option("json.ignore-parse-errors", "false") == "true"
    fail_on_missing = table.option("json.fail-on-missing-field", "false") == "true"
    if ignore_errors and fail_on_missing:
        raise expressions.validation_error("fail-on-missing-field and ignore-parse-errors shouldn't both be true.")
    fields = [(column.name, _json_converter(column.type.name)) for column in table.physical_columns]

    def rows(text):
        import json
        from pyflink_compat.common.types import Row
        if text is None:                 # a tombstone: no row
            return
        try:
            node = json.loads(text)
            if not isinstance(node, dict):
                raise ValueError("not a JSON object")
            values = []
            for name, convert in fields:
                if name not in node:
                    if fail_on_missing:
                        raise ValueError("Could not find field with name '%s'." % name)
                    values.append(None)
                elif node[name] is None:
                    values.append(None)
                else:
                    try:
                        values.append(convert(node[name]))
                    except (ValueError, TypeError, OverflowError):
                        if not ignore_errors:
                            raise
                        values.append(None)       # Flink's json format: the field is NULL, the row stays
        except (ValueError, TypeError, OverflowError) as e:
            if ignore_errors:
                return
            raise IOError("Failed to deserialize JSON '%s'." % text) from e
        yield Row(*values)
    return rows


def _json_scalar_text(value) -> str:
    import json
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def _json_integer(low: int, high: int):
    def convert(value):
        if isinstance(value, bool):
            raise ValueError("a boolean for an integer column")
        if isinstance(value, (int, float)):
            if not low <= value <= high:
                raise ValueError("out of range")
            return int(value)
        return int(_json_scalar_text(value).strip())
    return convert


def _json_timestamp(value):
    from pyflink_compat.table.sql.values import parse_sql_timestamp
    if not isinstance(value, str):
        raise ValueError("a timestamp is text")
    return parse_sql_timestamp(value)


def _json_converter(name: str):
    if name == "TIMESTAMP":
        return _json_timestamp
    if name == "STRING":
        return _json_scalar_text
    if name in ("DOUBLE", "FLOAT"):
        return lambda value: float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
            else float(_json_scalar_text(value).strip())
    if name == "BOOLEAN":
        return lambda value: value if isinstance(value, bool) else _json_scalar_text(value).strip().lower() == "true"
    bits = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}[name]
    return _json_integer(-2 ** (bits - 1), 2 ** (bits - 1) - 1)


def _with_computed_columns(table: CatalogTable):
    """The function completing a row of the physical columns with the computed ones, in the declared order."""
    physical = table.physical_columns
    compiler = expressions.Compiler({column.name: (position, column.type) for position, column in enumerate(physical)})
    parts = [(None, physical.index(column)) if column.computed is None
             else (compiler.compile(column.computed)[0], None) for column in table.columns]

    def complete(row):
        from pyflink_compat.common.types import Row
        values = tuple(row)
        return Row(*[values[position] if function is None else function(values) for function, position in parts])
    return complete


def _group_key(pair):
    return pair[0]


def _values_row(change):
    from pyflink_compat.common.types import Row
    return Row(*change[1])


def _duration_ms(text: str) -> int:
    """Flink's duration text: '5 s', '500 ms', '1 min', '10000' (ms)."""
    import re
    match = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", text.lower())
    if match is None:
        raise expressions.validation_error("Could not parse value '%s' for key 'table.exec.source.idle-timeout'."
                                           % text)
    number, unit = int(match.group(1)), match.group(2)
    factors = {"": 1, "ms": 1, "milli": 1, "millis": 1, "s": 1000, "sec": 1000, "secs": 1000, "second": 1000,
               "seconds": 1000, "min": 60_000, "m": 60_000, "minute": 60_000, "minutes": 60_000, "h": 3_600_000,
               "hour": 3_600_000, "hours": 3_600_000}
    if unit not in factors:
        raise expressions.validation_error("Could not parse value '%s' for key 'table.exec.source.idle-timeout'."
                                           % text)
    return number * factors[unit]


class _RowtimeAssigner(TimestampAssigner):
    """The record timestamp of a row: its rowtime TIMESTAMP column as UTC epoch milliseconds."""

    def __init__(self, position: int):
        self.position = position

    def extract_timestamp(self, value, record_timestamp) -> int:
        rowtime = tuple(value)[self.position]
        if rowtime is None:
            raise RuntimeError("RowTime field should not be null, please convert it to a non-null long value.")
        import calendar
        return calendar.timegm(rowtime.timetuple()) * 1000 + rowtime.microsecond // 1000


def _single_value(row):
    for value in row:
        return value


def _single_column_row(value):
    from pyflink_compat.common.types import Row
    if value is not None:
        yield Row(value)


def _calc(condition, converters):
    """The WHERE condition and the projections of one statement as one function (a Row in, none or one out)."""
    def calc(row):
        from pyflink_compat.common.types import Row
        if row is None:               # a record the format skipped (json.ignore-parse-errors)
            return
        values = tuple(row)
        if condition is not None and condition(values) is not True:
            return
        yield Row(*[convert(values) for convert in converters])
    return calc


def _change_line(sql_types):
    """The print connector's line of a (row kind, values) change."""
    def line(change) -> str:
        from pyflink_compat.table.sql.values import row_text
        kind, values = change
        return row_text(kind, values, sql_types)
    return line


def _inserted_line(sql_types):
    """The print connector's line of an inserted row: ``+I[1, abc, 2.0]``."""
    def line(row) -> str:
        from pyflink_compat.table.sql.values import row_text
        return row_text("+I", list(row), sql_types)
    return line


def _json_writer(table: CatalogTable):
    names, sql_types = table.column_names, [column.type for column in table.columns]

    def text(row) -> str:
        from pyflink_compat.table.sql.values import json_text
        return json_text(names, list(row), sql_types)
    return text

"""A group window's input as partial aggregates: the rows of one key that fall in the same windows are summed up
before they are sent to the window's subtask, which merges the partials into the window's accumulators.

Per row (``WindowPartials.flat_map``) a partial is the row's own contribution; a ``BatchForm`` makes the same
partials for a whole batch of Kafka JSON messages at once with Arrow (decoding, computed rowtime, WHERE, keys,
grouping), for the kinds of tables, conditions and aggregates where the result is provably the one the row path
gives: every row of a partial falls in the same windows (same pane), and the aggregates are exact and
order-free (COUNT, and SUM / MIN / MAX / AVG of integers, MIN / MAX of strings). Anything else in a batch (a
message the JSON reader would treat otherwise than the row path, a possible overflow, a timestamp out of range)
hands that batch back to the per-row steps, which give the same result, the same error or the same skipped
message as without the batch form.
"""
import math
from typing import Callable, List, Optional

from sqlglot import exp

from pyflink_compat.datastream.functions import FlatMapFunction
from pyflink_compat.table.sql import aggregates

INTEGER_TYPES = {"TINYINT": "int8", "SMALLINT": "int16", "INT": "int32", "INTEGER": "int32", "BIGINT": "int64"}
# Arrow types the JSON reader checks a column's values against (a value of another JSON type fails the batch)
_ARROW_TYPES = dict(INTEGER_TYPES, STRING="string", VARCHAR="string", DOUBLE="float64", FLOAT="float64",
                    BOOLEAN="bool")
_TEXT_TYPES = ("TIMESTAMP", "TIMESTAMP_LTZ")     # read as JSON strings, converted value by value
_EXACT_AGGREGATES = ("COUNT(*)", "COUNT", "SUM", "MIN", "MAX", "AVG:int")
# The epoch milliseconds a Python date-time holds (years 1 to 9999)
_MIN_MS, _MAX_MS = -62135596800000, 253402300799999
_LONG_LIMIT = 2 ** 63


class WindowPartials(FlatMapFunction):
    """(group key values, partial accumulators) of a row of a group window's input that the WHERE clause keeps.
    ``batch_form``: the same for a whole batch read from the source, or None."""

    def __init__(self, condition: Optional[Callable], keys: List[Callable], arguments: List[Optional[Callable]],
                 names: List[str], batch_form: "BatchForm" = None, slice_of: Optional[Callable] = None):
        self.condition, self.keys, self.arguments, self.names = condition, keys, arguments, names
        self.batch_form = batch_form
        self.slice_of = slice_of          # a row's slice of the window (aggregates.Accumulate(sliced=True)), or None

    def flat_map(self, row):
        if row is None:
            return
        values = tuple(row)
        if self.condition is not None and self.condition(values) is not True:
            return
        partial = (tuple(key(values) for key in self.keys),
                   tuple(aggregates.partial_of(name, None if argument is None else argument(values))
                         for name, argument in zip(self.names, self.arguments)))
        yield partial if self.slice_of is None else partial + (self.slice_of(values),)


def mergeable(names) -> bool:
    """Whether a window's aggregates can be summed up in partials (built-in ones; Python aggregate functions keep
    their own accumulate calls)."""
    from pyflink_compat.table.sql.builtin_aggregates import BuiltinAggregate
    return all(isinstance(name, (str, BuiltinAggregate)) for name in names)


# -- the batch form ---------------------------------------------------------------------------------

class BatchForm:
    """The per-element steps from a Kafka JSON table's source to the window partials, for the batches of one
    split at a time: ``start()`` gives a ``SplitPartials`` that takes the split's batches (each one it cannot take
    goes through the steps) and gives their partials, one per key and pane for all the batches it took.

    ``chain_length``: how many per-element steps it stands for (the source's format reader, its computed columns,
    the timestamp assigner, the partials)."""

    def __init__(self, physical, converters, ignore_errors: bool, computed, rowtime: str, condition, keys,
                 aggregates_, pane_ms: int, chain_length: int):
        self.physical = physical              # [(name, type name)] in the message's field order
        self.converters = converters          # {name: converter} of the columns read as JSON strings
        self.ignore_errors = ignore_errors
        self.computed = computed              # [(name, source column, factor)]: TO_TIMESTAMP_LTZ(source[, 0|3])
        self.rowtime = rowtime
        self.condition = condition            # a sqlglot node (checked by vectorisable) or None
        self.keys = keys                      # column names
        self.aggregates = aggregates_         # [(name, argument column or None)]
        self.pane_ms = pane_ms
        self.chain_length = chain_length

    def start(self) -> "SplitPartials":
        return SplitPartials(self)

    def __call__(self, column):
        """(partials, timestamps, the largest timestamp seen) of one batch, or None: it goes through the steps."""
        split = self.start()
        if not split.add(column):
            return None
        return split.take() + (split.largest,)

    def rows(self, column):
        """The batch's rows the WHERE clause keeps, as (columns by name, rowtimes), and the largest rowtime of
        all of its rows (None: none); raises _Unsure where the steps must read it."""
        import pyarrow as pa
        import pyarrow.compute as pc
        count = len(column)
        if count == 0:
            return {}, pa.array([], pa.int64()), None
        if isinstance(column, pa.ChunkedArray):
            column = column.combine_chunks()
        if not pa.types.is_string(column.type) and not pa.types.is_large_string(column.type):
            raise _Unsure()
        # row by row: a tombstone, a message of several lines, a byte-order mark, or one that is no JSON object
        # (the reader takes a line of "null" for a row, or crashes on it)
        if (column.null_count or _any(pc.match_substring_regex(column, "[\n\r\ufeff]"))
                or not _all(pc.match_substring_regex(column, "^[ \t]*\\{"))):
            raise _Unsure()
        table = self._decoded(column, count)
        values = {name: table.column(name).combine_chunks() for name, _ in self.physical}
        for name, converter in self.converters.items():
            values[name] = self._converted(values[name], converter)
        for name, source, factor in self.computed:
            values[name] = _epoch_ms_checked(values[source], factor)
        stamps = pc.fill_null(values[self.rowtime], 0)   # a row without rowtime is at the epoch (Flink SQL's windows)
        largest = pc.max(stamps).as_py()
        if largest is not None and pc.min(stamps).as_py() < 0:
            raise _Unsure()                  # panes are counted from the epoch
        if self.condition is not None:
            kept = _evaluate(self.condition, values)
            if not isinstance(kept, pa.Array):
                kept = pa.array([kept.as_py()] * count, pa.bool_())
            stamps = pc.filter(stamps, kept, null_selection_behavior="drop")
            values = {name: pc.filter(array, kept, null_selection_behavior="drop") for name, array in values.items()}
        return values, stamps, largest

    def _decoded(self, column, count: int):
        """The messages as a table of the physical columns (the JSON reader checks each value's type)."""
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.json as pj
        text = pc.binary_join(pa.ListArray.from_arrays(pa.array([0, count], pa.int32()), column), "\n")[0]
        schema = pa.schema([(name, pa.string() if type_name in _TEXT_TYPES else _ARROW_TYPES[type_name])
                            for name, type_name in self.physical])
        buffer = text.as_buffer()
        try:
            table = pj.read_json(pa.BufferReader(buffer),
                                 read_options=pj.ReadOptions(use_threads=False, block_size=max(1 << 20, len(buffer) + 1)),
                                 parse_options=pj.ParseOptions(explicit_schema=schema,
                                                               unexpected_field_behavior="ignore"))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise _Unsure()
        if table.num_rows != count:          # an empty message, or two objects in one
            raise _Unsure()
        return table

    def _converted(self, array, converter):
        """A column read as JSON strings, converted value by value as the row path converts it (epoch ms)."""
        import pyarrow as pa
        from pyflink_compat.table.sql.planner import epoch_ms_of
        out = []
        for value in array.to_pylist():
            if value is None:
                out.append(None)
                continue
            try:
                out.append(epoch_ms_of(converter(value)))
            except (ValueError, TypeError, OverflowError):
                if not self.ignore_errors:
                    raise _Unsure()          # the row path fails the job with the format's message
                out.append(None)
        return pa.array(out, pa.int64())


# How each partial column of a key and pane is computed from rows, and merged with another's
_FIRST_PASS = {"COUNT(*)": "count", "COUNT": "count", "SUM": "sum", "MIN": "min", "MAX": "max"}
_MERGE_PASS = {"COUNT(*)": "sum", "COUNT": "sum", "SUM": "sum", "MIN": "min", "MAX": "max"}
# Grouped rows a split holds before it merges them (bounds its memory)
_MERGE_AT_ROWS = 100_000


class SplitPartials:
    """The partials of the batches of one split that the batch form took: grouped per key and pane within each
    batch, merged across batches; ``take`` gives them as (partials, timestamps) in the order of their first rows."""

    def __init__(self, form: BatchForm):
        self.form = form
        self.pending = []             # tables of grouped rows
        self.pending_rows = 0
        self.rows_before = 0          # rows of the batches before (a row's place in the split orders partials)
        self.sum_bounds = [0] * len(form.aggregates)   # how far each SUM could be from 0
        self.largest = None           # the largest timestamp of the last batch added

    def add(self, column) -> bool:
        """Take a batch; False: it goes through the steps (nothing of it taken)."""
        try:
            values, stamps, largest = self.form.rows(column)
            grouped = self._grouped(values, stamps) if len(stamps) else None
        except _Unsure:
            return False
        self.largest = largest
        self.rows_before += len(column)
        if grouped is not None:
            self.pending.append(grouped)
            self.pending_rows += grouped.num_rows
            if self.pending_rows > _MERGE_AT_ROWS and len(self.pending) > 1:
                self.pending = [self._merged()]
                self.pending_rows = self.pending[0].num_rows
        return True

    def take(self):
        """(partials, timestamps) of every batch taken since the last ``take``."""
        if not self.pending:
            return [], []
        table = self.pending[0] if len(self.pending) == 1 else self._merged()
        self.pending, self.pending_rows = [], 0
        self.sum_bounds = [0] * len(self.form.aggregates)
        table = table.sort_by("$row")
        key_names = ["$k%d" % index for index in range(len(self.form.keys))]
        keys = list(zip(*[table.column(name).to_pylist() for name in key_names])) if key_names \
            else [()] * table.num_rows
        parts = []
        for index, (name, _) in enumerate(self.form.aggregates):
            if name == "AVG:int":
                totals, counts = table.column("$p%d" % index).to_pylist(), table.column("$c%d" % index).to_pylist()
                parts.append([(total or 0, n) for total, n in zip(totals, counts)])
            else:
                parts.append(table.column("$p%d" % index).to_pylist())
        partials = list(zip(keys, zip(*parts))) if parts else [(key, ()) for key in keys]
        return partials, table.column("$ts").to_pylist()

    def _grouped(self, values, stamps):
        """The batch's rows grouped per key and pane: keys, $pane, $ts (largest), $row (first), the partials."""
        import pyarrow as pa
        import pyarrow.compute as pc
        count = len(stamps)
        form = self.form
        columns = {"$pane": pc.divide(stamps, form.pane_ms), "$ts": stamps,
                   "$row": pa.array(range(self.rows_before, self.rows_before + count), pa.int64())}
        key_names = []
        for index, name in enumerate(form.keys):
            key_names.append("$k%d" % index)
            columns[key_names[-1]] = values[name]
        specs, renames = [("$ts", "max"), ("$row", "min")], {"$ts_max": "$ts", "$row_min": "$row"}
        for index, (name, argument) in enumerate(form.aggregates):
            source = "$a%d" % index
            columns[source] = stamps if argument is None else values[argument]      # COUNT(*): every row
            if name in ("SUM", "AVG:int"):
                self._bound_sum(index, columns[source], count)
            if name == "AVG:int":
                specs.extend([(source, "sum"), (source, "count")])
                renames.update({source + "_sum": "$p%d" % index, source + "_count": "$c%d" % index})
            else:
                function = _FIRST_PASS[name]
                specs.append((source, function))
                renames[source + "_" + function] = "$p%d" % index
        grouped = pa.table(columns).group_by(key_names + ["$pane"], use_threads=False).aggregate(specs)
        return _renamed(grouped, renames)

    def _merged(self):
        """The pending tables as one, rows of one key and pane merged."""
        import pyarrow as pa
        form = self.form
        key_names = ["$k%d" % index for index in range(len(form.keys))]
        specs, renames = [("$ts", "max"), ("$row", "min")], {"$ts_max": "$ts", "$row_min": "$row"}
        for index, (name, _) in enumerate(form.aggregates):
            if name == "AVG:int":
                specs.extend([("$p%d" % index, "sum"), ("$c%d" % index, "sum")])
                renames.update({"$p%d_sum" % index: "$p%d" % index, "$c%d_sum" % index: "$c%d" % index})
            else:
                function = _MERGE_PASS[name]
                specs.append(("$p%d" % index, function))
                renames["$p%d_%s" % (index, function)] = "$p%d" % index
        table = pa.concat_tables(self.pending)
        return _renamed(table.group_by(key_names + ["$pane"], use_threads=False).aggregate(specs), renames)

    def _bound_sum(self, index: int, array, count: int):
        """Refuse (row by row) a batch after which an integer sum of the split could leave 64 bits (Arrow's
        sums wrap)."""
        import pyarrow.compute as pc
        bounds = pc.min_max(array).as_py()
        if bounds["min"] is None:
            return
        bound = self.sum_bounds[index] + max(abs(bounds["min"]), abs(bounds["max"])) * count
        if bound >= _LONG_LIMIT:
            raise _Unsure()
        self.sum_bounds[index] = bound


def _renamed(table, renames):
    return table.rename_columns([renames.get(name, name) for name in table.column_names])


class _Unsure(Exception):
    """This batch goes through the per-row steps."""


def _any(flags) -> bool:
    import pyarrow.compute as pc
    return bool(pc.any(flags).as_py())


def _all(flags) -> bool:
    import pyarrow.compute as pc
    return bool(pc.all(flags).as_py())


def _epoch_ms_checked(array, factor: int):
    """TO_TIMESTAMP_LTZ(epoch, 0 | 3) as epoch ms; a value the row path could not turn into a date-time sends the
    batch row by row (there it fails as it does without the batch form)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    bounds = pc.min_max(array).as_py()
    if bounds["min"] is not None and (bounds["min"] * factor < _MIN_MS or bounds["max"] * factor > _MAX_MS):
        raise _Unsure()
    return pc.multiply(array.cast(pa.int64()), factor) if factor != 1 else array.cast(pa.int64())


# -- WHERE clauses an Arrow expression computes -----------------------------------------------------

_COMPARISONS = {exp.EQ: "equal", exp.NEQ: "not_equal", exp.GT: "greater", exp.GTE: "greater_equal",
                exp.LT: "less", exp.LTE: "less_equal"}


def _evaluate(node, values):
    import pyarrow as pa
    import pyarrow.compute as pc
    if isinstance(node, exp.Paren):
        return _evaluate(node.this, values)
    if isinstance(node, exp.Column):
        return values[node.name]
    if isinstance(node, (exp.Literal, exp.Neg, exp.Boolean, exp.Null)):
        return pa.scalar(_literal(node))
    if isinstance(node, exp.And):
        return pc.and_kleene(_evaluate(node.this, values), _evaluate(node.expression, values))
    if isinstance(node, exp.Or):
        return pc.or_kleene(_evaluate(node.this, values), _evaluate(node.expression, values))
    if isinstance(node, exp.Not):
        inner = node.this
        if isinstance(inner, exp.Is):
            return pc.is_valid(_evaluate(inner.this, values))
        return pc.invert(_evaluate(inner, values))
    if isinstance(node, exp.Is):
        return pc.is_null(_evaluate(node.this, values))
    function = getattr(pc, _COMPARISONS[type(node)])
    return function(_evaluate(node.this, values), _evaluate(node.expression, values))


def _literal(node):
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, exp.Neg):
        return -_literal(node.this)
    if node.is_string:
        return node.this
    return int(node.this)


def _kind(node, types) -> Optional[str]:
    """The kind of value a vectorisable expression gives ("int", "string", "bool", "null"), None if the batch
    form does not compute it as the row path does."""
    if isinstance(node, exp.Paren):
        return _kind(node.this, types)
    if isinstance(node, exp.Column):
        if node.table:
            return None
        type_name = types.get(node.name)
        if type_name in INTEGER_TYPES:
            return "int"
        return {"STRING": "string", "VARCHAR": "string", "BOOLEAN": "bool"}.get(type_name)
    if isinstance(node, exp.Null):
        return "null"
    if isinstance(node, exp.Boolean):
        return "bool"
    if isinstance(node, exp.Neg):
        return "int" if _kind(node.this, types) == "int" and isinstance(node.this, exp.Literal) else None
    if isinstance(node, exp.Literal):
        if node.is_string:
            return "string"
        text = node.this
        return "int" if text.isdigit() and int(text) < _LONG_LIMIT else None
    if isinstance(node, (exp.And, exp.Or)):
        kinds = {_kind(node.this, types), _kind(node.expression, types)}
        return "bool" if kinds <= {"bool", "null"} else None
    if isinstance(node, exp.Not):
        inner = node.this
        if isinstance(inner, exp.Is):
            return _kind(inner, types)
        return "bool" if _kind(inner, types) == "bool" else None
    if isinstance(node, exp.Is):
        return "bool" if isinstance(node.expression, exp.Null) and _kind(node.this, types) is not None else None
    if type(node) in _COMPARISONS:
        left, right = _kind(node.this, types), _kind(node.expression, types)
        # only values of one kind, compared as the row path compares them (no NULL literal: the planner's rules)
        return "bool" if left == right and left in ("int", "string", "bool") else None
    return None


# -- building it ------------------------------------------------------------------------------------

def batch_form_of(table, value_format: str, key_format, ignore_errors: bool, fail_on_missing: bool, window,
                  condition, key_nodes, calls, chain_length: int) -> Optional[BatchForm]:
    """The batch form of a group window over a Kafka table, or None where it does not apply. ``calls``:
    (aggregate name, argument node or None) of the window's aggregates."""
    from pyflink_compat.table.sql import kafka_table
    if (value_format != "json" or key_format is not None or fail_on_missing or table.metadata_columns
            or window.processing or window.kind not in ("TUMBLE", "HOP") or table.watermark is None
            or window.column != table.watermark[0]):
        return None
    physical = [(column.name, column.type.name) for column in table.physical_columns]
    if any(type_name not in _ARROW_TYPES and type_name not in _TEXT_TYPES for _, type_name in physical):
        return None
    converters = {name: kafka_table.json_converter(type_name) for name, type_name in physical
                  if type_name in _TEXT_TYPES}
    types = dict(physical)
    computed = []
    for column in table.columns:
        if column.computed is None:
            continue
        source_factor = _epoch_source(column.computed, types)
        if source_factor is None:
            return None
        computed.append((column.name,) + source_factor)
        types[column.name] = "TIMESTAMP_LTZ"
    if types.get(table.watermark[0]) not in _TEXT_TYPES:
        return None
    if condition is not None and _kind(condition, types) != "bool":
        return None
    keys = []
    for node in key_nodes:
        if not isinstance(node, exp.Column) or node.table or _kind(node, types) not in ("int", "string", "bool"):
            return None
        keys.append(node.name)
    shaped = []
    for name, argument in calls:
        if name not in _EXACT_AGGREGATES:
            return None
        if argument is None:
            shaped.append((name, None))
            continue
        if not isinstance(argument, exp.Column) or argument.table or argument.name not in types:
            return None
        kind = _kind(argument, types)
        if name in ("SUM", "AVG:int") and kind != "int":
            return None
        if name in ("MIN", "MAX") and kind not in ("int", "string"):
            return None
        shaped.append((name, argument.name))
    pane_ms = window.intervals[0] if window.kind == "TUMBLE" else math.gcd(*window.intervals)
    if pane_ms <= 0 or window.offset_ms % pane_ms:        # its panes are counted from the epoch
        return None
    return BatchForm(physical, converters, ignore_errors, computed, table.watermark[0], condition, keys, shaped,
                     pane_ms, chain_length)


def _epoch_source(node, types):
    """(source column, factor) of a computed column TO_TIMESTAMP_LTZ(integer column [, 0 | 3]), else None."""
    if not (isinstance(node, exp.Anonymous) and node.name.upper() == "TO_TIMESTAMP_LTZ"):
        return None
    arguments = node.expressions
    if not arguments or not isinstance(arguments[0], exp.Column) or types.get(arguments[0].name) not in INTEGER_TYPES:
        return None
    precision = 3
    if len(arguments) == 2:
        if not isinstance(arguments[1], exp.Literal) or arguments[1].this not in ("0", "3"):
            return None
        precision = int(arguments[1].this)
    elif len(arguments) != 1:
        return None
    return arguments[0].name, 1000 if precision == 0 else 1

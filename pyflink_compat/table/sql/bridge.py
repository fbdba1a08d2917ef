"""Tables of DataStreams and DataStreams of tables (StreamTableEnvironment's from_data_stream, to_data_stream,
to_changelog_stream): a stream's elements as rows with columns from its type information, as Flink derives
them (a ROW's fields, a tuple's f0, f1, ... with its primitive fields NOT NULL, a single value as f0)."""
from typing import List

from pyflink_compat.table.sql.catalog import SECTION, CatalogTable, Column, SqlType
from pyflink_compat.util.exceptions import UnsupportedFeatureError


class DataStreamRelation:
    """The rows of a DataStream (``stream``); ``shape``: "row", "tuple" or "value", how an element becomes a
    row; ``instants``: positions of Instant fields (TIMESTAMP_LTZ columns), ``floats``: of Types.FLOAT() fields
    (their values single precision, as Flink serializes them)."""

    def __init__(self, stream, shape: str, instants=(), floats=()):
        self.stream, self.shape, self.instants, self.floats = stream, shape, tuple(instants), tuple(floats)
        # from_changelog_stream(..., ChangelogMode.insert_only()): a Row of another kind than +I fails the job
        self.insert_only = False
        # from_data_stream(..., col('t').rowtime): a record without a timestamp fails the job
        self.rowtime_required = False


class ChangelogStreamRelation:
    """The changes of a DataStream of Rows (StreamTableEnvironment.from_changelog_stream): each element's RowKind is
    its change's kind; ``rows``: the DataStreamRelation making its values a row."""

    def __init__(self, rows: DataStreamRelation):
        self.rows = rows


def as_changelog(table: CatalogTable) -> CatalogTable:
    """A stream's table read as a changelog (from_changelog_stream): its elements' RowKinds kept through the job."""
    import attrs
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    relation = table.query
    if relation.shape != "row":
        raise UnsupportedFeatureError("from_changelog_stream of a stream of %s" % relation.stream.get_type(), SECTION,
                                      "a changelog is a stream of Rows (Types.ROW / ROW_NAMED)")
    relation.stream.get_type()._row_kinds = True         # the RowKinds survive the stream's last operator
    return attrs.evolve(table, query=ChangelogStreamRelation(relation))


class UpsertStreamRelation:
    """The changes of a DataStream of Rows in upsert mode (from_changelog_stream with ChangelogMode.upsert() and a
    primary key): +I / +U a key's new row, -D its deletion; read normalized per key as Flink's ChangelogNormalize
    (``-U`` / ``+U`` per update, a repeated row nothing)."""

    def __init__(self, rows: DataStreamRelation):
        self.rows = rows


def as_upsert(table: CatalogTable) -> CatalogTable:
    """A stream's table read as an upsert changelog keyed by its primary key."""
    import attrs
    as_changelog(table)                                  # a stream of Rows, their kinds kept
    return attrs.evolve(table, query=UpsertStreamRelation(table.query))


def upserts_of(rows: DataStreamRelation, key_positions):
    """The function making an upsert stream's element (primary key, its row or None for a deletion)."""
    to_row = rows_of(rows.shape, rows.instants, rows.floats)

    def upsert(element):
        values = tuple(to_row(element))
        key = tuple(values[position] for position in key_positions)
        return key, (None if str(element.get_row_kind()) == "-D" else values)
    return upsert


def as_insert_only(table: CatalogTable) -> CatalogTable:
    """A stream's table read as an insert-only changelog (from_changelog_stream with ChangelogMode.insert_only()):
    its rows as they are, a Row whose RowKind is not INSERT failing the job as in Flink."""
    relation = table.query
    if relation.shape == "row":
        relation.stream.get_type()._row_kinds = True     # the RowKinds survive the stream's last operator
        relation.insert_only = True
    return table


def changes_of(rows: DataStreamRelation):
    """The function making a changelog stream's element a change (row kind, values)."""
    to_row = rows_of(rows.shape, rows.instants, rows.floats)

    def change(element):
        return str(element.get_row_kind()), tuple(to_row(element))
    return change


_BASIC = {"String": "STRING", "Boolean": "BOOLEAN", "Byte": "TINYINT", "Short": "SMALLINT", "Integer": "INT",
          "Long": "BIGINT", "Float": "FLOAT", "Double": "DOUBLE"}


def _sql_type(type_info, primitive_not_null: bool) -> SqlType:
    from pyflink_compat.common.typeinfo import BasicTypeInfo, InstantTypeInfo, TimestampTypeInfo
    if isinstance(type_info, InstantTypeInfo):
        return SqlType("TIMESTAMP_LTZ", precision=9)
    if isinstance(type_info, BasicTypeInfo) and type_info._basic_type.value in _BASIC:
        name = _BASIC[type_info._basic_type.value]
        return SqlType(name, nullable=not (primitive_not_null and name != "STRING"))
    if isinstance(type_info, TimestampTypeInfo):
        return SqlType("TIMESTAMP", precision=3)
    raise UnsupportedFeatureError("A table of a DataStream of %s" % type_info, SECTION,
                                  "streams of ROW, TUPLE and basic types become tables")


def table_of_stream(name: str, stream, names: List[str] = None) -> CatalogTable:
    """The table of a DataStream's elements; ``names`` rename its columns in order."""
    from pyflink_compat.common.typeinfo import PickledBytesTypeInfo, RowTypeInfo, TupleTypeInfo
    type_info = stream.get_type()
    if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
        raise UnsupportedFeatureError("A table of a DataStream without an output_type (pickled Python objects)",
                                      SECTION, "give the stream's last operation an output_type, e.g. "
                                               "Types.ROW_NAMED([...], [...])")
    if isinstance(type_info, RowTypeInfo):
        shape = "row"
        columns = [Column(field, _sql_type(field_type, False)) for field, field_type
                   in zip(type_info.get_field_names(), type_info.get_field_types())]
    elif isinstance(type_info, TupleTypeInfo):
        shape = "tuple"
        columns = [Column("f%d" % i, _sql_type(field_type, True))
                   for i, field_type in enumerate(type_info.get_field_types())]
    else:
        shape = "value"
        columns = [Column("f0", _sql_type(type_info, False))]
    if names:
        if len(names) > len(columns):
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("Too many fields referenced from an atomic type.")
        columns = [Column(names[i], column.type) if i < len(names) else column
                   for i, column in enumerate(columns)]
    import attrs
    columns = [Column(column.name, attrs.evolve(column.type, origin=column.name)) for column in columns]
    instants = [i for i, column in enumerate(columns) if column.type.name == "TIMESTAMP_LTZ"]
    floats = [i for i, column in enumerate(columns) if column.type.name == "FLOAT"]
    return CatalogTable(name, tuple(columns), {}, None, DataStreamRelation(stream, shape, instants, floats))


def table_of_stream_with_schema(name: str, stream, schema) -> tuple:
    """from_data_stream(stream, schema) as Flink makes it: (the table, the names of the columns the result shows,
    or None for all). Physical columns come from the stream's type; a schema's ``column(...)`` picks some of them
    (the result shows the declared columns only, in the declared order), ``column_by_expression`` and
    ``column_by_metadata('rowtime')`` add columns computed from all of the stream's fields, ``watermark`` makes
    a rowtime attribute (``SOURCE_WATERMARK()``: the stream's own watermarks)."""
    from sqlglot import exp
    from pyflink_compat.table.sql import catalog, dialect
    from pyflink_compat.table.sql.expressions import validation_error
    derived = table_of_stream(name, stream)
    physical = {column.name: column for column in derived.columns}
    declared_physical, others, shown = {}, [], []
    definitions = list(schema._definitions)
    items = dialect.parse("CREATE TABLE `%s` (%s)" % (name, ", ".join(definitions)))[0].this.expressions \
        if definitions else []
    for definition, item in zip(definitions, items):
        if not isinstance(item, exp.ColumnDef):          # the watermark, a primary key
            others.append(definition)
            continue
        kinds = [constraint.args.get("kind") for constraint in item.args.get("constraints") or []]
        if any(isinstance(kind, (exp.ComputedColumnConstraint, dialect.MetadataColumnConstraint)) for kind in kinds):
            others.append(definition)
            shown.append(item.name)
            continue
        if item.name not in physical:
            raise validation_error(
                "Unable to find a field named '%s' in the physical data type derived from the given type "
                "information for schema declaration. Make sure that the type information is not a generic "
                "raw type. Currently available fields are: [%s]" % (item.name, ", ".join(physical)), "fromDataStream")
        declared = catalog.sql_type(item.args["kind"], item.name)
        if declared.name != physical[item.name].type.name:
            raise UnsupportedFeatureError(
                "Declaring column '%s' of a DataStream's table as %s (the stream gives %s)"
                % (item.name, declared.text(), physical[item.name].type.text()), SECTION,
                "declare the type the stream's type information gives (Flink fails such a job when it runs)")
        declared_physical[item.name] = declared
        shown.append(item.name)
    columns = ["`%s` %s" % (column.name, declared_physical.get(column.name, column.type).text())
               for column in derived.columns]
    table = catalog.table_of(dialect.parse("CREATE TABLE `%s` (%s)" % (name, ", ".join(columns + others)))[0])
    for column in table.metadata_columns:
        if column.metadata != "rowtime":
            raise validation_error("Invalid metadata key '%s' in column '%s' of a table of a DataStream. The "
                                   "DataStream supports the following metadata keys for reading:\nrowtime"
                                   % (column.metadata, column.name))
    import attrs
    shown_text = schema._shown          # a computed column's expression as the schema was given it
    columns = tuple(attrs.evolve(column, display=shown_text[column.name])
                    if column.computed is not None and column.name in shown_text else column
                    for column in table.columns)
    table = attrs.evolve(table, columns=columns, query=derived.query, watermark_display=shown_text.get("WATERMARK"))
    return table, (shown if declared_physical else None)


def rows_of(shape: str, instants=(), floats=(), insert_only: bool = False):
    """The function making a row of a stream's element (Instant fields as UTC date-times, FLOAT ones in single
    precision); with ``insert_only``, a Row of another kind than INSERT fails as Flink's input conversion."""
    from pyflink_compat.table.sql.values import single_precision

    def to_row(element):
        from pyflink_compat.common.types import Row, RowKind
        if insert_only and element.get_row_kind() != RowKind.INSERT:
            from pyflink_compat.util.exceptions import JavaException
            raise JavaException("org.apache.flink.util.FlinkRuntimeException: Error during input conversion. "
                                "Conversion expects insert-only records but DataStream API record contains: %s"
                                % element.get_row_kind().name)
        if shape == "value":
            values = [element]
        else:
            values = list(element)
        for position in instants:
            if values[position] is not None:
                values[position] = _utc_of_instant(values[position])
        for position in floats:
            if values[position] is not None:
                values[position] = single_precision(values[position])
        return Row(*values)
    return to_row


def _utc_of_instant(instant):
    import datetime
    return datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=instant.seconds,
                                                               microseconds=instant.nanos // 1000)


def data_stream_row(names):
    """The function making a change (row kind, values) a Row of the table's columns, with its kind (what
    to_data_stream and to_changelog_stream give)."""
    def to_row(change):
        from pyflink_compat.common.types import Row, RowKind
        kind, values = change
        row = Row(*values)
        row.set_field_names(list(names))
        row.set_row_kind({"+I": RowKind.INSERT, "-U": RowKind.UPDATE_BEFORE, "+U": RowKind.UPDATE_AFTER,
                          "-D": RowKind.DELETE}[kind])
        return row
    return to_row


class ElementsRelation:
    """The rows of TableEnvironment.from_elements: tuples of the table's columns' values, read by a bounded
    collection source of parallelism 1 (Flink's values source)."""

    def __init__(self, rows: tuple):
        self.rows = rows


# PyFlink's types of Python values when from_elements infers a schema
_INFERRED = {bool: "BOOLEAN", int: "BIGINT", float: "DOUBLE", str: "STRING"}


def _inferred_type(value, column: str) -> SqlType:
    import datetime
    if isinstance(value, datetime.datetime):
        return SqlType("TIMESTAMP_LTZ", precision=6)
    name = _INFERRED.get(type(value))
    if name is None:
        raise UnsupportedFeatureError("from_elements of a %s value (column '%s')" % (type(value).__name__, column),
                                      SECTION, "booleans, integers, floats, strings and datetimes become columns; "
                                               "give a schema of DataTypes.ROW([...]) for others")
    return SqlType(name)


def _fields_of(element, names):
    """(names, values) of an element as PyFlink unboxes it: a named Row's fields, a dict's sorted items, a
    tuple's or list's values named _1, _2, ... (or by ``names``)."""
    from pyflink_compat.common.types import Row
    if isinstance(element, dict):
        items = sorted(element.items())
        return [k for k, _ in items], [v for _, v in items]
    if isinstance(element, Row) and element._has_field_names():
        return list(element._fields), list(element)
    if isinstance(element, (Row, tuple, list)):
        values = list(element)
        given = list(names or [])
        return given[:len(values)] + ["_%d" % i for i in range(len(given) + 1, len(values) + 1)], values
    raise TypeError("Can not infer schema for type: %s" % type(element))


def table_of_elements(name: str, elements: list, schema=None) -> CatalogTable:
    """The table of from_elements(elements, schema): ``schema`` a DataTypes.ROW, column names, or None (names
    and types inferred from the elements, as PyFlink infers them)."""
    import datetime
    from pyflink_compat.table.sql import catalog, dialect
    from pyflink_compat.table.sql.values import utc_of_local
    from pyflink_compat.table.types import DataType, RowType
    if isinstance(schema, RowType):
        names = schema.field_names()
        types = [catalog.sql_type(dialect.parse_type(field.sql()), column)
                 for field, column in zip(schema.field_types(), names)]
        rows = [tuple(_fields_of(element, names)[1]) for element in elements]
    elif isinstance(schema, DataType):
        names, types = ["value"], [catalog.sql_type(dialect.parse_type(schema.sql()), "value")]
        rows = [(element,) for element in elements]
    elif schema is None or isinstance(schema, (list, tuple)):
        if not elements:
            raise ValueError("can not infer schema from empty dataset")
        names, rows, types = None, [], None
        for element in elements:
            element_names, values = _fields_of(element, schema)
            names = names or element_names
            rows.append(tuple(values))
        types = []
        for position, column in enumerate(names):
            value = next((row[position] for row in rows if position < len(row) and row[position] is not None), None)
            if value is None:
                raise ValueError("Some of types cannot be determined after inferring")
            types.append(_inferred_type(value, column))
    else:
        raise TypeError("schema should be RowType, list, tuple or None, but got: %s" % schema)
    for row in rows:
        if len(row) != len(names):
            raise ValueError("Length of object (%d) does not match with length of fields (%d)"
                             % (len(row), len(names)))
    ltz = [i for i, t in enumerate(types) if t.name == "TIMESTAMP_LTZ"]
    if ltz:      # a naive date-time is local time (PyFlink's conversion); the column holds UTC date-times
        rows = [tuple(utc_of_local(v) if i in ltz and isinstance(v, datetime.datetime) else v
                      for i, v in enumerate(row)) for row in rows]
    import attrs
    columns = tuple(Column(column, attrs.evolve(sql_type, origin=column)) for column, sql_type in zip(names, types))
    return CatalogTable(name, columns, {}, None, ElementsRelation(tuple(rows)))


# from_data_stream(stream, *expressions): Flink's field mapping -------------------------------------------

ROWTIME_NOT_DEFINED = ("Rowtime timestamp is not defined. Please make sure that a proper TimestampAssigner is "
                       "defined and the stream environment uses the EventTime time characteristic.")


def _refused(message: str):
    """Flink's ValidationException of fromDataStream(stream, expressions...)."""
    from pyflink_compat.table.sql.expressions import validation_error
    return validation_error(message, "fromDataStream")


class _Field:
    """One field expression of from_data_stream: ``kind`` "ref", "rowtime" or "proctime"; ``name`` the field it
    names; ``alias`` its new name (``col('a').alias('b')``); ``text``: how Flink prints the call."""

    def __init__(self, kind: str, name: str, alias: str = None, text: str = None):
        self.kind, self.name, self.alias, self.text = kind, name, alias, text

    @property
    def result_name(self) -> str:
        return self.alias or self.name


def _java_type_text(type_info) -> str:
    """A DataStream type information as Java prints it in Flink's messages (Row(a: String), Java Tuple2<...>)."""
    from pyflink_compat.common.typeinfo import (BasicTypeInfo, DateTypeInfo, RowTypeInfo, TimestampTypeInfo,
                                                TimeTypeInfo, TupleTypeInfo)
    if isinstance(type_info, RowTypeInfo):
        return "Row(%s)" % ", ".join("%s: %s" % (name, _java_type_text(field_type)) for name, field_type
                                     in zip(type_info.get_field_names(), type_info.get_field_types()))
    if isinstance(type_info, TupleTypeInfo):
        types = type_info.get_field_types()
        return "Java Tuple%d<%s>" % (len(types), ", ".join(_java_type_text(t) for t in types))
    if isinstance(type_info, BasicTypeInfo):
        return repr(type_info)
    for kind, text in ((DateTypeInfo, "Date"), (TimeTypeInfo, "Time"), (TimestampTypeInfo, "Timestamp")):
        if isinstance(type_info, kind):
            return text
    return repr(type_info)


def _field_of(node) -> _Field:
    """What one from_data_stream expression asks for, or Flink's ValidationException."""
    from sqlglot import exp
    from pyflink_compat.table.expression import WindowProperty

    def reference(node):
        if isinstance(node, exp.Star) or (isinstance(node, exp.Column) and isinstance(node.this, exp.Star)):
            return "*"
        return node.name if isinstance(node, exp.Column) else None

    def time_attribute(node, alias=None):
        kind = node.args["kind"].name.lower()
        name = reference(node.this)
        if name is None:
            raise _refused("Field reference expression expected.")
        return _Field(kind, name, alias, "%s(%s)" % (kind, name))

    alias = None
    if isinstance(node, exp.Alias):
        alias, node = node.alias, node.this
    if isinstance(node, WindowProperty) and node.args["kind"].name in ("ROWTIME", "PROCTIME"):
        return time_attribute(node, alias)
    name = reference(node)
    if name is None:
        raise _refused("Field reference expression or alias on field expression expected.")
    return _Field("ref", name, alias)


def _rowtime_may_replace(type_info) -> None:
    from pyflink_compat.common.typeinfo import (BasicType, BasicTypeInfo, DateTypeInfo, TimestampTypeInfo,
                                                TimeTypeInfo)
    if isinstance(type_info, (DateTypeInfo, TimeTypeInfo, TimestampTypeInfo)) or (
            isinstance(type_info, BasicTypeInfo) and type_info._basic_type == BasicType.LONG):
        return
    raise _refused("The rowtime attribute can only replace a field with a valid time type, such as "
                           "Timestamp or Long. But was: %s" % _java_type_text(type_info))


def _fields_by_position(fields, names, types):
    """(result name, input position or the time attribute's kind) per field, input fields renamed in order."""
    mapped = []
    for index, field in enumerate(fields):
        if field.kind == "ref" or (field.kind == "rowtime" and index < len(names)):
            if index >= len(names):
                raise _refused("Number of expressions does not match number of input fields.\nAvailable "
                                       "fields: [%s]\nCould not map: %s" % (", ".join(names), field.name))
            if field.kind == "rowtime":
                _rowtime_may_replace(types[index])
        if field.kind == "proctime" and index < len(names):
            raise _refused("The proctime attribute can only be appended to the table schema and not replace "
                                   "an existing field. Please move '%s' to the end of the schema." % field.text)
        if field.alias is not None and field.kind != "proctime":
            raise _refused("Alias '%s' is not allowed if other fields are referenced by position."
                                   % field.alias)
        mapped.append((field.result_name, index if field.kind == "ref" else field.kind))
    return mapped


def _fields_by_name(fields, names, types, type_info):
    """(result name, input position or the time attribute's kind) per field, input fields named."""
    mapped = []
    for field in fields:
        known = field.name in names
        if field.kind == "ref":
            if not known:
                raise _refused("%s is not a field of type %s. Expected: %s}" % (
                    field.name, _java_type_text(type_info), ", ".join(names)))
            mapped.append((field.result_name, names.index(field.name)))
            continue
        if field.kind == "proctime" and known:
            raise _refused("The proctime attribute '%s' must not replace an existing field." % field.name)
        if field.kind == "rowtime":
            if known:
                _rowtime_may_replace(types[names.index(field.name)])
            elif field.alias is not None:
                raise _refused("Alias '%s' must reference an existing field." % field.alias)
        mapped.append((field.result_name, field.kind))
    return mapped


def _fields_of_atomic(fields):
    mapped, referenced = [], False
    for field in fields:
        if field.kind == "ref":
            if field.alias is not None:
                raise _refused("Field reference expression expected.")
            if referenced:
                raise _refused("Too many fields referenced from an atomic type.")
            referenced = True
            mapped.append((field.name, 0))
        else:
            mapped.append((field.result_name, field.kind))
    return mapped


def _duplicated(kind: str, mapped) -> None:
    found = [name for name, source in mapped if source == kind]
    if len(found) > 1:
        raise _refused("The %s attribute can only be defined once in a table schema. Duplicated %s "
                               "attributes: [%s]" % (kind, kind, ", ".join(
                                   "org.apache.flink.table.typeutils.FieldInfoUtils$FieldInfo@%x" % (id(name) & 0xFFFFFFF)
                                   for name in found)))


def table_of_stream_with_fields(name: str, stream, nodes) -> tuple:
    """from_data_stream(stream, *expressions) as Flink maps them: (the table, the SELECT showing its columns, or
    None when the table itself has them).

    A tuple's or Row's fields are renamed in order unless some expression names one of them (``col('f1')``,
    ``col('f0').alias('x')``), which reorders and projects them by name; ``col('t').rowtime`` is the record's
    timestamp as TIMESTAMP(3) *ROWTIME* with the stream's watermarks, replacing the field it names (a BIGINT or a
    date-time) or added; ``col('p').proctime`` a processing-time attribute added at the end (by position) or
    anywhere (by name)."""
    import attrs
    from sqlglot import exp
    from pyflink_compat.common.typeinfo import RowTypeInfo, TupleTypeInfo
    from pyflink_compat.table.sql import catalog, dialect
    fields = [_field_of(node) for node in nodes]
    derived = table_of_stream(name, stream)
    type_info = stream.get_type()
    names = [column.name for column in derived.columns]
    if isinstance(type_info, (RowTypeInfo, TupleTypeInfo)):
        types = list(type_info.get_field_types())
        by_position = all(field.kind != "ref" or (field.alias is None and field.name not in names) for field in fields)
        mapped = (_fields_by_position(fields, names, types) if by_position
                  else _fields_by_name(fields, names, types, type_info))
    else:
        mapped = _fields_of_atomic(fields)
    if any(result == "*" for result, _ in mapped):
        raise _refused("Field name can not be '*'.")
    _duplicated("rowtime", mapped)
    _duplicated("proctime", mapped)
    results = [result for result, _ in mapped]
    duplicates = sorted({result for result in results if results.count(result) > 1}, key=results.index)
    if duplicates:
        raise _refused("Field names must be unique.\nList of duplicate fields: [%s].\nList of all fields: "
                               "[%s]." % (", ".join(duplicates), ", ".join(results)))
    if all(source == index for index, (_, source) in enumerate(mapped)):    # renamed in order, maybe fewer
        renamed = _nullable_columns(table_of_stream(name, stream, results))
        if len(mapped) == len(names):
            return renamed, None
        return renamed, exp.select(*[exp.column(result, quoted=True) for result in results]).from_(
            exp.to_table(name))
    kinds = {source for _, source in mapped}
    derived = _nullable_columns(derived)
    columns = ["`%s` %s" % (column.name, column.type.text()) for column in derived.columns]
    if "rowtime" in kinds:
        columns += ["`$rowtime` TIMESTAMP(3) METADATA FROM 'rowtime'", "WATERMARK FOR `$rowtime` AS SOURCE_WATERMARK()"]
    if "proctime" in kinds:
        columns.append("`$proctime` AS PROCTIME()")
    table = catalog.table_of(dialect.parse("CREATE TABLE `%s` (%s)" % (name, ", ".join(columns)))[0])
    relation = derived.query
    relation.rowtime_required = "rowtime" in kinds
    table = attrs.evolve(table, query=relation)
    shown = [exp.alias_(exp.column(names[source] if isinstance(source, int) else "$" + source, quoted=True),
                        result, quoted=True) for result, source in mapped]
    select = exp.select(*shown).from_(exp.to_table(name))
    select.meta["nullable"] = [result for result, source in mapped if source == "proctime"]
    return table, select


def _nullable_columns(table: CatalogTable) -> CatalogTable:
    """The table with every column nullable: Flink's legacy mapping of type information (a tuple's int field is
    INT, not INT NOT NULL, when from_data_stream is given field expressions)."""
    import attrs
    return attrs.evolve(table, columns=tuple(attrs.evolve(column, type=attrs.evolve(column.type, nullable=True))
                                             for column in table.columns))

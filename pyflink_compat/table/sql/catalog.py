"""Tables created by DDL: their physical columns with SQL types, and their WITH options."""
from typing import Dict, List, Optional, Tuple

import attrs
from sqlglot import exp

from pyflink_compat.table.sql.dialect import MetadataColumnConstraint
from pyflink_compat.util.exceptions import UnsupportedFeatureError

SECTION = "table-api"


@attrs.frozen
class SqlType:
    """A SQL type as Flink names it (``INT``, ``VARCHAR(10)``, ``DOUBLE``...) and whether it is nullable."""
    name: str                       # Flink's root name: INT, BIGINT, STRING, DOUBLE, ...
    nullable: bool = True
    precision: Optional[int] = None  # TIMESTAMP(p): digits of the second's fraction; DECIMAL(p, s): all digits
    element: Optional["SqlType"] = None   # ARRAY<element>, MAP<key, element>
    scale: Optional[int] = None      # DECIMAL(p, s): digits after the point
    key: Optional["SqlType"] = None  # MAP<key, element>
    fields: Optional[Tuple[Tuple[str, "SqlType"], ...]] = None    # ROW<name type, ...>
    length: Optional[int] = attrs.field(default=None, eq=False)   # VARCHAR(n), CHAR(n): n (read as STRING)
    fixed_length: bool = attrs.field(default=False, eq=False)      # CHAR(n), not VARCHAR(n)
    # "PROCTIME": a processing-time attribute (PROCTIME(), and a column that is it as it is)
    time_attribute: Optional[str] = attrs.field(default=None, eq=False)
    # the name of the column these values come from, as a table or a function made it: what a Python function
    # taking the whole row sees (Flink's planner carries a rename or an alias no further than a projection)
    origin: Optional[str] = attrs.field(default=None, eq=False)

    def text(self) -> str:
        """The type as Flink prints it in a schema: ``BIGINT``, ``TIMESTAMP(3)``, ``ARRAY<STRING>``,
        ``BIGINT NOT NULL``."""
        root = self.name
        if self.name == "STRING" and self.length is not None:
            root = "%s(%d)" % ("CHAR" if self.fixed_length else "VARCHAR", self.length)
        elif self.name == "BYTES" and self.length is not None:        # BYTES: VARBINARY(2147483647)
            root = "%s(%d)" % ("BINARY" if self.fixed_length else "VARBINARY", self.length)
        elif self.name == "DECIMAL":
            root = "DECIMAL(%d, %d)" % (self.precision, self.scale)
        elif self.precision is not None:
            root = "%s(%d)" % (root, self.precision)
        if self.fields is not None:
            root = "ROW<%s>" % ", ".join("`%s` %s" % (name, field.text()) for name, field in self.fields)
        elif self.key is not None:
            root = "MAP<%s, %s>" % (self.key.text(), self.element.text())
        elif self.element is not None:
            root = "%s<%s>" % (root, self.element.text())
        return root if self.nullable else root + " NOT NULL"

    def type_info(self):
        """The DataStream TypeInformation of the column's values."""
        from pyflink_compat.common.typeinfo import Types
        if self.fields is not None:
            return Types.ROW_NAMED([name for name, _ in self.fields], [field.type_info() for _, field in self.fields])
        if self.key is not None:
            return Types.MAP(self.key.type_info(), self.element.type_info())
        if self.element is not None:
            return Types.OBJECT_ARRAY(self.element.type_info())
        return {"DECIMAL": Types.BIG_DEC, "DATE": Types.SQL_DATE,"INT": Types.INT, "BIGINT": Types.LONG, "SMALLINT": Types.SHORT, "TINYINT": Types.BYTE,
                "STRING": Types.STRING, "BOOLEAN": Types.BOOLEAN, "DOUBLE": Types.DOUBLE,
                "FLOAT": Types.FLOAT, "TIMESTAMP": Types.SQL_TIMESTAMP,
                "TIMESTAMP_LTZ": Types.SQL_TIMESTAMP,
                "BYTES": lambda: Types.PRIMITIVE_ARRAY(Types.BYTE())}[self.name]()

    def data_type(self):
        """The PyFlink DataType of the type (what a schema's get_field_data_types() gives)."""
        from pyflink_compat.table.types import DataTypes
        if self.fields is not None:
            made = DataTypes.ROW([DataTypes.FIELD(name, field.data_type()) for name, field in self.fields])
        elif self.key is not None:
            made = DataTypes.MAP(self.key.data_type(), self.element.data_type())
        elif self.element is not None:
            made = DataTypes.ARRAY(self.element.data_type())
        elif self.name == "STRING":
            made = DataTypes.STRING() if self.length is None else \
                (DataTypes.CHAR if self.fixed_length else DataTypes.VARCHAR)(self.length)
        elif self.name == "BYTES" and self.length is not None:
            made = (DataTypes.BINARY if self.fixed_length else DataTypes.VARBINARY)(self.length)
        elif self.name == "DECIMAL":
            made = DataTypes.DECIMAL(self.precision, self.scale)
        elif self.name == "TIMESTAMP":
            made = DataTypes.TIMESTAMP(6 if self.precision is None else self.precision)
        elif self.name == "TIMESTAMP_LTZ":
            made = DataTypes.TIMESTAMP_LTZ()       # PyFlink 2.3 converts Java's type so: its precision is lost
        else:
            made = getattr(DataTypes, self.name)()
        return made if self.nullable else made.not_null()


# sqlglot's type -> Flink's name; the types a first version of SQL support handles
_TYPES = {
    exp.DType.INT: "INT", exp.DType.BIGINT: "BIGINT", exp.DType.SMALLINT: "SMALLINT",
    exp.DType.TINYINT: "TINYINT", exp.DType.TEXT: "STRING", exp.DType.VARCHAR: "STRING",
    exp.DType.CHAR: "STRING", exp.DType.BOOLEAN: "BOOLEAN", exp.DType.DOUBLE: "DOUBLE",
    exp.DType.FLOAT: "FLOAT", exp.DType.TIMESTAMP: "TIMESTAMP", exp.DType.TIMESTAMPLTZ: "TIMESTAMP_LTZ",
    exp.DType.DECIMAL: "DECIMAL", exp.DType.DATE: "DATE", exp.DType.STRUCT: "ROW", exp.DType.MAP: "MAP",
    exp.DType.ARRAY: "ARRAY",
}
MAX_DECIMAL_PRECISION = 38
# a rowtime column's types: TIMESTAMP(3) and TIMESTAMP_LTZ(3) (an instant; its values are UTC date-times here)
TIME_TYPES = ("TIMESTAMP", "TIMESTAMP_LTZ")


def _redacted(options: Dict[str, str]) -> Dict[str, str]:
    from pyflink_compat.kafka_io.spec import redacted
    return redacted(options)


def flink_type_name(kind: exp.DataType) -> Optional[str]:
    """Flink's root name of a parsed type (INT, STRING for VARCHAR(n), ...), None for a type not read here."""
    return _TYPES.get(kind.this)


def _not_null(definition: exp.ColumnDef) -> bool:
    return any(isinstance(constraint.args.get("kind"), exp.NotNullColumnConstraint)
               and not constraint.args["kind"].args.get("allow_null")
               for constraint in definition.args.get("constraints") or [])


def _parameters(kind: exp.DataType) -> List[int]:
    return [int(parameter.this.this) for parameter in kind.expressions]


def sql_type(kind: exp.DataType, column: str) -> SqlType:
    name = _TYPES.get(kind.this)
    if name is None:
        raise UnsupportedFeatureError("The SQL type %s of column '%s'" % (kind.sql(), column), SECTION,
                                      "SQL support reads STRING, VARCHAR, CHAR, BOOLEAN, TINYINT, SMALLINT, INT, "
                                      "BIGINT, FLOAT, DOUBLE, DECIMAL, DATE, TIMESTAMP, TIMESTAMP_LTZ, ROW, MAP and "
                                      "ARRAY columns")
    if name == "DECIMAL":
        parameters = _parameters(kind) + [10, 0][len(kind.expressions):]     # Flink's DECIMAL: DECIMAL(10, 0)
        precision, scale = parameters[0], parameters[1]
        if not 1 <= precision <= MAX_DECIMAL_PRECISION or not 0 <= scale <= precision:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("Decimal precision must be between 1 and 38 and scale between 0 and the "
                                   "precision: DECIMAL(%d, %d)" % (precision, scale))
        return SqlType(name, precision=precision, scale=scale)
    if name == "ROW":
        fields = []
        for definition in kind.expressions:
            field = sql_type(definition.args["kind"], "%s.%s" % (column, definition.name))
            fields.append((definition.name, attrs.evolve(field, nullable=False) if _not_null(definition) else field))
        return SqlType(name, fields=tuple(fields))
    if name == "MAP":
        key, value = kind.expressions
        return SqlType(name, key=sql_type(key, column), element=sql_type(value, column))
    if name == "ARRAY":
        return SqlType(name, element=sql_type(kind.expressions[0], column))
    if name in TIME_TYPES:
        parameters = kind.expressions
        return SqlType(name, precision=int(parameters[0].this.this) if parameters else 6)   # Flink's default: 6
    if kind.this in (exp.DType.VARCHAR, exp.DType.CHAR) and kind.expressions:
        return SqlType(name, length=int(kind.expressions[0].this.this), fixed_length=kind.this == exp.DType.CHAR)
    return SqlType(name)


@attrs.frozen
class Column:
    name: str
    type: SqlType
    computed: object = attrs.field(default=None, eq=False)   # `name AS expr`: the sqlglot expression
    metadata: Optional[str] = None       # `METADATA [FROM 'key']`: the Kafka record's field it reads
    virtual: bool = False                # `METADATA ... VIRTUAL`: read only, not written by a sink
    display: Optional[str] = attrs.field(default=None, eq=False)   # a computed column's text as it was given


@attrs.frozen
class CatalogTable:
    name: str
    columns: Tuple[Column, ...]
    options: Dict[str, str] = attrs.field(repr=lambda options: repr(_redacted(options)))
    # WATERMARK FOR column AS column [- INTERVAL ...]: (the rowtime column, how far the watermark trails, ms)
    watermark: Optional[Tuple[str, int]] = None
    # A view (CREATE VIEW, create_temporary_view, a subquery): its SELECT, whose rows it has
    query: object = attrs.field(default=None, eq=False)
    primary_key: Tuple[str, ...] = ()        # PRIMARY KEY (...) NOT ENFORCED: upsert-kafka's message key
    watermark_display: Optional[str] = attrs.field(default=None, eq=False)   # its expression as it was given

    @property
    def column_names(self) -> List[str]:
        return [column.name for column in self.columns]

    @property
    def physical_columns(self) -> List[Column]:
        """The columns the format reads (not the computed or metadata ones)."""
        return [column for column in self.columns if column.computed is None and column.metadata is None]

    @property
    def metadata_columns(self) -> List[Column]:
        return [column for column in self.columns if column.metadata is not None]

    @property
    def reader_columns(self) -> List[Column]:
        """What a source reads of a record: the physical columns, then the metadata ones."""
        return self.physical_columns + self.metadata_columns

    @property
    def sink_columns(self) -> List[Column]:
        """The columns an INSERT gives values for: the physical ones and the metadata ones not VIRTUAL, in the
        declared order."""
        return [column for column in self.columns if column.computed is None and not column.virtual]

    def option(self, key: str, default: Optional[str] = None) -> Optional[str]:
        return self.options.get(key, default)


def table_of(create: exp.Create) -> CatalogTable:
    """The catalog table a CREATE TABLE statement defines."""
    schema = create.this
    name = schema.this.name
    columns, watermark, primary_key = [], None, ()
    for item in schema.expressions:
        if isinstance(item, exp.ColumnDef):
            computed, not_null, metadata = None, False, None
            for constraint in item.args.get("constraints") or []:
                kind = constraint.args.get("kind")
                if isinstance(kind, exp.NotNullColumnConstraint) and not kind.args.get("allow_null"):
                    not_null = True
                if isinstance(kind, exp.ComputedColumnConstraint):
                    computed = kind.this
                if isinstance(kind, MetadataColumnConstraint):
                    metadata = (kind.this.name if kind.this is not None else item.name,
                                bool(kind.args.get("virtual")))
            if computed is not None:
                columns.append(Column(item.name, None, computed))
            elif metadata is not None:
                columns.append(Column(item.name, sql_type(item.args["kind"], item.name), metadata=metadata[0],
                                      virtual=metadata[1]))
            else:
                column_type = sql_type(item.args["kind"], item.name)
                columns.append(Column(item.name, attrs.evolve(column_type, nullable=False) if not_null
                                      else column_type))
        elif isinstance(item, exp.WatermarkColumnConstraint):
            watermark = _watermark_of(item)
        elif isinstance(item, exp.PrimaryKey):
            primary_key = tuple(each.name for each in item.expressions)   # NOT ENFORCED: Flink does not check it
        else:
            raise UnsupportedFeatureError("'%s' in CREATE TABLE" % item.sql(), SECTION)
    options = {}
    properties = create.args.get("properties")
    for prop in (properties.expressions if properties is not None else []):
        if isinstance(prop, exp.Property) and prop.args.get("value") is not None:     # not TEMPORARY
            options[prop.this.name if isinstance(prop.this, exp.Expr) else str(prop.this)] = prop.args["value"].name
    if any(column.computed is not None for column in columns):
        columns = _typed_computed_columns(columns)
    # a primary key's columns are NOT NULL
    columns = [attrs.evolve(column, type=attrs.evolve(column.type, nullable=False))
               if column.name in primary_key and column.type is not None else column for column in columns]
    _check_metadata_keys(name, columns)
    if watermark is not None:
        column = next((c for c in columns if c.name == watermark[0]), None)
        if column is None:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("The rowtime attribute field '%s' is not defined in the table schema"
                                   % watermark[0])
        if column.type.name not in TIME_TYPES or (column.type.precision or 0) > 3:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("Invalid data type of time field for watermark definition. The field must be of "
                                   "type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to "
                                   "3, but the time field type is %s" % column.type.text())
    columns = [attrs.evolve(column, type=attrs.evolve(column.type, origin=column.name)) if column.type is not None
               else column for column in columns]
    return CatalogTable(name, tuple(columns), options, watermark, primary_key=primary_key)


# Metadata of a Kafka record a table reads (key -> the type Flink gives it), and those a sink writes
METADATA_KEYS = {"topic": "STRING", "partition": "INT", "offset": "BIGINT", "timestamp": "TIMESTAMP_LTZ"}
WRITABLE_METADATA = ("timestamp",)


def _check_metadata_keys(table: str, columns: List[Column]):
    by_key = {}
    for column in columns:
        if column.metadata is None:
            continue
        if column.metadata in ("headers", "leader-epoch", "timestamp-type"):
            raise UnsupportedFeatureError("The metadata key '%s'" % column.metadata, SECTION,
                                          "the keys topic, partition, offset and timestamp are read")
        if column.metadata in by_key:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("The column `%s` and `%s` in the table are both from the same metadata key '%s'. "
                                   "Please specify one of the columns as the metadata column and use the computed "
                                   "column syntax to specify the others." % (by_key[column.metadata], column.name,
                                                                            column.metadata))
        by_key[column.metadata] = column.name


def _typed_computed_columns(columns: List[Column]) -> List[Column]:
    """Computed columns with the type of their expression over the physical and metadata columns."""
    from pyflink_compat.table.sql.expressions import Compiler
    physical = [column for column in columns if column.computed is None and column.metadata is None] + \
        [column for column in columns if column.metadata is not None]
    compiler = Compiler({column.name: (position, column.type) for position, column in enumerate(physical)})
    return [column if column.computed is None
            else Column(column.name, compiler.compile(column.computed)[1], column.computed) for column in columns]


_UNIT_MS = {"MILLISECOND": 1, "SECOND": 1000, "MINUTE": 60_000, "HOUR": 3_600_000, "DAY": 86_400_000}


def interval_ms(node: exp.Expr) -> int:
    """INTERVAL 'n' UNIT in milliseconds."""
    if not isinstance(node, exp.Interval):
        raise UnsupportedFeatureError("'%s' where an INTERVAL is expected" % node.sql(), SECTION)
    unit = node.args["unit"].name.upper().rstrip("S") if node.args.get("unit") is not None else "SECOND"
    if unit not in _UNIT_MS:
        raise UnsupportedFeatureError("INTERVAL ... %s" % unit, SECTION)
    return int(float(node.this.name) * _UNIT_MS[unit])


def _watermark_of(item: exp.WatermarkColumnConstraint) -> Tuple[str, Optional[int]]:
    """(rowtime column, how far the watermark trails it in ms); None for SOURCE_WATERMARK(), the watermarks the
    source itself emits (a DataStream's)."""
    column, expression = item.this.name, item.expression
    if isinstance(expression, exp.Anonymous) and expression.name.upper() == "SOURCE_WATERMARK" \
            and not expression.expressions:
        return column, None
    if isinstance(expression, exp.Column) and expression.name == column:
        return column, 0
    if isinstance(expression, exp.Sub) and isinstance(expression.this, exp.Column) \
            and expression.this.name == column:
        return column, interval_ms(expression.expression)
    raise UnsupportedFeatureError("WATERMARK FOR %s AS %s" % (column, expression.sql()), SECTION,
                                  "watermarks of the form col or col - INTERVAL ... run")


def sql_type_of(data_type) -> SqlType:
    """The SqlType of a DataType of pyflink.table.types or of a type's SQL text (``'BIGINT'``,
    ``'STRING NOT NULL'``), as a Python function declares its types."""
    from pyflink_compat.table.sql.dialect import parse_type
    text = data_type if isinstance(data_type, str) else data_type.sql()
    nullable = True
    stripped = text.strip()
    if stripped.upper().endswith("NOT NULL"):
        stripped, nullable = stripped[:-len("NOT NULL")].strip(), False
    made = sql_type(parse_type(stripped), text)
    return attrs.evolve(made, nullable=nullable) if not nullable else made


def row_fields(data_type) -> Optional[List[Tuple[str, object]]]:
    """(name, field type) of each field of a ROW type (a RowType or ``'ROW<a INT, b STRING>'``), else None."""
    from pyflink_compat.table.types import RowType
    if isinstance(data_type, RowType):
        return [(field.name, field.data_type) for field in data_type.fields]
    if not isinstance(data_type, str):
        return None
    import re
    match = re.fullmatch(r"\s*row\s*[<(](.*)[>)]\s*", data_type, re.IGNORECASE | re.DOTALL)
    if match is None:
        return None
    fields, depth, current = [], 0, ""
    for character in match.group(1) + ",":
        if character == "," and depth == 0:
            name, _, field_type = current.strip().partition(" ")
            fields.append((name.strip("`"), field_type.strip()))
            current = ""
            continue
        if character in "<(":
            depth += 1
        elif character in ">)":
            depth -= 1
        current += character
    return fields

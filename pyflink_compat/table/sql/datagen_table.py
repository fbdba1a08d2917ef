"""Flink SQL's 'datagen' connector: a table's options checked as Flink's factory checks them, into the plan's
DataGenSpec (the runtime generates the rows)."""
import zlib

from pyflink_compat.plan.graph import DataGenSpec, FieldGenerator
from pyflink_compat.table.sql import kafka_table
from pyflink_compat.table.sql.catalog import SECTION, CatalogTable, Column
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError

DATAGEN = "datagen"
_TABLE_OPTIONS = ("connector", "number-of-rows", "rows-per-second", "scan.parallelism")
_NUMBERS = ("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE")
_SEQUENCE_TYPES = _NUMBERS + ("STRING",)
# the options of a random field, per type, as Flink lists them
_RANDOM_OPTIONS = {**{name: ("kind", "max", "min", "null-rate") for name in _NUMBERS},
                   "STRING": ("kind", "length", "null-rate", "var-len"),
                   "BOOLEAN": ("kind", "null-rate"),
                   "TIMESTAMP": ("kind", "max-past", "null-rate"),
                   "TIMESTAMP_LTZ": ("kind", "max-past", "null-rate")}
_SEQUENCE_OPTIONS = ("end", "kind", "start")
_ILLEGAL_ARGUMENT = "java.lang.IllegalArgumentException"
_NUMBER_FORMAT = "java.lang.NumberFormatException"


def spec_of(table: CatalogTable) -> DataGenSpec:
    """The table's generators; Flink's ValidationException (its messages) for options it refuses."""
    fields = [_generator(table, column) for column in table.physical_columns]
    supported = list(_TABLE_OPTIONS)
    for column, field in zip(table.physical_columns, fields):
        names = _SEQUENCE_OPTIONS if field.kind == "sequence" else _RANDOM_OPTIONS[field.type_name]
        supported.extend("fields.%s.%s" % (column.name, name) for name in names)
    unsupported = sorted(key for key in table.options if key not in supported)
    if unsupported:
        raise kafka_table.factory_error(
            table, kafka_table.SOURCE, "Unsupported options found for 'datagen'.\n\nUnsupported options:\n\n%s\n\n"
                                       "Supported options:\n\n%s" % ("\n".join(unsupported), "\n".join(sorted(supported))))
    number_of_rows = table.option("number-of-rows")
    return DataGenSpec(
        fields=tuple(fields),
        rows_per_second=_long(table, "rows-per-second", "10000"),
        number_of_rows=None if number_of_rows is None else _long(table, "number-of-rows"),
        seed=_seed(table))


def _seed(table: CatalogTable) -> int:
    """The table's random values' seed: the same for every run of the job, so that a micro-batch re-read after a
    restart from a checkpoint has the rows written before."""
    text = "%s|%s|%s" % (table.name, [(c.name, c.type.text()) for c in table.physical_columns],
                         sorted(table.options.items()))
    return zlib.crc32(text.encode("utf-8"))


def parallelism_of(table: CatalogTable):
    """'scan.parallelism' (None: the job's)."""
    value = table.option("scan.parallelism")
    return None if value is None else _long(table, "scan.parallelism")


def _generator(table: CatalogTable, column: Column) -> FieldGenerator:
    def option(name, default=None):
        return table.option("fields.%s.%s" % (column.name, name), default)

    type_name = column.type.name
    if type_name not in _RANDOM_OPTIONS:
        raise UnsupportedFeatureError("The 'datagen' connector for a %s column ('%s')" % (type_name, column.name),
                                      SECTION, "it generates numbers, strings, booleans and timestamps")
    kind = option("kind", "random")
    if kind == "sequence":
        if type_name not in _SEQUENCE_TYPES:
            if type_name == "BOOLEAN":      # Flink makes a random generator: the sequence options are unknown
                return FieldGenerator("random", type_name)
            raise _error(table, "Unsupported type: %s" % column.type.text())
        for bound in ("start", "end"):
            if option(bound) is None:
                raise _error(table, "Could not find required property 'fields.%s.%s' for sequence generator."
                             % (column.name, bound))
        return FieldGenerator("sequence", type_name, start=_long(table, "fields.%s.start" % column.name),
                              end=_long(table, "fields.%s.end" % column.name))
    if kind != "random":
        raise _error(table, "Unsupported generator kind: %s" % kind)
    null_rate = _number(table, "fields.%s.null-rate" % column.name, "0", float)
    if type_name == "STRING":
        declared = column.type.length
        length = _number(table, "fields.%s.length" % column.name, str(declared or 100), int)
        return FieldGenerator("random", type_name, length=length, null_rate=null_rate,
                              variable_length=(option("var-len", "false").lower() == "true"))
    if type_name in _NUMBERS:
        parse = float if type_name in ("FLOAT", "DOUBLE") else int
        minimum, maximum = (None if option(bound) is None else _number(table, "fields.%s.%s" % (column.name, bound),
                                                                         None, parse) for bound in ("min", "max"))
        return FieldGenerator("random", type_name, minimum=minimum, maximum=maximum, null_rate=null_rate)
    if type_name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        from pyflink_compat.table.sql.planner import duration_ms
        past = option("max-past")
        return FieldGenerator("random", type_name, null_rate=null_rate,
                              max_past_ms=0 if past is None else duration_ms(past, "fields.%s.max-past" % column.name))
    return FieldGenerator("random", type_name, null_rate=null_rate)


def _long(table: CatalogTable, key: str, default: str = None) -> int:
    return _number(table, key, default, int)


def _number(table: CatalogTable, key: str, default, parse):
    text = table.option(key, default)
    try:
        return parse(text.strip())
    except ValueError:
        raise _error(table, JavaStyleError(_ILLEGAL_ARGUMENT, "Could not parse value '%s' for key '%s'."
                                           % (text, key), cause=JavaStyleError(
                                               _NUMBER_FORMAT, 'For input string: "%s"' % text))) from None


def _error(table: CatalogTable, cause) -> JavaStyleError:
    return kafka_table.factory_error(table, kafka_table.SOURCE, cause)

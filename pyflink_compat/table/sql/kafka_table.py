"""Kafka and upsert-kafka tables as Flink SQL's connectors define them: their options (checked by name, each
refused that does not run), where each physical column travels (the message key, the value, or both: key.format,
key.fields, key.fields-prefix, value.fields-include), the formats 'json', 'csv', 'avro' and 'raw', and the
KafkaSource / KafkaSink of the mirror that read and write them. A table with a key format reads whole records (keys
and tombstones); one without reads values only, as Flink does (as text, or as bytes for 'avro')."""
from decimal import Decimal
from typing import Callable, Dict, Optional, Tuple

import attrs

from pyflink_compat.common.serialization import SerializationSchema
from pyflink_compat.kafka_io.spec import RecordDeserializer
from pyflink_compat.table.sql import expressions
from pyflink_compat.table.sql.catalog import SECTION, CatalogTable
from pyflink_compat.util.exceptions import UnsupportedFeatureError

CATALOG_PATH = "default_catalog.default_database"
KAFKA, UPSERT_KAFKA = "kafka", "upsert-kafka"
SOURCE, SINK = "source", "sink"
_VALIDATION = "org.apache.flink.table.api.ValidationException"
FORMATS = ("json", "raw", "csv", "avro")


def _refuse(what: str, advice: str = None):
    raise UnsupportedFeatureError(what, SECTION, advice)


# Options of the two connectors that run (format options are checked apart); the other options Flink knows are
# refused by name, so that none is ignored.
_COMMON_OPTIONS = {"connector", "topic", "value.format", "key.format", "key.fields-prefix", "value.fields-include",
                   "sink.parallelism", "sink.delivery-guarantee", "sink.transactional-id-prefix"}
_OPTIONS = {
    KAFKA: _COMMON_OPTIONS | {"topic-pattern", "format", "key.fields", "scan.startup.mode",
                              "scan.startup.timestamp-millis", "scan.bounded.mode", "scan.bounded.timestamp-millis",
                              "scan.topic-partition-discovery.interval"},
    UPSERT_KAFKA: _COMMON_OPTIONS | {"topic-pattern", "scan.bounded.mode", "scan.bounded.timestamp-millis"},
}
# Options of the 'kafka' connector that Flink's 'upsert-kafka' factory rejects, and the options that factory
# lists as its own (with the json format) when it does.
_NOT_UPSERT_KAFKA_OPTIONS = {"key.fields", "scan.startup.mode", "scan.startup.timestamp-millis",
                             "scan.startup.specific-offsets", "sink.partitioner", "format",
                             "scan.topic-partition-discovery.interval", "sink.semantic"}
_UPSERT_KAFKA_FLINK_OPTIONS = (
    "connector", "key.fields-prefix", "key.format", "key.json.decode.json-parser.enabled",
    "key.json.encode.decimal-as-plain-number", "key.json.encode.ignore-null-fields", "key.json.fail-on-missing-field",
    "key.json.ignore-parse-errors", "key.json.map-null-key.literal", "key.json.map-null-key.mode",
    "key.json.timestamp-format.standard", "properties.bootstrap.servers", "property-version", "scan.bounded.mode",
    "scan.bounded.specific-offsets", "scan.bounded.timestamp-millis", "scan.parallelism",
    "scan.watermark.alignment.group", "scan.watermark.alignment.max-drift", "scan.watermark.alignment.update-interval",
    "scan.watermark.emit.strategy", "scan.watermark.idle-timeout", "sink.buffer-flush.interval",
    "sink.buffer-flush.max-rows", "sink.delivery-guarantee", "sink.parallelism", "sink.transaction-naming-strategy",
    "sink.transactional-id-prefix", "topic", "topic-pattern", "value.fields-include", "value.format",
    "value.json.decode.json-parser.enabled", "value.json.encode.decimal-as-plain-number",
    "value.json.encode.ignore-null-fields", "value.json.fail-on-missing-field", "value.json.ignore-parse-errors",
    "value.json.map-null-key.literal", "value.json.map-null-key.mode", "value.json.timestamp-format.standard")
_FORMAT_OPTIONS = {"json": {"ignore-parse-errors", "fail-on-missing-field", "timestamp-format.standard"},
                   "raw": {"charset"},
                   "csv": {"field-delimiter", "disable-quote-character", "quote-character", "allow-comments",
                           "ignore-parse-errors", "array-element-delimiter", "escape-character", "null-literal"},
                   "avro": {"encoding", "timestamp_mapping.legacy", "codec"}}
# Column types the 'csv' format reads and writes here
_CSV_TYPES = ("STRING", "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "TIMESTAMP")


@attrs.frozen
class Layout:
    """Where a Kafka table's physical columns travel: positions (among the physical columns) read from and
    written to the message key, under their names in the key format, and those of the value."""
    key_format: Optional[str]
    value_format: str
    key_positions: Tuple[int, ...]
    key_names: Tuple[str, ...]
    value_positions: Tuple[int, ...]


def layout_of(table: CatalogTable, purpose: str) -> Layout:
    """The table's layout, its options checked as Flink's table factory checks them, with its messages;
    ``purpose``: SOURCE or SINK, which the messages name."""
    connector = table.option("connector")
    scan_or_sink = "scan" if purpose == SOURCE else "sink"
    # as Flink's factory: the formats first, then the options, then the keys
    for required_format in (("key.format", "value.format") if connector == UPSERT_KAFKA else ("value.format",)):
        if table.option(required_format, table.option("format") if required_format == "value.format" and
                        connector == KAFKA else None) is None:
            raise factory_error(table, purpose, "Could not find required %s format '%s'."
                                % (scan_or_sink, required_format))
    check_options(table, purpose)
    physical = [column.name for column in table.physical_columns]
    value_format = table.option("value.format", table.option("format"))
    key_format = table.option("key.format")
    prefix = table.option("key.fields-prefix", "")
    include = table.option("value.fields-include", "ALL").upper()
    if include not in ("ALL", "EXCEPT_KEY"):
        raise factory_error(table, purpose, "Could not parse value '%s' for key 'value.fields-include'."
                            % table.option("value.fields-include"))
    if connector == UPSERT_KAFKA:
        if not table.primary_key:
            raise factory_error(
                table, purpose,
                "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which "
                "columns should be read from or write to the Kafka message key. The PRIMARY KEY also defines "
                "records in the 'upsert-kafka' table should update or delete on which keys.")
        key_fields = list(table.primary_key)
    else:
        key_fields = [name.strip() for name in table.option("key.fields", "").split(";") if name.strip()]
        if key_fields and key_format is None:
            raise factory_error(table, purpose, "The option 'key.fields' can only be declared if a key format is "
                                                "defined using 'key.format'.")
        if key_format is not None and not key_fields:
            raise factory_error(table, purpose, "A key format 'key.format' requires the declaration of one or more "
                                                "of key fields using 'key.fields'.")
        if table.primary_key:
            raise factory_error(
                table, purpose, "The Kafka table '%s.%s' with '%s' format doesn't support defining PRIMARY KEY "
                                "constraint on the table, because it can't guarantee the semantic of primary key."
                                % (CATALOG_PATH, table.name, value_format))
    for name in key_fields:
        if name not in physical:
            raise factory_error(
                table, purpose,
                "Could not find the field '%s' in the table schema for usage in the key format. A key field must be "
                "a regular, physical column. The following columns can be selected in the 'key.fields' option:\n"
                "[%s]" % (name, ", ".join(physical)))
        if prefix and not name.startswith(prefix):
            raise factory_error(
                table, purpose, "All fields in 'key.fields' must be prefixed with '%s' when option "
                                "'key.fields-prefix' is set but field '%s' is not prefixed." % (prefix, name))
    if prefix and include == "ALL":
        raise factory_error(table, purpose, "A key prefix is not allowed when option 'value.fields-include' is set "
                                            "to 'ALL'. Set it to 'EXCEPT_KEY' instead to avoid field overlaps.")
    for fmt in (key_format, value_format):
        if fmt is not None and fmt not in FORMATS:
            _refuse("The '%s' format" % fmt, "Kafka tables read and write 'json', 'csv', 'avro' or 'raw'")
    key_positions = tuple(physical.index(name) for name in key_fields)
    value_positions = tuple(i for i in range(len(physical)) if include == "ALL" or i not in key_positions)
    for fmt, positions in ((key_format, key_positions), (value_format, value_positions)):
        if fmt == "raw" and len(positions) != 1:
            columns = [table.physical_columns[i] for i in positions]
            raise expressions.validation_error(
                "The 'raw' format only supports single physical column. However the defined schema contains "
                "multiple physical columns: [%s]" % ", ".join("`%s` %s" % (c.name, c.type.name) for c in columns))
        if fmt == "raw" and table.physical_columns[positions[0]].type.name != "STRING":
            _refuse("The 'raw' format of a %s column" % table.physical_columns[positions[0]].type.name,
                    "a raw key or value is read into and written from a STRING column")
    return Layout(key_format, value_format, key_positions, tuple(name[len(prefix):] for name in key_fields),
                  value_positions)


def check_options(table: CatalogTable, purpose: str):
    """Every option of the table is one that runs: the connector's, a client property, or an option of one of its
    formats (``json.*`` of 'format', ``value.json.*`` of 'value.format', ``key.json.*`` of 'key.format')."""
    connector = table.option("connector")
    known = _OPTIONS[connector]
    formats = {"": table.option("format"), "value.": table.option("value.format"),
               "key.": table.option("key.format")}
    flink_unsupported = sorted(key for key in table.options if key in _NOT_UPSERT_KAFKA_OPTIONS) \
        if connector == UPSERT_KAFKA else []
    if flink_unsupported:
        raise factory_error(table, purpose, "Unsupported options found for 'upsert-kafka'.\n\nUnsupported options:"
                                            "\n\n%s\n\nSupported options:\n\n%s" % (
                                                "\n".join(flink_unsupported), "\n".join(_UPSERT_KAFKA_FLINK_OPTIONS)))
    for key, value in table.options.items():
        if key.startswith("properties.") or key in known:
            continue
        if _is_format_option(key, value, formats):
            continue
        _refuse("The option '%s' = '%s' of table '%s'" % (key, value, table.name),
                "Kafka tables run with topic(s), properties.*, formats json, csv, avro or raw for values and keys "
                "(key.format, key.fields, key.fields-prefix, value.fields-include), scan.startup.* and "
                "scan.bounded.* modes, sink.delivery-guarantee")


def _is_format_option(key: str, value: str, formats: Dict[str, Optional[str]]) -> bool:
    for prefix, fmt in formats.items():
        if fmt is None or not key.startswith(prefix + fmt + "."):
            continue
        name = key[len(prefix + fmt) + 1:]
        if name == "timestamp-format.standard":
            return value.upper() == "SQL"            # ISO-8601 timestamps are not read or written yet
        if name == "charset":
            return value.upper().replace("-", "") == "UTF8"
        if name == "encoding":
            return value.lower() == "binary"           # Avro's JSON encoding is not written or read yet
        if name == "timestamp_mapping.legacy":
            return value.lower() in ("true", "false")
        return name in _FORMAT_OPTIONS.get(fmt, ())
    return False


def format_option(table: CatalogTable, side: str, name: str, default: str = None) -> Optional[str]:
    """A format option of the key or value format: ``key.json.<name>``, ``value.json.<name>`` or, for a table
    declaring 'format', ``json.<name>``."""
    if side == "key":
        return table.option("key.%s.%s" % (table.option("key.format"), name), default)
    if table.option("value.format"):
        return table.option("value.%s.%s" % (table.option("value.format"), name), default)
    return table.option("%s.%s" % (table.option("format"), name), default)


def factory_error(table: CatalogTable, purpose: str, cause):
    """Flink's table factory's ValidationException: which table could not be made, its options (secrets
    masked, as Flink masks them), and the cause naming what is wrong (a ValidationException's message, or the
    JavaStyleError of another exception)."""
    from pyflink_compat.kafka_io.spec import is_secret_key
    from pyflink_compat.util.exceptions import JavaStyleError
    options = "\n".join("'%s'='%s'" % (key, "******" if is_secret_key(key) else value)
                        for key, value in sorted(table.options.items()))
    what = "source for reading" if purpose == SOURCE else "sink for writing"
    return JavaStyleError(_VALIDATION, "Unable to create a %s table '%s.%s'.\n\nTable options are:\n\n%s"
                          % (what, CATALOG_PATH, table.name, options), "executeSql",
                          cause=cause if isinstance(cause, JavaStyleError) else JavaStyleError(_VALIDATION, cause))


def _missing_option(table: CatalogTable, key: str):
    return expressions.validation_error(
        "Unable to create a source for reading table '%s.%s'.\n\nOne or more required options are missing.\n\n"
        "Missing required options are:\n\n%s" % (CATALOG_PATH, table.name, key))


def required(table: CatalogTable, key: str) -> str:
    value = table.option(key)
    if value is None:
        raise _missing_option(table, key)
    return value


def client_properties(table: CatalogTable) -> Dict[str, str]:
    """The Kafka client properties of a table: its ``properties.*`` options but the bootstrap servers."""
    return {key[len("properties."):]: value for key, value in table.options.items()
            if key.startswith("properties.") and key != "properties.bootstrap.servers"}


# reading ---------------------------------------------------------------------------------------------

def source(table: CatalogTable, layout: Layout, idle_timeout_ms: int = 0):
    """The KafkaSource of the table, and the function turning what it reads into Rows of the physical columns
    (a generator: none for a record the format skips). With an idle timeout (table.exec.source.idle-timeout),
    readers that get no partition do not hold event time back (Flink SQL generates watermarks in the source, whose
    split-less readers then go idle; seen on Flink 2.3 at parallelism 2 over one partition)."""
    from pyflink_compat.common.serialization import SimpleStringSchema
    from pyflink_compat.datastream.connectors.kafka import KafkaSource
    builder = KafkaSource.builder().set_bootstrap_servers(required(table, "properties.bootstrap.servers"))
    if table.option("topic"):
        builder = builder.set_topics(*[topic.strip() for topic in table.option("topic").split(";")])
    elif table.option("topic-pattern"):
        builder = builder.set_topic_pattern(table.option("topic-pattern"))
    else:
        required(table, "topic")
    for key, value in client_properties(table).items():
        builder = builder.set_property(key, value)
    if table.option("properties.group.id"):
        builder = builder.set_group_id(table.option("properties.group.id"))
    builder = builder.set_starting_offsets(_starting_offsets(table))
    bounded = _stopping_offsets(table)
    if bounded is not None:
        builder = builder.set_bounded(bounded)
    if idle_timeout_ms > 0:
        builder = builder._set_idle_without_partitions()
    metadata = tuple(column.metadata for column in table.metadata_columns)
    if layout.key_format is None and not metadata and layout.value_format != "avro":
        builder = builder.set_value_only_deserializer(SimpleStringSchema())
    else:
        builder = builder._set_record_deserializer(KeyAndValue(metadata))
    return builder.build(), row_reader(table, layout)


def upsert_reader(table: CatalogTable, layout: Layout) -> Callable:
    """The function turning an 'upsert-kafka' record (Row(key, value) of bytes) into (key values, Row of the
    physical columns, or None for a tombstone); a record whose key or value the formats skip gives nothing."""
    if table.metadata_columns:
        _refuse("Metadata columns of an 'upsert-kafka' table being read")
    physical = table.physical_columns
    value_fields = _decoder(table, "value", layout.value_format, [physical[i] for i in layout.value_positions],
                            [physical[i].name for i in layout.value_positions])
    key_fields = _decoder(table, "key", layout.key_format, [physical[i] for i in layout.key_positions],
                          layout.key_names)
    key_positions, value_positions, width = layout.key_positions, layout.value_positions, len(physical)

    def changes(record):
        key, value = record[0], record[1]
        keys = key_fields(key) if key is not None else [None] * len(key_positions)
        if keys is None:
            return
        if value is None:                            # a tombstone: the key's row is deleted
            yield tuple(keys), None
            return
        values = value_fields(value)
        if values is None:
            return
        yield tuple(keys), _row_of(width, key_positions, keys, value_positions, values)
    return changes


def _row_of(width: int, key_positions, keys, value_positions, values):
    """The Row of the physical columns from a key's and a value's fields (the value's set last, so a column in
    both comes from the value, as Flink sets them)."""
    from pyflink_compat.common.types import Row
    row = [None] * width
    for position, field in zip(key_positions, keys):
        row[position] = field
    for position, field in zip(value_positions, values):
        row[position] = field
    return Row(*row)


def row_reader(table: CatalogTable, layout: Layout) -> Callable:
    """The function turning what the table's source reads (a value's text; Row(key, value) of bytes for a table
    with a key format) into Rows of its physical columns (a generator: none for a record skipped)."""
    physical = table.physical_columns
    value_fields = _decoder(table, "value", layout.value_format, [physical[i] for i in layout.value_positions],
                            [physical[i].name for i in layout.value_positions])
    if layout.key_format is None:
        rows = _value_rows(value_fields, layout.value_positions, len(physical))
        if layout.value_format == "avro" and not table.metadata_columns:     # the source reads Row(key, value)
            value_rows = rows
            rows = lambda record: value_rows(record[1])
    else:
        key_fields = _decoder(table, "key", layout.key_format, [physical[i] for i in layout.key_positions],
                              layout.key_names)
        rows = _keyed_rows(key_fields, layout, value_fields, len(physical))
    if not table.metadata_columns:
        return rows
    return _with_metadata(rows, layout.key_format is not None,
                          [_metadata_value(column) for column in table.metadata_columns])


def _with_metadata(rows: Callable, keyed: bool, converters):
    """Rows of a record (key, value, then its metadata fields) with the metadata columns' values added."""
    def rows_with_metadata(record):
        from pyflink_compat.common.types import Row
        read = record if keyed else record[1]
        metadata = [convert(record[2 + i]) for i, convert in enumerate(converters)]
        for row in rows(read):
            yield Row(*tuple(row), *metadata)
    return rows_with_metadata


def _metadata_value(column):
    """The function giving a metadata column's value of a record's field: its timestamp (epoch ms) as a
    TIMESTAMP_LTZ (a UTC date-time) or, for a TIMESTAMP column, as this machine's local date-time (Flink's
    session time zone by default)."""
    from pyflink_compat.table.sql.values import local_of_utc, utc_of_epoch_ms
    if column.metadata != "timestamp":
        return lambda value: value
    if column.type.name == "TIMESTAMP":
        return lambda value: None if value is None else local_of_utc(utc_of_epoch_ms(value))
    return lambda value: None if value is None else utc_of_epoch_ms(value)


class KeyAndValue(RecordDeserializer):
    """Records as Row(key, value) of their bytes (null: no key / a tombstone), then the ``metadata`` fields asked
    for (topic, partition, offset, timestamp)."""

    def __init__(self, metadata=()):
        self.metadata = tuple(metadata)

    def produced_type(self):
        return record_type(self.metadata)

    def deserialize_records(self, topic, partition, keys, values, offsets, timestamps):
        import pyarrow as pa
        arrays, names = [keys.cast(pa.binary()), values.cast(pa.binary())], ["key", "value"]
        count = len(values)
        for key in self.metadata:
            if key == "topic":
                arrays.append(pa.array([topic] * count, pa.string()))
            elif key == "partition":
                arrays.append(pa.array([partition] * count, pa.int32()))
            elif key == "offset":
                arrays.append(pa.array(offsets, pa.int64()))
            else:
                arrays.append(timestamps.cast(pa.int64()))
            names.append(key)
        return pa.StructArray.from_arrays(arrays, names=names)


def _value_rows(value_fields: Callable, positions, width: int):
    def rows(value):
        from pyflink_compat.common.types import Row
        if value is None:                            # a tombstone: no row
            return
        values = value_fields(value)
        if values is None:                           # skipped by json.ignore-parse-errors
            return
        if len(positions) == width:
            yield Row(*values)
            return
        row = [None] * width
        for position, value in zip(positions, values):
            row[position] = value
        yield Row(*row)
    return rows


def _keyed_rows(key_fields: Callable, layout: Layout, value_fields: Callable, width: int):
    """Rows of a table reading keys: the key's columns from the key, the value's from the value (a column in both,
    with value.fields-include ALL, from the value, as Flink sets the value's fields last). A record without a key
    has NULL key columns with the 'raw' key format and is skipped with 'json', as in Flink."""
    key_positions, value_positions = layout.key_positions, layout.value_positions
    raw_key = layout.key_format == "raw"

    def rows(record):
        key, value = record[0], record[1]
        if value is None:                            # a tombstone of a 'kafka' table: no row
            return
        values = value_fields(value)
        if values is None:
            return
        if key is None:
            if not raw_key:                          # the json format reads no row from a missing key
                return
            keys = [None]
        else:
            keys = key_fields(key)
            if keys is None:                         # skipped by the key format's ignore-parse-errors
                return
        yield _row_of(width, key_positions, keys, value_positions, values)
    return rows


def _text(data: bytes) -> str:
    return bytes(data).decode("utf-8", errors="replace")          # Java's new String(bytes, UTF_8)


def _decoder(table: CatalogTable, side: str, fmt: str, columns, names) -> Callable:
    """The function reading one key or value (its bytes, or its text as the value-only source of a text format
    hands it) into the list of its fields' values (None: skip the record)."""
    if fmt == "avro":
        from pyflink_compat.table.sql import avro_format
        return avro_format.decoder(names, [column.type for column in columns], _avro_legacy(table, side))
    return _from_text(_text_decoder(table, side, fmt, columns, names))


def _from_text(decode: Callable) -> Callable:
    return lambda data: decode(data if isinstance(data, str) else _text(data))


def _avro_legacy(table: CatalogTable, side: str) -> bool:
    return format_option(table, side, "timestamp_mapping.legacy", "true").lower() == "true"


def _text_decoder(table: CatalogTable, side: str, fmt: str, columns, names) -> Callable:
    if fmt == "raw":
        return lambda text: [text]
    if fmt == "csv":
        schema = _csv_schema(table, side, columns, names, reading=True)

        def csv_fields(text):
            row = schema.deserialize(text.encode("utf-8"))
            return None if row is None else list(row)
        return csv_fields
    ignore_errors = format_option(table, side, "ignore-parse-errors", "false") == "true"
    fail_on_missing = format_option(table, side, "fail-on-missing-field", "false") == "true"
    if ignore_errors and fail_on_missing:
        raise expressions.validation_error("fail-on-missing-field and ignore-parse-errors shouldn't both be true.")
    return json_fields([(name, json_converter(column.type)) for name, column in zip(names, columns)],
                       ignore_errors, fail_on_missing, exact_numbers=any(_has_decimal(c.type) for c in columns))


def _has_decimal(sql_type) -> bool:
    if sql_type.name == "DECIMAL":
        return True
    inner = [field for _, field in sql_type.fields or ()] + [t for t in (sql_type.key, sql_type.element) if t]
    return any(_has_decimal(each) for each in inner)


def json_fields(fields, ignore_errors: bool, fail_on_missing: bool, exact_numbers: bool = False) -> Callable:
    """Flink SQL's 'json' format reading one message into its fields' values: a number or a numeric string for a
    numeric column, any scalar's text for a STRING, NULL for a missing field unless fail-on-missing-field; a
    message that is no JSON object of the schema fails the job, or is skipped (None) with ignore-parse-errors."""
    import decimal
    import json
    # a DECIMAL column reads the number's digits as written (Jackson's BigDecimal), not a double's
    parse_float = decimal.Decimal if exact_numbers else float

    def values_of(text):
        try:
            node = json.loads(text, parse_float=parse_float)
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
                return None
            raise IOError("Failed to deserialize JSON '%s'." % text) from e
        return values
    return values_of


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
        if isinstance(value, (int, float, Decimal)):
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


def _json_ltz(value):
    """A TIMESTAMP_LTZ as the 'json' format writes it: '2024-01-02 03:04:05.123Z' (UTC)."""
    if isinstance(value, str) and value.endswith("Z"):
        value = value[:-1]
    return _json_timestamp(value)


def _json_decimal(sql_type):
    from pyflink_compat.table.sql.values import decimal_of

    def convert(value):
        if isinstance(value, bool) or isinstance(value, (dict, list)):
            raise ValueError("not a number for a DECIMAL column")
        if isinstance(value, str):           # Flink reads a string's text as a BigDecimal
            import decimal
            try:
                value = decimal.Decimal(value.strip())
            except decimal.InvalidOperation:
                raise ValueError("Character array is missing \"exponent\" mark 'e' or 'E'.") from None
        return decimal_of(value, sql_type.precision, sql_type.scale)
    return convert


def _json_date(value):
    import datetime
    if not isinstance(value, str):
        raise ValueError("a DATE is text")
    return datetime.date.fromisoformat(value) if len(value) == 10 else _not_iso_date(value)


def _not_iso_date(value):
    raise ValueError("Text '%s' could not be parsed as an ISO local date" % value)


def _json_row(sql_type):
    converters = [(name, json_converter(field)) for name, field in sql_type.fields]
    names = tuple(name for name, _ in converters)

    def convert(value):
        if not isinstance(value, dict):
            raise ValueError("not a JSON object for a ROW column")
        from pyflink_compat.common.types import Row
        row = Row(*[None if value.get(name) is None else each(value[name]) for name, each in converters])
        row._fields = list(names)
        return row
    return convert


def _json_map(sql_type):
    key, element = json_converter(sql_type.key), json_converter(sql_type.element)

    def convert(value):
        if not isinstance(value, dict):
            raise ValueError("not a JSON object for a MAP column")
        return {key(name): None if each is None else element(each) for name, each in value.items()}
    return convert


def _json_array(sql_type):
    element = json_converter(sql_type.element)

    def convert(value):
        if not isinstance(value, list):
            raise ValueError("not a JSON array for an ARRAY column")
        return [None if each is None else element(each) for each in value]
    return convert


def json_converter(sql_type):
    """The function reading a (non-null) JSON value into a column's value, of a SqlType or a type's name."""
    name = getattr(sql_type, "name", sql_type)
    nested = {"DECIMAL": _json_decimal, "ROW": _json_row, "MAP": _json_map, "ARRAY": _json_array}.get(name)
    if nested is not None:
        return nested(sql_type)
    if name == "DATE":
        return _json_date
    if name == "TIMESTAMP":
        return _json_timestamp
    if name == "TIMESTAMP_LTZ":
        return _json_ltz
    if name == "STRING":
        return _json_scalar_text
    if name == "FLOAT":
        from pyflink_compat.table.sql.values import single_precision
        double = json_converter("DOUBLE")
        return lambda value: single_precision(double(value))
    if name == "DOUBLE":
        return lambda value: float(value) if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool) \
            else float(_json_scalar_text(value).strip())
    if name == "BOOLEAN":
        return lambda value: value if isinstance(value, bool) else _json_scalar_text(value).strip().lower() == "true"
    bits = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}[name]
    return _json_integer(-2 ** (bits - 1), 2 ** (bits - 1) - 1)


def _starting_offsets(table: CatalogTable):
    from pyflink_compat.datastream.connectors.kafka import KafkaOffsetResetStrategy, KafkaOffsetsInitializer
    if table.option("connector") == UPSERT_KAFKA:        # its rows are the whole topic: read from the start
        return KafkaOffsetsInitializer.earliest()
    mode = table.option("scan.startup.mode", "group-offsets")
    if mode == "earliest-offset":
        return KafkaOffsetsInitializer.earliest()
    if mode == "latest-offset":
        return KafkaOffsetsInitializer.latest()
    if mode == "group-offsets":
        reset = table.option("properties.auto.offset.reset", "none").upper()
        return KafkaOffsetsInitializer.committed_offsets(KafkaOffsetResetStrategy[reset])
    if mode == "timestamp":
        return KafkaOffsetsInitializer.timestamp(int(required(table, "scan.startup.timestamp-millis")))
    _refuse("scan.startup.mode '%s'" % mode)


def _stopping_offsets(table: CatalogTable):
    from pyflink_compat.datastream.connectors.kafka import KafkaOffsetsInitializer
    mode = table.option("scan.bounded.mode", "unbounded")
    if mode == "unbounded":
        return None
    if mode == "latest-offset":
        return KafkaOffsetsInitializer.latest()
    if mode == "timestamp":
        return KafkaOffsetsInitializer.timestamp(int(required(table, "scan.bounded.timestamp-millis")))
    _refuse("scan.bounded.mode '%s'" % mode)


# writing ---------------------------------------------------------------------------------------------

def writer(table: CatalogTable, layout: Layout) -> Callable:
    """The function making a Row of the table's columns into Row(key bytes or None, value bytes)."""
    columns = table.columns
    key_encode = None if layout.key_format is None else _encoder(
        layout.key_format, layout.key_names, [columns[i].type for i in layout.key_positions], table, "key",
        [columns[i] for i in layout.key_positions])
    value_encode = _encoder(layout.value_format, [columns[i].name for i in layout.value_positions],
                            [columns[i].type for i in layout.value_positions], table, "value",
                            [columns[i] for i in layout.value_positions])
    key_positions, value_positions = layout.key_positions, layout.value_positions

    def record(values) -> tuple:
        key = None if key_encode is None else key_encode([values[i] for i in key_positions])
        return key, value_encode([values[i] for i in value_positions])
    return record


def _csv_schema(table: CatalogTable, side: str, columns, names, reading: bool):
    """The DataStream CSV schema that reads or writes the columns as Flink SQL's 'csv' format does (Jackson's CSV
    rules; a TIMESTAMP written as the SQL text, without a fraction of zeros; no line end after a message)."""
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.datastream.formats.csv import CsvRowDeserializationSchema, CsvRowSerializationSchema

    def option(name, default=None):
        return format_option(table, side, name, default)
    for column in columns:
        if column.type.name not in _CSV_TYPES:
            _refuse("A %s column in the 'csv' format" % column.type.name,
                    "csv columns are STRING, BOOLEAN, integers, FLOAT, DOUBLE and TIMESTAMP")
    prefix = "%s.csv." % side if side == "key" or table.option("value.format") else "csv."
    for name in ("field-delimiter", "quote-character", "escape-character"):
        value = option(name)
        if value is not None and len(value) != 1:
            raise expressions.validation_error("Option '%s%s' must be a string with single character, but was: %s"
                                               % (prefix, name, value))
    quote = None if option("disable-quote-character", "false") == "true" else option("quote-character", '"')
    settings = {"field_delimiter": option("field-delimiter", ","), "array_element_delimiter":
                option("array-element-delimiter", ";"), "quote_character": quote,
                "escape_character": option("escape-character"), "null_literal": option("null-literal", "")}
    if reading:
        types = [column.type.type_info() for column in columns]
        return CsvRowDeserializationSchema(dict(
            settings, type_info=Types.ROW_NAMED(list(names), types),
            allow_comments=option("allow-comments", "false") == "true",
            ignore_parse_errors=option("ignore-parse-errors", "false") == "true"))
    # timestamps are handed over as their SQL text (quoted as text, as the format quotes them)
    types = [Types.STRING() if column.type.name == "TIMESTAMP" else column.type.type_info() for column in columns]
    return CsvRowSerializationSchema(dict(settings, type_info=Types.ROW_NAMED(list(names), types),
                                          line_delimiter=""))


def _encoder(fmt: str, names, sql_types, table: CatalogTable = None, side: str = "value", columns=()) -> Callable:
    from pyflink_compat.table.sql.values import json_row_writer, json_timestamp_text, printed
    if fmt == "csv":
        from pyflink_compat.common.types import Row
        schema = _csv_schema(table, side, columns, names, reading=False)
        stamps = [i for i, sql_type in enumerate(sql_types) if sql_type.name == "TIMESTAMP"]

        def csv_text(values):
            values = list(values)
            for i in stamps:
                if values[i] is not None:
                    values[i] = json_timestamp_text(values[i])
            return schema.serialize(Row(*values))
        return csv_text
    if fmt == "avro":
        from pyflink_compat.table.sql import avro_format
        return avro_format.encoder(names, sql_types, _avro_legacy(table, side))
    if fmt == "raw":
        sql_type = sql_types[0]
        return lambda values: None if values[0] is None else printed(values[0], sql_type).encode("utf-8")
    write = json_row_writer(names, sql_types)
    return lambda values: write(values).encode("utf-8")


def record_type(metadata=()):
    """Row(key, value) of bytes, then the metadata fields named."""
    from pyflink_compat.common.typeinfo import Types
    types = {"topic": Types.STRING(), "partition": Types.INT(), "offset": Types.LONG(), "timestamp": Types.LONG()}
    return Types.ROW_NAMED(["key", "value"] + list(metadata),
                           [Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.PRIMITIVE_ARRAY(Types.BYTE())]
                           + [types[key] for key in metadata])


class FieldBytes(SerializationSchema):
    """One bytes field of a Row(key, value) as it is (None stays None: no key, or a tombstone)."""

    def __init__(self, index: int):
        super().__init__()
        self.index = index

    def serialize(self, value) -> Optional[bytes]:
        field = value[self.index]
        return None if field is None else bytes(field)

    def _serialize_arrow(self, array):
        import pyarrow as pa
        if not isinstance(array, pa.StructArray) or array.null_count:
            return None
        return array.field(self.index).cast(pa.binary())


def sink(table: CatalogTable, layout: Layout, timestamped: bool = False):
    """The KafkaSink writing Row(key, value) records of the table; ``timestamped``: with the elements'
    timestamps (set from the table's 'timestamp' metadata column), else the producer's time as Flink SQL."""
    from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
    from pyflink_compat.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink
    topic = required(table, "topic")
    record = KafkaRecordSerializationSchema.builder().set_topic(topic).set_value_serialization_schema(FieldBytes(1))
    if layout.key_format is not None:
        record = record.set_key_serialization_schema(FieldBytes(0))
    builder = KafkaSink.builder().set_bootstrap_servers(required(table, "properties.bootstrap.servers")) \
        .set_record_serializer(record.build())._set_write_timestamp(timestamped)
    for key, value in client_properties(table).items():
        builder = builder.set_property(key, value)
    guarantee = table.option("sink.delivery-guarantee", "at-least-once")
    guarantees = {"none": DeliveryGuarantee.NONE, "at-least-once": DeliveryGuarantee.AT_LEAST_ONCE,
                  "exactly-once": DeliveryGuarantee.EXACTLY_ONCE}
    if guarantee not in guarantees:
        raise expressions.validation_error("Could not parse value '%s' for key 'sink.delivery-guarantee'."
                                           % guarantee)
    builder = builder.set_delivery_guarantee(guarantees[guarantee])
    if table.option("sink.transactional-id-prefix"):
        builder = builder.set_transactional_id_prefix(table.option("sink.transactional-id-prefix"))
    return builder.build()


def upsert_record(table: CatalogTable, layout: Layout) -> Callable:
    """upsert-kafka's record of a change: an insertion or update after as (key, value), a deletion as (key, None)
    (a tombstone); an update before writes nothing (None)."""
    encode = writer(table, layout)

    def record(change) -> Optional[tuple]:
        kind, values = change
        if kind == "-U":
            return None
        key, value = encode(list(values))
        return (key, None) if kind == "-D" else (key, value)
    return record

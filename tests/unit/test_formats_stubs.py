"""The format modules exist with PyFlink's names but every way in raises UnsupportedFeatureError."""
import importlib

import pytest

from pyflink_compat.util.exceptions import UnsupportedFeatureError

GUIDE_LINK = "porting_guide/README.md#formats"

EXPECTED_ALL = {
    "json": ['JsonRowDeserializationSchema', 'JsonRowSerializationSchema'],
    "csv": ['CsvSchema', 'CsvSchemaBuilder', 'CsvReaderFormat', 'CsvBulkWriters',
            'CsvRowDeserializationSchema', 'CsvRowSerializationSchema'],
    "avro": ['AvroSchema', 'GenericRecordAvroTypeInfo', 'AvroInputFormat', 'AvroBulkWriters',
             'AvroRowDeserializationSchema', 'AvroRowSerializationSchema'],
}


def _module(name):
    return importlib.import_module("pyflink_compat.datastream.formats." + name)


# (module, name shown in the error, call that must raise)
CALLS = [
    # JSON row schemas are implemented (tests/unit/test_formats_json.py) except a JSON-schema string
    ("csv", "CsvSchema", lambda m: m.CsvSchema(None, None)),
    ("csv", "CsvSchema.builder", lambda m: m.CsvSchema.builder()),
    ("csv", "CsvSchemaBuilder", lambda m: m.CsvSchemaBuilder()),
    ("csv", "CsvReaderFormat", lambda m: m.CsvReaderFormat(None)),
    ("csv", "CsvReaderFormat.for_schema", lambda m: m.CsvReaderFormat.for_schema(None)),
    ("csv", "CsvBulkWriters", lambda m: m.CsvBulkWriters()),
    ("csv", "CsvBulkWriters.for_schema", lambda m: m.CsvBulkWriters.for_schema(None)),
    # CSV row schemas are implemented (tests/unit/test_formats_csv.py)
    ("avro", "GenericRecordAvroTypeInfo", lambda m: m.GenericRecordAvroTypeInfo(None)),
    ("avro", "AvroInputFormat", lambda m: m.AvroInputFormat("in.avro", None)),
    ("avro", "AvroBulkWriters", lambda m: m.AvroBulkWriters()),
    ("avro", "AvroBulkWriters.for_generic_record", lambda m: m.AvroBulkWriters.for_generic_record(None)),
    # Avro row schemas from a schema string and AvroSchema work (tests/unit/test_formats_avro.py), a record_class not
    ("avro", "AvroRowDeserializationSchema(record_class='com.example.Record')",
     lambda m: m.AvroRowDeserializationSchema(record_class="com.example.Record")),
    ("avro", "AvroRowSerializationSchema(record_class='com.example.Record')",
     lambda m: m.AvroRowSerializationSchema(record_class="com.example.Record")),
]


@pytest.mark.parametrize("module_name", sorted(EXPECTED_ALL))
def test_all_matches_pyflink_and_every_name_exists(module_name):
    module = _module(module_name)
    assert list(module.__all__) == EXPECTED_ALL[module_name]
    for name in module.__all__:
        assert isinstance(getattr(module, name), type), name


def test_package_and_pyflink_style_imports():
    from pyflink_compat.datastream import formats
    from pyflink_compat.datastream.formats.avro import AvroSchema  # noqa: F401
    from pyflink_compat.datastream.formats.csv import CsvSchema  # noqa: F401
    from pyflink_compat.datastream.formats.json import JsonRowDeserializationSchema  # noqa: F401
    assert formats.__all__ == []


def test_every_exported_class_is_used_by_some_call():
    covered = {(module, shown.split(".")[0].split("(")[0]) for module, shown, _ in CALLS}
    covered.add(("avro", "AvroSchema"))                      # implemented: test_formats_avro.py
    covered.add(("json", "JsonRowSerializationSchema"))      # implemented: test_formats_json.py
    covered.add(("json", "JsonRowDeserializationSchema"))    # implemented: test_formats_json.py
    covered.add(("csv", "CsvRowDeserializationSchema"))     # implemented: test_formats_csv.py
    covered.add(("csv", "CsvRowSerializationSchema"))       # implemented: test_formats_csv.py
    for module_name, names in EXPECTED_ALL.items():
        for name in names:
            assert (module_name, name) in covered, (module_name, name)


@pytest.mark.parametrize("module_name, shown, call", CALLS, ids=[c[1] for c in CALLS])
def test_using_a_format_raises_pointing_at_the_guide(module_name, shown, call):
    with pytest.raises(UnsupportedFeatureError) as info:
        call(_module(module_name))
    message = str(info.value)
    assert info.value.name == shown
    assert info.value.section == "formats"
    assert shown + " is not supported by pyflink-compat" in message
    assert GUIDE_LINK in message


def test_schemas_keep_pyflink_base_classes():
    from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
    from pyflink_compat.common.typeinfo import TypeInformation
    json_m, csv_m, avro_m = _module("json"), _module("csv"), _module("avro")
    for cls in (json_m.JsonRowDeserializationSchema, csv_m.CsvRowDeserializationSchema,
                avro_m.AvroRowDeserializationSchema):
        assert issubclass(cls, DeserializationSchema)
    for cls in (json_m.JsonRowSerializationSchema, csv_m.CsvRowSerializationSchema,
                avro_m.AvroRowSerializationSchema):
        assert issubclass(cls, SerializationSchema)
    assert issubclass(avro_m.GenericRecordAvroTypeInfo, TypeInformation)

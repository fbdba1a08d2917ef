"""JsonRowDeserializationSchema.Builder.json_schema() probes: the type each JSON Schema gives, or the error,
one per line; run under real PyFlink and under pyflink-compat (``--compat``) and compared by
test_json_schema.py."""
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.formats.json import JsonRowDeserializationSchema

StreamExecutionEnvironment.get_execution_environment()       # PyFlink converts in its JVM

FIELDS = [
    '{"type":"integer"}', '{"type":"number","format":"float"}', '{"type":"boolean"}', '{"type":"string"}',
    '{"type":"string","format":"date-time"}', '{"type":"string","format":"date"}', '{"type":"string","format":"time"}',
    '{"type":"string","format":"DATE"}', '{"type":"string","format":"email"}', '{"type":"string","format":5}',
    '{"type":"string","contentEncoding":"base64"}', '{"type":"string","contentEncoding":"BASE64"}',
    '{"type":"string","enum":["x"]}', '{"enum":["x","y"]}', '{}', '{"type":5}', '{"type":[]}', '{"type":"weird"}',
    '{"type":"array"}', '{"type":"array","items":{"type":"integer"}}', '{"type":"array","items":{"type":"string"}}',
    '{"type":"array","items":{"type":"boolean"}}', '{"type":"array","items":{}}', '{"type":"array","items":[]}',
    '{"type":"array","items":[{"type":"integer"},{"type":"string"}]}', '{"type":"array","items":[{"type":"integer"},{}]}',
    '{"type":"array","items":{"type":"array","items":{"type":"number"}}}',
    '{"type":"array","items":{"type":"object","properties":{"z":{"type":"boolean"}}}}',
    '{"type":"array","items":{"type":"string","contentEncoding":"base64"}}',
    '{"type":"object"}', '{"type":"object","properties":{}}', '{"type":"object","properties":[]}',
    '{"type":"object","properties":{"g":{}}}', '{"type":"object","properties":{"q":{"type":"integer"}},"required":["q"]}',
    '{"type":["string","null"]}', '{"type":["null","boolean"]}', '{"type":["integer","number"]}',
    '{"type":["integer","null","string"]}', '{"type":"null"}', '{"type":["null"]}',
    '{"oneOf":[{"type":"integer"},{"type":"null"}]}', '{"oneOf":[{"type":"integer"},{"type":"string"}]}',
    '{"oneOf":[{"type":"integer"},{}]}', '{"oneOf":[]}', '{"oneOf":{"type":"string"}}', '{"oneOf":[{"type":"null"}]}',
    '{"anyOf":[{"type":"integer"}]}', '{"allOf":[{"type":"string"}],"type":"string"}', '{"not":{"type":"string"}}',
    '{"extends":{"type":"string"}}', '{"$ref":"#/definitions/p"}', '{"$ref":"#/definitions/missing"}',
    '{"$ref":"#/definitions/empty"}', '{"type":"string","$ref":"#/definitions/p"}', '{"$ref":"#/$defs/s"}',
    '{"$ref":"#/properties/other"}', '{"$ref":"other.json"}', '{"$ref":"#/definitions/row"}',
]
SCHEMAS = [
    None, '', '{}', '[]', 'not json', '{"type":"string"}', '{"type":"array","items":{"type":"string"}}',
    '{"type":"object","properties":{"a":{"type":"integer"}}} trailing',
    '{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"string"}}}',
    '{"definitions":{"r":{"type":"object","properties":{"x":{"type":"string"}}}},"$ref":"#/definitions/r"}',
    '{"type":["object","null"],"properties":{"a":{"type":"string"}}}',
    '{"type":"object","properties":{"f":{"type":"boolean"}},"$ref":"#/definitions/x"}',
    '{"type":"object","properties":{"a":{"type":"null"},"b":{}}}',
    '{"type":"object","properties":{"n":{"$ref":"#"}}}',
] + ['{"type":"object","properties":{"f":%s,"other":{"type":"boolean"}},"definitions":{"p":{"type":"integer"},'
     '"empty":{},"row":{"type":"object","properties":{"r":{"type":"string","format":"date"}}}},'
     '"$defs":{"s":{"type":"string"}}}' % field for field in FIELDS]


def describe(error):
    """The error's kind and its first two lines (a Java exception: the call, then class and message)."""
    from py4j.protocol import Py4JJavaError
    kind = "Py4JJavaError" if isinstance(error, Py4JJavaError) else type(error).__name__
    lines = str(error).strip().splitlines()
    return "raises %s: %s" % (kind, " | ".join(lines[:2]))


for schema in SCHEMAS:
    try:
        builder = JsonRowDeserializationSchema.builder().json_schema(schema)
        outcome = str(builder._type_info)
        try:
            builder.build()
            outcome += " / built"
        except Exception as e:
            outcome += " / build " + describe(e)
    except Exception as e:
        outcome = describe(e)
    print("%s -> %s" % (schema, outcome))

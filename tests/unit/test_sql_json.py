"""Flink SQL's JSON functions (JSON_VALUE, JSON_QUERY, JSON_EXISTS, IS JSON): the expected values are what
PyFlink 2.3 gave for the same calls."""
import pytest

from pyflink_compat.table.sql import dialect, expressions
from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.util.exceptions import JavaStyleError

DOCUMENT = ('{"a": 1, "b": "x", "c": 1.5, "d": true, "e": null, "f": {"g": [1, 2, {"h": "deep"}]}, "i": 1e2, '
            '"j": 12345678901234567890, "k": "12", "l": 1.0, "m": -0.0, "n": 3.0e-10, "big": 3000000000}')


def _value(sql: str, text=DOCUMENT):
    compiler = expressions.Compiler({"doc": (0, SqlType("STRING"))})
    function, _ = compiler.compile(dialect.parse("SELECT %s FROM t" % sql)[0].expressions[0])
    return function((text,))


@pytest.mark.parametrize("path, expected", [
    ("$.a", "1"), ("$.b", "x"), ("$.c", "1.5"), ("$.d", "true"), ("$.e", None), ("$.f", None),
    ("$.f.g[2].h", "deep"), ("$.f.g[0]", "1"), ("$.i", "1E+2"), ("$.j", "12345678901234567890"), ("$.zz", None),
    ("strict $.zz", None), ("lax $.b", "x"), ("$.f.g", None), ("$.k", "12"), ("$.l", "1.0"), ("$.m", "0.0"),
    ("$.n", "3.0E-10"), ("$", None), ("$.*", None), ("$.f.g[*]", None), ("bad path", None), ("$.big", "3000000000"),
])
def test_json_value_gives_a_scalar_as_java_prints_it_and_null_for_anything_else(path, expected):
    assert _value("JSON_VALUE(doc, '%s')" % path) == expected


def test_json_value_of_text_that_is_no_json_or_no_object_is_null():
    assert _value("JSON_VALUE(doc, '$.a')", "not json") is None
    assert _value("JSON_VALUE(doc, '$[1]')", "[1, 2]") == "2"
    assert _value("JSON_VALUE(doc, '$.a')", None) is None


def test_json_value_returning_and_on_error():
    assert _value("JSON_VALUE(doc, '$.a' RETURNING INT)") == 1
    assert _value("JSON_VALUE(doc, '$.c' RETURNING DOUBLE)") == 1.5
    assert _value("JSON_VALUE(doc, '$.d' RETURNING BOOLEAN)") is True
    assert _value("JSON_VALUE(doc, '$.zz' RETURNING INT)") is None
    # ON EMPTY never applies: a missing value, JSON null and an object take the ON ERROR behaviour
    assert _value("JSON_VALUE(doc, '$.zz' DEFAULT 'dflt' ON EMPTY)") is None
    for path in ("$.zz", "strict $.zz", "$.f", "$.e"):
        assert _value("JSON_VALUE(doc, '%s' DEFAULT 'e' ON ERROR)" % path) == "e"
        assert _value("JSON_VALUE(doc, '%s' NULL ON EMPTY DEFAULT 'e' ON ERROR)" % path) == "e"
    assert _value("JSON_VALUE(doc, '$.a' DEFAULT 'x' ON ERROR)", "not json") == "x"
    assert _value("JSON_VALUE(doc, '$.zz' RETURNING INT DEFAULT 4 ON ERROR)") == 4
    assert _value("JSON_VALUE(doc, '$.a' RETURNING INT DEFAULT 'q' ON ERROR)") == 1
    with pytest.raises(Exception, match=r"No results for path: \$\['zz'\]"):
        _value("JSON_VALUE(doc, '$.zz' ERROR ON ERROR)")
    with pytest.raises(Exception, match=r"Strict jsonpath mode requires scalar value, and the actual value is: "
                                        r"''\{g=\[1, 2, \{h=deep\}\]\}''"):
        _value("JSON_VALUE(doc, '$.f' ERROR ON ERROR)")
    # Flink casts the object Jackson made: a value of another kind fails the job
    for sql in ("JSON_VALUE(doc, '$.b' RETURNING INT)", "JSON_VALUE(doc, '$.big' RETURNING INT)",
                "JSON_VALUE(doc, '$.a' RETURNING DOUBLE)", "JSON_VALUE(doc, '$.k' RETURNING BOOLEAN)"):
        with pytest.raises(Exception, match="ClassCastException"):
            _value(sql)
    for returning in ("BIGINT", "FLOAT"):
        with pytest.raises(JavaStyleError, match="Unsupported type '%s' for RETURNING in JSON_VALUE()." % returning):
            _value("JSON_VALUE(doc, '$.a' RETURNING %s)" % returning)


def test_json_query_json_exists_and_is_json():
    assert _value("JSON_QUERY(doc, '$.f')") == '{"g":[1,2,{"h":"deep"}]}'
    assert _value("JSON_QUERY(doc, '$.b')") is None
    assert _value("JSON_EXISTS(doc, '$.b')") is True
    assert _value("JSON_EXISTS(doc, '$.zz')") is False
    assert _value("doc IS JSON") is True
    assert _value("doc IS JSON", "not json") is False
    assert _value("doc IS JSON ARRAY", "[1]") is True
    assert _value("doc IS JSON OBJECT", "[1]") is False


def test_the_table_api_json_value_is_the_sql_function():
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.expression import JsonValueOnEmptyOrError
    from pyflink_compat.table.expressions import col
    compiler = expressions.Compiler({"doc": (0, SqlType("STRING"))})
    call = col("doc").json_value("$.zz", DataTypes.INT(), on_error=JsonValueOnEmptyOrError.DEFAULT,
                                 default_on_error=7)
    function, result_type = compiler.compile(call._node)
    assert (function((DOCUMENT,)), result_type.name) == (7, "INT")
    function, _ = compiler.compile(col("doc").json_value("$.f.g[2].h")._node)
    assert function((DOCUMENT,)) == "deep"

"""The Table API's expression methods and functions (``col('s').md5``, ``lpad``, ``regexp_extract``, ``at``,
``array_sort``, ``to_timestamp``, ``extract``, ``row``, ``array``, ``map_``, ``null_of``, ``call_sql``,
``with_columns`` ...): each one's result type (or its error), then the values of all of them over two rows, one
of them mostly NULLs, and aggregates of a column; run under real PyFlink and under pyflink-compat (``--compat``)
and compared by test_table_functions.py."""
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expression import JsonType, TimeIntervalUnit, TimePointUnit
from pyflink.table.expressions import (array, call_sql, col, concat, current_database, date_format, from_unixtime,
                                       if_then_else, lit, map_, map_from_arrays, null_of, range_, row,
                                       temporal_overlaps, timestamp_diff, to_date, to_timestamp, to_timestamp_ltz,
                                       unix_timestamp, with_columns, without_columns)

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.get_config().set("table.local-time-zone", "UTC")
t_env.execute_sql("""CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES
    ('Hello World', 7, 2.5, '2024-02-29', TIMESTAMP '2024-02-29 13:14:15.123', 'http://u@ex.com:8080/p/a?k=v&x=y#f',
     '192.168.1.2', 'SGVsbG8=', '48656C6C6F', '{"a": 1}', ARRAY[3, 1, 2, 1], MAP['a', 1, 'b', 2], '  pad me  ',
     'k1=v1;k2=v2', CAST(ROW(1, 'x') AS ROW<a INT, b STRING>), ARRAY['one']),
    (CAST(NULL AS STRING), CAST(NULL AS INT), CAST(NULL AS DOUBLE), CAST(NULL AS STRING), CAST(NULL AS TIMESTAMP(3)),
     CAST(NULL AS STRING), CAST(NULL AS STRING), 'eA==', CAST(NULL AS STRING), 'not json', ARRAY[CAST(NULL AS INT), 5],
     MAP['c', CAST(NULL AS INT)], '', 'a:1', CAST(NULL AS ROW<a INT, b STRING>), CAST(NULL AS ARRAY<STRING>))
    ) AS T(s, n, d, ds, ts, url, ip, b64, hx, js, arr, m, sp, kv, r, solo)""")
table = t_env.from_path("v")

METHODS = [
    ("init_cap", lambda: col("s").init_cap), ("ascii", lambda: col("s").ascii), ("chr", lambda: (col("n") + 58).chr),
    ("reverse", lambda: col("s").reverse), ("from_base64", lambda: col("b64").from_base64),
    ("to_base64", lambda: col("s").to_base64), ("md5", lambda: col("s").md5), ("sha1", lambda: col("s").sha1),
    ("sha224", lambda: col("s").sha224), ("sha256", lambda: col("s").sha256), ("sha384", lambda: col("s").sha384),
    ("sha512", lambda: col("s").sha512), ("sha2", lambda: col("s").sha2(256)), ("bin", lambda: col("n").bin),
    ("hex of a string", lambda: col("s").hex), ("hex of a number", lambda: col("n").hex),
    ("unhex", lambda: col("hx").unhex), ("starts_with", lambda: col("s").starts_with("Hello")),
    ("ends_with", lambda: col("s").ends_with("x")), ("trim_leading", lambda: col("sp").trim_leading()),
    ("trim_leading of a character", lambda: col("s").trim_leading("H")),
    ("trim_trailing", lambda: col("sp").trim_trailing()), ("trim", lambda: col("sp").trim()),
    ("ltrim", lambda: col("sp").ltrim()), ("rtrim of characters", lambda: col("s").rtrim("dl")),
    ("btrim", lambda: col("sp").btrim()), ("translate", lambda: col("s").translate("lo", "01")),
    ("similar", lambda: col("s").similar("H%")), ("position", lambda: lit("World").position(col("s"))),
    ("lpad", lambda: col("s").lpad(15, "*")), ("rpad", lambda: col("s").rpad(3, "*")),
    ("overlay", lambda: col("s").overlay("XX", 2)), ("overlay with a length", lambda: col("s").overlay("XX", 2, 5)),
    ("regexp", lambda: col("s").regexp("W.r")), ("regexp_count", lambda: col("s").regexp_count("o")),
    ("regexp_replace", lambda: col("s").regexp_replace("o", "0")),
    ("regexp_extract", lambda: col("s").regexp_extract("(\\w+) (\\w+)", 2)),
    ("regexp_extract whole", lambda: col("s").regexp_extract("W\\w+")),
    ("regexp_extract_all", lambda: col("s").regexp_extract_all("(o)(\\w)", 2)),
    ("regexp_instr", lambda: col("s").regexp_instr("o")), ("regexp_substr", lambda: col("s").regexp_substr("o\\w")),
    ("encode", lambda: col("s").encode("UTF-8")), ("decode", lambda: col("s").encode("UTF-8").decode("UTF-8")),
    ("instr", lambda: col("s").instr("o")), ("locate", lambda: lit("o").locate(col("s"))),
    ("locate from", lambda: lit("o").locate(col("s"), 6)), ("url_encode", lambda: col("url").url_encode()),
    ("url_decode", lambda: lit("a%20b%3D").url_decode()), ("inet_aton", lambda: col("ip").inet_aton()),
    ("inet_ntoa", lambda: lit(3232235778).inet_ntoa()), ("parse_url", lambda: col("url").parse_url("HOST")),
    ("parse_url of a key", lambda: col("url").parse_url("QUERY", "k")),
    ("printf", lambda: lit("%s-%d").printf(col("s"), col("n"))), ("repeat", lambda: col("s").repeat(2)),
    ("str_to_map", lambda: col("kv").str_to_map()), ("str_to_map delimited", lambda: col("kv").str_to_map(";", "=")),
    ("elt", lambda: lit(2).elt("a", "b", "c")), ("split", lambda: col("s").split(" ")),
    ("concat", lambda: col("s").concat("!")), ("upper_case", lambda: col("s").upper_case),
    ("to_date", lambda: col("ds").to_date), ("to_timestamp", lambda: lit("2024-02-29 13:14:15").to_timestamp),
    ("extract", lambda: col("ts").extract(TimeIntervalUnit.HOUR)),
    ("extract year", lambda: col("ts").extract(TimeIntervalUnit.YEAR)),
    ("floor to an hour", lambda: col("ts").floor(TimeIntervalUnit.HOUR)),
    ("ceil to a day", lambda: col("ts").ceil(TimeIntervalUnit.DAY)),
    ("plus a year", lambda: col("ts") + lit(1).year), ("plus months", lambda: col("ts") + lit(2).months),
    ("plus a quarter", lambda: col("ts") + lit(1).quarter), ("minus weeks", lambda: col("ts") - lit(2).weeks),
    ("at of an array", lambda: col("arr").at(1)), ("at of a map", lambda: col("m").at("a")),
    ("get", lambda: col("r").get("b")), ("get by index", lambda: col("r").get(0)),
    ("cardinality", lambda: col("arr").cardinality), ("element", lambda: col("solo").element),
    ("array_append", lambda: col("arr").array_append(9)), ("array_contains", lambda: col("arr").array_contains(2)),
    ("array_position", lambda: col("arr").array_position(1)),
    ("array_prepend", lambda: col("arr").array_prepend(0)), ("array_remove", lambda: col("arr").array_remove(1)),
    ("array_union", lambda: col("arr").array_union(array(7, 3))), ("array_max", lambda: col("arr").array_max()),
    ("array_min", lambda: col("arr").array_min()), ("array_except", lambda: col("arr").array_except(array(1))),
    ("array_intersect", lambda: col("arr").array_intersect(array(1, 2))),
    ("map_keys", lambda: col("m").map_keys), ("map_values", lambda: col("m").map_values),
    ("map_entries", lambda: col("m").map_entries),
    ("is_json", lambda: col("js").is_json()), ("is_json object", lambda: col("js").is_json(JsonType.ARRAY)),
    ("json_quote", lambda: col("s").json_quote()), ("json_unquote", lambda: lit('"a\\tb"').json_unquote()),
    ("row", lambda: row(col("n"), col("s"))), ("array", lambda: array(col("n"), 2)),
    ("map_", lambda: map_("k", col("n"))), ("map_from_arrays", lambda: map_from_arrays(array("a"), array(col("n")))),
    ("null_of", lambda: null_of(DataTypes.INT())), ("call_sql", lambda: call_sql("UPPER(s) || '!'")),
    ("date_format", lambda: date_format(col("ts"), "yyyy/MM/dd HH")),
    ("from_unixtime", lambda: from_unixtime(lit(86400), "yyyy-MM-dd")),
    ("unix_timestamp", lambda: unix_timestamp(lit("2024-02-29 00:00:00"))),
    ("to_date of a format", lambda: to_date(lit("29/02/2024"), "dd/MM/yyyy")),
    ("to_timestamp of a string", lambda: to_timestamp(lit("2024-02-29 01:02:03"))),
    ("to_timestamp_ltz", lambda: to_timestamp_ltz(lit(86400000), 3)),
    ("timestamp_diff", lambda: timestamp_diff(TimePointUnit.DAY, lit("2016-06-15").to_date, col("ds").to_date)),
    ("temporal_overlaps", lambda: temporal_overlaps(col("ts"), lit(2).hours, col("ts"), lit(1).hour)),
    ("concat function", lambda: concat(col("s"), "-", col("ds"))),
    ("current_database", lambda: current_database()),
    ("if_then_else", lambda: if_then_else(col("n") > 5, "big", "small")),
]
working = []
for name, make in METHODS:
    try:
        print(name, "=>", " ".join(str(table.select(make().alias("c")).get_resolved_schema()).split()))
        working.append((name, make))
    except Exception as e:
        found = re.search(r"(?:ValidationException|ParseException|TableException): (.*?)(?:\n\tat |\Z)", str(e), re.S)
        print(name, "=>", repr((found.group(1) if found else str(e).splitlines()[0])[:300]))
print([name for name, _ in working])
t_env.create_temporary_view("probed", table.select(*[make().alias("c%d" % n) for n, (_, make) in enumerate(working)]))
for first in range(0, len(working), 40):          # few jobs: tableaus of 40 columns
    t_env.sql_query("SELECT %s FROM probed" % ", ".join("c%d" % n for n in range(first, min(first + 40, len(working))))
                    ).execute().print()
print(table.select(with_columns(range_(1, 3))).get_schema().get_field_names())
print(table.select(without_columns(range_(2, 15))).get_schema().get_field_names())
print(table.select(with_columns(col("s"), range_("ts", "url"))).get_schema().get_field_names())
AGGREGATES = [("sum0", lambda: col("n").sum0), ("first_value", lambda: col("s").first_value),
              ("last_value", lambda: col("s").last_value), ("list_agg", lambda: col("s").list_agg()),
              ("list_agg with a separator", lambda: col("s").list_agg("|")), ("stddev_pop", lambda: col("d").stddev_pop),
              ("stddev_samp", lambda: col("d").stddev_samp), ("var_pop", lambda: col("n").var_pop),
              ("var_samp", lambda: col("d").var_samp), ("array_agg", lambda: col("b64").array_agg)]
aggregated = []
for name, make in AGGREGATES:
    try:
        result = table.group_by(col("b64")).select(col("b64"), make().alias("a"))
        print(name, "=>", " ".join(str(result.get_resolved_schema()).split()))
        aggregated.append(make)
    except Exception as e:
        found = re.search(r"(?:ValidationException|ParseException|TableException): (.*?)(?:\n\tat |\Z)", str(e), re.S)
        print(name, "=>", repr((found.group(1) if found else str(e).splitlines()[0])[:300]))
table.group_by(col("b64")).select(col("b64"), *[make().alias("a%d" % n) for n, make in enumerate(aggregated)]) \
    .execute().print()

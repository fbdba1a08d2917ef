"""The Table API without a job: the SQL query each operation makes, shown by the schema it has (column names as
Flink's planner gives them: _c1 in select, EXPR$0 for an unnamed aggregate or window property, f0 for a
function's result, *ROWTIME* kept through projections), and the errors of misuse with Flink's messages. The
expected texts are PyFlink 2.3.0's for the same calls."""
import pytest

from pyflink_compat.util.exceptions import JavaStyleError

SOURCE = """CREATE TABLE src (id BIGINT, line STRING, x DOUBLE, ts TIMESTAMP(3),
                WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
            WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:1',
                  'format' = 'json')"""


@pytest.fixture
def table_env():
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql(SOURCE)
    return t_env


def _schema(table, capsys) -> str:
    table.print_schema()
    return capsys.readouterr().out


def _functions():
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.udf import udf, udtf

    @udf(result_type=DataTypes.BIGINT())
    def plus_one(i):
        return i + 1

    @udf(result_type='ROW<a BIGINT, b STRING>')
    def pair(row):
        return row[0] * 10, str(row[1])

    @udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
    def words(line):
        for word in line.split(' '):
            yield word, len(word)
    return plus_one, pair, words


def test_columns_are_named_as_flinks_planner_names_them(table_env, capsys):
    from pyflink_compat.table.expressions import col, concat, lit
    from pyflink_compat.table.window import Tumble
    plus_one, pair, words = _functions()
    t = table_env.from_path("src")
    assert _schema(t, capsys) == ("(\n  `id` BIGINT,\n  `line` STRING,\n  `x` DOUBLE,\n  `ts` TIMESTAMP(3) *ROWTIME*,\n"
                                  "  WATERMARK FOR `ts`: TIMESTAMP(3) AS `ts` - INTERVAL '1' SECOND\n)\n")
    assert _schema(t.select(col("id"), col("id") + 1, col("line").upper_case, col("x") * 2), capsys) == \
        "(\n  `id` BIGINT,\n  `_c1` BIGINT,\n  `_c2` STRING,\n  `_c3` DOUBLE\n)\n"
    assert _schema(t.map(pair), capsys) == "(\n  `a` BIGINT,\n  `b` STRING\n)\n"
    assert _schema(t.map(plus_one(col("id"))), capsys) == "(\n  `f0` BIGINT\n)\n"
    assert _schema(t.join_lateral(words(col("line"))), capsys) == (
        "(\n  `id` BIGINT,\n  `line` STRING,\n  `x` DOUBLE,\n  `ts` TIMESTAMP(3) *ROWTIME*,\n  `f0` STRING,\n"
        "  `f1` INT\n)\n")
    assert _schema(t.group_by(col("id") % 2).select(col("x").sum, col("id").count.alias("c")), capsys) == \
        "(\n  `EXPR$0` DOUBLE,\n  `c` BIGINT NOT NULL\n)\n"
    assert _schema(t.add_columns((col("id") * 3).alias("t3"), concat(col("line"), "!")), capsys) == (
        "(\n  `id` BIGINT,\n  `line` STRING,\n  `x` DOUBLE,\n  `ts` TIMESTAMP(3) *ROWTIME*,\n  `t3` BIGINT,\n"
        "  `_c5` STRING\n)\n")
    windowed = t.window(Tumble.over(lit(10).seconds).on(col("ts")).alias("w")).group_by(col("w"), col("line")) \
        .select(col("line"), col("w").start, col("w").end.alias("e"), col("x").sum.alias("s"))
    assert _schema(windowed, capsys) == \
        "(\n  `line` STRING,\n  `EXPR$0` TIMESTAMP(3),\n  `e` TIMESTAMP(3),\n  `s` DOUBLE\n)\n"
    assert _schema(t.union_all(t), capsys) == \
        "(\n  `id` BIGINT,\n  `line` STRING,\n  `x` DOUBLE,\n  `ts` TIMESTAMP(3) *ROWTIME*\n)\n"
    table_env.create_temporary_function("plus_one", plus_one)
    table_env.create_temporary_function("words", words)
    table_env.create_temporary_view("tv", t)
    query = table_env.sql_query("SELECT id, plus_one(id), w, n FROM tv, LATERAL TABLE(words(line)) AS T(w, n)")
    assert _schema(query, capsys) == "(\n  `id` BIGINT,\n  `EXPR$1` BIGINT,\n  `w` STRING,\n  `n` INT\n)\n"


def _validation_message(call) -> str:
    with pytest.raises(JavaStyleError) as raised:
        call()
    assert raised.value.java_class == "org.apache.flink.table.api.ValidationException"
    return raised.value.message


def test_misuse_fails_with_flinks_messages(table_env):
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Tumble
    t = table_env.from_path("src")
    fields = "input field list:[id, line, x, ts]."
    assert _validation_message(lambda: t.select(col("nope"))) == "Cannot resolve field [nope], " + fields
    assert _validation_message(lambda: t.where(col("nope") > 1)) == "Cannot resolve field [nope], " + fields
    assert _validation_message(lambda: t.rename_columns(col("nope").alias("b"))) == \
        "Cannot resolve field [nope], " + fields
    assert _validation_message(lambda: t.alias("a", "b", "c", "d", "e")) == \
        "Aliasing more fields than we actually have."
    assert _validation_message(lambda: t.add_columns(col("id").alias("line"))) == "Ambiguous column name: line"
    assert _validation_message(lambda: t.drop_columns(col("nope"))) == "Field nope does not exist in source table"
    assert _validation_message(lambda: t.union_all(t.select(col("id")))) == \
        "The union operation on two tables of different column sizes: 4 and 1 is not supported"
    assert _validation_message(lambda: t.group_by(col("line")).select(col("id"))) == \
        "Cannot resolve field [id], input field list:[line]."
    window = Tumble.over(lit(1).seconds).on(col("ts")).alias("w")
    assert _validation_message(lambda: t.window(window).group_by(col("line")).select(col("line"))) == \
        "GroupBy must contain exactly one window alias."
    not_time = Tumble.over(lit(1).seconds).on(col("x")).alias("w")
    assert _validation_message(lambda: t.window(not_time).group_by(col("w")).select(col("x").sum)) == \
        "A group window expects a time attribute for grouping in a stream environment."
    with pytest.raises(AttributeError, match=r"The current table has no column named 'nope', available columns: "
                                             r"\[id, line, x, ts\]"):
        t.nope


def test_python_functions_are_checked_as_pyflink_checks_them():
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.udf import udf
    with pytest.raises(TypeError, match="Invalid returnType: returnType should be DataType or str but is 5"):
        udf(lambda x: x, result_type=5)
    with pytest.raises(TypeError, match=r"Invalid function: not a function or callable \(__call__ is not "
                                        r"defined\): <class 'type'>"):
        udf(int, result_type=DataTypes.INT())
    with pytest.raises(ValueError, match="The func_type must be one of 'general, pandas', got vector."):
        udf(lambda x: x, result_type=DataTypes.INT(), func_type="vector")


def test_data_types_read_as_pyflink_shows_them():
    from pyflink_compat.table import DataTypes
    assert repr(DataTypes.BIGINT()) == "BigIntType(true)"
    assert repr(DataTypes.STRING().not_null()) == "VarCharType(2147483647, false)"
    assert DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.TIMESTAMP(3))]) \
        .sql() == "ROW<`a` INT, `b` TIMESTAMP(3)>"
    assert DataTypes.ARRAY(DataTypes.STRING()).sql() == "ARRAY<STRING>"


def test_a_changelog_row_stream_keeps_row_kinds_through_arrow():
    from pyflink_compat import codec
    from pyflink_compat.common.typeinfo import RowTypeInfo, Types
    from pyflink_compat.common.types import Row, RowKind
    changelog = RowTypeInfo([Types.STRING(), Types.LONG()], ["word", "n"])
    changelog._row_kinds = True
    rows = [Row.of_kind(RowKind.INSERT, "a", 1), Row.of_kind(RowKind.UPDATE_BEFORE, "a", 1),
            Row.of_kind(RowKind.UPDATE_AFTER, "a", 2), None, Row.of_kind(RowKind.DELETE, "a", 2)]
    back = codec.to_python(codec.from_python(rows, changelog), changelog)
    assert [None if row is None else (row.get_row_kind(), row.word, row.n) for row in back] == [
        (RowKind.INSERT, "a", 1), (RowKind.UPDATE_BEFORE, "a", 1), (RowKind.UPDATE_AFTER, "a", 2), None,
        (RowKind.DELETE, "a", 2)]
    plain = RowTypeInfo([Types.STRING(), Types.LONG()], ["word", "n"])
    assert [row.get_row_kind() for row in codec.to_python(codec.from_python(rows[:3], plain), plain)] == \
        [RowKind.INSERT] * 3


def test_tables_of_streams_take_columns_from_the_output_type(capsys):
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    values = env.from_collection(["a"], type_info=Types.STRING())
    rows = values.map(lambda v: (v, 1), output_type=Types.ROW_NAMED(["word", "size"], [Types.STRING(), Types.INT()]))
    pairs = values.map(lambda v: (v, 1), output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))
    assert _schema(t_env.from_data_stream(rows), capsys) == "(\n  `word` STRING,\n  `size` INT\n)\n"
    assert _schema(t_env.from_data_stream(pairs), capsys) == "(\n  `f0` STRING,\n  `f1` BIGINT NOT NULL\n)\n"
    assert _schema(t_env.from_data_stream(values), capsys) == "(\n  `f0` STRING\n)\n"
    table = t_env.from_data_stream(rows)
    assert _schema(t_env.sql_query("SELECT size FROM %s" % table), capsys) == "(\n  `size` INT\n)\n"
    env.close()


def test_a_schema_of_a_streams_table_declares_columns_time_attributes_and_a_watermark(capsys):
    """The schemas PyFlink 2.3 prints for from_data_stream(stream, schema), and its errors."""
    from pyflink_compat.common.time import Instant
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.table import DataTypes, Schema, StreamTableEnvironment
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env)
    stream = env.from_collection([(Instant.of_epoch_milli(1000), "Alice", 110.1)],
                                 type_info=Types.ROW([Types.INSTANT(), Types.STRING(), Types.FLOAT()]))
    # declared physical columns: the table shows those only, in the declared order, after the computed rowtime
    declared = t_env.from_data_stream(stream, Schema.new_builder()
                                      .column_by_expression("ts", "CAST(f0 AS TIMESTAMP(3))")
                                      .column("f1", DataTypes.STRING()).column("f2", DataTypes.FLOAT())
                                      .watermark("ts", "ts - INTERVAL '3' SECOND").build())
    assert _schema(declared, capsys) == "(\n  `ts` TIMESTAMP(3) *ROWTIME*,\n  `f1` STRING,\n  `f2` FLOAT\n)\n"
    assert _schema(declared.alias("ts", "name", "price"), capsys) == \
        "(\n  `ts` TIMESTAMP(3) *ROWTIME*,\n  `name` STRING,\n  `price` FLOAT\n)\n"
    assert _schema(t_env.from_data_stream(stream), capsys) == \
        "(\n  `f0` TIMESTAMP_LTZ(9),\n  `f1` STRING,\n  `f2` FLOAT\n)\n"
    # none declared: every field, then the metadata and computed columns and the watermark as given
    rowtime = Schema.new_builder().column_by_metadata("rt", "TIMESTAMP_LTZ(3)", "rowtime") \
        .watermark("rt", "SOURCE_WATERMARK()").build()
    assert _schema(t_env.from_data_stream(stream, rowtime), capsys) == (
        "(\n  `f0` TIMESTAMP_LTZ(9),\n  `f1` STRING,\n  `f2` FLOAT,\n"
        "  `rt` TIMESTAMP_LTZ(3) *ROWTIME* METADATA FROM 'rowtime',\n"
        "  WATERMARK FOR `rt`: TIMESTAMP_LTZ(3) AS SOURCE_WATERMARK()\n)\n")
    named = env.from_collection([(1, "a")], type_info=Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()]))
    t_env.create_temporary_view("v", named, Schema.new_builder().column_by_expression("id3", "id * 3").build())
    assert _schema(t_env.from_path("v"), capsys) == "(\n  `id` INT,\n  `name` STRING,\n  `id3` INT AS id * 3\n)\n"
    assert _schema(t_env.from_data_stream(named, Schema.new_builder().column_by_expression("id2", "id * 2")
                                          .column("name", "STRING").build()), capsys) == \
        "(\n  `id2` INT,\n  `name` STRING\n)\n"
    with pytest.raises(JavaStyleError, match=r"calling fromDataStream[.\s\S]*Unable to find a field named 'nope' in "
                                             r"the physical data type [.\s\S]* Currently available fields are: "
                                             r"\[id, name\]"):
        t_env.from_data_stream(named, Schema.new_builder().column("nope", "STRING").build())
    with pytest.raises(JavaStyleError, match="Invalid data type of time field for watermark definition. The field "
                                             "must be of type TIMESTAMP\\(p\\) or TIMESTAMP_LTZ\\(p\\), the "
                                             "supported precision 'p' is from 0 to 3, but the time field type is INT"):
        t_env.from_data_stream(named, Schema.new_builder().column("id", "INT").watermark("id", "id").build())
    with pytest.raises(UnsupportedFeatureError, match="Declaring column 'id' of a DataStream's table as BIGINT"):
        t_env.from_data_stream(named, Schema.new_builder().column("id", "BIGINT").build())
    env.close()


def test_a_table_descriptor_declares_the_table_create_table_would(table_env, capsys):
    from py4j.protocol import Py4JError
    from pyflink_compat.table import DataTypes, FormatDescriptor, Schema, TableDescriptor
    from pyflink_compat.table.expressions import col
    descriptor = TableDescriptor.for_connector("kafka").schema(
        Schema.new_builder().column("id", DataTypes.INT()).column("ts", "TIMESTAMP(3)")
        .column_by_expression("twice", col("id") * 2).watermark("ts", "ts - INTERVAL '2' SECOND").build()) \
        .option("topic", "t").option("properties.bootstrap.servers", "localhost:1") \
        .format(FormatDescriptor.for_format("json").option("ignore-parse-errors", "true").build()).build()
    assert descriptor.get_options() == {"connector": "kafka", "topic": "t", "properties.bootstrap.servers":
                                        "localhost:1", "format": "json", "json.ignore-parse-errors": "true"}
    table_env.create_temporary_table("described", descriptor)
    assert _schema(table_env.from_path("described"), capsys) == (
        "(\n  `id` INT,\n  `ts` TIMESTAMP(3) *ROWTIME*,\n  `twice` INT AS times(id, 2),\n"
        "  WATERMARK FOR `ts`: TIMESTAMP(3) AS ts - INTERVAL '2' SECOND\n)\n")
    keyed = TableDescriptor.for_connector("kafka").format("raw", _option("key.format")) \
        .format(FormatDescriptor.for_format("json").option("fail-on-missing-field", "true").build(),
                _option("value.format")).build()
    assert keyed.get_options() == {"connector": "kafka", "key.format": "raw", "value.format": "json",
                                   "value.json.fail-on-missing-field": "true"}
    with pytest.raises(Py4JError, match=r"Method option\(\[class java.lang.String, class java.lang.Boolean\]\) "
                                        r"does not exist"):
        FormatDescriptor.for_format("json").option("ignore-parse-errors", True)


def _option(key):
    from pyflink_compat.common.config_options import ConfigOptions
    return ConfigOptions.key(key).string_type().no_default_value()


DESCRIBED = """\
+------+-----------------------------+-------+---------+-----------------------------------+----------------------------+
| name |                        type |  null |     key |                            extras |                  watermark |
+------+-----------------------------+-------+---------+-----------------------------------+----------------------------+
|   id |                      BIGINT | FALSE | PRI(id) |                                   |                            |
| line |                      STRING |  TRUE |         |                                   |                            |
|   ts |      TIMESTAMP(3) *ROWTIME* |  TRUE |         |                                   | `ts` - INTERVAL '1' SECOND |
|   et |            TIMESTAMP_LTZ(3) |  TRUE |         | METADATA FROM 'timestamp' VIRTUAL |                            |
|   pt | TIMESTAMP_LTZ(3) *PROCTIME* | FALSE |         |                     AS PROCTIME() |                            |
|    d |                      BIGINT | FALSE |         |                       AS `id` * 2 |                            |
+------+-----------------------------+-------+---------+-----------------------------------+----------------------------+
6 rows in set
"""


def test_catalog_statements_show_describe_create_and_drop_as_flink(capsys, tmp_path, monkeypatch):
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    (tmp_path / "shared_functions.py").write_text(
        "from pyflink_compat.table import DataTypes\nfrom pyflink_compat.table.udf import udf\n"
        "plus1 = udf(lambda x: x + 1, result_type=DataTypes.BIGINT())\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("""CREATE TABLE src (id BIGINT NOT NULL, line STRING, ts TIMESTAMP(3),
        et TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL, pt AS PROCTIME(), d AS id * 2,
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, PRIMARY KEY (id) NOT ENFORCED)
        WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:1',
              'key.format' = 'json', 'value.format' = 'json')""")
    t_env.execute_sql("CREATE TABLE b (x INT) WITH ('connector' = 'blackhole')")
    t_env.execute_sql("CREATE VIEW v AS SELECT id FROM src")
    capsys.readouterr()
    t_env.execute_sql("SHOW TABLES").print()
    t_env.execute_sql("DESCRIBE src").print()
    assert capsys.readouterr().out == ("+------------+\n| table name |\n+------------+\n|          b |\n"
                                       "|        src |\n|          v |\n+------------+\n3 rows in set\n" + DESCRIBED)
    t_env.execute_sql("CREATE TEMPORARY FUNCTION plus1 AS 'shared_functions.plus1' LANGUAGE PYTHON")
    assert (t_env.list_tables(), t_env.list_views(), t_env.list_user_defined_functions()) == \
        (["b", "src", "v"], ["v"], ["plus1"])
    t_env.execute_sql("DROP TABLE b")
    t_env.execute_sql("DROP VIEW v")
    t_env.execute_sql("DROP TABLE IF EXISTS nope")
    assert t_env.list_tables() == ["src"]
    with pytest.raises(JavaStyleError, match="Table with identifier 'default_catalog.default_database.nope' does "
                                             "not exist."):
        t_env.execute_sql("DROP TABLE nope")


def test_the_catalog_holds_the_tables_created_without_temporary_and_shows_itself_as_flinks_default(capsys):
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    from pyflink_compat.table.catalog import ObjectPath
    from pyflink_compat.util.exceptions import CatalogException, DatabaseNotExistException
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("CREATE TABLE perm (a INT) WITH ('connector' = 'datagen')")
    t_env.execute_sql("CREATE TEMPORARY TABLE temp (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')")
    t_env.execute_sql("CREATE VIEW pv AS SELECT * FROM perm")
    t_env.execute_sql("CREATE TEMPORARY VIEW tv AS SELECT * FROM temp")
    assert (t_env.get_current_catalog(), t_env.get_current_database()) == ("default_catalog", "default_database")
    assert (t_env.list_catalogs(), t_env.list_databases()) == (["default_catalog"], ["default_database"])
    assert (t_env.list_tables(), t_env.list_temporary_tables(), t_env.list_temporary_views()) == \
        (["perm", "pv", "temp", "tv"], ["temp", "tv"], ["tv"])
    catalog = t_env.get_catalog(t_env.get_current_catalog())
    assert t_env.get_catalog("other") is None
    assert (catalog.get_default_database(), catalog.list_tables("default_database"),
            catalog.list_views("default_database")) == ("default_database", ["perm", "pv"], ["pv"])
    assert [catalog.table_exists(ObjectPath("default_database", name)) for name in ("perm", "pv", "temp", "nope")] \
        == [True, True, False, False]
    assert catalog.table_exists(ObjectPath.from_string("default_database.perm"))
    assert (catalog.database_exists("default_database"), catalog.database_exists("x")) == (True, False)
    with pytest.raises(DatabaseNotExistException, match="Database x does not exist in Catalog default_catalog."):
        catalog.list_tables("x")
    with pytest.raises(JavaStyleError, match="Cannot get split 'ab' to get databaseName and objectName"):
        ObjectPath.from_string("ab")
    assert str(ObjectPath("d", "t")) == "d.t" and ObjectPath("d", "t") == ObjectPath.from_string("d.t")
    assert t_env.drop_temporary_table("perm") is False and t_env.drop_temporary_table("temp") is True
    t_env.use_catalog("default_catalog")
    t_env.execute_sql("USE default_database")
    with pytest.raises(CatalogException, match=r"A catalog with name \[x\] does not exist."):
        t_env.execute_sql("USE CATALOG x")
    with pytest.raises(CatalogException, match=r"A database with name \[x\] does not exist in the catalog: "
                                               r"\[default_catalog\]."):
        t_env.use_database("x")
    capsys.readouterr()
    for statement in ("SHOW CATALOGS", "SHOW CURRENT DATABASE", "SHOW TABLES LIKE 'p%'"):
        t_env.execute_sql(statement).print()
    assert capsys.readouterr().out == (
        "+-----------------+\n|    catalog name |\n+-----------------+\n| default_catalog |\n+-----------------+\n"
        "1 row in set\n+-----------------------+\n| current database name |\n+-----------------------+\n"
        "|      default_database |\n+-----------------------+\n1 row in set\n"
        "+------------+\n| table name |\n+------------+\n|       perm |\n|         pv |\n+------------+\n"
        "2 rows in set\n")


def test_aggregate_functions_are_checked_as_pyflink_checks_them():
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.udf import AggregateFunction, udaf

    class Sum(AggregateFunction):
        def create_accumulator(self):
            return [0]

        def accumulate(self, accumulator, value):
            accumulator[0] += value

        def get_value(self, accumulator):
            return accumulator[0]

    with pytest.raises(RuntimeError, match="Method get_accumulator_type is not implemented"):
        udaf(Sum())
    with pytest.raises(TypeError, match="result_type and accumulator_type should be DataType or str at the same "
                                        "time."):
        udaf(Sum(), result_type=DataTypes.BIGINT(), accumulator_type="ARRAY<BIGINT>")
    with pytest.raises(ValueError, match="The func_type must be one of 'general, pandas', got x."):
        udaf(Sum(), result_type="BIGINT", accumulator_type="ARRAY<BIGINT>", func_type="x")
    aggregate = udaf(Sum(), result_type="BIGINT", accumulator_type="ARRAY<BIGINT>")._aggregate()
    accumulator = aggregate.initial()
    for value in (1, 2, 3):
        accumulator = aggregate.accumulate(accumulator, (value,))
    assert aggregate.result(accumulator) == 6


def test_secrets_of_declared_tables_are_masked_in_their_texts(table_env):
    from pyflink_compat.table import DataTypes, Schema, TableDescriptor
    jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required password='hunter2';"
    descriptor = TableDescriptor.for_connector("kafka").schema(Schema.new_builder().column("a", DataTypes.STRING())
                                                               .build()) \
        .option("topic", "t").option("properties.sasl.jaas.config", jaas).format("raw").build()
    assert "hunter2" not in str(descriptor) and "hunter2" not in repr(descriptor)
    table_env.create_temporary_table("secret", descriptor)
    table = table_env._catalog()["secret"]
    assert table.options["properties.sasl.jaas.config"] == jaas
    assert "hunter2" not in repr(table)


def test_functions_called_by_name_are_the_registered_or_built_in_ones(table_env, capsys):
    from pyflink_compat.table.expressions import call, col, lit
    plus_one, _, words = _functions()
    table_env.create_temporary_function("plus_one", plus_one)
    table_env.create_temporary_system_function("words", words)
    t = table_env.from_path("src")
    assert _schema(t.select(call("plus_one", col("id")).alias("n"), call("upper", col("line")),
                            call("CONCAT", col("line"), lit("!"))), capsys) == \
        "(\n  `n` BIGINT,\n  `_c1` STRING,\n  `_c2` STRING\n)\n"
    assert _schema(t.join_lateral(call("words", col("line")).alias("word", "size")).select(col("word"), col("size")),
                   capsys) == "(\n  `word` STRING,\n  `size` INT\n)\n"
    assert _validation_message(lambda: t.select(call("no_such_function", col("id")))) == \
        "Undefined function: no_such_function"
    assert "Invalid number of arguments to function 'MOD'" in _validation_message(
        lambda: t.select(call("mod", col("id"))))


def test_a_batch_querys_result_is_the_rows_its_changelog_leaves_in_the_order_their_keys_came():
    from pyflink_compat.table.table_result import QueryRun
    changes = [("+I", ("a", 1)), ("+I", ("b", [1])), ("-U", ("a", 1)), ("+U", ("a", 2)), ("+I", ("c", 1)),
               ("-D", ("c", 1)), ("-U", ("b", [1])), ("+U", ("b", [1, 2])), ("+I", ("d", None))]
    closed = []

    class Changes:
        def __init__(self):
            self.items = iter(changes)

        def __iter__(self):
            return self.items

        def close(self):
            closed.append(True)
    batch = QueryRun(Changes(), ["k", "v"], [None, None], streaming=False)
    assert list(batch.changes()) == [("+I", ("a", 2)), ("+I", ("b", [1, 2])), ("+I", ("d", None))]
    assert closed
    assert list(QueryRun(iter(changes), ["k", "v"], [None, None], streaming=True).changes()) == changes


def _top_two():
    from pyflink_compat.common.types import Row
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.udf import TableAggregateFunction, udtaf

    class TopTwo(TableAggregateFunction):
        def create_accumulator(self):
            return [None, None]

        def accumulate(self, accumulator, value):
            if accumulator[0] is None or value > accumulator[0]:
                accumulator[1], accumulator[0] = accumulator[0], value
            elif accumulator[1] is None or value > accumulator[1]:
                accumulator[1] = value

        def emit_value(self, accumulator):
            for value in accumulator:
                if value is not None:
                    yield Row(value, value * 10)

    return udtaf(TopTwo(), result_type="ROW<a BIGINT, b BIGINT>", accumulator_type="ARRAY<BIGINT>")


def test_flat_aggregate_columns_and_misuse_as_flinks(table_env, capsys):
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.expressions import col
    from pyflink_compat.table.udf import udtaf
    top_two = _top_two()
    t = table_env.from_path("src")
    assert _schema(t.group_by(col("line")).flat_aggregate(top_two(col("id"))).select(col("*")), capsys) == \
        "(\n  `line` STRING,\n  `a` BIGINT,\n  `b` BIGINT\n)\n"
    assert _schema(t.group_by(col("line")).flat_aggregate(top_two(col("id")).alias("x", "y"))
                   .select(col("y"), col("x") + 1), capsys) == "(\n  `y` BIGINT,\n  `_c1` BIGINT\n)\n"
    assert _schema(t.flat_aggregate(top_two(col("id"))).select(col("*")), capsys) == \
        "(\n  `a` BIGINT,\n  `b` BIGINT\n)\n"
    # a result that is no ROW is one column, f0; the table aggregate's tables are not listed
    assert _schema(t.flat_aggregate(udtaf(top_two._func, result_type=DataTypes.BIGINT(),
                                          accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))(col("id"))).select(col("*")), capsys) \
        == "(\n  `f0` BIGINT\n)\n"
    assert table_env.list_tables() == ["src"]
    with pytest.raises(JavaStyleError, match="A flatAggregate only accepts an expression which defines a table "
                                             "aggregate function that might be followed by some alias."):
        t.group_by(col("line")).flat_aggregate(col("id").sum).select(col("*"))
    with pytest.raises(JavaStyleError, match="List of column aliases must have same degree as table; the returned "
                                             "table of function 'TopTwo' has 2 columns, whereas alias list has 1 "
                                             "columns"):
        t.group_by(col("line")).flat_aggregate(top_two(col("id")).alias("x")).select(col("*"))
    with pytest.raises(JavaStyleError, match=r"Cannot resolve field \[id\], input field list:\[line, a, b\]."):
        t.group_by(col("line")).flat_aggregate(top_two(col("id"))).select(col("id"))
    with pytest.raises(ValueError, match="The func_type must be 'general', got pandas."):
        udtaf(top_two._func, result_type="BIGINT", accumulator_type="ARRAY<BIGINT>", func_type="pandas")


def test_a_table_aggregate_takes_back_a_keys_rows_when_it_emits_new_ones():
    """GroupTableAggregate's changelog per bundle: the rows of before as -D, then the rows of now as +I."""
    from pyflink_compat.table.sql.aggregates import TableAggregate
    from pyflink_compat.table.sql.catalog import SqlType

    class Timers:
        def register_processing_time_timer(self, at):
            pass

        def register_event_time_timer(self, at):
            pass

        def current_processing_time(self):
            return 0

    class Context:
        def timer_service(self):
            return Timers()

        def get_current_key(self):
            return ("k",)

    class State:
        def __init__(self):
            self.held = None

        def value(self):
            return self.held

        def update(self, value):
            self.held = value

        def clear(self):
            self.held = None

    class RuntimeContext:
        def get_state(self, descriptor):
            return State()

    operator = TableAggregate(_top_two()._aggregate(), [SqlType("STRING"), SqlType("BIGINT"), SqlType("BIGINT")])
    operator.open(RuntimeContext())
    context = Context()
    for bundle, expected in (([3, 1], [("+I", ["k", 3, 30]), ("+I", ["k", 1, 10])]),
                             ([2], [("-D", ["k", 3, 30]), ("-D", ["k", 1, 10]), ("+I", ["k", 3, 30]),
                                    ("+I", ["k", 2, 20])])):
        for value in bundle:
            operator.process_element((("k",), ((value,),)), context)
        assert list(operator.on_timer(0, context)) == expected
    assert list(operator.on_timer(0, context)) == []        # nothing new since: nothing emitted


def test_an_insert_only_changelog_stream_fails_on_another_row_kind_as_flinks_input_conversion():
    from pyflink_compat.common.types import Row, RowKind
    from pyflink_compat.table.sql.bridge import rows_of
    from pyflink_compat.util.exceptions import JavaException
    to_row = rows_of("row", insert_only=True)
    assert tuple(to_row(Row("a", 1))) == ("a", 1)
    with pytest.raises(JavaException, match="org.apache.flink.util.FlinkRuntimeException: Error during input "
                                            "conversion. Conversion expects insert-only records but DataStream API "
                                            "record contains: UPDATE_AFTER"):
        to_row(Row.of_kind(RowKind.UPDATE_AFTER, "a", 2))
    assert tuple(rows_of("row")(Row.of_kind(RowKind.UPDATE_AFTER, "a", 2))) == ("a", 2)

"""Table.get_schema() / get_resolved_schema() and TableSchema probes, one result per line; run under real PyFlink
and under pyflink-compat (``--compat``) and compared by test_table_schema.py."""
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.table_schema import TableSchema


def probe(label, thunk):
    try:
        value = thunk()
    except Exception as e:                       # the error's first line, without py4j's object ids
        value = "ERROR %s" % str(e).splitlines()[1 if str(e).startswith("An error occurred") else 0]
    print("%s: %r" % (label, value))


t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""CREATE TABLE src (id INT NOT NULL, name VARCHAR(10), price DECIMAL(10, 2), ts TIMESTAMP(3),
  tags ARRAY<STRING>, m MAP<STRING, BIGINT>, r ROW<a INT, b STRING>, total AS price * 2,
  part INT METADATA FROM 'partition' VIRTUAL, stamp TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9', 'format' = 'json')""")
t_env.execute_sql("CREATE TABLE plain (a BIGINT, b STRING, c DOUBLE) WITH ('connector' = 'datagen')")
src = t_env.from_path("src")
schema = src.get_schema()
probe("str", lambda: str(schema))
probe("names", schema.get_field_names)
probe("count", schema.get_field_count)
probe("name 1", lambda: schema.get_field_name(1))
probe("name 99", lambda: schema.get_field_name(99))
probe("types", schema.get_field_data_types)
probe("type price", lambda: schema.get_field_data_type("price"))
probe("type 0", lambda: schema.get_field_data_type(0))
probe("type nope", lambda: schema.get_field_data_type("nope"))
probe("type 1.5", lambda: schema.get_field_data_type(1.5))
probe("row type", schema.to_row_data_type)
probe("equal", lambda: schema == src.get_schema())
probe("copy equal", lambda: schema.copy() == schema)
probe("projection", lambda: str(src.select(col("id"), (col("price") + 1).alias("p"), col("ts")).get_schema()))
probe("group by", lambda: str(t_env.from_path("plain").group_by(col("b")).select(col("b"), col("a").sum.alias("s"),
                                                                               col("a").count.alias("n")).get_schema()))
probe("sql query", lambda: str(t_env.sql_query("SELECT b, c * 2 AS d FROM plain WHERE a > 1").get_schema()))
probe("plain names", lambda: t_env.from_path("plain").get_schema().get_field_names())
resolved = src.get_resolved_schema()
probe("resolved str", lambda: str(resolved))
probe("resolved names", resolved.get_column_names)
probe("resolved count", resolved.get_column_count)
probe("resolved types", resolved.get_column_data_types)
probe("physical", resolved.to_physical_row_data_type)
probe("source row", resolved.to_source_row_data_type)
probe("sink row", resolved.to_sink_row_data_type)
probe("view resolved", lambda: str(t_env.sql_query("SELECT a, b FROM plain").get_resolved_schema()))
built = TableSchema.builder().field("a", DataTypes.INT()).field("b", DataTypes.STRING().not_null()).build()
probe("built", lambda: str(built))
probe("built row", built.to_row_data_type)
probe("made", lambda: str(TableSchema(["x", "y"], [DataTypes.BIGINT(), DataTypes.TIMESTAMP(3)])))
probe("made equal", lambda: TableSchema(["x"], [DataTypes.INT()]) == TableSchema(["x"], [DataTypes.INT()]))
probe("duplicate", lambda: TableSchema.builder().field("a", DataTypes.INT()).field("a", DataTypes.STRING()).build())

"""Flink SQL metadata columns of Kafka records: the record timestamp as a TIMESTAMP_LTZ(3) rowtime with a
WATERMARK, the partition, offset and topic (VIRTUAL), computed columns of them (CAST to TIMESTAMP(3) in the
session time zone, TO_TIMESTAMP_LTZ of a number); printed (an instant as ...Z), written as JSON to a Kafka table
whose 'timestamp' metadata column sets each record's timestamp, shown as tableaus (a group window over the
TIMESTAMP_LTZ rowtime); print_schema() of the table and of a query of it. Then the same topic as a table a
TableDescriptor declares (Schema with metadata, computed columns given as SQL text and as an expression, a
watermark; a FormatDescriptor's options), inserted into a print table a TableDescriptor declares. Last, the
same queries in a session time zone other than the machine's ('table.local-time-zone' = 'Asia/Kolkata').

Usage: sql_metadata.py BOOTSTRAP EVENTS_TOPIC OUT_TOPIC
"""
import sys

from pyflink.table import DataTypes, EnvironmentSettings, FormatDescriptor, Schema, TableDescriptor, TableEnvironment
from pyflink.table.expressions import col

brokers, events_topic, out_topic = sys.argv[1:4]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""
    CREATE TABLE events (
        id INT,
        usr STRING,
        millis BIGINT,
        event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
        `partition` INT METADATA VIRTUAL,
        record_offset BIGINT METADATA FROM 'offset' VIRTUAL,
        source_topic STRING METADATA FROM 'topic' VIRTUAL,
        local_time AS CAST(event_time AS TIMESTAMP(3)),
        given_time AS TO_TIMESTAMP_LTZ(millis, 3),
        WATERMARK FOR event_time AS event_time - INTERVAL '1' SECOND
    ) WITH (
        'connector' = 'kafka',
        'topic' = '%s',
        'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset',
        'scan.bounded.mode' = 'latest-offset',
        'format' = 'json'
    )""" % (events_topic, brokers))
t_env.from_path("events").print_schema()
t_env.sql_query("SELECT * FROM events").print_schema()
t_env.execute_sql("CREATE TABLE shown (id INT, event_time TIMESTAMP_LTZ(3), p INT, off BIGINT, same_topic BOOLEAN, "
                  "local_time TIMESTAMP(3), given_time TIMESTAMP_LTZ(3)) "
                  "WITH ('connector' = 'print', 'print-identifier' = 'meta')")
t_env.execute_sql("INSERT INTO shown SELECT id, event_time, `partition`, record_offset, source_topic = '%s', "
                  "local_time, given_time FROM events" % events_topic).wait()
t_env.execute_sql("""
    CREATE TABLE stamped (id INT, event_time TIMESTAMP_LTZ(3), usr STRING,
                          written TIMESTAMP(3) METADATA FROM 'timestamp') WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')"""
                  % (out_topic, brokers))
t_env.execute_sql("INSERT INTO stamped SELECT id, event_time, usr, local_time + INTERVAL '1' SECOND "
                  "FROM events").wait()
t_env.execute_sql("SELECT id, event_time, local_time, record_offset FROM events").print()
t_env.execute_sql("SELECT TUMBLE_START(event_time, INTERVAL '10' SECOND) AS window_start, COUNT(*) AS n, "
                  "MAX(given_time) AS latest FROM events GROUP BY TUMBLE(event_time, INTERVAL '10' SECOND)").print()

t_env.create_temporary_table("described", TableDescriptor.for_connector("kafka")
                             .schema(Schema.new_builder()
                                     .column("id", DataTypes.INT())
                                     .column("usr", "STRING")
                                     .column_by_metadata("event_time", DataTypes.TIMESTAMP_LTZ(3), "timestamp")
                                     .column_by_metadata("partition", DataTypes.INT(), is_virtual=True)
                                     .column_by_expression("doubled", col("id") * 2)
                                     .column_by_expression("later", "event_time + INTERVAL '1' MINUTE")
                                     .watermark("event_time", "event_time - INTERVAL '5' SECOND")
                                     .build())
                             .option("topic", events_topic).option("properties.bootstrap.servers", brokers)
                             .option("scan.startup.mode", "earliest-offset")
                             .option("scan.bounded.mode", "latest-offset")
                             .format(FormatDescriptor.for_format("json").option("ignore-parse-errors", "true").build())
                             .build())
described = t_env.from_path("described")
described.print_schema()
described.select(col("id"), col("usr"), col("doubled"), col("later")).execute_insert(
    TableDescriptor.for_connector("print")
    .schema(Schema.new_builder().column("id", DataTypes.INT()).column("usr", DataTypes.STRING())
            .column("doubled", DataTypes.INT()).column("later", DataTypes.TIMESTAMP_LTZ(3)).build())
    .option("print-identifier", "described").build()).wait()

# The session time zone set to another zone than the machine's (a half-hour offset): TIMESTAMP_LTZ values cast,
# formatted and shown in it, FROM_UNIXTIME / UNIX_TIMESTAMP in it, hour windows of the rowtime aligned to it
t_env.get_config().set_local_timezone("Asia/Kolkata")
t_env.execute_sql("CREATE TABLE zoned (id INT, event_time TIMESTAMP_LTZ(3), local_time TIMESTAMP(3), d STRING, "
                  "h BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'zoned')")
t_env.execute_sql("INSERT INTO zoned SELECT id, event_time, local_time, DATE_FORMAT(event_time, 'yyyy-MM-dd HH:mm'), "
                  "HOUR(event_time) FROM events").wait()
t_env.execute_sql("SELECT id, event_time, given_time, CAST(event_time AS STRING) AS s, FROM_UNIXTIME(millis / 1000) "
                  "AS fu, UNIX_TIMESTAMP('2024-01-02 03:04:05') AS ut FROM events").print()
t_env.execute_sql("SELECT TUMBLE_START(event_time, INTERVAL '1' HOUR) AS ws, COUNT(*) AS n FROM events "
                  "GROUP BY TUMBLE(event_time, INTERVAL '1' HOUR)").print()

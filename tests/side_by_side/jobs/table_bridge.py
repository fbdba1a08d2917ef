"""DataStreams and tables in one job (StreamTableEnvironment over the job's StreamExecutionEnvironment):

1. a Kafka DataStream of lines is split into ROW_NAMED words: from_data_stream makes it a table, and a tuple
   stream and a stream of strings become tables of f0, f1 (print_schema: a tuple's primitive fields NOT NULL);
2. a Table API query of the words table (named in SQL by f"{table}") is inserted into a print table: a job of
   its own, as execute_insert submits it;
3. create_temporary_view of the words stream; a GROUP BY of it in SQL comes back as a DataStream by
   to_changelog_stream (+I, -U, +U) and is printed; a filter of it comes back by to_data_stream (Rows named as
   its columns) and goes on in the DataStream API (key_by, reduce) into print and Kafka; env.execute() runs it;
4. from_data_stream with a Schema: the records' timestamps as a 'rowtime' metadata column with the stream's own
   watermarks (SOURCE_WATERMARK()) under a Table API Tumble window; and, as Flink's windowing examples write it,
   an Instant field cast to a TIMESTAMP(3) computed column with a watermark of its own, the declared columns
   only, aliased, in window TVFs (FLOAT and DOUBLE sums of a HOP window, added up per slice as Flink does), an
   over window (Over.partition_by(...).order_by(...).preceding(row_interval(1))) and a Slide window;
   all back by to_data_stream in the same job;
5. from_changelog_stream of Rows whose RowKinds are +I, -U, +U and -D (the row kinds of Flink's documentation
   example): a GROUP BY of it as a tableau (a key whose rows were all taken back is deleted, then inserted again),
   a filter and projection of its changes, a GROUP BY into a print table, and its changes projected back by
   to_changelog_stream into the DataStream job; an insert-only changelog stream (ChangelogMode.insert_only()) read
   back by to_data_stream; an upsert changelog stream (ChangelogMode.upsert(), a primary key) normalized per key.

Usage: table_bridge.py BOOTSTRAP LINES_TOPIC OUT_TOPIC
"""
import sys

from pyflink.common import Row, RowKind, Types, WatermarkStrategy
from pyflink.common.time import Instant
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.table import ChangelogMode, DataTypes, Schema, StreamTableEnvironment
from pyflink.table.expressions import col, lit, row_interval
from pyflink.table.window import Over, Slide, Tumble

brokers, lines_topic, out_topic = sys.argv[1:4]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

source = KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(lines_topic) \
    .set_starting_offsets(KafkaOffsetsInitializer.earliest()).set_bounded(KafkaOffsetsInitializer.latest()) \
    .set_value_only_deserializer(SimpleStringSchema()).build()
lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "lines")
words = lines.flat_map(lambda line: [Row(word.lower(), len(word)) for word in line.split()],
                       output_type=Types.ROW_NAMED(["word", "size"], [Types.STRING(), Types.INT()]))

# 1. tables of streams
table = t_env.from_data_stream(words)
table.print_schema()
t_env.from_data_stream(lines.map(lambda line: (line, len(line)), output_type=Types.TUPLE([Types.STRING(),
                                                                                          Types.LONG()]))) \
    .print_schema()
t_env.from_data_stream(lines).print_schema()

# 2. a job of its own from a table of a stream
t_env.execute_sql("CREATE TABLE shown (word STRING, doubled INT) WITH ('connector' = 'print', "
                  "'print-identifier' = 'shown')")
t_env.sql_query("SELECT word, size * 2 FROM %s WHERE size > 3" % table).execute_insert("shown").wait()

# 3. tables back to streams, run by env.execute()
t_env.create_temporary_view("words", words)
counts = t_env.sql_query("SELECT word, COUNT(*) AS n, SUM(size) AS total FROM words GROUP BY word")
t_env.to_changelog_stream(counts).print("changes")
short = t_env.from_path("words").where(col("size") <= 3).select(col("word"), col("size"))
rows = t_env.to_data_stream(short)
rows.map(lambda row: "%s:%d" % (row.word, row.size), output_type=Types.STRING()).print("short")
totals = rows.map(lambda row: (row.word, row.size), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda pair: pair[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))
totals.print("totals")
totals.map(lambda pair: "%s=%d" % pair, output_type=Types.STRING()).sink_to(
    KafkaSink.builder().set_bootstrap_servers(brokers).set_record_serializer(
        KafkaRecordSerializationSchema.builder().set_topic(out_topic)
        .set_value_serialization_schema(SimpleStringSchema()).build()).build())

# 4. tables of streams with a schema: time attributes
timed = lines.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps()) \
    .flat_map(lambda line: [Row(word.lower(), len(word)) for word in line.split()],
              output_type=Types.ROW_NAMED(["word", "size"], [Types.STRING(), Types.INT()]))
by_time = t_env.from_data_stream(timed, Schema.new_builder()
                                 .column_by_metadata("rowtime", "TIMESTAMP_LTZ(3)")
                                 .watermark("rowtime", "SOURCE_WATERMARK()").build())
by_time.print_schema()
per_window = by_time.window(Tumble.over(lit(2).seconds).on(col("rowtime")).alias("w")) \
    .group_by(col("w"), col("size")) \
    .select(col("size"), col("word").count.alias("n"), col("w").start, col("w").end)
t_env.to_data_stream(per_window).print("per-window")
instants = lines.map(lambda line: Row(Instant.of_epoch_milli(1000 * len(line)), line, len(line) / 7.0),
                     output_type=Types.ROW([Types.INSTANT(), Types.STRING(), Types.FLOAT()]))
by_length = t_env.from_data_stream(instants, Schema.new_builder()
                                   .column_by_expression("ts", "CAST(f0 AS TIMESTAMP(3))")
                                   .column("f1", DataTypes.STRING())
                                   .column("f2", DataTypes.FLOAT())
                                   .watermark("ts", "ts - INTERVAL '30' SECOND").build()).alias("ts", "line", "seventh")
by_length.print_schema()
t_env.create_temporary_view("by_length", by_length)
t_env.to_data_stream(t_env.sql_query(
    "SELECT window_start, window_end, COUNT(*) AS n, SUM(seventh) AS sevenths, MAX(line) AS last_line "
    "FROM TABLE(TUMBLE(TABLE by_length, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end")) \
    .print("by-length")
# floating-point sums of a hopping window: Flink adds a window's rows per slice, then the slices in order
t_env.to_data_stream(t_env.sql_query(
    "SELECT window_start, window_end, SUM(seventh) AS sevenths, SUM(CAST(seventh AS DOUBLE) * 3) AS doubles "
    "FROM TABLE(HOP(TABLE by_length, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND)) "
    "GROUP BY window_start, window_end")).print("sliding")
readings = env.from_collection([(Instant.of_epoch_milli(4200), "x", 30.2), (Instant.of_epoch_milli(2500), "x", 53.1),
                                 (Instant.of_epoch_milli(3700), "x", 3.1), (Instant.of_epoch_milli(1100), "y", 0.1),
                                 (Instant.of_epoch_milli(2900), "y", 0.7), (Instant.of_epoch_milli(2100), "y", 0.2)],
                                type_info=Types.ROW([Types.INSTANT(), Types.STRING(), Types.FLOAT()]))
readings_table = t_env.from_data_stream(
    readings, Schema.new_builder().column_by_expression("ts", "CAST(f0 AS TIMESTAMP(3))")
    .column("f1", DataTypes.STRING()).column("f2", DataTypes.FLOAT())
    .watermark("ts", "ts - INTERVAL '5' SECOND").build()).alias("ts", "name", "reading")
# an over window of the Table API: the row and the one before it, per name
readings_table.over_window(Over.partition_by(col("name")).order_by(col("ts")).preceding(row_interval(1)).alias("o")) \
    .select(col("name"), col("ts"), col("reading").max.over(col("o")), col("reading").sum.over(col("o"))) \
    .execute().print()
readings_table \
    .window(Slide.over(lit(4).seconds).every(lit(1).seconds).on(col("ts")).alias("w")) \
    .group_by(col("name"), col("w")) \
    .select(col("name"), col("reading").sum, col("reading").cast(DataTypes.DOUBLE()).sum, col("w").end) \
    .execute().print()
changelog = env.from_collection(
    [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
     Row.of_kind(RowKind.UPDATE_BEFORE, "Alice", 12), Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100),
     Row.of_kind(RowKind.DELETE, "Bob", 5), Row.of_kind(RowKind.INSERT, "Carl", 7)],
    type_info=Types.ROW_NAMED(["name", "score"], [Types.STRING(), Types.INT()]))
scores = t_env.from_changelog_stream(changelog)
scores.print_schema()
t_env.create_temporary_view("scores", scores)
t_env.execute_sql("SELECT name, SUM(score) AS total FROM scores GROUP BY name").print()
t_env.execute_sql("SELECT UPPER(name) AS shout, score * 2 AS doubled FROM scores WHERE score > 6").print()
t_env.execute_sql("CREATE TABLE score_counts (name STRING, n BIGINT) WITH ('connector' = 'print', "
                  "'print-identifier' = 'score-counts')")
t_env.execute_sql("INSERT INTO score_counts SELECT name, COUNT(*) FROM scores GROUP BY name").wait()
t_env.to_changelog_stream(t_env.sql_query("SELECT name, score + 1 AS next_score FROM scores")).print("changes")
# an insert-only changelog stream (the mode counts with a schema only): an append-only table, which
# to_data_stream takes
arrivals = t_env.from_changelog_stream(
    env.from_collection([Row("Dora", 3), Row("Eve", 9), Row.of_kind(RowKind.INSERT, "Finn", 11)],
                        type_info=Types.ROW_NAMED(["name", "score"], [Types.STRING(), Types.INT()])),
    Schema.new_builder().column("name", DataTypes.STRING()).column("score", DataTypes.INT()).build(),
    ChangelogMode.insert_only())
arrivals.print_schema()
t_env.to_data_stream(arrivals.where(col("score") > 4).select(col("name"), col("score") * 10)).print("arrivals")
# an upsert changelog stream keyed by the schema's primary key (+I / +U a key's row, -D its deletion, a repeated
# row nothing): normalized into -U / +U, filtered inside the normalization, read back by to_changelog_stream
upserts = t_env.from_changelog_stream(
    env.from_collection([Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
                         Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.DELETE, "Bob", 5),
                         Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.UPDATE_AFTER, "Bob", 8),
                         Row.of_kind(RowKind.INSERT, "Carl", 7), Row.of_kind(RowKind.UPDATE_AFTER, "Carl", 2)],
                        type_info=Types.ROW_NAMED(["name", "score"], [Types.STRING(), Types.INT()])),
    Schema.new_builder().primary_key("name").build(), ChangelogMode.upsert())
upserts.print_schema()
t_env.to_changelog_stream(upserts.where(col("score") > 6)).print("upserts")
env.execute("table bridge")

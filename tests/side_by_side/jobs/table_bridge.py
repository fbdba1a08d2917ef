"""DataStreams and tables in one job (StreamTableEnvironment over the job's StreamExecutionEnvironment):

1. a Kafka DataStream of lines is split into ROW_NAMED words: from_data_stream makes it a table, and a tuple
   stream and a stream of strings become tables of f0, f1 (print_schema: a tuple's primitive fields NOT NULL);
2. a Table API query of the words table (named in SQL by f"{table}") is inserted into a print table: a job of
   its own, as execute_insert submits it;
3. create_temporary_view of the words stream; a GROUP BY of it in SQL comes back as a DataStream by
   to_changelog_stream (+I, -U, +U) and is printed; a filter of it comes back by to_data_stream (Rows named as
   its columns) and goes on in the DataStream API (key_by, reduce) into print and Kafka; env.execute() runs it.

Usage: table_bridge.py BOOTSTRAP LINES_TOPIC OUT_TOPIC
"""
import sys

from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col

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
env.execute("table bridge")

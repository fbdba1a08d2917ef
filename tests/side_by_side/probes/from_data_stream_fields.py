"""StreamTableEnvironment.from_data_stream / create_temporary_view with field expressions, as Flink maps them:
a tuple's or Row's fields renamed in order, or (when an expression names one of them) picked, reordered and
aliased by name; ``col('t').rowtime`` (the record's timestamp, TIMESTAMP(3) *ROWTIME*, replacing a BIGINT field
or added) and ``col('p').proctime``; an atomic stream's one field; and the ValidationExceptions of the mistakes.
Each case prints the schema and the rows (or the error); run under real PyFlink and under pyflink-compat
(``--compat``) and compared by test_from_data_stream_fields.py."""
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col, lit
from pyflink.table.window import Tumble

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t_env.get_config().set("table.local-time-zone", "UTC")


class ThirdField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


rows = env.from_collection([("ann", 5, 1000), ("bob", 7, 2500), ("ann", 1, 12000)],
                           type_info=Types.ROW_NAMED(["name", "amount", "ts"],
                                                     [Types.STRING(), Types.INT(), Types.LONG()]))
stamped = rows.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(ThirdField()))
tuples = env.from_collection([("ann", 5), ("bob", 7)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
words = env.from_collection(["x", "y"], type_info=Types.STRING())


def error_text(error) -> str:
    text = str(error)
    if "Rowtime timestamp is not defined" in text:
        return "the job fails: Rowtime timestamp is not defined"
    line = next((each for each in text.splitlines() if "Exception: " in each), text.splitlines()[0])
    line = line[line.index("org.apache"):] if "org.apache" in line else line
    return re.sub(r"FieldInfo@[0-9a-f]+", "FieldInfo@...", line)


def show(label, make, collect=True):
    try:
        table = make()
        print("==", label)
        table.print_schema()
        if collect:
            with table.execute().collect() as results:
                print(sorted(str(row) for row in results))
    except Exception as e:                                           # noqa: BLE001 - the probe prints it
        print("==", label, "fails:", error_text(e))


show("tuple by position", lambda: t_env.from_data_stream(tuples, col("who"), col("n")))
show("tuple by position, fewer", lambda: t_env.from_data_stream(tuples, col("who")))
show("tuple by name", lambda: t_env.from_data_stream(tuples, col("f1"), col("f0")))
show("tuple by name, aliased", lambda: t_env.from_data_stream(tuples, col("f1").alias("n"), col("f0").alias("who")))
show("tuple, name and position mixed", lambda: t_env.from_data_stream(tuples, col("f1"), col("who")))
show("row by name, projected", lambda: t_env.from_data_stream(rows, col("amount"), col("name")))
show("row by position", lambda: t_env.from_data_stream(rows, col("a"), col("b"), col("c")))
show("rowtime added", lambda: t_env.from_data_stream(stamped, col("name"), col("amount"), col("rt").rowtime))
show("rowtime replacing a field", lambda: t_env.from_data_stream(stamped, col("name"), col("amount"), col("ts").rowtime))
show("rowtime replacing by position", lambda: t_env.from_data_stream(stamped, col("a"), col("b"), col("c").rowtime))
show("rowtime added by position", lambda: t_env.from_data_stream(stamped, col("a"), col("b"), col("c"),
                                                                   col("d").rowtime))
show("rowtime aliased", lambda: t_env.from_data_stream(stamped, col("name"), col("ts").rowtime.alias("t")))
show("rowtime first", lambda: t_env.from_data_stream(stamped, col("rt").rowtime, col("name")))
show("proctime", lambda: t_env.from_data_stream(rows, col("name"), col("pt").proctime), collect=False)
show("proctime aliased", lambda: t_env.from_data_stream(rows, col("name"), col("pt").proctime.alias("p")),
     collect=False)
show("proctime added by position", lambda: t_env.from_data_stream(rows, col("a"), col("b"), col("c"),
                                                                    col("pt").proctime), collect=False)
show("proctime amid positions", lambda: t_env.from_data_stream(rows, col("a"), col("pt").proctime, col("c")))
show("proctime replacing a field", lambda: t_env.from_data_stream(rows, col("name"), col("ts").proctime))
show("unknown field", lambda: t_env.from_data_stream(rows, col("name"), col("nope")))
show("rowtime replacing a STRING", lambda: t_env.from_data_stream(stamped, col("name").rowtime))
show("rowtime replacing an INT", lambda: t_env.from_data_stream(rows, col("name"), col("amount").rowtime))
show("two rowtimes", lambda: t_env.from_data_stream(rows, col("name"), col("r1").rowtime, col("r2").rowtime))
show("two proctimes", lambda: t_env.from_data_stream(rows, col("name"), col("p1").proctime, col("p2").proctime))
show("rowtime alias of no field", lambda: t_env.from_data_stream(rows, col("name"), col("zz").rowtime.alias("t")))
show("alias among positions", lambda: t_env.from_data_stream(rows, col("a"), col("b").alias("c")))
show("too many by position", lambda: t_env.from_data_stream(rows, col("a"), col("b"), col("c"), col("d")))
show("an expression", lambda: t_env.from_data_stream(rows, col("name"), col("amount") + 1))
show("a star", lambda: t_env.from_data_stream(rows, col("*")))
show("a field twice", lambda: t_env.from_data_stream(rows, col("name"), col("name")))
show("atomic", lambda: t_env.from_data_stream(words, col("word")))
show("atomic, two fields", lambda: t_env.from_data_stream(words, col("word"), col("other")))
show("atomic rowtime without timestamps", lambda: t_env.from_data_stream(words, col("word"), col("rt").rowtime))
show("a Tumble window on the rowtime", lambda: t_env.from_data_stream(stamped, col("name"), col("amount"),
                                                                        col("rt").rowtime)
     .window(Tumble.over(lit(10).seconds).on(col("rt")).alias("w"))
     .group_by(col("w"), col("name")).select(col("name"), col("w").start, col("amount").sum))
t_env.create_temporary_view("orders", stamped, col("name"), col("amount"), col("ts").rowtime)
show("SQL TUMBLE over a view with a rowtime", lambda: t_env.sql_query(
    "SELECT name, TUMBLE_END(ts, INTERVAL '5' SECOND) AS ends, SUM(amount) AS total FROM orders "
    "GROUP BY name, TUMBLE(ts, INTERVAL '5' SECOND)"))

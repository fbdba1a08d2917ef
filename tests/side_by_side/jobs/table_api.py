"""The Table API over a Kafka JSON table (a malformed message skipped by 'json.ignore-parse-errors'), with Python
functions kept in a module of their own (table_functions.py) as real projects keep them:

1. a statement set writing one union into print and Kafka: where / select / join_lateral of a table function
   (udtf) / a scalar function (udf) in select, union_all with flat_map of a table function taking the whole row
   and map of a scalar function returning a ROW;
2. group_by + sum / count into an upsert-kafka table (its records per key, in order);
3. a Tumble event-time window over the WATERMARK FOR column (a distinct count in it), with
   'table.exec.source.idle-timeout', into print;
4. print_schema() of tables the operations make, and a tableau of map() with a function registered for SQL and
   called there, and by name from the Table API (``call("name", ...)``, built-ins too);
5. Python aggregate functions: an AggregateFunction in group_by (results once per bundle of records, as
   PyFlink's Python operator emits them) and a pandas one in a SQL group window; table aggregate functions
   (udtaf) in flat_aggregate, per key and over all rows;
6. from_elements tables;
7. Table API joins (join with a predicate, join(...).where(...), full_outer_join), distinct(), and order_by with
   fetch / limit (NULL sorts as the greatest value in the Table API) or on the time attribute (a sort in time)
   into print tables, from one statement set;
8. from_pandas and to_pandas (the DataFrames printed, their dtypes).

Usage: table_api.py BOOTSTRAP EVENTS_TOPIC OUT_TOPIC TOTALS_TOPIC
"""
import sys

import pandas as pd
from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import call, col, concat, lit
from pyflink.table.window import Tumble

from table_functions import (ids_of_rows, label, longest_name, low_high, score, split_tags, top_two, weighted_avg,
                             words_of_row)

brokers, events_topic, out_topic, totals_topic = sys.argv[1:5]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.get_config().set("table.exec.source.idle-timeout", "1 s")
# Flink's Python aggregates emit once per bundle of input; one bundle for the whole (bounded) input makes that
# once at the end whatever the timing, as pyflink-compat's once per micro-batch
t_env.get_config().set("python.fn-execution.bundle.time", "600000")
t_env.execute_sql("""
    CREATE TABLE events (
        id BIGINT,
        usr STRING,
        tags STRING,
        amount DOUBLE,
        ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
    ) WITH (
        'connector' = 'kafka',
        'topic' = '%s',
        'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset',
        'scan.bounded.mode' = 'latest-offset',
        'format' = 'json',
        'json.ignore-parse-errors' = 'true'
    )""" % (events_topic, brokers))
t_env.execute_sql("""
    CREATE TABLE tagged (usr STRING, tag STRING, points BIGINT) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')"""
                  % (out_topic, brokers))
t_env.execute_sql("CREATE TABLE shown (usr STRING, tag STRING, points BIGINT) WITH ("
                  "'connector' = 'print', 'print-identifier' = 'shown')")
t_env.execute_sql("""
    CREATE TABLE totals (usr STRING, total DOUBLE, n BIGINT, PRIMARY KEY (usr) NOT ENFORCED) WITH (
        'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'key.format' = 'json', 'value.format' = 'json')""" % (totals_topic, brokers))
t_env.execute_sql("CREATE TABLE windows (usr STRING, w_start TIMESTAMP(3), w_end TIMESTAMP(3), total DOUBLE, "
                  "n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'windows')")

events = t_env.from_path("events")
events.print_schema()

# 1. a union into print and Kafka from one statement set
big = events.where(col("amount") >= 10).select(col("usr"), col("tags"), col("amount"))
per_tag = big.join_lateral(split_tags(col("tags")).alias("tag")) \
    .select(col("usr"), col("tag"), score(col("amount"), col("tag")).alias("points"))
per_word = events.flat_map(words_of_row).alias("word", "size") \
    .where(col("size") > 3) \
    .select(concat(col("word"), lit("!")).alias("usr"), col("word"), col("size").cast(DataTypes.BIGINT()))
labelled = events.map(label).select(col("who"), col("kind"), col("cents"))
union = per_tag.union_all(per_word).union_all(labelled)
union.print_schema()
statements = t_env.create_statement_set()
statements.add_insert("tagged", union)
statements.add_insert("shown", union)
statements.execute().wait()

# 2. group_by into upsert-kafka (its key column is NOT NULL: the NULL user filtered out)
events.where(col("usr").is_not_null).group_by(col("usr")) \
    .select(col("usr"), col("amount").sum.alias("total"), col("id").count.alias("n")) \
    .execute_insert("totals").wait()

# 3. a Tumble event-time window
windowed = events.window(Tumble.over(lit(5).seconds).on(col("ts")).alias("w")) \
    .group_by(col("w"), col("usr")) \
    .select(col("usr"), col("w").start, col("w").end, col("amount").sum, col("tags").count.distinct.alias("n"))
windowed.print_schema()
windowed.execute_insert("windows").wait()

# 4. schemas and a tableau
events.add_columns((col("amount") * 2).alias("doubled")).rename_columns(col("usr").alias("user_name")) \
    .drop_columns(col("tags")).print_schema()
t_env.create_temporary_function("score", score)
t_env.create_temporary_system_function("split_tags", split_tags)
t_env.sql_query("SELECT id, tag, score(amount, tag) FROM events, LATERAL TABLE(split_tags(tags)) AS T(tag) "
                "WHERE id < 4").execute().print()
events.map(label).execute().print()
# the same functions called by their registered names from the Table API, built-ins by name, a name of none
events.where(col("id") < 4).join_lateral(call("split_tags", col("tags")).alias("tag")) \
    .select(col("id"), col("tag"), call("score", col("amount"), col("tag")).alias("s")).execute().print()
events.where(col("id") < 3).select(call("upper", col("usr")), call("CONCAT", col("usr"), lit("!"))).execute().print()
try:
    events.select(call("no_such_function", col("id")))
except Exception as error:
    message = str(error)
    print("refused:", message[message.index("ValidationException"):].splitlines()[0])

# 5. Python aggregate functions
events.group_by(col("usr")).select(col("usr"), weighted_avg(col("id"), lit(2)).alias("wavg")).execute().print()
# aggregate(): a ROW result flattened into columns (named by the alias, else TMP_0$field), per key and over all
# rows; aggregates without GROUP BY (SQL and Table API) are one group of all rows with its changelog
t_env.execute_sql("CREATE TABLE spans (usr STRING, low DOUBLE, high DOUBLE) WITH ('connector' = 'print', "
                  "'print-identifier' = 'spans')")
t_env.execute_sql("CREATE TABLE overall (n BIGINT, total DOUBLE) WITH ('connector' = 'print', "
                  "'print-identifier' = 'overall')")
per_user = events.group_by(col("usr")).aggregate(low_high(col("amount")).alias("low", "high")) \
    .select(col("usr"), col("low"), col("high"))
per_user.print_schema()
events.group_by(col("usr")).aggregate(low_high(col("amount"))).select(col("*")).print_schema()
everyone = events.aggregate(low_high(col("amount")).alias("lo", "hi")).select(col("hi"), col("lo"))
everyone.print_schema()
events.select(col("amount").sum, col("id").count.alias("n"), col("usr").max).print_schema()
# flat_aggregate(): a table aggregate function's rows per key (its ROW result's fields, renamed by an alias, or
# named as the result type names them) and over all rows (the function alone is given whole rows)
t_env.execute_sql("CREATE TABLE tops (usr STRING, amount DOUBLE, place INT) WITH ('connector' = 'print', "
                  "'print-identifier' = 'tops')")
t_env.execute_sql("CREATE TABLE all_ids (ids STRING) WITH ('connector' = 'print', 'print-identifier' = 'ids')")
tops = events.group_by(col("usr")).flat_aggregate(top_two(col("amount"))).select(col("*"))
tops.print_schema()
events.group_by(col("usr")).flat_aggregate(top_two(col("amount")).alias("a", "p")).select(col("p"), col("a") * 2) \
    .print_schema()
all_ids = events.where(col("usr").is_not_null).flat_aggregate(ids_of_rows).select(col("*"))
all_ids.print_schema()
aggregates = t_env.create_statement_set()
aggregates.add_insert("tops", tops)
aggregates.add_insert("all_ids", all_ids)
aggregates.add_insert("spans", per_user)
aggregates.add_insert("spans", everyone.select(lit("all"), col("lo"), col("hi")))
aggregates.add_insert_sql("INSERT INTO overall SELECT COUNT(*), SUM(amount) FROM events WHERE usr <> 'carla'")
aggregates.execute().wait()
t_env.create_temporary_function("longest_name", longest_name)
t_env.execute_sql("SELECT TUMBLE_START(ts, INTERVAL '5' SECOND) AS w, longest_name(usr) AS longest FROM events "
                  "WHERE usr IS NOT NULL GROUP BY TUMBLE(ts, INTERVAL '5' SECOND)").print()

# 6. from_elements: column names given (types inferred), names and types inferred (from tuples and from named
# Rows), a DataTypes.ROW schema; the tables queried in SQL and the Table API and inserted into print
words = t_env.from_elements([(1, "Hi", 2.5), (2, "Hello", None), (3, "Hi", 1.0)], ["id", "word", "score"])
words.print_schema()
words.execute().print()
t_env.from_elements([(1, "a"), (2, "b")]).execute().print()
t_env.from_elements([Row(a=1, b="x"), Row(a=5, b="y")]).print_schema()
t_env.create_temporary_view("words", words)
t_env.execute_sql("SELECT word, COUNT(*) AS n, SUM(score) AS s FROM words GROUP BY word").print()
typed = t_env.from_elements([(1, "abc", 2.0), (2, "def", 3.0)],
                            DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING()),
                                           DataTypes.FIELD("c", DataTypes.FLOAT())]))
typed.print_schema()
typed.where(col("a") > 1).select(col("b"), col("c") * 2).execute().print()
t_env.execute_sql("CREATE TABLE typed_out (a INT, b STRING) WITH ('connector' = 'print', 'print-identifier' = 'typed')")
typed.select(col("a"), col("b")).execute_insert("typed_out").wait()

# 7. joins, distinct, order_by + fetch / limit
tiers = t_env.from_elements([("Hi", "gold"), ("Hello", "silver"), ("Bye", "none")], ["name", "tier"])
outputs = {"joined": "id BIGINT, word STRING, tier STRING", "matched": "id BIGINT, tier STRING",
           "padded": "id BIGINT, word STRING, score DOUBLE, name STRING, tier STRING", "distinct_words": "word STRING",
           "top_scores": "id BIGINT, word STRING, score DOUBLE", "second_third": "id BIGINT, word STRING, score DOUBLE",
           "in_time": "id BIGINT, usr STRING, ts TIMESTAMP(3)"}
for name, columns in outputs.items():
    t_env.execute_sql("CREATE TABLE %s (%s) WITH ('connector' = 'print', 'print-identifier' = '%s')"
                      % (name, columns, name))
statements = t_env.create_statement_set()
statements.add_insert("joined", words.join(tiers, col("word") == col("name")).select(col("id"), col("word"), col("tier")))
statements.add_insert("matched", words.join(tiers).where(col("word") == col("name")).select(col("id"), col("tier")))
# (rows without a match on either side only: which source comes first decides the padded rows retracted later)
statements.add_insert("padded", words.full_outer_join(tiers.where(col("name") == "Bye"), col("word") == col("name")))
statements.add_insert("distinct_words", words.select(col("word")).distinct())
statements.add_insert("top_scores", words.order_by(col("score").desc).fetch(2))
statements.add_insert("second_third", words.order_by(col("id")).limit(2, 1))
statements.add_insert("in_time", events.select(col("id"), col("usr"), col("ts")).order_by(col("ts"), col("id").desc))
statements.execute().wait()

# 8. pandas: from_pandas (types from the DataFrame, or names / DataTypes / a ROW), to_pandas of a query and of a
# GROUP BY's changelog, dtypes as PyFlink converts them (a NaN is NULL; an integer column with NULLs is float64)
frame = pd.DataFrame({"a": [1, 2, 3], "b": [1.5, None, 2.5], "c": ["x", "y", None], "d": [True, False, True]})
from_frame = t_env.from_pandas(frame)
from_frame.print_schema()
print(from_frame.to_pandas())
print(from_frame.to_pandas().dtypes.to_dict())
t_env.from_pandas(frame, ["k", "v", "s", "f"]).print_schema()
typed_frame = t_env.from_pandas(frame, [DataTypes.INT(), DataTypes.DOUBLE(), DataTypes.STRING(), DataTypes.BOOLEAN()])
typed_frame.print_schema()
print(typed_frame.select(col("a") + 1, col("c")).to_pandas())
summed = from_frame.group_by(col("d")).select(col("d"), col("a").sum.alias("s"))
print(summed.to_pandas())
print(t_env.from_pandas(pd.DataFrame([[0.0, 0.25], [0.5, 0.75]]), schema=DataTypes.ROW(
    [DataTypes.FIELD("x", DataTypes.DOUBLE()), DataTypes.FIELD("y", DataTypes.DOUBLE())])).to_pandas())
with_null = t_env.from_pandas(pd.DataFrame({"n": [1, None]}))
print(with_null.to_pandas(), with_null.to_pandas().dtypes.to_dict())

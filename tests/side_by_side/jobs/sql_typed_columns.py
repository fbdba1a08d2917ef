"""Flink SQL over a JSON Kafka table with DECIMAL, DATE, ROW, MAP and ARRAY columns (nested JSON objects and
arrays): the print connector's lines of the columns as read (DECIMAL rounded half up to its scale, NULL when its
digits do not fit), decimal arithmetic with Flink's result types (literals like 1.5 are DECIMALs), field access
of a ROW, map and array subscripts, casts; SUM / AVG / MIN / MAX of a DECIMAL grouped by a ROW's field; a JSON
Kafka sink of the nested columns; tableaus of the same.

Usage: sql_typed_columns.py BOOTSTRAP ORDERS_TOPIC OUT_TOPIC
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment

brokers, topic, out_topic = sys.argv[1:4]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""
    CREATE TABLE orders (
        id INT, price DECIMAL(5, 2), day_ DATE, buyer ROW<name STRING, age INT>, tags MAP<STRING, INT>,
        items ARRAY<INT>
    ) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json'
    )""" % (topic, brokers))
t_env.from_path("orders").print_schema()
t_env.execute_sql("""CREATE TABLE shown (id INT, price DECIMAL(5, 2), day_ DATE, buyer ROW<name STRING, age INT>,
                     tags MAP<STRING, INT>, items ARRAY<INT>) WITH ('connector' = 'print', 'print-identifier' = 'rows')""")
t_env.execute_sql("INSERT INTO shown SELECT * FROM orders").wait()
t_env.execute_sql("""CREATE TABLE arithmetic (id INT, doubled DECIMAL(16, 2), plus DECIMAL(6, 2), third DECIMAL(16, 13),
                     minus_id DECIMAL(13, 2), scaled DECIMAL(8, 3), squared DECIMAL(11, 4), as_double DOUBLE,
                     literal_sum DECIMAL(3, 1), ratio DECIMAL(17, 6), remainder DECIMAL(5, 2))
                     WITH ('connector' = 'print', 'print-identifier' = 'math')""")
t_env.execute_sql("""INSERT INTO arithmetic SELECT id, price * 2, price + 1.5, price / 3, price - id, price * 1.5,
                     price * price, price + 0.5e0, 0.1 + 0.2, id / 4.0, price % 2 FROM orders""").wait()
t_env.sql_query("SELECT id, price * 2, price / 3, 1.5, 0.05, 10 / 4.0, price + 0.5e0 FROM orders").print_schema()
t_env.execute_sql("""SELECT id, buyer.name, buyer.age, orders.buyer.name, tags['a'], items[1], items[5],
                     CARDINALITY(items), CAST(day_ AS STRING), day_ > DATE '2024-02-01', CAST(buyer AS STRING),
                     CAST(price AS STRING), CAST(price AS DOUBLE), CAST(price AS INT), CAST(price AS DECIMAL(3, 1)),
                     CAST('1.005' AS DECIMAL(5, 2)), CAST(day_ AS TIMESTAMP(3))
                     FROM orders""").print()
t_env.execute_sql("SELECT id, price, day_, buyer, tags, items FROM orders WHERE id < 4").print()
t_env.execute_sql("""CREATE TABLE totals (name STRING, total DECIMAL(38, 2), average DECIMAL(38, 6),
                     lowest DECIMAL(5, 2), highest DECIMAL(5, 2), n BIGINT)
                     WITH ('connector' = 'print', 'print-identifier' = 'totals')""")
t_env.execute_sql("""INSERT INTO totals SELECT buyer.name, SUM(price), AVG(price), MIN(price), MAX(price), COUNT(*)
                     FROM orders GROUP BY buyer.name""").wait()
t_env.execute_sql("""CREATE TABLE by_day (day_ DATE, price DECIMAL(5, 2), n BIGINT)
                     WITH ('connector' = 'print', 'print-identifier' = 'by_day')""")
t_env.execute_sql("INSERT INTO by_day SELECT day_, price, COUNT(*) FROM orders GROUP BY day_, price").wait()
t_env.execute_sql("""
    CREATE TABLE nested_out (id INT, price DECIMAL(5, 2), day_ DATE, buyer ROW<name STRING, age INT>,
                             tags MAP<STRING, INT>, items ARRAY<INT>, ratio DECIMAL(16, 13)) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')
    """ % (out_topic, brokers))
t_env.execute_sql("INSERT INTO nested_out SELECT *, price / 3 FROM orders").wait()

# VALUES rows, typed as Flink types them (per column the common type of its rows: VARCHAR of the longest string,
# CHAR(n) when all are n long, a DECIMAL wide enough for every row, NOT NULL unless a row is NULL), inserted,
# queried with a GROUP BY, and their schemas (UPPER keeps its argument's type)
t_env.execute_sql("CREATE TABLE valued (id BIGINT, name STRING, amount DOUBLE) "
                  "WITH ('connector' = 'print', 'print-identifier' = 'valued')")
t_env.execute_sql("INSERT INTO valued VALUES (1, 'a', 1.5), (2, 'bcd', -3), "
                  "(3, CAST(NULL AS STRING), CAST(NULL AS DOUBLE))").wait()
t_env.sql_query("SELECT * FROM (VALUES (1, 'a', 1.5, TRUE), (2, 'bcd', 20.25, CAST(NULL AS BOOLEAN))) "
                "AS v(id, name, amount, flag)").print_schema()
t_env.sql_query("SELECT UPPER(name) AS name, amount * 2 AS twice FROM (VALUES ('ab', 1)) AS v(name, amount)") \
    .print_schema()
t_env.execute_sql("SELECT name, COUNT(*) AS n, SUM(amount) AS total FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) "
                  "AS v(name, amount) GROUP BY name").print()

# CASE, COALESCE and IF typed by the common type of their branches (an INT and a DECIMAL(2, 1) give a
# DECIMAL(11, 1), every value converted to it), nullable as Flink finds it; CONCAT gives a STRING, || a VARCHAR
# of both lengths; a CAST keeps its operand's nullability
typed = t_env.sql_query("""SELECT id, CASE WHEN id > 2 THEN 1 ELSE 2.5 END AS c1,
                           CASE WHEN id > 2 THEN 'ab' ELSE 'abcd' END AS c2, COALESCE(CAST(NULL AS INT), 2.5) AS c3,
                           CONCAT('ab', CAST(id AS STRING)) AS c4, 'x' || 'yz' AS c5,
                           COALESCE(buyer.name, 'none') AS c6, CASE id WHEN 1 THEN 1.5 WHEN 2 THEN 2 END AS c7,
                           IF(id > 1, id, 2.25) AS c8, CASE WHEN id > 1 THEN CAST(id AS BIGINT) ELSE 0.5E0 END AS c9
                           FROM orders WHERE id < 4""")
typed.print_schema()
typed.execute().print()

# a join on fields of ROW columns (o.buyer.age), and a ROW's field named without its column (p.name is
# p.buyer.name: the only ROW column of orders with a field 'name', as Flink's validator finds it)
with t_env.execute_sql("""SELECT o.id, p.id AS older, p.name FROM orders o JOIN orders p
                          ON p.buyer.age = o.buyer.age + 1""").collect() as joined:
    print("join on ROW fields:", sorted(tuple(row) for row in joined))

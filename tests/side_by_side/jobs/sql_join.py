"""Flink SQL regular inner joins of two Kafka tables of JSON (orders, payments): on an equality and a further condition
(paid >= amount) with a WHERE into a print table, on the equality alone into a Kafka table, and a GROUP BY over a
join printed as a tableau; a payment without an order and one with a NULL order id join nothing; a chain of two
joins (an inner join, then an inner or a left join of its rows; one of them through a WITH clause); the tables outer
joins leave, joins after an outer join, joins of a GROUP BY view and of two, a GROUP BY of a UNION ALL of two GROUP BYs
(changelogs collected and applied); GROUP BY of
a GROUP BY view (its changelog printed) and of a left join (applied); UNION ALL of three queries (two of them
reading orders) into a print table, and of two as a tableau; a window over a view of a UNION ALL, a GROUP BY over a
subquery of one; numeric functions (ROUND, FLOOR, CEIL, TRUNCATE, POWER, SQRT, LN, LOG10, SIGN), string functions
(REGEXP_*, LPAD, INITCAP, MD5, SHA256, OVERLAY, GREATEST, ...) and date-time functions (EXTRACT, TIMESTAMPADD,
TIMESTAMPDIFF, FLOOR / CEIL to a unit, CONVERT_TZ) as tableaus; an interval join written as Flink's documentation
writes it (FROM a, b WHERE a.k = b.k AND b.ts BETWEEN a.ts AND a.ts + ...), a LEFT and a FULL interval join (insert-
only: padded rows once the interval has passed) and a TUMBLE window over a view of an interval join (its rows keep
the order's time as their rowtime).

Usage: sql_join.py BOOTSTRAP ORDERS_TOPIC PAYMENTS_TOPIC OUT_TOPIC
"""
import sys
from pyflink.table import EnvironmentSettings, TableEnvironment
brokers, orders, payments, out = sys.argv[1:5]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
for name, columns, topic in (("orders", "id INT, customer STRING, amount DOUBLE", orders),
                             ("payments", "id INT, order_id INT, paid DOUBLE", payments)):
    t_env.execute_sql("""CREATE TABLE %s (%s) WITH ('connector' = 'kafka', 'topic' = '%s',
        'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset',
        'scan.bounded.mode' = 'latest-offset', 'format' = 'json')""" % (name, columns, topic, brokers))
t_env.execute_sql("CREATE TABLE settled (order_id INT, customer STRING, amount DOUBLE, paid DOUBLE) WITH ('connector' = 'print', 'print-identifier' = 'settled')")
t_env.execute_sql("""CREATE TABLE settled_kafka (order_id INT, payment_id INT, customer STRING) WITH ('connector' = 'kafka',
    'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')""" % (out, brokers))
s = t_env.create_statement_set()
s.add_insert_sql("""INSERT INTO settled SELECT o.id, o.customer, o.amount, p.paid FROM orders AS o JOIN payments p
    ON o.id = p.order_id AND p.paid >= o.amount WHERE o.customer <> 'nobody'""")
s.add_insert_sql("INSERT INTO settled_kafka SELECT o.id, p.id, customer FROM orders o INNER JOIN payments p ON p.order_id = o.id")
# a chain of joins, joined left to right: the other orders of the customer of a paid order (the first join named
# in a WITH clause, which Flink expands in place)
t_env.execute_sql("CREATE TABLE chained (order_id INT, payment_id INT, other_order INT, total DOUBLE) WITH ("
                  "'connector' = 'print', 'print-identifier' = 'chain')")
s.add_insert_sql("""INSERT INTO chained WITH paid (id, customer, pid, paid) AS (SELECT o.id, o.customer, p.id, p.paid
    FROM orders o JOIN payments p ON o.id = p.order_id)
    SELECT paid.id, paid.pid, q.id, q.amount + paid.paid FROM paid JOIN orders q ON q.customer = paid.customer
    AND q.id <> paid.id""")
s.execute().wait()
t_env.sql_query("SELECT * FROM orders o JOIN payments p ON o.id = p.order_id JOIN orders q ON q.id = p.id") \
    .print_schema()
t_env.execute_sql("SELECT customer, COUNT(*) AS payments, SUM(paid) AS total FROM orders o JOIN payments p ON o.id = p.order_id GROUP BY customer").print()
# An interval join as Flink's documentation writes it (FROM a, b WHERE ...): a payment within an hour of its order
for name, columns, topic in (("timed_orders", "id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts", orders),
                             ("timed_payments", "id INT, order_id INT, paid DOUBLE, ts TIMESTAMP(3), "
                                                "WATERMARK FOR ts AS ts", payments)):
    t_env.execute_sql("""CREATE TABLE %s (%s) WITH ('connector' = 'kafka', 'topic' = '%s',
        'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset',
        'scan.bounded.mode' = 'latest-offset', 'format' = 'json')""" % (name, columns, topic, brokers))
t_env.execute_sql("CREATE TABLE timely (order_id INT, payment_id INT, paid DOUBLE) WITH ('connector' = 'print', "
                  "'print-identifier' = 'timely')")
t_env.execute_sql("CREATE TABLE unpaid (order_id INT, payment_id INT) WITH ('connector' = 'print', "
                  "'print-identifier' = 'left-interval')")
t_env.execute_sql("CREATE TABLE unmatched (order_id INT, payment_id INT, paid_at TIMESTAMP(3)) WITH ("
                  "'connector' = 'print', 'print-identifier' = 'full-interval')")
t_env.execute_sql("CREATE TABLE hourly (window_start TIMESTAMP(3), payments BIGINT, paid DOUBLE) WITH ("
                  "'connector' = 'print', 'print-identifier' = 'hourly')")
# Interval joins (bounds on both rowtimes) are insert-only: an outer side's row without a partner in its interval
# comes padded once the watermark passes the interval; the joined rows keep a time attribute for a window
t_env.execute_sql("""CREATE TEMPORARY VIEW paid_orders AS SELECT o.id, o.ts AS ordered, p.ts AS paid_at, p.paid
    FROM timed_orders o, timed_payments p WHERE o.id = p.order_id AND p.ts >= o.ts AND p.ts < o.ts + INTERVAL '1' HOUR""")
s = t_env.create_statement_set()
s.add_insert_sql("""INSERT INTO timely SELECT o.id, p.id, p.paid FROM timed_orders o, timed_payments p
    WHERE o.id = p.order_id AND p.ts BETWEEN o.ts AND o.ts + INTERVAL '1' HOUR""")
s.add_insert_sql("""INSERT INTO unpaid SELECT o.id, p.id FROM timed_orders o LEFT JOIN timed_payments p
    ON o.id = p.order_id AND p.ts BETWEEN o.ts AND o.ts + INTERVAL '1' HOUR""")
s.add_insert_sql("""INSERT INTO unmatched SELECT o.id, p.id, p.ts FROM timed_orders o FULL OUTER JOIN timed_payments p
    ON o.id = p.order_id AND o.ts > p.ts - INTERVAL '30' MINUTE AND o.ts <= p.ts""")
s.add_insert_sql("""INSERT INTO hourly SELECT window_start, COUNT(*), SUM(paid) FROM TABLE(TUMBLE(TABLE paid_orders,
    DESCRIPTOR(ordered), INTERVAL '1' HOUR)) GROUP BY window_start, window_end""")
s.execute().wait()
# a view of a UNION ALL of the two topics (ids of one type, the orders' rowtime kept: both branches have it),
# windowed
t_env.execute_sql("""CREATE TEMPORARY VIEW timed_events AS SELECT id, 'order' AS kind, ts FROM timed_orders
    UNION ALL SELECT order_id, 'payment', ts FROM timed_payments WHERE order_id IS NOT NULL""")
t_env.execute_sql("""SELECT window_start, COUNT(*) AS n, SUM(id) AS ids, MAX(kind) AS k FROM TABLE(TUMBLE(
    TABLE timed_events, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start, window_end""").print()
# string functions (Java's regular expressions, REGEXP_REPLACE's replacement taken as it is written)
t_env.execute_sql("""SELECT id, REGEXP_EXTRACT(customer, '([a-z])([a-z]+)', 2) AS rx, REGEXP_REPLACE(customer, '[aeiou]',
    '$0*') AS rr, REGEXP(customer, '^b') AS rg, LPAD(customer, 5, '-') AS lp, RPAD(customer, 2, '?') AS rp,
    INITCAP(customer || ' o''neil') AS ic, MD5(customer) AS m, SHA256(customer) AS sh, TO_BASE64(customer) AS b64,
    REVERSE(customer) AS rv, REPEAT(customer, 2) AS rt, ASCII(customer) AS asc_code, CHR(id + 64) AS ch,
    HEX(id * 255) AS hx, POSITION('n' IN customer) AS po, LOCATE('a', customer, 2) AS lo, STARTSWITH(customer, 'a')
    AS sw, OVERLAY(customer PLACING 'XY' FROM 2 FOR 1) AS ov, NULLIF(customer, 'bob') AS nf, GREATEST(id, 2) AS gr,
    LEAST(amount, 5.0) AS le, SPLIT_INDEX(customer, 'n', 1) AS si, URL_ENCODE(customer || ' &~') AS ue,
    CHAR_LENGTH(UUID()) AS ul FROM orders""").print()
# date-time functions: EXTRACT and its shorthands, TIMESTAMPADD / TIMESTAMPDIFF, FLOOR / CEIL to a unit, CONVERT_TZ
t_env.execute_sql("""SELECT id, EXTRACT(DOW FROM ts) AS dw, EXTRACT(EPOCH FROM ts) AS ep, YEAR(ts) AS y, HOUR(ts) AS h,
    DAYOFYEAR(ts) AS dy, TIMESTAMPADD(MONTH, 1, ts) AS nm, TIMESTAMPADD(SECOND, -90, CAST(ts AS DATE)) AS bs,
    TIMESTAMPDIFF(MINUTE, ts, TIMESTAMP '2024-01-02 06:00:00') AS mins, TIMESTAMPDIFF(MONTH, ts,
    TIMESTAMP '2023-12-02 04:25:00') AS months, FLOOR(ts TO HOUR) AS fh, CEIL(ts TO DAY) AS cd, FLOOR(ts TO WEEK) AS fw,
    CONVERT_TZ(DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss'), 'UTC', 'Asia/Tokyo') AS tokyo FROM timed_orders""").print()
t_env.execute_sql("CREATE TABLE events (kind STRING, r INT, amount DOUBLE) WITH ('connector' = 'print', "
                  "'print-identifier' = 'events')")
t_env.execute_sql("""INSERT INTO events SELECT 'order', id, amount FROM orders WHERE amount > 2
    UNION ALL SELECT 'payment', order_id, paid FROM payments
    UNION ALL SELECT 'small', id, amount FROM orders WHERE amount <= 2""").wait()
t_env.execute_sql("SELECT id AS r, amount FROM orders UNION ALL SELECT order_id, paid FROM payments WHERE paid > 5") \
    .print()
# numeric functions: ROUND half up (of a DOUBLE as its shortest decimal form, of a DECIMAL to Flink's type), FLOOR,
# CEIL, TRUNCATE, POWER, SQRT, LN, LOG10, SIGN
t_env.execute_sql("""SELECT id, ROUND(amount / 3, 2) AS r2, ROUND(amount * 1.005, 2) AS r, FLOOR(amount / 3) AS f,
    CEIL(-amount / 3) AS c, TRUNCATE(amount / 3, 1) AS t, POWER(amount, 2) AS p, SQRT(amount - 5) AS s,
    LN(amount - 5) AS l, LOG10(amount) AS l10, SIGN(amount - 5) AS sg, ROUND(CAST(amount AS DECIMAL(10, 2)) / 3, 1) AS rd,
    ROUND(id * 15, -1) AS ri FROM orders""").print()

# An outer join's changelog depends on how the two topics' rows interleave (a padded row retracted once its match
# comes, or never emitted); the table it leaves does not: collected and applied, then printed sorted.
def applied(query):
    table = {}
    with t_env.execute_sql(query).collect() as changes:
        for change in changes:
            row = tuple(change)
            table[row] = table.get(row, 0) + (1 if str(change.get_row_kind()) in ("+I", "+U") else -1)
    return sorted((row for row, count in table.items() for _ in range(count)), key=repr)


print("left join:", applied("SELECT o.id, o.customer, p.id AS pid, p.paid FROM orders AS o LEFT JOIN payments AS p "
                            "ON o.id = p.order_id AND p.paid > 4 WHERE o.amount < 10 OR p.id IS NOT NULL"))
print("right join:", applied("SELECT o.customer, p.id FROM orders o RIGHT OUTER JOIN payments p ON o.id = p.order_id "
                             "AND p.paid < 9"))
print("join, left join:", applied("SELECT o.id, p.id AS pid, c.id AS cid FROM orders o JOIN payments p ON "
                                 "o.id = p.order_id LEFT JOIN payments c ON c.order_id = o.id AND c.id <> p.id"))
# a GROUP BY of a subquery of a UNION ALL (columns of the branches' common types: DOUBLE and BIGINT)
print("group by of a union:", applied("SELECT k, COUNT(*) AS n, SUM(v) AS total, MAX(c) AS c FROM (SELECT customer AS "
                                      "k, amount AS v, id AS c FROM orders UNION ALL SELECT CAST(order_id AS STRING), "
                                      "paid, CAST(id AS BIGINT) FROM payments) AS u GROUP BY k"))
print("full join:", applied("SELECT o.id, p.id AS pid FROM orders o FULL JOIN payments p ON o.id = p.order_id "
                            "WHERE o.id IS NULL OR o.id <> 2"))
# joins of changelogs: a join after an outer join, and joins of a GROUP BY view (its updates retract joined rows)
print("left join, join:", applied("SELECT o.id, p.id AS pid, q.id AS qid FROM orders o LEFT JOIN payments p ON "
                                  "o.id = p.order_id JOIN orders q ON q.customer = o.customer AND q.id <> o.id"))
t_env.create_temporary_view("paid_per_order", t_env.sql_query(
    "SELECT order_id, SUM(paid) AS paid, COUNT(*) AS n FROM payments GROUP BY order_id"))
print("join of a group by:", applied("SELECT o.id, o.customer, t.paid, t.n FROM orders o JOIN paid_per_order t "
                                     "ON t.order_id = o.id"))
print("left join of a group by, left join:", applied(
    "SELECT o.id, t.paid, p.id AS pid FROM orders o LEFT JOIN paid_per_order t ON t.order_id = o.id AND "
    "t.paid >= o.amount LEFT JOIN payments p ON p.order_id = t.order_id AND p.paid > 4"))
# joins of two GROUP BYs (each aggregation a stage of its own, meeting in the join; one of them over a join)
t_env.create_temporary_view("spent_per_customer", t_env.sql_query(
    "SELECT customer, SUM(amount) AS spent, COUNT(*) AS n FROM orders GROUP BY customer"))
print("join of two group bys:", applied(
    "SELECT s.customer, s.spent, s.n, t.paid FROM spent_per_customer s JOIN (SELECT o.customer, SUM(p.paid) AS paid "
    "FROM payments p JOIN orders o ON o.id = p.order_id GROUP BY o.customer) t ON t.customer = s.customer"))
print("group by of a union of changelogs:", applied(
    "SELECT k, SUM(v) AS total, COUNT(*) AS c FROM (SELECT customer AS k, spent AS v FROM spent_per_customer UNION "
    "ALL SELECT CAST(order_id AS STRING), paid FROM paid_per_order) u GROUP BY k"))
print("full join of two group bys:", applied(
    "SELECT t.order_id, t.n, q.id, q.c FROM paid_per_order t FULL JOIN (SELECT id, COUNT(*) AS c FROM orders "
    "WHERE amount > 5 GROUP BY id) q ON q.id = t.order_id"))
# a GROUP BY of a changelog: each update of the view takes its old row back from its group and adds the new one
# (the view's changes come from one topic, in its order: the printed changelog is Flink's as it is)
t_env.execute_sql("CREATE TABLE sizes (n BIGINT, orders BIGINT, low DOUBLE, high DOUBLE) WITH ('connector' = "
                  "'print', 'print-identifier' = 'sizes')")
t_env.execute_sql("INSERT INTO sizes SELECT n, COUNT(*), MIN(paid), MAX(paid) FROM paid_per_order GROUP BY n").wait()
print("group by of a left join:", applied(
    "SELECT o.customer, COUNT(p.id) AS payments, SUM(p.paid) AS paid, COUNT(*) AS n, COUNT(DISTINCT p.order_id) AS "
    "paid_orders FROM orders o LEFT JOIN payments p ON o.id = p.order_id GROUP BY o.customer HAVING COUNT(*) < 3"))

# The 'datagen' connector at parallelism 2: each subtask prints its share of the sequences (random values are
# checked, not printed), and a GROUP BY of it; at parallelism 1, a window over a bounded datagen table whose rowtime is computed.
t_env.get_config().set("parallelism.default", "2")
t_env.execute_sql("""CREATE TABLE gen (id INT, code VARCHAR(4), n INT, label STRING, share DOUBLE) WITH (
    'connector' = 'datagen', 'number-of-rows' = '7', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
    'fields.id.end' = '10', 'fields.n.min' = '1', 'fields.n.max' = '3', 'fields.label.kind' = 'sequence',
    'fields.label.start' = '100', 'fields.label.end' = '200', 'fields.share.min' = '0', 'fields.share.max' = '1')""")
t_env.execute_sql("CREATE TABLE gen_out (id INT, label STRING, ok BOOLEAN) WITH ('connector' = 'print', "
                  "'print-identifier' = 'gen')")
t_env.execute_sql("INSERT INTO gen_out SELECT id, label, CHAR_LENGTH(code) = 4 AND n BETWEEN 1 AND 3 AND share >= 0 "
                  "AND share <= 1 FROM gen").wait()
# VALUES are one subtask, and so is the print sink Flink SQL chains to them: its lines have no subtask number
t_env.execute_sql("INSERT INTO gen_out VALUES (11, 'v', TRUE), (12, 'w', FALSE)").wait()
# a GROUP BY's rows print on the subtask Flink SQL runs their key on (its keys' binary rows hashed)
# (counts only: the two subtasks' rows interleave differently from run to run)
t_env.execute_sql("CREATE TABLE gen_counts (k INT, n BIGINT, total INT) WITH ('connector' = 'print', "
                  "'print-identifier' = 'counts')")
t_env.execute_sql("INSERT INTO gen_counts SELECT MOD(id, 3), COUNT(*), SUM(MOD(id, 3) + 1) FROM gen "
                  "GROUP BY MOD(id, 3)").wait()
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TABLE ticks (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 1000, 3), WATERMARK FOR ts AS ts)
    WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
          'fields.id.end' = '12')""")
t_env.execute_sql("""SELECT window_start, COUNT(*) AS ticks, SUM(id) AS total
    FROM TABLE(TUMBLE(TABLE ticks, DESCRIPTOR(ts), INTERVAL '5' SECONDS)) GROUP BY window_start, window_end""").print()

"""Benchmark job: a SQL script of short statements over a small bounded Kafka table, as Table API jobs are often
written (one job per statement): a filter into a blackhole table, a GROUP BY into one, a GROUP BY collected to
the client, a self join into one; ROUNDS times each. Each statement's seconds go to stderr
("statement-seconds KIND S"), the collected rows' final state to stdout.

Usage: sql_statements_job.py BOOTSTRAP TOPIC [ROUNDS]
"""
import sys
import time

from pyflink.table import EnvironmentSettings, TableEnvironment

brokers, topic = sys.argv[1:3]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""CREATE TABLE orders (id INT, customer STRING, amount DOUBLE) WITH ('connector' = 'kafka',
    'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset',
    'scan.bounded.mode' = 'latest-offset', 'format' = 'json')""" % (topic, brokers))
t_env.execute_sql("CREATE TABLE kept (customer STRING, amount DOUBLE) WITH ('connector' = 'blackhole')")
t_env.execute_sql("CREATE TABLE totals (customer STRING, n BIGINT, total DOUBLE) WITH ('connector' = 'blackhole')")


def collected_totals():
    """The final rows of a collected GROUP BY (its changelog applied), sorted."""
    rows = {}
    with t_env.execute_sql("SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer").collect() as results:
        for row in results:
            if row.get_row_kind().name in ("INSERT", "UPDATE_AFTER"):
                rows[row[0]] = row[1]
            else:
                rows.pop(row[0], None)
    return sorted(rows.items())


STATEMENTS = [
    ("filter", lambda: t_env.execute_sql("INSERT INTO kept SELECT customer, amount FROM orders WHERE amount > 1")
     .wait()),
    ("group-by", lambda: t_env.execute_sql("INSERT INTO totals SELECT customer, COUNT(*), SUM(amount) FROM orders "
                                           "GROUP BY customer").wait()),
    ("collect", collected_totals),
    ("join", lambda: t_env.execute_sql("INSERT INTO kept SELECT o.customer, p.amount FROM orders o JOIN orders p "
                                       "ON o.id = p.id + 1").wait()),
]

for _ in range(rounds):
    for kind, run in STATEMENTS:
        started = time.monotonic()
        result = run()
        sys.stderr.write("statement-seconds %s %.3f\n" % (kind, time.monotonic() - started))
        if result is not None:
            print("collected %s" % (result,))

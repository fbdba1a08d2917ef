"""Flink SQL with Kafka message keys, an upsert-kafka table and results printed by the table environment:

1. a Kafka table of events whose user is the message key ('key.format' = 'raw', EXCEPT_KEY: the value holds the
   other fields; a record without a key has a NULL user) is read by a statement set writing
   - a Kafka table keyed by two columns in JSON (value.fields-include ALL: the value repeats them), over two
     partitions (the key's murmur2 hash chooses one, as Kafka's default partitioner does),
   - GROUP BY user into an upsert-kafka table (the user as JSON key, each update an upsert of the key's row; the
     group of the NULL user dropped, its key column being NOT NULL as a primary key's columns are, and
     'table.exec.sink.not-null-enforcer' = 'DROP');
2. what TableResult.print() shows (a GROUP BY with expressions over its aggregates and HAVING among them, STDDEV_POP,
   VAR_POP, LISTAGG and JSON_ARRAYAGG among them): "OK" for DDL, -1 per sink of an INSERT job, the rows of a query as a tableau
   (an op column with each row's kind, GROUP BY's -U / +U, a long value cut to 30 characters, <NULL>, TRUE /
   FALSE, "N rows in set"), "Empty set"; and the rows collect() returns, with their RowKind.

3. an 'upsert-kafka' table read (ChangelogNormalize: +I, -U / +U per update, -D per tombstone, a repeated row
   or a tombstone of an unknown key changes nothing; a filter makes updates insertions or deletions) into print
   and another upsert-kafka table, and as a tableau; a GROUP BY of it (its rows taken back and added again, by
   SUM, MAX, STDDEV_POP, LISTAGG, JSON_ARRAYAGG, ARRAY_AGG and JSON_OBJECTAGG);
   ON CONFLICT DO DEDUPLICATE into an upsert-kafka table, and the clause's misuses; INSERT INTO with a column list
   (and its misuses).
4. the 'csv' format: a key and a value in CSV read with ignore-parse-errors (a bad field is NULL, a row of too
   many fields skipped, missing trailing fields NULL, quotes and a quoted line break), written with a two-column
   CSV key and a ';'-delimited value with a null literal (values quoted as Jackson's CSV writer quotes them,
   timestamps as SQL text).
5. the catalog: what is in it (tables created without TEMPORARY), SHOW TABLES LIKE, SHOW CURRENT DATABASE.

Usage: sql_keys_and_results.py BOOTSTRAP EVENTS_TOPIC KEYED_TOPIC TOTALS_TOPIC UPSERTS_TOPIC COPY_TOPIC CSV_IN CSV_OUT
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.catalog import ObjectPath

brokers, events_topic, keyed_topic, totals_topic, upserts_topic, copy_topic, csv_in, csv_out = sys.argv[1:9]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.get_config().set("table.exec.sink.not-null-enforcer", "DROP")
t_env.execute_sql("""
    CREATE TABLE events (
        usr STRING,
        id INT,
        amount BIGINT,
        note STRING
    ) WITH (
        'connector' = 'kafka',
        'topic' = '%s',
        'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset',
        'scan.bounded.mode' = 'latest-offset',
        'key.format' = 'raw',
        'key.fields' = 'usr',
        'value.format' = 'json',
        'value.fields-include' = 'EXCEPT_KEY'
    )""" % (events_topic, brokers)).print()
t_env.execute_sql("""
    CREATE TABLE keyed (id INT, usr STRING, doubled BIGINT) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'key.format' = 'json', 'key.fields' = 'id;usr', 'value.format' = 'json')""" % (keyed_topic, brokers))
t_env.execute_sql("""
    CREATE TABLE totals (usr STRING, n BIGINT, total BIGINT, PRIMARY KEY (usr) NOT ENFORCED) WITH (
        'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'key.format' = 'json', 'value.format' = 'json')""" % (totals_topic, brokers))
t_env.execute_sql("CREATE TABLE dropped (usr STRING) WITH ('connector' = 'blackhole')")

statements = t_env.create_statement_set()
statements.add_insert_sql("INSERT INTO keyed SELECT id, usr, amount * 2 FROM events WHERE amount > 0")
statements.add_insert_sql("INSERT INTO totals SELECT usr, COUNT(*), SUM(amount) FROM events GROUP BY usr")
result = statements.execute()
result.wait()
result.print()
t_env.execute_sql("INSERT INTO dropped SELECT usr FROM events").print()

t_env.execute_sql("SELECT usr, id, amount, amount > 10 AS big, note FROM events WHERE id <= 4").print()
# expressions over aggregates and HAVING: each change of the aggregation filtered on its own (a -U without its +U)
# (STDDEV_POP of a BIGINT is a BIGINT; LISTAGG joins the non-NULL notes in their order)
t_env.sql_query("SELECT usr, COUNT(*) AS n, MAX(amount) AS top, SUM(amount) * 2 AS twice, FIRST_VALUE(note) AS first_note, "
                "LAST_VALUE(note) AS last_note, STDDEV_POP(amount) AS sd, VAR_POP(CAST(amount AS DOUBLE)) AS var, "
                "LISTAGG(note, '|') AS notes, JSON_ARRAYAGG(amount) AS amounts FROM events GROUP BY usr "
                "HAVING SUM(amount) > 4").execute().print()
t_env.execute_sql("SELECT usr, id FROM events WHERE id > 1000").print()
with t_env.sql_query("SELECT usr, SUM(amount) AS total FROM events WHERE usr IS NOT NULL GROUP BY usr") \
        .execute().collect() as rows:
    for row in rows:
        print("collected", row.get_row_kind(), row)

t_env.execute_sql("""
    CREATE TABLE upserts (usr STRING, total BIGINT, note STRING, PRIMARY KEY (usr) NOT ENFORCED) WITH (
        'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset')"""
                  % (upserts_topic, brokers))
t_env.execute_sql("""
    CREATE TABLE big_copy (usr STRING, scaled BIGINT, PRIMARY KEY (usr) NOT ENFORCED) WITH (
        'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'key.format' = 'json', 'value.format' = 'json')""" % (copy_topic, brokers))
t_env.execute_sql("CREATE TABLE changes (usr STRING, total BIGINT, big BOOLEAN) WITH ('connector' = 'print', "
                  "'print-identifier' = 'up')")
t_env.execute_sql("INSERT INTO changes SELECT usr, total, total > 3 FROM upserts").wait()
t_env.execute_sql("INSERT INTO big_copy SELECT usr, total * 10 FROM upserts WHERE total > 3").wait()
# Flink 2.3's ON CONFLICT: rows of an insert-only table into an upsert table keyed otherwise (DO DEDUPLICATE: the
# latest row of a key wins); the clause on an append-only table, and DO NOTHING over a table without a watermark,
# fail as Flink's planner fails
t_env.execute_sql("INSERT INTO big_copy SELECT usr, id * 100 FROM events WHERE usr IS NOT NULL "
                  "ON CONFLICT DO DEDUPLICATE").wait()
# a GROUP BY of more columns than the upsert table's key: Flink's sink upsert materializer keeps each key's rows
t_env.execute_sql("""
    CREATE TABLE signed_copy (usr STRING, positive BOOLEAN, total BIGINT, PRIMARY KEY (usr) NOT ENFORCED) WITH (
        'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'key.format' = 'json', 'value.format' = 'json')""" % (copy_topic, brokers))
t_env.execute_sql("INSERT INTO signed_copy SELECT usr, amount > 0, SUM(amount) FROM events WHERE usr IS NOT NULL "
                  "GROUP BY usr, amount > 0 ON CONFLICT DO DEDUPLICATE").wait()
# INSERT INTO with a column list: the query's columns go to the listed ones, NULL to the others
t_env.execute_sql("CREATE TABLE listed (id INT, usr STRING, note STRING) WITH ('connector' = 'print', "
                  "'print-identifier' = 'listed')")
t_env.execute_sql("INSERT INTO listed (note, id) SELECT note, id FROM events WHERE id < 3").wait()
t_env.execute_sql("INSERT INTO listed (usr) VALUES ('v')").wait()
for statement in ("INSERT INTO keyed SELECT id, usr, amount FROM events ON CONFLICT DO DEDUPLICATE",
                  "INSERT INTO big_copy SELECT usr, amount FROM events ON CONFLICT DO NOTHING",
                  "INSERT INTO listed (id, nope) SELECT id, usr FROM events",
                  "INSERT INTO listed (id, id) SELECT id, id FROM events",
                  "INSERT INTO listed (id, usr) SELECT id FROM events"):
    try:
        t_env.execute_sql(statement)
    except Exception as error:
        print("on conflict:", str(error).split("\n")[1])
t_env.execute_sql("SELECT usr, total FROM upserts").print()
# a UNION ALL of two queries of it: normalized once, each update keeps its kind through each query's filter (-U in
# one, +U in the other, as Flink's planner reuses the normalization); each query's changes in order (how the two
# interleave varies on Flink from run to run)
with t_env.execute_sql("SELECT 'big' AS kind, usr, total FROM upserts WHERE total > 3 UNION ALL "
                       "SELECT 'small', usr, total FROM upserts WHERE total <= 3").collect() as union_changes:
    union_changes = [(str(change.get_row_kind()), tuple(change)) for change in union_changes]
for kind in ("big", "small"):
    print("union of upserts, %s:" % kind, [change for change in union_changes if change[1][0] == kind])
# a GROUP BY of it: an update moves the user's row from its old note's group to its new one, a tombstone takes it back
t_env.execute_sql("SELECT note, COUNT(*) AS users, SUM(total) AS total, MAX(total) AS top, "
                  "STDDEV_POP(CAST(total AS DOUBLE)) AS sd, LISTAGG(usr) AS usrs, JSON_ARRAYAGG(usr NULL ON NULL) AS j, "
                  "ARRAY_AGG(total) AS totals, JSON_OBJECTAGG(KEY usr VALUE total) AS o FROM upserts GROUP BY note"
                  ).print()

# 4. the 'csv' format
t_env.execute_sql("""
    CREATE TABLE csv_in (id INT, name STRING, amount DOUBLE, flag BOOLEAN, ts TIMESTAMP(3)) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
        'key.format' = 'csv', 'key.fields' = 'id', 'key.csv.ignore-parse-errors' = 'true',
        'value.format' = 'csv', 'value.csv.ignore-parse-errors' = 'true', 'value.fields-include' = 'EXCEPT_KEY')"""
                  % (csv_in, brokers))
t_env.execute_sql("""
    CREATE TABLE csv_out (id INT, name STRING, amount DOUBLE, flag BOOLEAN, ts TIMESTAMP(3), note STRING) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'key.format' = 'csv', 'key.fields' = 'id;name', 'value.format' = 'csv',
        'value.csv.field-delimiter' = ';', 'value.csv.null-literal' = 'NULL')""" % (csv_out, brokers))
t_env.execute_sql("CREATE TABLE csv_rows (id INT, name STRING, amount DOUBLE, flag BOOLEAN, ts TIMESTAMP(3)) WITH ("
                  "'connector' = 'print', 'print-identifier' = 'csv')")
csv_statements = t_env.create_statement_set()
csv_statements.add_insert_sql("INSERT INTO csv_rows SELECT * FROM csv_in")
csv_statements.add_insert_sql("""INSERT INTO csv_out SELECT id, name, amount, flag, ts,
    CASE WHEN id = 1 THEN 'a"b' WHEN id = 2 THEN ' lead' WHEN id = 3 THEN '' WHEN id = 7 THEN 'x;y' END
    FROM csv_in""")
csv_statements.execute().wait()

# 5. the catalog: the tables created without TEMPORARY are in it, the temporary ones shadow it
t_env.execute_sql("CREATE TEMPORARY VIEW recent AS SELECT usr FROM upserts")
catalog = t_env.get_catalog(t_env.get_current_catalog())
print("catalog:", t_env.get_current_catalog(), t_env.get_current_database(), t_env.list_catalogs(),
      t_env.list_databases(), t_env.list_temporary_views(), catalog.list_tables(t_env.get_current_database()))
print("exists:", [catalog.table_exists(ObjectPath(t_env.get_current_database(), name))
                  for name in ("events", "recent", "nope")], t_env.get_catalog("other"))
t_env.execute_sql("USE CATALOG default_catalog")
t_env.execute_sql("SHOW TABLES LIKE '%csv%'").print()
t_env.execute_sql("SHOW CURRENT DATABASE").print()

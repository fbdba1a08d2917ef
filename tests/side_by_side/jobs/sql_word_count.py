"""Flink SQL word count over a Kafka table of raw lines: CROSS JOIN UNNEST(SPLIT(line, ' ')) grouped by word into
a print table (GROUP BY's changelog: empty words counted too, as SPLIT keeps the empty pieces between two
delimiters, before a leading one and after a trailing one, and an empty line has no words); then, printed as
tableaus, the words of each line with a filter on them, LEFT JOIN UNNEST ... ON TRUE keeping the empty line with a
NULL word, and SPLIT, CARDINALITY, SPLIT with an empty delimiter (characters) and SPLIT_INDEX; the JSON functions
over the lines (one of them a JSON object): JSON_VALUE with RETURNING and ON ERROR, JSON_QUERY, JSON_EXISTS,
IS JSON; aggregates with a FILTER clause in a GROUP BY changelog; the same in batch mode, and an aggregation
into a print table in batch mode (the final rows only); ORDER BY and LIMIT in batch mode (sorted at the end of the
input), in a query and in an INSERT of numbered rows.

Usage: sql_word_count.py BOOTSTRAP LINES_TOPIC
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment

brokers, topic = sys.argv[1:3]
LINES = """
    CREATE TABLE lines (line STRING) WITH (
        'connector' = 'kafka',
        'topic' = '%s',
        'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset',
        'scan.bounded.mode' = 'latest-offset',
        'format' = 'raw'
    )""" % (topic, brokers)
FILTERED = """
    SELECT %(key)s AS k, COUNT(*) FILTER (WHERE w = 'to') AS tos,
           COUNT(DISTINCT w) FILTER (WHERE w <> '') AS words, SUM(CHAR_LENGTH(w)) FILTER (WHERE w LIKE '%%e%%') AS e_len,
           MAX(w) FILTER (WHERE CHAR_LENGTH(w) < 3) AS short_max, COUNT(*) AS n
    FROM lines CROSS JOIN UNNEST(SPLIT(line, ' ')) AS t(w) GROUP BY %(key)s"""
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql(LINES)
t_env.execute_sql("CREATE TABLE counts (word STRING, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'wc')")
t_env.execute_sql("""
    INSERT INTO counts
    SELECT word, COUNT(*) FROM lines CROSS JOIN UNNEST(SPLIT(line, ' ')) AS T(word) GROUP BY word""").wait()
t_env.execute_sql("SELECT line, w FROM lines, UNNEST(SPLIT(line, ' ')) AS t (w) WHERE CHAR_LENGTH(w) < 3").print()
t_env.execute_sql("SELECT line, w FROM lines LEFT JOIN UNNEST(SPLIT(line, ' ')) AS t(w) ON TRUE").print()
t_env.execute_sql("""
    SELECT line, SPLIT(line, ' ') AS parts, CARDINALITY(SPLIT(line, ' ')) AS n, SPLIT(line, '') AS chars,
           SPLIT_INDEX(line, ' ', 1) AS idx1
    FROM lines""").print()
t_env.execute_sql("""
    SELECT CHAR_LENGTH(w) AS len, COUNT(DISTINCT w) AS words, COUNT(w) AS n, SUM(DISTINCT CHAR_LENGTH(line)) AS s
    FROM lines CROSS JOIN UNNEST(SPLIT(line, ' ')) AS t(w) GROUP BY CHAR_LENGTH(w)""").print()
t_env.execute_sql("""
    SELECT JSON_VALUE(line, '$.user') AS usr, JSON_VALUE(line, '$.n' RETURNING INT) AS n, JSON_VALUE(line, '$.x') AS x,
           JSON_VALUE(line, '$.tags[1]') AS tag, JSON_VALUE(line, 'strict $.nope' DEFAULT 'none' ON ERROR) AS dflt,
           JSON_VALUE(line, '$.big') AS big, JSON_QUERY(line, '$.tags') AS tags, JSON_EXISTS(line, '$.n') AS has_n,
           line IS JSON AS is_json, line IS JSON OBJECT AS is_object
    FROM lines""").print()
t_env.execute_sql(FILTERED % {"key": "CHAR_LENGTH(w) > 1"}).print()

batch_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
batch_env.get_config().set("parallelism.default", "1")
batch_env.execute_sql(LINES)
# (the keys in an order both engines give: Flink's batch aggregation may order them by key, pyflink-compat as
# they first came)
batch_env.execute_sql(FILTERED % {"key": "CHAR_LENGTH(w) < 2"}).print()
# sorted at the end of the input: a GROUP BY by its count, then its key, the first three; lines by an expression
# of a column the query does not show; a LIMIT with an OFFSET
batch_env.execute_sql("SELECT w, COUNT(*) AS n FROM lines CROSS JOIN UNNEST(SPLIT(line, ' ')) AS t(w) WHERE w <> '' "
                      "GROUP BY w ORDER BY n DESC, w LIMIT 3").print()
batch_env.execute_sql("SELECT UPPER(line) AS shout FROM lines ORDER BY CHAR_LENGTH(line) DESC, line").print()
batch_env.execute_sql("SELECT line FROM lines WHERE line <> '' ORDER BY line LIMIT 2 OFFSET 1").print()
# an INSERT of numbered rows, sorted and limited, into a print table
batch_env.execute_sql("CREATE TABLE longest (line STRING, n BIGINT) WITH ('connector' = 'print', "
                      "'print-identifier' = 'longest')")
batch_env.execute_sql("INSERT INTO longest SELECT line, ROW_NUMBER() OVER (ORDER BY CHAR_LENGTH(line) DESC, line) "
                      "FROM lines ORDER BY line LIMIT 3").wait()
batch_env.execute_sql("CREATE TABLE totals (n BIGINT, words BIGINT) WITH ('connector' = 'print', "
                      "'print-identifier' = 'batch')")
batch_env.execute_sql("INSERT INTO totals SELECT COUNT(*), COUNT(DISTINCT w) FROM lines "
                      "CROSS JOIN UNNEST(SPLIT(line, ' ')) AS t(w)").wait()

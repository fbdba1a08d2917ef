"""The same PyFlink job files on real PyFlink (the oracle) and on pyflink-compat, outputs compared.

This comparison is what "compatible" means for pyflink-compat. See harness.py for how runs are made and
compared. Each case runs the oracle first (12-20 s of fixed start), then pyflink-compat.
"""
import pytest

from harness import Case, Input, Output, Prints, run_case

pytestmark = pytest.mark.side_by_side


def origin_and_sequence(value):
    """"P0-007" -> ("P0", 7): records of one input partition carry their position in it."""
    group, _, seq = value.rpartition("-")
    return group, int(seq)


TS = 1_600_000_000_123          # a record timestamp (CreateTime) the sinks must carry through

CASES = [
    Case(name="chain", job="chain.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["hello world", "#skip this", "a bb ccc", "", "  spaced   out  ",
                                          "Ünïcode ß"]}, timestamp_ms=TS)},
         outputs={"out": Output(count=10, timestamps=True)}),
    Case(name="collection-to-kafka", job="collection_to_kafka.py", args=["{bootstrap}", "{out}"],
         outputs={"out": Output(count=8)}),
    Case(name="key-and-value-schemas", job="keys.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["Alpha", " beta ", "GAMMA", "delta", "alpha", "epsilon", "zeta",
                                          "eta", "theta", "iota", "kappa", "lambda"]}, timestamp_ms=TS)},
         # keyed records: the output partition is murmur2(key) % 3 on both engines, order kept per partition
         outputs={"out": Output(count=12, partitions=3, keys=True, timestamps=True)}),
    # key and value schemas narrower than the rows (a one-field JSON key): fields taken by position
    Case(name="narrow-key-schema", job="narrow_key_schema.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["%d,%s,%d.5" % (i, "cust-%d" % (i % 4), i) for i in range(1, 13)]})},
         outputs={"out": Output(count=12, partitions=3, keys=True)}),
    Case(name="topic-selector", job="topic_selector.py", args=["{bootstrap}", "{in}", "{even}", "{odd}"],
         inputs={"in": Input(records={0: [str(i) for i in range(20)]})},
         outputs={"even": Output(count=10), "odd": Output(count=10)}),
    Case(name="bounded-partitions", job="bounded_partitions.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(partitions=3, records={0: ["p0-%03d" % i for i in range(30)], 1: [],
                                                     2: ["p2-%03d" % i for i in range(20)]})},
         # one reader interleaves the partitions: only the order within each input partition is guaranteed
         outputs={"out": Output(count=45, compare="multiset", order_key=origin_and_sequence)}),
    Case(name="unbounded", job="unbounded.py", args=["{bootstrap}", "{in}", "{out}"], bounded=False,
         inputs={"in": Input(records={0: ["e%d" % i for i in range(5)]},
                             late={0: ["l%d" % i for i in range(5)]})},
         outputs={"out": Output(count=10)}, prints=Prints(count=10)),
    Case(name="parallel-partitions", job="parallel_partitions.py",
         args=["{bootstrap}", "{in}", "{keyed}", "{unkeyed}"],
         inputs={"in": Input(partitions=3, records={p: ["%s-%02d" % ("abc"[p], i) for i in range(15)]
                                                    for p in range(3)})},
         outputs={
             # keyed: same partition per record on both engines; order kept per input partition
             "keyed": Output(count=45, partitions=3, compare="multiset", keys=True,
                             order_key=origin_and_sequence),
             # unkeyed: the sticky partitioner's choice is free on both engines
             "unkeyed": Output(count=45, partitions=2, compare="multiset", partitioned=False,
                               order_key=origin_and_sequence)},
         prints=Prints(count=45, strip_subtask=True, parallelism=2)),
    # Flink's split assignment with parallelism 3 over topics of 2, 3 and 5 partitions: the reader of each
    # partition, seen by RuntimeContext and print()'s "N>" prefix, compared as it is
    Case(name="split-assignment", job="split_assignment.py",
         args=["{bootstrap}", "3", "{out}", "{two}", "{three}", "{five}"],
         inputs={name: Input(partitions=count, first_reader=(3, 2),
                             records={p: ["%s-p%d-%d" % (name, p, i) for i in range(4)] for p in range(count)})
                 for name, count in (("two", 2), ("three", 3), ("five", 5))},
         outputs={"out": Output(count=40, compare="multiset", partitioned=False)},
         prints=Prints(count=40, parallelism=3)),
    # a map at parallelism 2 before a sink of parallelism 1: two instances of the map, each with its readers'
    # partitions (not one instance at the sink's parallelism)
    Case(name="narrow-sink", job="narrow_sink.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(partitions=3, first_reader=(2, 0),
                             records={p: ["p%d-%d" % (p, i) for i in range(4)] for p in range(3)})},
         outputs={"out": Output(count=12, compare="multiset", partitioned=False)}),
    # assign_timestamps_and_watermarks: one watermark per reader; a reader of a fast and a slow partition
    # follows the fast one (a minimum over partitions would fire nothing here)
    Case(name="reader-watermarks", job="reader_watermarks.py", args=["{bootstrap}", "{in}", "1", "assigner", "0"],
         bounded=False, inputs={"in": Input(partitions=2, records={0: ["a,1000", "a,12000", "a,25000"],
                                                                   1: ["b,3000"]})},
         prints=Prints(count=4 + 2)),
    # parallelism 3 over 2 partitions (unbounded): the reader without a partition holds the watermark back,
    # no window fires (the minimum over the partitions, 11999, would fire [0, 10 s))
    Case(name="silent-reader", job="reader_watermarks.py", args=["{bootstrap}", "{in}", "3", "assigner", "0"],
         bounded=False, settle_s=8.0, inputs={"in": Input(partitions=2, first_reader=(3, 0), records={
             0: ["a,1000", "a,12000"], 1: ["a,2000", "a,15000"]})},
         prints=Prints(count=4, parallelism=3)),
    Case(name="two-sinks", job="two_sinks.py", args=["{bootstrap}", "{in}", "{all}", "{long}"],
         inputs={"in": Input(records={0: ["kafka", "spark", "flink", "io", "stream", "a", "batch"]})},
         outputs={"all": Output(count=7), "long": Output(count=5)}, prints=Prints(count=7)),
    # and table environments created and configured, never used (a print() of their settings)
    Case(name="print-types", job="print_types.py", args=[], prints=Prints(count=22)),
    # a FLOAT field keeps its 64-bit value inside a chain of Python functions, rounded where the chain ends
    # (everywhere with python.operator-chaining.enabled=false); several readers each get their own copy
    Case(name="float-chaining", job="float_chaining.py", args=[], prints=Prints(count=34)),
    Case(name="row-output", job="row_output.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["ann,34,1.5", "tim,12,9.25", "bo,18,0.125", "zed,90,100.0",
                                          "kid,3,7.77"]}, timestamp_ms=TS)},
         outputs={"out": Output(count=3, timestamps=True)}, prints=Prints(count=3)),
    # the Python objects a function receives, and execute_and_collect() returns, for each field type
    Case(name="python-types", job="python_types.py", args=[], prints=Prints(count=50)),
    # TUPLE streams: Java's Tuple toString() in print(), tuples in functions and from execute_and_collect()
    Case(name="tuples", job="tuples.py", args=[], prints=Prints(count=18)),
    # a map failing on one record under each restart strategy type: the strategy's "Recovery is suppressed by"
    # text once its restarts ran out
    Case(name="restart-strategies", job="restart_strategies.py", args=[], prints=Prints(count=4, order="exact")),
    # union of two topics of different formats mapped to one type, and of a stream with itself
    Case(name="union", job="union.py", args=["{bootstrap}", "{csv}", "{json}", "{out}"],
         inputs={"csv": Input(records={0: ["ann,1", "bob,2", "cy,3"]}),
                 "json": Input(records={0: ['{"who": "dee", "n": 4}', '{"who": "eve", "n": 2}',
                                           '{"who": "fay", "n": 6}']})},
         outputs={"out": Output(count=6, compare="multiset")}, prints=Prints(count=6 + 4)),
    # two topics with different JSON schemas, merged with union into one keyed event-time window
    Case(name="union-window", job="union_window.py", args=["{bootstrap}", "{orders}", "{payments}", "{out}"],
         inputs={"orders": Input(records={0: ['{"user": "ann", "amount": 5, "ts": 1000}',
                                             '{"user": "bob", "amount": 7, "ts": 4000}',
                                             '{"user": "ann", "amount": 1, "ts": 12000}']}),
                 "payments": Input(records={0: ['{"customer": "ann", "value": 10, "time": 3000}',
                                               '{"customer": "bob", "value": 20, "time": 15000}',
                                               '{"customer": "cy", "value": 30, "time": 9000}']})},
         outputs={"out": Output(count=5, compare="multiset")}, prints=Prints(count=5)),
    # connect: two topics of different types through a CoMapFunction (a None result dropped) into print and
    # Kafka, and through a CoFlatMapFunction counting per input in a Python attribute of each instance
    Case(name="connect-comap", job="connect_comap.py", args=["{bootstrap}", "{words}", "{numbers}", "{out}"],
         # topic names whose partition Flink gives to reader 0 (words) and 1 (numbers): prefixes compared
         inputs={"words": Input(records={0: ["kafka", "spark", "flink", "io"]}, first_reader=(2, 0)),
                 "numbers": Input(records={0: ["3", "0", "4", "5", "7"]}, first_reader=(2, 1))},
         outputs={"out": Output(count=8, compare="multiset")}, prints=Prints(count=16, parallelism=2)),
    # a keyed co-process join of orders and payments: shared state and event-time timers (timeouts), a
    # different watermark strategy per input
    Case(name="co-process-join", job="co_process_join.py",
         args=["{bootstrap}", "{orders}", "{payments}", "{out}"],
         inputs={"orders": Input(records={0: ["o1,100,1000", "o2,50,2000", "o3,75,3000", "o4,20,4000",
                                              "o5,10,5000"]}),
                 "payments": Input(records={0: ['{"order": "o1", "paid": 100, "time": 1500}',
                                               '{"order": "o6", "paid": 5, "time": 2500}',
                                               '{"order": "o3", "paid": 70, "time": 3500}',
                                               '{"order": "o5", "paid": 10, "time": 5500}']})},
         outputs={"out": Output(count=6, compare="multiset")}, prints=Prints(count=6, parallelism=2)),
    # a broadcast rule stream (two broadcast states) applied to a keyed stream with keyed state and timers
    Case(name="broadcast-rules", job="broadcast_rules.py", args=["{bootstrap}", "{rules}", "{events}", "{out}"],
         inputs={"rules": Input(records={0: ['{"category": "books", "threshold": 50}',
                                            '{"category": "games", "threshold": 20}',
                                            '{"category": "books", "threshold": 30}',
                                            '{"category": "toys", "threshold": 5}',
                                            '{"category": "toys", "delete": true}']}),
                 "events": Input(records={0: ["ann,books,40,1000", "bob,games,25,2000", "ann,toys,3,3000",
                                              "cy,food,9,4000", "bob,books,20,5000", "dee,games,20,6000"]})},
         outputs={"out": Output(count=6, compare="multiset")}, prints=Prints(count=6, parallelism=2)),
    # key groups from the environment's and an operator's max parallelism decide each key's subtask (print
    # prefixes, RuntimeContext); rebalance/shuffle/rescale on the way
    Case(name="max-parallelism", job="max_parallelism.py", args=[], prints=Prints(count=32, parallelism=2)),
    # CSV row schemas: what Flink's CSV writer produces is read, transformed and written back byte for byte
    # (one job of four pipelines, one per mode: default options and every type, every builder option changed,
    # malformed records ignored, many records of simple types)
    Case(name="csv-row-schemas", job="csv_roundtrip.py",
         args=["{bootstrap}", "default", "{default}", "{default_out}", "options", "{options}", "{options_out}",
               "ignore-errors", "{ignore}", "{ignore_out}", "simple", "{simple}", "{simple_out}"],
         inputs={"default": Input(records={0: [
             'apple,3,1.5,true,red;green,1.50,2020-01-02,"2020-01-02 03:04:05.0",1;x,AQID,0.1,9223372036854775807\n',
             '"pear, big",1,-0.0,false,,1E+3,1999-12-31,"2021-06-01 00:00:00.123","2;y z",,1.0E10,-5\n',
             '"it""s",0,1.0,true,a,1,2000-01-01,"2000-01-01 00:00:00.0",3;q,,1.0,1\n',
             '"a#b",7,1.0E-4,false,"a b;""c""",0.00000001,2024-02-29,"2024-02-29 23:59:59.999",4;,AA==,3.4028235E38,0\n',
             '"  spaced  ",2,100000000.0,true,"x,y;z",-12.5,2020-1-2,"2020-01-02 03:04:05",5;,/w==,1.5,42\n']}),
                 "options": Input(records={0: [
             "apple;3;1.5;true;1|2|3", "'pear;big';NULL;2.0;false;", "it\\'s;5;NULL;NULL;NULL",
             "#comment line\n'x''y';4;1e3;TRUE;7", "'tab\there';0;1;true;1", "back\\\\slash;6;-1.25;false;4|NULL|5"]}),
                 "ignore": Input(records={0: [
             "a,1,1.0,true,1;2", "b,x,2.0,yes,3", '"unclosed,1,1.0,true,1', "c,2,1.0,true,1,extra", "d,3",
             "e,null,null,null,null", "f,0,1.0,true,1", "g,4,1.0,true,1;x;2", '"h, i",5,1.5,false,', ""]}),
                 "simple": Input(records={0: ["item %d,%s,%d, %r ,%s\n" % (
             i, "NA" if i % 7 == 3 else i % 5, i * 10 ** 12, i / 7 * 10 ** (i % 12 - 4), ["true", "FALSE", "x"][i % 3])
             for i in range(600)]})},
         outputs={"default_out": Output(count=4), "options_out": Output(count=5), "ignore_out": Output(count=6),
                  "simple_out": Output(count=600 - 120 + 17)}),
    # JSON rows (JsonRowDeserializationSchema / JsonRowSerializationSchema): read JSON the harness wrote, map,
    # filter, write JSON; the output bytes of both engines must be equal (lenient conversions, missing and
    # extra fields, containers read as STRING, BIG_DEC, dates and timestamps, arrays, maps, nested rows)
    # (one job of two pipelines; the second with ignore_parse_errors: malformed records are skipped, fields that
    # fail become null)
    Case(name="json-rows", job="json_rows.py",
         args=["{bootstrap}", "strict", "{strict}", "{strict_out}", "ignore", "{ignore}", "{ignore_out}"],
         inputs={"strict": Input(records={0: [
             '{"id":1,"name":"apple","price":1.5,"qty":3,"ok":true,"amount":12.50,"day":"2024-02-29",'
             '"at":"2024-02-29T10:11:12.345Z","tags":["a","b"],"attrs":{"x":1,"y":null},'
             '"where":{"city":"Bern","zip":3000,"extra":1},"raw":{"k":[1,2.5,"s",null,false]}}',
             '{"id":"2","name":"pear","price":"2","qty":4.9,"ok":"TRUE","amount":"0.10","day":"2020-01-01",'
             '"at":"2020-01-01T00:00:00Z","tags":[],"attrs":{},"raw":17}',
             '{"id":3,"name":"dropped by the filter"}',
             '{"id":4}',
             ' {"id":5,"name":"\\u00dcn\\u00ef \\"q\\"","raw":"plain","unknown":[1,2],"where":null} ',
             'null',
             '{"id":6,"name":"also dropped"}',
             '{"id":7,"price":1e-5,"qty":9007199254740993,"amount":1E+3,"raw":12345678.9,"tags":["x",null]}',
             '{"id":8,"at":"2024-01-01T00:00:00.5Z","price":12345678.9,"amount":-0.000001,'
             '"attrs":{"big":2147483647},"raw":[true,{"a":{}}]}']}),
                 "ignore": Input(records={0: [
             '{"id":10,"name":"ok"}', '{"id":11,', 'garbage', '[1]', '', '{"id":"x","name":"bad id"}',
             '{"id":13,"day":"not a date","price":"abc","at":"2024-01-01 00:00:00","tags":5}', '{"id":14}']})},
         outputs={"strict_out": Output(count=6), "ignore_out": Output(count=4)}),
    # a row type derived from a JSON Schema (json_schema()): integers and numbers as BIG_DEC, a $ref, arrays
    Case(name="json-schema-rows", job="json_schema_rows.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: [
             '{"id":1,"name":"a","price":1.50,"ok":true,"day":"2024-02-29","tags":["x","y"],"scores":[1,2.5,1e3],'
             '"where":{"city":"Bern","zip":3000}}',
             '{"id":12345678901234567890,"price":-0.0001,"ok":false,"tags":[],"scores":[null]}',
             '{"id":"3","name":null,"price":"7","where":{"zip":1.0}}',
             # written back as Flink's Jackson writes: the emoji as two escaped surrogates, \u001F upper-case
             '{"id":4,"name":"\U0001F6A8 x\\u001fy \u00e9\u2028"}']})},
         outputs={"out": Output(count=4)}, prints=Prints(count=4)),
    # ProcessFunction: record timestamps, side outputs, timers refused; assign_timestamps_and_watermarks
    Case(name="process-functions", job="process_functions.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["a", "word", "timer", "xy", "longer"]}, timestamp_ms=TS)},
         outputs={"out": Output(count=6, timestamps=True)}, prints=Prints(count=3 + 5 + 5 + 2)),
    # keyed rolling aggregations (reduce, sum, min_by, keyed filter, ValueState): one output per element,
    # each key on the subtask PyFlink runs it on (print's "N>" prefixes compared as they are)
    Case(name="keyed-rolling", job="keyed_rolling.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["a,1", "b,2", "a,3", "c,4", "b,5", "a,6", "c,7", "b,8", "a,9", "c,10"]},
                             timestamp_ms=TS)},
         outputs={"out": Output(count=10, compare="multiset",
                                order_key=lambda v: (v.split()[0], int(v.split()[1].split("=")[1])))},
         prints=Prints(count=35, parallelism=2)),
    # rolling aggregations on Rows (and a reduce changing its accumulator in place): each output its own value
    Case(name="rolling-rows", job="rolling_rows.py", args=[], prints=Prints(count=30)),
    # event-time windows with timestamps from the records, out of order within the bound: tumbling (reduce,
    # aggregate), sliding and session windows (process), an event-time timer; all fire by the end of input
    Case(name="event-time-windows", job="event_time_windows.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: [
             "a,1000,1", "b,2000,2", "a,4000,3", "a,3000,4", "b,9000,5", "a,11000,6", "b,8000,7", "a,12500,8",
             "b,15000,9", "a,14000,10", "b,21000,11", "a,17000,12", "a,30000,13", "b,26000,14", "b,27500,15"]})},
         outputs={"out": Output(count=6, compare="multiset")}, prints=Prints(count=49)),
    # two keyed stages in one pipeline: windows and timers of the second fire on the first stage's watermarks;
    # the first stage's outputs also printed (one instance of it feeds its sink and the second stage)
    Case(name="two-keyed-stages", job="two_keyed_stages.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: [
             "a,1000,1", "b,2000,2", "a,4000,3", "a,3000,4", "c,12000,5", "b,11000,6", "a,13000,1", "b,14000,7",
             "c,21000,1", "b,25000,4", "a,24000,2", "c,33000,3"]})},
         outputs={"out": Output(count=4, compare="multiset")}, prints=Prints(count=11 + 9 + 12, parallelism=2)),
    # a job split over modules and a package beside it, each importing pyflink (as many real projects are):
    # the job's own modules import in every worker, keyed state and windows included
    Case(name="multi-module-job", job="multi_module/job.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["alice,1000,5", "bob,2000,7", "alice,4000,1", "alice,12000,3",
                                          "bob,9000,2", "carol,15000,4", "bob,21000,6", "alice,19000,8"]})},
         outputs={"out": Output(count=5, compare="multiset")}, prints=Prints(count=13)),
    # partition_custom (a Partitioner, and a callable after a keyed rolling sum), project, cache: each element
    # printed by the instance its partitioner picks ("N>" compared as they are) and seen there by open()
    Case(name="custom-partitioning", job="custom_partitioning.py",
         args=["{bootstrap}", "{in}", "{out}", "{cached}"],
         inputs={"in": Input(partitions=2, records={0: ["ann,5", "bob,7", "ann,1", "carla,12", "bob,3", "ann,9"],
                                                    1: ["eve,4", "dan,2", "fay,8", "dan,6", "eve,10", "dan,11"]})},
         outputs={"out": Output(count=12, compare="multiset"), "cached": Output(count=12, compare="multiset")},
         prints=Prints(count=24, parallelism=3)),
    # a keyed operation's output connected with a second topic (CoMap to Kafka; KeyedCoProcessFunction with state
    # and timers) and merged with it (union) into a second keyed operation: one query, the second topic read
    # into the later stages through the first; and connected with a keyed operation of the second topic (two
    # keyed operations meeting in a third)
    Case(name="connect-after-keyed", job="connect_after_keyed.py",
         args=["{bootstrap}", "{orders}", "{limits}", "{tagged}"],
         inputs={"orders": Input(partitions=2, records={0: ["ann,5", "bob,7", "ann,1", "bob,3", "ann,9"],
                                                        1: ["cid,4", "dee,2", "cid,8", "eve,6"]}),
                 "limits": Input(records={0: ["ann,10", "bob,20", "cid,5", "dee,1", "fay,3"]})},
         outputs={"tagged": Output(count=14, compare="multiset")}, prints=Prints(count=18, parallelism=2)),
    # late data: records behind the watermark by more than the allowed lateness go to the side output
    # ... with the window's results and late records also written to Kafka: four sinks of one window instance
    Case(name="late-data", job="late_data.py", args=["{bootstrap}", "{in}", "{out}"], bounded=False,
         inputs={"in": Input(records={0: ["a,1000,1", "a,2000,2", "a,25000,3"]},
                             late={0: ["a,3000,4", "a,19000,5", "a,24000,6"]})},
         outputs={"out": Output(count=3, compare="multiset")}, prints=Prints(count=3)),
    # set_parallelism on operators: a keyed stage at 3 subtasks between the source's 2 readers and a keyed stage at
    # 2; partition_custom's partitioner asked for one of the 3 partitions of the map after it
    Case(name="stage-parallelism", job="stage_parallelism.py", args=["{bootstrap}", "{in}", "{keyed}", "{custom}"],
         inputs={"in": Input(partitions=2, records={0: ["ann,5", "bob,7", "ann,1", "carla,12", "bob,3", "ann,9"],
                                                    1: ["eve,4", "dan,2", "fay,8", "dan,6", "eve,10", "dan,11"]})},
         outputs={"keyed": Output(count=12, partitions=1, compare="multiset"),
                  "custom": Output(count=12, compare="multiset")}),
    # one source, five consumers (print, two Kafka sinks, a side output, a window with allowed lateness and its
    # late-data output); the map numbering its calls numbers each element once, on from one micro-batch to the
    # next; the late input comes after the window fired
    Case(name="counted-fan-out", job="counted_fan_out.py", args=["{bootstrap}", "{in}", "{all}", "{big}"],
         bounded=False, late_after="window>",
         inputs={"in": Input(records={0: ["a,1000,1", "a,2000,200", "b,3000,2", "a,25000,3"]},
                             late={0: ["a,3000,4", "a,19000,5", "b,24000,150", "a,24500,6"]})},
         outputs={"all": Output(count=8), "big": Output(count=2)}, prints=Prints(count=8 + 2 + 2)),
    # Flink SQL, three statement sets in one table environment: projections and filters of a Kafka JSON table
    # into print and Kafka (a malformed message, numbers as strings, TIMESTAMP text); GROUP BY changelogs, a view
    # and a subquery; TUMBLE / HOP / SESSION windows over a computed rowtime with WATERMARK FOR, into print and
    # Kafka; ORDER BY a time attribute; batch-mode windows over a TIMESTAMP column that is no time attribute and
    # ROW_NUMBER() / RANK() of every row
    Case(name="sql-statement-sets", job="sql_statement_sets.py",
         args=["{bootstrap}", "{orders}", "{out}", "{clicks}", "{windows}"],
         inputs={"orders": Input(records={0: [
             '{"id":1,"customer":"ann","amount":10.5,"ts":"2024-01-02 03:04:05.678"}',
             '{"id":2,"customer":"bob","amount":120,"ts":"2024-01-02 03:04:00"}',
             '{"id":3,"customer":"carla","ts":"2024-01-02T03:04:05"}', 'not json',
             '{"id":4,"customer":"carla","amount":75.25,"ts":"2024-01-02 03:04:05.1"}',
             '{"id":5,"customer":null,"amount":1e8,"ts":"2024-01-02 03:04:05.123456"}',
             '{"id":"7","customer":5,"amount":"2.5"}', '{"id":200,"customer":"bob","amount":1}',
             '{"id":6,"customer":"bob","amount":-120}', '{"id":8,"customer":null}']}),
                 "clicks": Input(records={0: [
             '{"usr":"ann","url":"/a","at":"2024-01-02T03:04:01.000"}',
             '{"usr":"bob","url":"/b","at":"2024-01-02T03:04:03.500"}', '{"usr":"ann","at":"2024-01-02T03:04:08.000"}',
             '{"usr":"ann","url":"/c","at":"2024-01-02T03:04:12.000"}',
             '{"usr":"cat","url":"/f","at":"2024-01-02T03:04:12.000"}',
             '{"usr":"bob","url":"/d","at":"2024-01-02T03:04:25.000"}',
             '{"usr":"ann","url":"/late","at":"2024-01-02T03:04:05.000"}',
             '{"usr":"bob","url":"/e","at":"2024-01-02T03:04:27.250"}']})},
         outputs={"out": Output(count=3), "windows": Output(count=5, compare="multiset")},
         prints=Prints(count=119, order="per-identifier")),
    # Flink SQL with message keys: a raw key read into a column (EXCEPT_KEY), a two-column JSON key written over
    # two partitions, GROUP BY into upsert-kafka (a NULL key dropped by the NOT NULL enforcer); TableResult.print()
    # of DDL, INSERT jobs and queries (tableau with -U / +U, "Empty set"), collect() with row kinds; an upsert-kafka
    # table read (ChangelogNormalize, a filter in it) into print, another upsert-kafka table and a tableau; the
    # csv format read (ignore-parse-errors) and written (a csv key, a delimiter and a null literal)
    Case(name="sql-keys-and-results", job="sql_keys_and_results.py",
         args=["{bootstrap}", "{events}", "{keyed}", "{totals}", "{upserts}", "{copy}", "{csv_in}", "{csv_out}"],
         inputs={"events": Input(records={0: [
             ("ann", '{"id":1,"amount":5,"note":"first"}'),
             ("bob", '{"id":2,"amount":20,"note":"a-note-that-is-much-longer-than-thirty-characters"}'),
             (None, '{"id":3,"amount":7}'), ("ann", '{"id":4,"amount":-3,"note":"refund"}'),
             ("carla", '{"id":5,"amount":12}'), ("ann", '{"id":6,"amount":30,"note":null}'),
             ("bob", '{"id":7,"amount":0}')]}),
                 "upserts": Input(records={0: [
             ('{"usr":"ann"}', '{"usr":"ann","total":1,"note":"a"}'),
             ('{"usr":"bob"}', '{"usr":"bob","total":2,"note":"b"}'),
             ('{"usr":"ann"}', '{"usr":"ann","total":5,"note":"b"}'), ('{"usr":"bob"}', None),
             ('{"usr":"ann"}', '{"usr":"ann","total":5,"note":"b"}'), ('{"usr":"carla"}', None),
             ('{"usr":"bob"}', '{"usr":"bob","total":7,"note":"a"}'),
             ('{"usr":"ann"}', '{"usr":"ann","total":2,"note":"a"}')]}),
                 "csv_in": Input(records={0: [
             ("1", "ann,2.5,true,2024-01-02 03:04:05.123"), ("2", '"b,ob",,false,2024-01-02 03:04:05'),
             ("3", '"quote""d", 3 ,TRUE,'), ("x", "bad,1,true,2024-01-02 03:04:05"), ("4", "short"),
             ("5", "extra,1.0,true,2024-01-02 03:04:05,more"), ("6", ",1e3,false,2024-01-02T03:04:05"),
             ("7", '"multi\nline",1,true,2024-01-02 03:04:05'), ("8", "nul,NaN,yes,2024-01-02 03:04:05.5")]})},
         outputs={"keyed": Output(count=5, partitions=2, keys=True),
                  "totals": Output(count=6, partitions=2, keys=True),
                  "copy": Output(count=3 + 6 + 6, keys=True), "csv_out": Output(count=8, keys=True)},
         prints=Prints(count=35 + 19 + 9 + 16 + 2 + 8 + 6 + 2 + 2 + 3 + 3, order="exact")),
    # Flink SQL word count of raw lines with CROSS JOIN UNNEST(SPLIT(...)) and GROUP BY into print (empty words
    # too: SPLIT keeps empty pieces); UNNEST with a filter, LEFT JOIN UNNEST ... ON TRUE, SPLIT / CARDINALITY /
    # SPLIT_INDEX printed as tableaus; COUNT(DISTINCT ...) / SUM(DISTINCT ...) in a GROUP BY changelog
    Case(name="sql-word-count", job="sql_word_count.py", args=["{bootstrap}", "{lines}"],
         inputs={"lines": Input(records={0: ["to be or not to be", "", "a  b", "  lead", "trail ", "to",
                                             '{"user":"ann","n":3,"x":1.50,"tags":["a","b"],"big":1e3}']})},
         prints=Prints(count=115 + 43 + 27 + 3, order="exact")),
    # Flink SQL over JSON with DECIMAL, DATE, ROW, MAP and ARRAY columns: the values as read (a DECIMAL rounded half
    # up, NULL when too wide; a price given as a string), decimal arithmetic and its result types (1.5 is a
    # DECIMAL), ROW field access, map and array subscripts, casts, SUM / AVG / MIN / MAX of a DECIMAL grouped by a
    # ROW's field, a GROUP BY of a DATE and a DECIMAL on Flink's subtasks, nested values written as JSON; VALUES rows
    Case(name="sql-typed-columns", job="sql_typed_columns.py", args=["{bootstrap}", "{orders}", "{nested}"],
         inputs={"orders": Input(records={0: [
             '{"id": 1, "price": 12.5, "day_": "2024-01-02", "buyer": {"name": "ann", "age": 30}, "tags": {"a": 1, "b": 2}, "items": [1, 2, 3]}',
             '{"id": 2, "price": "12.345", "day_": "2024-12-31", "buyer": {"name": "bob", "age": null}, "tags": {}, "items": []}',
             '{"id": 3, "price": 12.344, "day_": null, "buyer": null, "tags": null, "items": null}',
             '{"id": 4, "price": 12345.6, "day_": "2024-02-29", "buyer": {"name": "c"}, "tags": {"z": 26}, "items": [null, 5]}',
             '{"id": 5, "price": 1e2, "day_": "2024-03-01", "buyer": {"name": "d", "age": 4, "extra": 1}, "tags": {"k": null}, "items": [7]}',
             '{"id": 6, "price": -0.005, "day_": "2024-03-02", "buyer": {"name": "e", "age": 5}, "tags": {"k": 3}, "items": [8]}',
             '{"id": 7, "price": 0.0000001, "day_": "2024-03-03", "buyer": {"name": "f", "age": 6}, "tags": {"k": 4}, "items": [9]}']})},
         outputs={"nested": Output(count=7)}, prints=Prints(count=65 + 22 + 20 + 1, order="per-identifier",
                                                              # VALUES with a CAST row: Flink unions two inputs
                                                              unordered=("valued",))),
    # Flink SQL window table functions: TUMBLE per user into print and Kafka, HOP and CUMULATE over all users,
    # window_time in a tableau; GROUP BY window_start, window_end (and keys) as Flink's window aggregation; Top-N
    # and deduplication (ROW_NUMBER) over a 'datagen' table, their changelogs in Flink's order; ORDER BY ... LIMIT,
    # LIMIT, OFFSET, ORDER BY without LIMIT (Flink's TableException)
    Case(name="sql-window-tvf", job="sql_window_tvf.py", args=["{bootstrap}", "{clicks}", "{windows}"],
         inputs={"clicks": Input(records={0: [
             '{"usr":"ann","url":"/a","ts":"2024-01-02 03:04:01"}',
             '{"usr":"bob","url":"/b","ts":"2024-01-02 03:04:03.500"}', '{"usr":"ann","ts":"2024-01-02 03:04:08"}',
             '{"usr":"ann","url":"/c","ts":"2024-01-02 03:04:12"}', '{"usr":"bob","url":"/d","ts":"2024-01-02 03:04:25"}',
             '{"usr":"ann","url":"/late","ts":"2024-01-02 03:04:05"}',
             '{"usr":"bob","url":"/e","ts":"2024-01-02 03:04:27.250"}']})},
         outputs={"windows": Output(count=4)}, prints=Prints(count=18 + 4 + 181 + 67 + 5 + 69 + 10, order="per-identifier",
                                                      unordered=("session", "cascaded"))),
    # Flink SQL regular inner joins: an equality and a further condition into print, an equality into Kafka, a
    # GROUP BY over a join as a tableau (the joined rows' order depends on how the two inputs interleave); UNION
    # ALL of three queries (two reading one table) into print and of two as a tableau; the tables a LEFT, a RIGHT
    # and a FULL JOIN leave (their changelogs applied), joins after an outer join and of a GROUP BY view (applied
    # too); an interval join written FROM a, b WHERE ...; 'datagen' tables: sequences
    # shared out over two subtasks into print, a GROUP BY of them on Flink's subtasks, and a TUMBLE window over a
    # bounded one as a tableau
    Case(name="sql-join-union", job="sql_join.py", args=["{bootstrap}", "{orders}", "{payments}", "{out}"],
         inputs={"orders": Input(records={0: [
             '{"id":1,"customer":"ann","amount":10,"ts":"2024-01-02 03:00:00"}',
             '{"id":2,"customer":"bob","amount":5,"ts":"2024-01-02 03:10:00"}',
             '{"id":3,"customer":"ann","amount":7.5,"ts":"2024-01-02 03:40:00"}',
             '{"id":4,"customer":"carla","amount":1,"ts":"2024-01-02 03:50:00"}']}),
                 "payments": Input(records={0: [
             '{"id":100,"order_id":2,"paid":5,"ts":"2024-01-02 03:15:00"}',
             '{"id":101,"order_id":1,"paid":4,"ts":"2024-01-02 03:20:00"}',
             '{"id":102,"order_id":1,"paid":10,"ts":"2024-01-02 04:20:00"}',
             '{"id":103,"order_id":9,"paid":1,"ts":"2024-01-02 04:25:00"}',
             '{"id":104,"order_id":3,"paid":8,"ts":"2024-01-02 04:25:00"}',
             '{"id":105,"order_id":null,"paid":3,"ts":"2024-01-02 04:30:00"}']})},
         outputs={"out": Output(count=4, compare="multiset")}, prints=Prints(count=36 + 3 + 15 + 11 + 2 + 13 + 9 + 2 + 3 + 11 + 1 + 3 + 12 + 1 + 7 + 9 + 1 + 9 + 3)),
    # The Table API with Python functions from a module of the job's: where / select / join_lateral(udtf) /
    # udf / flat_map / map / union_all into print and Kafka from a statement set; group_by into upsert-kafka;
    # a Tumble event-time window; print_schema() of derived tables; a udf and a udtf registered for SQL and
    # called by name from the Table API (built-ins too);
    # from_elements with names, with inferred names and types, with a DataTypes.ROW schema
    Case(name="table-api", job="table_api.py", args=["{bootstrap}", "{events}", "{tagged}", "{totals}"],
         inputs={"events": Input(records={0: [
             '{"id":1,"usr":"ann","tags":"red|blue","amount":12.5,"ts":"2024-01-02 03:04:01"}',
             '{"id":2,"usr":"bob","tags":"green","amount":3,"ts":"2024-01-02 03:04:02.500"}', 'not json',
             '{"id":3,"usr":"ann","tags":null,"amount":40,"ts":"2024-01-02 03:04:04"}',
             '{"id":4,"usr":"carla","tags":"red||yellow","amount":10,"ts":"2024-01-02 03:04:06"}',
             '{"id":5,"usr":"bob","tags":"blue","amount":null,"ts":"2024-01-02 03:04:07"}',
             '{"id":6,"usr":"ann","tags":"","amount":0.25,"ts":"2024-01-02 03:04:12"}',
             '{"id":7,"usr":null,"tags":"gray","amount":99,"ts":"2024-01-02 03:04:13"}']})},
         # the union's branches are separate Python operators on Flink: their order into the topic varies by run
         outputs={"tagged": Output(count=18, compare="multiset"), "totals": Output(count=6, keys=True)},
         prints=Prints(count=88 + 46 + 16 + 36 + 33 + 18 + 16 + 7, order="per-identifier",
                       unordered=("shown", "joined", "matched", "padded", "spans"))),
    # DataStreams and tables in one job: from_data_stream of ROW / TUPLE / STRING streams (print_schema), a query
    # of a stream's table inserted by a job of its own, to_changelog_stream of a GROUP BY (-U / +U kept through
    # the DataStream job), to_data_stream rows on through key_by / reduce into print and Kafka; from_changelog_stream
    # of +I / -U / +U / -D Rows read by a GROUP BY, a projection and to_changelog_stream
    Case(name="table-bridge", job="table_bridge.py", args=["{bootstrap}", "{lines}", "{out}"],
         inputs={"lines": Input(records={0: ["the cat sat on the mat", "", "The Hat", "a cat and a hat",
                                             "extraordinary"]}, timestamp_ms=1704164640000,
                                   timestamp_step_ms=1500)},
         outputs={"out": Output(count=13)}, prints=Prints(count=148 + 6 + 11, order="per-identifier")),
    # Flink SQL metadata columns: the record timestamp as a TIMESTAMP_LTZ(3) rowtime, partition / offset / topic
    # VIRTUAL, computed columns of them; printed (instants as ...Z), written to a Kafka table whose 'timestamp'
    # metadata column sets the records' timestamps (compared), tableaus, print_schema() of the table and a query;
    # tables a TableDescriptor declares
    Case(name="sql-metadata", job="sql_metadata.py", args=["{bootstrap}", "{events}", "{stamped}"],
         inputs={"events": Input(records={0: [
             '{"id":1,"usr":"ann","millis":1704164645123}', '{"id":2,"usr":"bob","millis":0}', '{"id":3,"usr":"ann"}',
             '{"id":4,"usr":"carla","millis":1704164700000}']}, timestamp_ms=1704164645123, timestamp_step_ms=4500)},
         outputs={"stamped": Output(count=4, timestamps=True, timestamps_from_input=False)},
         prints=Prints(count=56 + 4 + 9 + 6, order="exact")),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_side_by_side(case, oracle_python, bootstrap):
    run_case(case, oracle_python, bootstrap)

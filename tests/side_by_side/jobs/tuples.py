"""TUPLE streams: printed (Java's Tuple toString), seen by functions, collected, and as row fields.

Usage: tuples.py
"""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

PAIR = Types.TUPLE([Types.STRING(), Types.INT()])
TRIPLE = Types.TUPLE([Types.STRING(), Types.FLOAT(), Types.BOOLEAN()])

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
words = env.from_collection(["a", "bb", "ccc", "bb", ""], type_info=Types.STRING())
pairs = words.map(lambda w: (w, len(w)), output_type=PAIR)
pairs.print("pair")
pairs.filter(lambda p: p[1] > 1).map(lambda p: "fn %s %r %s" % (type(p).__name__, p, p[0]),
                                     output_type=Types.STRING()).print("fn")
env.from_collection([("x", 0.1, True), ("y", -0.0, False), ("z", 2.5, True)], type_info=TRIPLE).print("triple")
env.from_collection([Row(id=1, pair=("p", 7)), Row(id=2, pair=("q", 0))],
                    type_info=Types.ROW_NAMED(["id", "pair"], [Types.INT(), PAIR])) \
    .map(lambda r: "%s %r" % (r.id, r.pair), output_type=Types.STRING()).print("nested")
env.execute("side-by-side tuples")

with words.map(lambda w: (w.upper(), len(w)), output_type=PAIR).execute_and_collect() as results:
    for item in results:
        print("collect %s %r" % (type(item).__name__, item))

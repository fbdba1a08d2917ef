"""The Python objects user code gets for each field type of a ROW_NAMED stream: inside a function
(``fn ...`` lines, printed by print()) and from execute_and_collect() (``collect ...`` lines, printed by
the job itself).

PyFlink 2.3.0 itself fails to collect a SQL_TIMESTAMP field, or a null FLOAT or array field, inside a row
("'bytearray' object has no attribute 'timestamp'", "malformed node or string: None", "'NoneType' object
is not iterable"), so the collected rows have none; the function view has them.
Usage: python_types.py
"""
import datetime
import decimal

from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

FIELDS = ["i", "l", "f", "d", "b", "s", "day", "ts", "dec", "ints", "m", "raw", "inner"]
TYPES = [Types.INT(), Types.LONG(), Types.FLOAT(), Types.DOUBLE(), Types.BOOLEAN(), Types.STRING(),
         Types.SQL_DATE(), Types.SQL_TIMESTAMP(), Types.BIG_DEC(), Types.LIST(Types.INT()),
         Types.MAP(Types.STRING(), Types.INT()), Types.PRIMITIVE_ARRAY(Types.BYTE()),
         Types.ROW_NAMED(["x", "y"], [Types.INT(), Types.STRING()])]
ROW = Types.ROW_NAMED(FIELDS, TYPES)
COLLECTED = [n for n in FIELDS if n != "ts"]
COLLECTED_ROW = Types.ROW_NAMED(COLLECTED, [t for n, t in zip(FIELDS, TYPES) if n != "ts"])


def describe(prefix, row, fields):
    return ["%s %d %s %s %r" % (prefix, row.i if row.i is not None else -1, name, type(row[name]).__name__,
                                row[name]) for name in fields]


FULL = Row(i=1, l=2 ** 40, f=0.1, d=1e-7, b=True, s="x", day=datetime.date(2024, 2, 29),
           ts=datetime.datetime(2024, 1, 2, 3, 4, 5, 678000), dec=decimal.Decimal("1.5"), ints=[1, 2],
           m={"a": 1}, raw=b"\x00\xff", inner=Row(x=7, y="in"))
NULLS = Row(i=None, l=None, f=None, d=None, b=None, s=None, day=None, ts=None, dec=None, ints=None, m=None,
            raw=None, inner=None)
OTHER = Row(i=-5, l=0, f=2.5, d=-0.0, b=False, s="", day=datetime.date(1970, 1, 1),
            dec=decimal.Decimal("-0.25"), ints=[], m={}, raw=b"", inner=Row(x=0, y=""))

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([FULL, NULLS], type_info=ROW).map(lambda r: r, output_type=ROW) \
    .flat_map(lambda r: describe("fn", r, FIELDS), output_type=Types.STRING()).print()
env.execute("side-by-side python types: functions")

collected = [Row(**{n: r[n] for n in COLLECTED}) for r in (FULL, OTHER)]
ds = env.from_collection(collected, type_info=COLLECTED_ROW).map(lambda r: r, output_type=COLLECTED_ROW)
with ds.execute_and_collect() as results:
    for row in results:
        for line in describe("collect", row, COLLECTED):
            print(line)

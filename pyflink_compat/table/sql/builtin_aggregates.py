"""Built-in aggregates whose accumulator is more than a number: the variance family (VAR_POP, VAR_SAMP / VARIANCE,
STDDEV_POP, STDDEV_SAMP / STDDEV), LISTAGG, JSON_ARRAYAGG, ARRAY_AGG and JSON_OBJECTAGG. Each is an object with
``initial`` / ``accumulate`` / ``retract`` / ``merge`` / ``result`` (the aggregate operators call them as they
call a Python aggregate function's, but emit per row, as Flink's built-in aggregates do).

The variance family is computed as Flink 2.x's planner rewrites it: the sum of squared differences from the mean
by Welford's online algorithm in double precision (values taken back by its inverse step, accumulators merged by
Chan's formula), divided by COUNT(x) (the population) or COUNT(x) - 1 (the sample; NULL for one value), its
square root as POWER(v, 0.5), then cast to the result type: the argument's type (so STDDEV_POP of an INT column
is an INT, truncated), DECIMAL(38, max(6, s)) for a DECIMAL(p, s)."""
import math

from pyflink_compat.table.sql.catalog import SqlType

_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}


class BuiltinAggregate:
    """Base of the aggregates of this module: an aggregate "name" with methods of its own."""
    order_sensitive = False          # whether its result depends on the order values come in

    def __eq__(self, other):
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash((type(self).__name__, tuple(sorted(self.__dict__.items()))))


def _to_integer(value: float, bits: int) -> int:
    """Java's cast of a double to an integer type: NaN is 0, a value beyond the range its nearest bound."""
    if math.isnan(value):
        return 0
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return max(low, min(high, int(value)))


class Variance(BuiltinAggregate):
    """VAR_POP / VAR_SAMP / STDDEV_POP / STDDEV_SAMP of one numeric column (``kind``: its type's name; ``scale``:
    a DECIMAL column's scale). The accumulator: (n, mean, m2) of Welford's algorithm over the values as doubles."""
    order_sensitive = True

    def __init__(self, function: str, kind: str, scale: int = None):
        self.function, self.kind, self.scale = function, kind, scale

    def result_type(self) -> SqlType:
        if self.kind == "DECIMAL":
            return SqlType("DECIMAL", precision=38, scale=max(6, self.scale))
        return SqlType(self.kind)

    def initial(self):
        return 0, 0.0, 0.0

    def accumulate(self, accumulator, value):
        if value is None:
            return accumulator
        n, mean, m2 = accumulator
        n += 1
        if n <= 0:                    # more taken back than added: only counted, as Flink counts it
            return n, mean, m2
        value = float(value)
        delta = value - mean
        mean += delta / n
        return n, mean, m2 + delta * (value - mean)

    def retract(self, accumulator, value):
        if value is None:
            return accumulator
        n, mean, m2 = accumulator
        n -= 1
        if n <= 0:
            return (n, 0.0, 0.0) if n == 0 else (n, mean, m2)
        value = float(value)
        delta_after = value - mean
        mean -= delta_after / n
        return n, mean, m2 - (value - mean) * delta_after

    def merge(self, a, b):
        if b[0] <= 0:
            n = a[0] + b[0]
            return (n, 0.0, 0.0) if n <= 0 else (n, a[1], a[2])
        if a[0] <= 0:
            n = a[0] + b[0]
            return (n, b[1], b[2]) if n > 0 else (n, 0.0, 0.0)
        (n1, mean1, m2_1), (n2, mean2, m2_2) = a, b
        n = n1 + n2
        delta = mean2 - mean1
        return n, mean1 + float(n2) / n * delta, m2_1 + m2_2 + float(n1) * n2 / n * delta * delta

    def result(self, accumulator):
        n, _, m2 = accumulator
        if n <= 0 or m2 < 0:
            return None
        sample = self.function in ("VAR_SAMP", "STDDEV_SAMP")
        if sample and n == 1:
            return None
        value = m2 / (n - 1 if sample else n)
        if self.function.startswith("STDDEV"):
            value = math.sqrt(value)
        if self.kind in _BITS:
            return _to_integer(value, _BITS[self.kind])
        if self.kind == "FLOAT":
            from pyflink_compat.table.sql.values import single_precision
            return single_precision(value)
        if self.kind == "DECIMAL":
            from pyflink_compat.table.sql.values import decimal_of
            return decimal_of(value, 38, max(6, self.scale))
        return value


def _taken_back(values: tuple, value, distinct: bool) -> tuple:
    """``values`` without ``value`` taken back: its first occurrence (Java's List.remove); for a DISTINCT aggregate
    its last, so that the value keeps the place it was first seen at (as Flink's distinct view keeps it)."""
    if value not in values:
        return values
    kept = list(values)
    if distinct:
        del kept[len(kept) - 1 - kept[::-1].index(value)]
    else:
        kept.remove(value)
    return tuple(kept)


class ListAgg(BuiltinAggregate):
    """LISTAGG([DISTINCT] s [, separator]): the non-NULL values joined by the separator (',' by default) in the
    order they came, NULL without any. A value taken back leaves the list (its first occurrence; with DISTINCT its
    last, so that the value keeps the place it was first seen at, as Flink's distinct view keeps it)."""
    order_sensitive = True

    def __init__(self, separator: str = ",", distinct: bool = False):
        self.separator, self.distinct = separator, distinct

    def initial(self):
        return ()

    def accumulate(self, accumulator, value):
        return accumulator if value is None else accumulator + (value,)

    def retract(self, accumulator, value):
        return accumulator if value is None else _taken_back(accumulator, value, self.distinct)

    def merge(self, a, b):
        return a + b

    def result(self, accumulator):
        values = list(dict.fromkeys(accumulator)) if self.distinct else accumulator
        return self.separator.join(values) if values else None


class JsonArrayAgg(ListAgg):
    """JSON_ARRAYAGG(value [NULL | ABSENT ON NULL]): the values' JSON texts in the order they came, as a JSON array
    (``[]`` without any; NULLs left out unless NULL ON NULL). Its accumulator holds the texts (a ``null`` for a
    kept NULL); a value taken back leaves it as LISTAGG's does."""

    def __init__(self, write, keep_nulls: bool = False):
        super().__init__(",", False)
        self.write, self.keep_nulls = write, keep_nulls

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)

    def _text(self, value):
        return "null" if value is None else self.write(value)

    def accumulate(self, accumulator, value):
        if value is None and not self.keep_nulls:
            return accumulator
        return accumulator + (self._text(value),)

    def retract(self, accumulator, value):
        if value is None and not self.keep_nulls:
            return accumulator
        return super().retract(accumulator, self._text(value))

    def result(self, accumulator):
        return "[%s]" % ",".join(accumulator)


class ArrayAgg(BuiltinAggregate):
    """ARRAY_AGG([DISTINCT] value [RESPECT NULLS | IGNORE NULLS]): the values in the order they came, NULLs
    included unless IGNORE NULLS; NULL without any. A value taken back leaves the array (its first occurrence, as
    Java's List.remove; with DISTINCT its last, so that the value keeps the place it was first seen at)."""
    order_sensitive = True

    def __init__(self, distinct: bool = False, ignore_nulls: bool = False):
        self.distinct, self.ignore_nulls = distinct, ignore_nulls

    def initial(self):
        return ()

    def accumulate(self, accumulator, value):
        return accumulator if value is None and self.ignore_nulls else accumulator + (value,)

    def retract(self, accumulator, value):
        if value is None and self.ignore_nulls:
            return accumulator
        return _taken_back(accumulator, value, self.distinct)

    def merge(self, a, b):
        return a + b

    def result(self, accumulator):
        if not accumulator:
            return None
        return list(dict.fromkeys(accumulator)) if self.distinct else list(accumulator)


class JsonObjectAgg(BuiltinAggregate):
    """JSON_OBJECTAGG([KEY] key VALUE value [NULL | ABSENT ON NULL]): a JSON object of the keys (sorted, as Flink's
    JSON writer sorts them) and their values' JSON texts (``null`` for a NULL unless ABSENT ON NULL). A key taken
    back leaves the object; a key given twice fails the job, as a NULL key does (Flink's messages)."""

    def __init__(self, write, keep_nulls: bool = True):
        self.write, self.keep_nulls = write, keep_nulls

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)

    def initial(self):
        return ()

    def accumulate(self, accumulator, pair):
        from pyflink_compat.util.exceptions import JavaStyleError
        key, value = pair
        if key is None:
            raise JavaStyleError("org.apache.flink.table.api.TableRuntimeException",
                                 "Map views don't support null keys.", "execute")
        if value is None and not self.keep_nulls:
            return accumulator
        self._refuse_duplicate(accumulator, key)
        return accumulator + ((key, "null" if value is None else self.write(value)),)

    @staticmethod
    def _refuse_duplicate(accumulator, key):
        from pyflink_compat.util.exceptions import JavaStyleError
        if any(known == key for known, _ in accumulator):
            raise JavaStyleError("org.apache.flink.table.api.TableException",
                                 "Key '%s' is already present. Duplicate keys are not allowed in JSON_OBJECTAGG. "
                                 "Please ensure that keys are unique." % key, "execute")

    def retract(self, accumulator, pair):
        key = pair[0]
        return tuple(entry for entry in accumulator if entry[0] != key)

    def merge(self, a, b):
        for key, text in b:
            self._refuse_duplicate(a, key)
            a += ((key, text),)
        return a

    def result(self, accumulator):
        from pyflink_compat.util.json_strings import quote_in_text
        entries = sorted(accumulator)
        return "{%s}" % ",".join("%s:%s" % (quote_in_text(key), text) for key, text in entries)


class Filtered(BuiltinAggregate):
    """An aggregate of this module with a FILTER clause: given (whether the row is kept, its value), it passes the
    kept rows' values on (the rows the condition is false or NULL for are not added, nor taken back)."""

    def __init__(self, aggregate: BuiltinAggregate):
        self.aggregate = aggregate
        self.order_sensitive = aggregate.order_sensitive

    def initial(self):
        return self.aggregate.initial()

    def accumulate(self, accumulator, kept_value):
        kept, value = kept_value
        return self.aggregate.accumulate(accumulator, value) if kept else accumulator

    def retract(self, accumulator, kept_value):
        kept, value = kept_value
        return self.aggregate.retract(accumulator, value) if kept else accumulator

    def merge(self, a, b):
        return self.aggregate.merge(a, b)

    def result(self, accumulator):
        return self.aggregate.result(accumulator)

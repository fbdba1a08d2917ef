"""``Row`` and ``RowKind`` (mirror of ``pyflink.common.types``).

PyFlink's Row is pure Python; this module reproduces its observable behaviour:

* ``Row(*values)`` is positional, ``Row(**named)`` is named and keeps the keyword
  order; mixing both raises ``ValueError``;
* a positional row of names is a row "class": ``Person = Row("name", "age")``
  then ``Person("Alice", 11)`` is ``Row(name='Alice', age=11)``;
* only ``_fields``, ``_from_dict``, ``_row_kind`` and ``_values`` can be set as
  attributes; named fields read as attributes (``row.name``);
* equality compares the RowKind, and for named rows ignores the field order.

It also holds ``_java_str``: how Java's ``toString()`` prints a value PyFlink
handed to the JVM, which decides what ``DataStream.print()`` shows.
"""
import datetime
import decimal
import math
from enum import Enum
from typing import List

from pyflink_compat.common.time import Instant
from pyflink_compat.util.exceptions import unsupported

__all__ = ['Row', 'RowKind']


class RowKind(Enum):
    """The change a row describes; ``str()`` gives Flink's short form (``+I``, ``-U``, ``+U``, ``-D``)."""

    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3

    def __str__(self):
        return _ROW_KIND_SHORT_STRINGS[self.value]

    to_j_row_kind = unsupported("RowKind.to_j_row_kind", "unsupported-apis", "there is no JVM")


_ROW_KIND_SHORT_STRINGS = ('+I', '-U', '+U', '-D')

# How many times any Row was changed after construction (item assignment, set_row_kind,
# set_field_names). The runtime reads it around a filter: when no row changed, the kept elements
# are still exactly the stored values, and it keeps the stored column instead of re-encoding them.
_mutations = 0


def _count_mutation():
    global _mutations
    _mutations += 1


def mutation_count() -> int:
    return _mutations


def _named_rows(columns, names) -> list:
    """Rows of INSERT kind named ``names`` from per-field value lists (the runtime's fast path: the
    same rows ``Row(*values)`` + ``set_field_names(names)`` make, in half the time)."""
    new = object.__new__
    insert = RowKind.INSERT
    rows = []
    append = rows.append
    for values in zip(*columns):
        row = new(Row)
        state = row.__dict__
        state['_values'] = list(values)
        state['_fields'] = names
        state['_row_kind'] = insert
        append(row)
    return rows


def _create_row(fields, values, row_kind: RowKind = None) -> 'Row':
    """Rebuilds a Row from its parts (used by pickling and by row "classes")."""
    row = Row(*values)
    if fields is not None:
        row._fields = fields
    if row_kind is not None:
        row._row_kind = row_kind
    return row


class Row(object):
    """A row of values, positional or named (see the module docstring for the rules)."""

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Can not use both args and kwargs to create Row")
        if kwargs:
            self._fields = list(kwargs)
            self._values = list(kwargs.values())
            self._from_dict = True
        else:
            self._values = list(args)
        self._row_kind = RowKind.INSERT

    def _has_field_names(self) -> bool:
        return '_fields' in self.__dict__

    def as_dict(self, recursive=False):
        """The named fields as a dict; with ``recursive`` nested Rows (also inside lists and dicts) too."""
        if not self._has_field_names():
            raise TypeError("Cannot convert a Row class into dict")
        if not recursive:
            return dict(zip(self._fields, self._values))
        return dict(zip(self._fields, (_as_dict_recursively(value) for value in self._values)))

    def get_row_kind(self) -> RowKind:
        return self._row_kind

    def set_row_kind(self, row_kind: RowKind):
        _count_mutation()
        self._row_kind = row_kind

    def set_field_names(self, field_names: List):
        _count_mutation()
        self._fields = field_names

    def get_fields_by_names(self, names: List[str]):
        """The values of ``names``, in that order (all values when the row has no names)."""
        if not self._has_field_names() or names == self._fields:
            return self._values
        missing = list(set(names).difference(set(self._fields)))
        if missing:
            raise Exception("Field names {0} not exist in {1}.".format(missing, self._fields))
        return [self._values[self._fields.index(name)] for name in names]

    @staticmethod
    def of_kind(row_kind: RowKind, *args, **kwargs):
        row = Row(*args, **kwargs)
        row.set_row_kind(row_kind)
        return row

    def __contains__(self, item):
        """Named rows look ``item`` up among the field names, positional rows among the values."""
        if self._has_field_names():
            return item in self._fields
        return item in self._values

    def __call__(self, *args):
        """Uses this row's values as field names for a new row holding ``args``."""
        if len(args) > len(self):
            raise ValueError("Can not create Row with fields %s, expected %d values but got %s"
                             % (self, len(self), args))
        return _create_row(self._values, args, self._row_kind)

    def __getitem__(self, item):
        if isinstance(item, (int, slice)):
            return self._values[item]
        # A positional row has no _fields: the lookup raises AttributeError('_fields'), as in PyFlink.
        try:
            position = self._fields.index(item)
            return self._values[position]
        except IndexError:
            raise KeyError(item)
        except ValueError:
            raise ValueError(item)

    def __setitem__(self, key, value):
        _count_mutation()
        if isinstance(key, (int, slice)):
            self._values[key] = value
            return
        try:
            position = self._fields.index(key)
            self._values[position] = value
        except (IndexError, AttributeError):
            raise KeyError(key)
        except ValueError:
            raise ValueError(value)

    def __getattr__(self, item):
        # Only called for names not found normally, i.e. field names (and missing private names).
        if item.startswith("_"):
            raise AttributeError(item)
        try:
            position = self._fields.index(item)
            return self._values[position]
        except (IndexError, ValueError):
            raise AttributeError(item)

    def __setattr__(self, key, value):
        if key not in _SETTABLE_ATTRIBUTES:
            raise AttributeError(key)
        self.__dict__[key] = value

    def __reduce__(self):
        fields = self._fields if self._has_field_names() else None
        return _create_row, (fields, tuple(self._values), self._row_kind)

    def __repr__(self):
        if self._has_field_names():
            return "Row(%s)" % ", ".join("%s=%r" % (name, value) for name, value in zip(self._fields, self._values))
        return "<Row(%s)>" % ", ".join(repr(value) for value in self._values)

    def __eq__(self, other):
        if not isinstance(other, Row) or self.__class__ != other.__class__:
            return False
        if self._has_field_names() != other._has_field_names() or self._row_kind != other._row_kind:
            return False
        if not self._has_field_names():
            return self._values == other._values
        if sorted(self._fields) != sorted(other._fields):
            return False
        return self._values_by_sorted_names() == other._values_by_sorted_names()

    def _values_by_sorted_names(self) -> list:
        return [value for _, value in sorted(zip(self._fields, self._values), key=lambda pair: pair[0])]

    def __hash__(self):
        # PyFlink hashes the values in stored order, so two equal named rows with different field
        # orders hash differently; hashing in name order keeps hash consistent with equality.
        if self._has_field_names():
            return hash(tuple(self._values_by_sorted_names()))
        return hash(tuple(self._values))

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def _flink_str(self) -> str:
        """What Java's ``Row.toString()`` prints for this row, e.g. ``+I[a, 1]`` (what ``print()`` shows)."""
        return "%s[%s]" % (self._row_kind, ", ".join(_java_str(value) for value in self._values))


_SETTABLE_ATTRIBUTES = frozenset(('_fields', '_from_dict', '_row_kind', '_values'))


def _as_dict_recursively(value):
    if isinstance(value, Row):
        return value.as_dict(True)
    if isinstance(value, list):
        return [_as_dict_recursively(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_dict_recursively(item) for key, item in value.items()}
    return value


def _java_str(value) -> str:
    """How Java's ``toString()`` prints ``value`` once PyFlink has handed it to the JVM.

    ``None`` is ``null``, booleans are ``true``/``false``, floats follow
    ``Double.toString``, bytes print as a signed ``byte[]`` (``[1, -1]``), lists
    and dicts as Java collections (``[a, b]``, ``{k=v}``), tuples as Flink
    tuples (``(a,1)``), Rows as ``+I[...]``, dates/times as ``java.sql`` types
    and Instants in ISO-8601 (``1970-01-01T00:00:01Z``).
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Row):
        return value._flink_str()
    if isinstance(value, float):
        return _java_double_str(value)
    if isinstance(value, (bytes, bytearray)):
        return "[%s]" % ", ".join(str(byte - 256 if byte > 127 else byte) for byte in value)
    if isinstance(value, tuple):
        return "(%s)" % ",".join(_java_str(item) for item in value)
    if isinstance(value, list):
        return "[%s]" % ", ".join(_java_str(item) for item in value)
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%s=%s" % (_java_str(k), _java_str(v)) for k, v in value.items())
    if isinstance(value, datetime.datetime):
        return _java_sql_timestamp_str(value)
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M:%S")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Instant):
        return _java_instant_str(value)
    return str(value)


def _java_double_str(value: float) -> str:
    """Java's ``Double.toString``: plain between 10^-3 and 10^7, else ``d.dddE<exp>``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0 or 1e-3 <= abs(value) < 1e7:
        return repr(value)
    shortest = decimal.Decimal(repr(value))
    digits = "".join(str(d) for d in shortest.as_tuple().digits).rstrip("0") or "0"
    sign = "-" if value < 0 else ""
    return "%s%s.%sE%d" % (sign, digits[0], digits[1:] or "0", shortest.adjusted())


def _java_sql_timestamp_str(value: datetime.datetime) -> str:
    """``java.sql.Timestamp.toString``: ``yyyy-mm-dd hh:mm:ss.f`` with trailing zeros of the fraction dropped."""
    fraction = ("%06d" % value.microsecond).rstrip("0") or "0"
    return "%s.%s" % (value.strftime("%Y-%m-%d %H:%M:%S"), fraction)


def _java_instant_str(value: Instant) -> str:
    """``java.time.Instant.toString``: ISO-8601 in UTC, the fraction in groups of three digits."""
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=value.seconds)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if value.nanos:
        fraction = "%09d" % value.nanos
        while fraction.endswith("000"):
            fraction = fraction[:-3]
        text += "." + fraction
    return text + "Z"

"""The parallel subtask Flink SQL runs a key on.

Flink SQL keys its operators (GROUP BY, window aggregations, joins, changelog normalisation) by a BinaryRowData of
the key's columns, whose hash code is a 32-bit murmur3 (seed 42) over the row's bytes taken as little-endian
4-byte words: a header of null bits (the first byte the row kind, then one bit per field), an 8-byte slot per
field (numbers little-endian; a string of up to 7 UTF-8 bytes inline with 0x80 | length in the slot's last byte;
a longer one as offset << 32 | length into a variable part padded to 8 bytes), then the variable part. That hash
code goes through Flink's key groups as a DataStream key's does. Keying a SQL operator by ``SqlKeyType`` makes our
subtasks Flink's (print's "N>" prefixes agree).
"""
import datetime
import struct
from typing import Tuple

from pyflink_compat.common.typeinfo import TypeInformation

_M32 = 0xffffffff
_SEED = 42
_FIXED = {"INT": "<i", "BIGINT": "<q", "SMALLINT": "<h", "TINYINT": "<b", "FLOAT": "<f", "DOUBLE": "<d"}
_EPOCH = datetime.datetime(1970, 1, 1)


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def hash_by_words(data: bytes) -> int:
    """Flink's MurmurHashUtil.hashBytesByWords: murmur3 over 4-byte little-endian words, seed 42 (signed)."""
    h1 = _SEED
    for (k1,) in struct.iter_unpack("<I", data):
        k1 = (k1 * 0xcc9e2d51) & _M32
        k1 = _rotl(k1, 15)
        k1 = (k1 * 0x1b873593) & _M32
        h1 ^= k1
        h1 = _rotl(h1, 13)
        h1 = (h1 * 5 + 0xe6546b64) & _M32
    h1 ^= len(data)
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85ebca6b) & _M32
    h1 ^= h1 >> 13
    h1 = (h1 * 0xc2b2ae35) & _M32
    h1 ^= h1 >> 16
    return h1 - (1 << 32) if h1 >> 31 else h1


def _epoch_ms_and_nanos(value: datetime.datetime) -> Tuple[int, int]:
    delta = value - _EPOCH
    micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    return micros // 1000, (micros % 1000) * 1000


def binary_row(values: tuple, types: tuple) -> bytes:
    """The bytes of a BinaryRowData (row kind INSERT) of ``values`` of SQL ``types`` ((name, precision) pairs)."""
    arity = len(values)
    header = ((arity + 63 + 8) // 64) * 8
    fixed = bytearray(header + 8 * arity)
    variable = bytearray()

    def append_variable(data: bytes) -> int:
        offset = len(fixed) + len(variable)
        variable.extend(data)
        variable.extend(b"\0" * (-len(data) % 8))
        return offset

    for index, (value, (name, precision)) in enumerate(zip(values, types)):
        slot = header + 8 * index
        if value is None:
            bit = index + 8
            fixed[bit >> 3] |= 1 << (bit & 7)
        elif name in _FIXED:
            struct.pack_into(_FIXED[name], fixed, slot, value)
        elif name == "BOOLEAN":
            fixed[slot] = 1 if value else 0
        elif name == "STRING":
            data = value.encode("utf-8")
            if len(data) <= 7:
                fixed[slot:slot + len(data)] = data
                fixed[slot + 7] = 0x80 | len(data)
            else:
                struct.pack_into("<Q", fixed, slot, (append_variable(data) << 32) | len(data))
        elif name == "DATE":                     # days since the epoch, an int
            struct.pack_into("<i", fixed, slot, (value - _EPOCH.date()).days)
        elif name == "DECIMAL":                  # a compact one (precision <= 18): its unscaled long
            digits, scale = precision
            if digits > 18:
                raise NotImplementedError("the binary row of a DECIMAL(%d, %d)" % precision)
            struct.pack_into("<q", fixed, slot, int(value.scaleb(scale)))
        elif name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            millis, nanos = _epoch_ms_and_nanos(value)
            if precision is not None and precision <= 3:
                struct.pack_into("<q", fixed, slot, millis)
            else:
                struct.pack_into("<Q", fixed, slot, (append_variable(struct.pack("<q", millis)) << 32) | nanos)
        else:
            raise NotImplementedError("the binary row of a %s" % name)
    return bytes(fixed + variable)


class SqlKeyType(TypeInformation):
    """The key type of a Flink SQL operator keyed by columns of SQL ``types`` ((name, precision) pairs): its keys
    are tuples of the columns' values; ``key_hash_code`` is BinaryRowData's hash code of them."""

    def __init__(self, types: Tuple[Tuple[str, int], ...]):
        super().__init__()
        self.types = tuple(types)

    def key_hash_code(self, key) -> int:
        try:
            return hash_by_words(binary_row(tuple(key), self.types))
        except (struct.error, TypeError, AttributeError, ValueError):
            # a value not of its column's type: no binary form, so another stable subtask
            raise NotImplementedError("the binary row of key %r" % (key,)) from None

    def __eq__(self, other):
        return isinstance(other, SqlKeyType) and other.types == self.types

    def __hash__(self):
        return hash(self.types)

    def __repr__(self):
        return "SqlKeyType(%s)" % ", ".join(name for name, _ in self.types)


_HASHABLE = tuple(_FIXED) + ("BOOLEAN", "STRING", "TIMESTAMP", "TIMESTAMP_LTZ", "DATE")


def key_type_of(sql_types) -> "SqlKeyType | None":
    """The key type of columns of these SqlTypes, None when one of them has no binary form here."""
    if not sql_types or any(t is None or not (t.name in _HASHABLE or (t.name == "DECIMAL" and t.precision <= 18))
                            for t in sql_types):
        return None
    return SqlKeyType(tuple((t.name, (t.precision, t.scale) if t.name == "DECIMAL" else t.precision)
                            for t in sql_types))

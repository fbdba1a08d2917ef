"""Flink's key groups for PyFlink keys: which parallel subtask a key belongs to.

PyFlink's ``key_by`` (default key type: pickled bytes) keys the Java stream by a one-field
``Row`` holding ``cloudpickle.dumps(key)``. Flink hashes that Row (Row's deep hash code:
``31 * 0 + (31 + (31 + Arrays.hashCode(bytes)))`` for RowKind INSERT), spreads it with its
murmur hash into ``max_parallelism`` key groups, and gives subtask ``i`` the key groups
``[ceil(i * maxP / P), ...)``, i.e. key group ``g`` goes to subtask ``g * P // maxP``.

Checked with real PyFlink 2.3.0: for 40 string keys at parallelism 2 (max parallelism 128)
every key ran on the subtask :func:`subtask_for_key` names. A driver that routes keys this
way runs each key on the same subtask index as PyFlink (print's "N>" prefixes agree).
"""
from pyspark import cloudpickle

from pyflink_compat.datastream.functions import _default_max_parallelism

__all__ = ['pickled_key_hash', 'typed_key_hash', 'key_group_for_hash', 'key_group',
           'subtask_for_key_group', 'subtask_for_key', 'murmur_hash']

_M32 = 0xffffffff


def _s32(x: int) -> int:
    x &= _M32
    return x - (1 << 32) if x >> 31 else x


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def murmur_hash(code: int) -> int:
    """Flink's ``MathUtils.murmurHash(int)`` (non-negative)."""
    code = (code * 0xcc9e2d51) & _M32
    code = _rotl(code, 15)
    code = (code * 0x1b873593) & _M32
    code = _rotl(code, 13)
    code = (code * 5 + 0xe6546b64) & _M32
    code ^= 4
    code ^= code >> 16
    code = (code * 0x85ebca6b) & _M32
    code ^= code >> 13
    code = (code * 0xc2b2ae35) & _M32
    code ^= code >> 16
    code = _s32(code)
    if code >= 0:
        return code
    return -code if code != -(1 << 31) else 0


def _bytes_hash(data: bytes) -> int:
    """Java's ``Arrays.hashCode(byte[])`` (signed bytes)."""
    h = 1
    for b in data:
        h = (31 * h + (b - 256 if b > 127 else b)) & _M32
    return _s32(h)


_MIRROR_PREFIX = 'pyflink_compat.'


def pyflink_pickle(key) -> bytes:
    """``cloudpickle.dumps(key)`` as PyFlink would produce it: the mirror's classes (Row,
    RowKind, ...) pickle by reference under ``pyflink_compat.*``; PyFlink's own under
    ``pyflink.*``, so module names are rewritten (single-frame pickles; protocol 5)."""
    data = cloudpickle.dumps(key)
    if b'pyflink_compat.' not in data:
        return data
    import pickletools
    ops = list(pickletools.genops(data))
    if sum(1 for op, _, _ in ops if op.name == 'FRAME') > 1:
        return data
    out = []
    framed = False
    for i, (op, arg, pos) in enumerate(ops):
        end = ops[i + 1][2] if i + 1 < len(ops) else len(data)
        if op.name == 'FRAME':
            framed = True
            continue
        if op.name == 'SHORT_BINUNICODE' and arg.startswith(_MIRROR_PREFIX):
            text = ('pyflink.' + arg[len(_MIRROR_PREFIX):]).encode('utf-8')
            out.append(b'\x8c' + bytes([len(text)]) + text)
        else:
            out.append(data[pos:end])
    head, body = out[0], b''.join(out[1:])          # out[0] is PROTO
    if framed:
        return head + b'\x95' + len(body).to_bytes(8, 'little') + body
    return head + body


def pickled_key_hash(key) -> int:
    """The Java hash code of the key PyFlink's ``key_by`` gives Flink (pickled key type)."""
    inner = _s32(31 + _bytes_hash(pyflink_pickle(key)))
    return _s32(31 + inner)


def _string_hash(value: str) -> int:
    """Java's ``String.hashCode`` (over UTF-16 code units)."""
    h = 0
    data = value.encode('utf-16-be')
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & _M32
    return _s32(h)


def _long_hash(value: int) -> int:
    value &= 0xffffffffffffffff
    return _s32(value ^ (value >> 32))


def _double_bits(value: float) -> int:
    import struct
    if value != value:
        return 0x7ff8000000000000          # Java's canonical NaN
    return struct.unpack('>q', struct.pack('>d', value))[0]


def _float_bits(value: float) -> int:
    import struct
    if value != value:
        return 0x7fc00000
    return struct.unpack('>i', struct.pack('>f', value))[0]


_FIELD_HASHES = {
    'String': lambda v: _string_hash(str(v)),
    'Integer': lambda v: _s32(int(v)),
    'Short': lambda v: _s32(int(v)),
    'Byte': lambda v: _s32(int(v)),
    'Long': lambda v: _long_hash(int(v)),
    'Boolean': lambda v: 1231 if v else 1237,
    'Double': lambda v: _long_hash(_double_bits(float(v))),
    'Float': lambda v: _s32(_float_bits(float(v))),
}


def typed_key_hash(key, key_type) -> int:
    """The Java hash code of the key ``key_by(selector, key_type=key_type)`` gives Flink, for
    basic key types (STRING, INT, LONG, SHORT, BYTE, BOOLEAN, DOUBLE, FLOAT; pickled bytes
    when ``key_type`` is None or PICKLED_BYTE_ARRAY)."""
    hash_code = getattr(key_type, 'key_hash_code', None)
    if hash_code is not None:             # a key type that knows its Java hash code (Flink SQL's binary rows)
        return hash_code(key)
    name = repr(key_type) if key_type is not None else 'PickledByteArrayTypeInfo'
    if name == 'PickledByteArrayTypeInfo':
        return pickled_key_hash(key)
    field_hash = _FIELD_HASHES.get(name)
    if field_hash is None:
        raise NotImplementedError("the key group of key type %s is not implemented" % name)
    return _s32(31 + _s32(31 + (0 if key is None else field_hash(key))))


def key_group_for_hash(key_hash: int, max_parallelism: int) -> int:
    return murmur_hash(key_hash) % max_parallelism


def key_group(key, max_parallelism: int, key_type=None) -> int:
    """The key group of a PyFlink key (``key_type`` as given to ``key_by``; default pickled)."""
    return key_group_for_hash(typed_key_hash(key, key_type), max_parallelism)


def subtask_for_key_group(group: int, parallelism: int, max_parallelism: int) -> int:
    return group * parallelism // max_parallelism


def subtask_for_key(key, parallelism: int, max_parallelism: int = None, key_type=None) -> int:
    """The subtask index PyFlink runs ``key`` on (max parallelism defaults as Flink's)."""
    if max_parallelism is None or max_parallelism <= 0:
        max_parallelism = _default_max_parallelism(parallelism)
    return subtask_for_key_group(key_group(key, max_parallelism, key_type), parallelism,
                                 max_parallelism)


# -- many keys at once ------------------------------------------------------------------------------
#
# The same arithmetic over numpy arrays (uint32 wraps as Java's int does), for the key types whose Java hash
# code is plain arithmetic on the value: a batch of keys is assigned without a Python loop per key and
# without remembering keys.

_VECTOR_TYPES = ('String', 'Integer', 'Short', 'Byte', 'Long')


def _murmur_many(codes):
    """:func:`murmur_hash` of a uint32 array."""
    import numpy as np
    with np.errstate(over='ignore'):
        c = codes * np.uint32(0xcc9e2d51)
        c = (c << np.uint32(15)) | (c >> np.uint32(17))
        c = c * np.uint32(0x1b873593)
        c = (c << np.uint32(13)) | (c >> np.uint32(19))
        c = c * np.uint32(5) + np.uint32(0xe6546b64)
        c ^= np.uint32(4)
        c ^= c >> np.uint32(16)
        c = c * np.uint32(0x85ebca6b)
        c ^= c >> np.uint32(13)
        c = c * np.uint32(0xc2b2ae35)
        c ^= c >> np.uint32(16)
    signed = c.view(np.int32).astype(np.int64)
    return np.where(signed >= 0, signed, np.where(signed == -(1 << 31), 0, -signed))


def _ascii_string_hashes(array):
    """Java's ``String.hashCode`` of each string of an Arrow string array without nulls whose text is ASCII
    (one UTF-16 code unit per byte), as uint32."""
    import numpy as np
    n = len(array)
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int32, count=n + 1, offset=array.offset * 4)
    start, end = int(offsets[0]), int(offsets[-1])
    data = np.frombuffer(array.buffers()[2], dtype=np.uint8)[start:end] if end > start else np.zeros(0, np.uint8)
    lengths = np.diff(offsets)
    hashes = np.zeros(n, dtype=np.uint32)
    if not len(data):
        return hashes
    longest = int(lengths.max())
    powers = np.ones(longest, dtype=np.uint32)              # 31 ** k mod 2 ** 32
    with np.errstate(over='ignore'):
        for k in range(1, longest):
            powers[k] = powers[k - 1] * np.uint32(31)
        owner_end = np.repeat(offsets[1:] - start, lengths)
        exponent = owner_end - 1 - np.arange(len(data), dtype=np.int64)
        terms = data.astype(np.uint32) * powers[exponent]
        nonempty = lengths > 0
        hashes[nonempty] = np.add.reduceat(terms, (offsets[:-1] - start)[nonempty], dtype=np.uint32)
    return hashes


def _field_hashes(keys: list, name: str):
    """The Java hash codes of ``keys`` as a key type ``name`` field (uint32 array), or None where that
    needs the per-key path (a value of another Python type, a non-ASCII string, a null)."""
    import numpy as np
    import pyarrow as pa
    if name == 'String':
        if any(type(k) is not str for k in keys):
            return None
        array = pa.array(keys, pa.string())
        if array.null_count:
            return None
        import pyarrow.compute as pc
        if not pc.all(pc.string_is_ascii(array)).as_py():
            return None
        return _ascii_string_hashes(array)
    if any(type(k) is not int for k in keys):           # bool, float, None: per key
        return None
    try:
        values = np.array(keys, dtype=np.int64)
    except OverflowError:
        return None
    unsigned = values.view(np.uint64)
    if name == 'Long':
        return ((unsigned ^ (unsigned >> np.uint64(32))) & np.uint64(0xffffffff)).astype(np.uint32)
    return (unsigned & np.uint64(0xffffffff)).astype(np.uint32)


def subtasks_for_keys(keys: list, parallelism: int, max_parallelism: int = None, key_type=None):
    """:func:`subtask_for_key` of each key, as a numpy array, for a key type of ``_VECTOR_TYPES``; None when
    the keys need the per-key path (another key type, see ``_field_hashes``)."""
    import numpy as np
    name = repr(key_type) if key_type is not None else 'PickledByteArrayTypeInfo'
    if name not in _VECTOR_TYPES:
        return None
    if max_parallelism is None or max_parallelism <= 0:
        max_parallelism = _default_max_parallelism(parallelism)
    if not keys:
        return np.zeros(0, dtype=np.int64)
    fields = _field_hashes(keys, name)
    if fields is None:
        return None
    with np.errstate(over='ignore'):
        codes = fields + np.uint32(62)                  # Row's hash code: 31 + (31 + field hash)
    groups = _murmur_many(codes) % max_parallelism
    return groups * parallelism // max_parallelism

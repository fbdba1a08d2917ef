"""How keys are compared: the identity under which keyed state and timers are stored.

PyFlink's default key type is pickled bytes: two keys are the same key when their
serialized forms are equal. So ``1``, ``1.0`` and ``True`` are three different keys,
and so are ``0.0`` and ``-0.0``. :func:`key_identity` reproduces that without
pickling the common cases:

- ``None``, ``bool``, ``int``, ``str``, ``bytes``: the value tagged with its exact type;
- ``float``: its ``float.hex()`` text (so ``-0.0 != 0.0`` and NaN equals NaN, as bytes);
- tuples of those: a tuple of the identities (a tuple subclass is pickled);
- anything else (Rows, lists, dicts, user objects): the cloudpickle bytes.

The identity is hashable and picklable; it is what the snapshot stores.
"""
from pyspark import cloudpickle

_SIMPLE = {type(None): 'n', bool: 'b', int: 'i', str: 's', bytes: 'y'}


def key_identity(key):
    """The hashable identity of ``key`` (see the module docstring)."""
    t = type(key)
    tag = _SIMPLE.get(t)
    if tag is not None:
        return (tag, key)
    if t is float:
        return ('f', key.hex())
    if t is tuple:
        parts = []
        for item in key:
            ident = key_identity(item)
            if ident[0] == 'p':
                return ('p', cloudpickle.dumps(key))
            parts.append(ident)
        return ('t', tuple(parts))
    return ('p', cloudpickle.dumps(key))

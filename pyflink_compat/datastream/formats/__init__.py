"""Formats (mirror of ``pyflink.datastream.formats``): ``json``, ``csv`` and ``avro``.

Like PyFlink's package, this ``__init__`` exports nothing; import the classes
from the submodules. pyflink-compat does not provide the formats yet: every
name exists, so imports keep working, but constructing a schema, calling a
``builder()`` or a static factory raises ``UnsupportedFeatureError`` pointing at
``porting_guide/README.md#formats``.
"""
__all__ = []

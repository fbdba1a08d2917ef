"""Flink's row serializers cast each field to the Java class of the schema's type: a value of another class
fails with ``ClassCastException`` (e.g. an INT field in the stream and a STRING field in the schema). PyFlink
hands the serializer the Java objects its own type conversion made of the stream's Python values; these are
the classes of those objects, told from the Python values pyflink-compat's serializers receive."""
import decimal

from pyflink_compat.common.typeinfo import Types


def _targets():
    return [(Types.STRING(), "java.lang.String", (str,)), (Types.BOOLEAN(), "java.lang.Boolean", (bool,)),
            (Types.BYTE(), "java.lang.Byte", (int,)), (Types.SHORT(), "java.lang.Short", (int,)),
            (Types.INT(), "java.lang.Integer", (int,)), (Types.LONG(), "java.lang.Long", (int,)),
            (Types.FLOAT(), "java.lang.Float", (float,)),
            (Types.DOUBLE(), "java.lang.Double", (float,)), (Types.BIG_DEC(), "java.math.BigDecimal",
                                                            (decimal.Decimal,))]


_TARGETS = None


def check_scalar(value, type_info, java_class_name):
    """Raise ``ClassCastException`` text (through ``error(java_class, message)``) when ``value`` cannot be the
    Java object a serializer of ``type_info`` casts to; other types are not checked."""
    global _TARGETS
    if _TARGETS is None:
        _TARGETS = _targets()
    for candidate, target, python_types in _TARGETS:
        if type(candidate) is type(type_info) and candidate == type_info:
            if isinstance(value, python_types) and (bool in python_types or not isinstance(value, bool)):
                return None
            actual = java_class_name(value)
            where = ("(%s and %s are in module java.base of loader 'bootstrap')" % (actual, target)
                     if actual.startswith("java.") else
                     "(%s is in unnamed module of loader 'app'; %s is in module java.base of loader 'bootstrap')"
                     % (actual, target))
            return "class %s cannot be cast to class %s %s" % (actual, target, where)
    return None

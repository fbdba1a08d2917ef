"""``DataStream.print()`` output, formatted as PyFlink prints it.

PyFlink (``DataStream._align_output_type``) maps two kinds of streams to strings in Python before Java's
print sink sees them:

- pickled streams (no ``output_type``): ``str(element)``; strings (and bytes) are left as they are;
- ``ROW`` / ``ROW_NAMED`` streams: ``"<kind>[<str(f0)>,<str(f1)>,...]"`` with Python's ``str`` of each
  field and no space after the commas (``+I[1,2.5,True,None]``), not Java's ``Row.toString()``.

Every other typed stream is printed by Java's ``toString()`` of the element (``true``, ``1.0E20``, ...).
"""
from pyflink_compat.common.typeinfo import PickledBytesTypeInfo, RowTypeInfo
from pyflink_compat.common.types import Row, _java_str


def element_string(element, type_info) -> str:
    """The text PyFlink's print sink shows for one element."""
    if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
        if isinstance(element, (bytes, bytearray)):
            return bytes(element).decode("utf-8", errors="replace")
        return str(element)
    if isinstance(type_info, RowTypeInfo) and isinstance(element, Row):
        return "%s[%s]" % (element.get_row_kind(), ",".join(str(value) for value in element._values))
    if isinstance(element, Row):
        return element._flink_str()
    # Other typed elements reach Java's toString() after their trip to the JVM: a FLOAT as the 32-bit
    # float (0.1, not 0.10000000149011612), also inside tuples, lists and maps.
    from pyflink_compat import codec
    return _java_str(codec.to_collected([element], type_info)[0])


def line_prefix(sink_identifier, subtask_index: int, parallelism: int) -> str:
    """Java's PrintSinkOutputWriter prefix."""
    if parallelism > 1:
        if sink_identifier:
            return "%s:%d> " % (sink_identifier, subtask_index + 1)
        return "%d> " % (subtask_index + 1)
    if sink_identifier:
        return "%s> " % sink_identifier
    return ""

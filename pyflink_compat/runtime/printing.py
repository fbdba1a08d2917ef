"""``DataStream.print()`` output, formatted as PyFlink prints it."""
from pyflink_compat.common.typeinfo import PickledBytesTypeInfo
from pyflink_compat.common.types import Row, _java_str


def element_string(element, type_info) -> str:
    """The text Java's print sink shows for one element."""
    if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
        # PyFlink maps pickled elements with str() in Python first (str and bytes are left as they are).
        if isinstance(element, (bytes, bytearray)):
            return bytes(element).decode("utf-8", errors="replace")
        return str(element)
    if isinstance(element, Row):
        return element._flink_str()
    return _java_str(element)


def line_prefix(sink_identifier, subtask_index: int, parallelism: int) -> str:
    """Java's PrintSinkOutputWriter prefix."""
    if parallelism > 1:
        if sink_identifier:
            return "%s:%d> " % (sink_identifier, subtask_index + 1)
        return "%d> " % (subtask_index + 1)
    if sink_identifier:
        return "%s> " % sink_identifier
    return ""

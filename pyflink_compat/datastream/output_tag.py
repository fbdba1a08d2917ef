"""``OutputTag`` (mirror of ``pyflink.datastream.output_tag``)."""
from typing import Optional, Union

from pyflink_compat.common.typeinfo import TypeInformation, Types
from pyflink_compat.util.exceptions import unsupported

__all__ = ['OutputTag']


class OutputTag(object):
    """A named, typed tag for the side outputs of an operator.

    ``type_info`` defaults to pickled objects; a list of type infos stands for
    a Row of those field types.
    """

    def __init__(self, tag_id: str, type_info: Optional[Union[TypeInformation, list]] = None):
        if not tag_id:
            raise ValueError("OutputTag tag_id cannot be None or empty string")
        self.tag_id = tag_id
        if type_info is None:
            self.type_info = Types.PICKLED_BYTE_ARRAY()
        elif isinstance(type_info, list):
            self.type_info = Types.ROW(type_info)
        elif isinstance(type_info, TypeInformation):
            self.type_info = type_info
        else:
            raise TypeError("OutputTag type_info must be None, list or TypeInformation")

    get_java_output_tag = unsupported("OutputTag.get_java_output_tag", "unsupported-apis",
                                      "there is no JVM in pyflink-compat")

    def __repr__(self):
        return "OutputTag(%r, %r)" % (self.tag_id, self.type_info)

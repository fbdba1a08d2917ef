"""Mirror of ``pyflink.common.io``."""
from pyflink_compat.common.utils import JavaObjectWrapper

__all__ = ['InputFormat']


class InputFormat(JavaObjectWrapper):
    """The base of input formats (``AvroInputFormat`` ...); reading through one is not provided here."""

    def __init__(self, j_input_format):
        super().__init__(j_input_format)

"""Mirror of ``pyflink.common.constants``."""

MAX_LONG_VALUE = 2 ** 63 - 1          # Java's Long.MAX_VALUE
MIN_LONG_VALUE = -MAX_LONG_VALUE - 1  # Java's Long.MIN_VALUE
DEFAULT_OUTPUT_TAG = ""               # the tag of a function's main output

from functions.stateful import RunningTotal
from functions.windows import describe_window

__all__ = ["RunningTotal", "describe_window"]

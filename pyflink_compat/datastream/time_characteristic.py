"""Mirror of ``pyflink.datastream.time_characteristic`` (Flink 1.x; removed in 2.0).

Since Flink 1.12 event time is always on and windows say which time they use; in 2.x the time
characteristic is gone. ``StreamExecutionEnvironment.set_stream_time_characteristic`` accepts it, records
it and warns (porting_guide/README.md#flink-1-names). Importing the enum does not warn.
"""
from enum import Enum

__all__ = ['TimeCharacteristic']


class TimeCharacteristic(Enum):
    """Which time a Flink 1.x job's time-dependent operations used.

    :data:`ProcessingTime`: the machine's clock; :data:`IngestionTime`: the time an element entered the
    job; :data:`EventTime` (Flink 1.12+'s default): the element's own timestamp, with watermarks.
    """

    ProcessingTime = 0
    IngestionTime = 1
    EventTime = 2

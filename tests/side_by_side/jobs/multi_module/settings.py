"""Job settings, as real projects keep them in a module of their own."""
from pyflink.common import Time, WatermarkStrategy

PARALLELISM = 1
WINDOW = Time.seconds(10)
OUT_OF_ORDERNESS_S = 5
NO_WATERMARKS = WatermarkStrategy.no_watermarks()
GROUP_ID = "multi-module-job"

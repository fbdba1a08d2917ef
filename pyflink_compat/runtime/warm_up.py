"""Start Spark's Python worker processes while the job's first query is still being planned.

Spark starts a Python process (a fork server per worker kind, then a forked worker) the first
time a query needs one: to create a data source, to plan its reads, to run a read task. For a
job's first micro-batch that is three such starts one after the other, about 0.8-1.3 s each on a
small machine. A tiny batch read of this source, run in a background thread as soon as the
session exists, makes Spark start them in parallel with the driver's own planning; the query's
first micro-batch then finds them running, and a reusable worker that has already imported
pyarrow, kafka-python and our modules.
"""
import logging
import threading

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

log = logging.getLogger("pyflink_compat")

FORMAT_NAME = "pyflink_compat_warm_up"


class WarmUpDataSource(DataSource):

    @classmethod
    def name(cls):
        return FORMAT_NAME

    def schema(self):
        return "ready boolean"

    def reader(self, schema):
        return WarmUpReader()


class WarmUpReader(DataSourceReader):

    def partitions(self):
        return [InputPartition(0)]

    def read(self, partition):
        # What a read task of a Kafka job imports; importing it here moves that cost off the job's path.
        import kafka                                         # noqa: F401
        import pyarrow                                       # noqa: F401
        from pyflink_compat.kafka_io import sink, source     # noqa: F401
        from pyflink_compat import codec                     # noqa: F401
        yield (True,)


#: Set once the warm-up read has ended (whether it worked or not).
finished = threading.Event()
#: Set once the warm-up's data source is created (its create worker is idle from then on), or it has ended.
created = threading.Event()


def start_in_background(spark):
    """Run the warm-up read in a daemon thread; failures are only logged (it is an optimisation)."""
    finished.clear()
    created.clear()

    def run():
        try:
            frame = spark.read.format(FORMAT_NAME).load()
            created.set()
            frame.collect()
        except Exception as e:
            log.debug("Python worker warm-up failed: %s", e)
        finally:
            created.set()
            finished.set()

    threading.Thread(target=run, name="pyflink-compat-warm-up", daemon=True).start()

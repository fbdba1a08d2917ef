"""``from_collection`` as a bounded Spark Python streaming source: one batch, one task."""
import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition

from pyflink_compat.kafka_io.source import TRANSFORM_OPTION, apply_transform, decode_object

FORMAT_NAME = "pyflink_compat_collection"


class CollectionDataSource(DataSource):
    """Options: ``elements`` (pickled tuple), ``element_type`` (pickled TypeInformation), ``schema``."""

    @classmethod
    def name(cls):
        return FORMAT_NAME

    def schema(self):
        return self.options["schema"]

    def streamReader(self, schema):
        return CollectionStreamReader(self.options)


class CollectionStreamReader(DataSourceStreamReader):

    def __init__(self, options):
        self.elements_text = options["elements"]
        self.element_type_text = options["element_type"]
        self.size = int(options["size"])
        self.transform_text = options.get(TRANSFORM_OPTION)

    def initialOffset(self):
        return {"index": 0}

    def latestOffset(self, start, limit):
        return {"index": self.size}

    def partitions(self, start, end):
        if end["index"] <= start["index"]:
            return []
        return [InputPartition((start["index"], end["index"]))]

    def read(self, partition):
        from pyflink_compat import codec
        first, last = partition.value
        elements = list(decode_object(self.elements_text))[first:last]
        element_type = decode_object(self.element_type_text)
        batch = codec.make_batch(codec.from_python(elements, element_type), pa.nulls(len(elements), pa.int64()))
        return apply_transform(self.transform_text, iter([batch]))

    def commit(self, end):
        pass


def final_offset(size: int) -> dict:
    return {"index": size}

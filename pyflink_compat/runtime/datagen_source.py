"""Flink SQL's 'datagen' connector as a Spark Python streaming source.

Each of the source's ``parallelism`` subtasks is one Spark partition of every micro-batch. As on Flink, subtask
``i`` emits ceil(rows-per-second / parallelism) rows at the start of each second, its sequences step by the
parallelism from ``start + i``, and it stops at its share of ``number-of-rows`` or of its shortest sequence. The
offset is the number of rows each subtask has emitted; the random values of a micro-batch are seeded by its
subtask and first row, so a re-read micro-batch generates the same rows (timestamps aside: they are "now").
"""
import datetime
import math
import random
import time
from typing import Optional

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition

from pyflink_compat.kafka_io.source import TRANSFORM_OPTION, apply_transform, decode_object, within_split
from pyflink_compat.plan.graph import DataGenSpec, FieldGenerator

FORMAT_NAME = "pyflink_compat_datagen"

_INTEGER_RANGES = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
_FLOAT_MAX = {"FLOAT": 3.4028234663852886e38, "DOUBLE": 1.7976931348623157e308}
_FLOAT_MIN = {"FLOAT": 1.401298464324817e-45, "DOUBLE": 5e-324}     # Java's Float/Double.MIN_VALUE
_EPOCH = datetime.datetime(1970, 1, 1)


def rows_of_subtask(spec: DataGenSpec, subtask: int, parallelism: int) -> Optional[int]:
    """How many rows subtask ``subtask`` emits in all (None: it never stops)."""
    limits = []
    if spec.number_of_rows is not None:
        limits.append(_share(spec.number_of_rows, subtask, parallelism))
    for field in spec.fields:
        if field.kind == "sequence":
            limits.append(_share(abs(field.end - field.start + 1), subtask, parallelism))
    return min(limits) if limits else None


def _share(total: int, subtask: int, parallelism: int) -> int:
    return total // parallelism + (1 if total % parallelism > subtask else 0)


def rows_per_subtask_second(spec: DataGenSpec, parallelism: int) -> int:
    return max(0, math.ceil(spec.rows_per_second / parallelism))


def final_offset(spec: DataGenSpec, parallelism: int) -> Optional[dict]:
    """The offset at which every subtask has emitted all its rows (None: unbounded)."""
    most = rows_of_subtask(spec, 0, parallelism)        # subtask 0 has the largest share
    return None if most is None else {"index": most}


class _ValueMaker:
    """One column's values for one subtask: ``value(rng, position)`` where position counts the subtask's rows."""

    def __init__(self, field: FieldGenerator, subtask: int, parallelism: int):
        self.field = field
        self.make = self._maker(field, subtask, parallelism)

    def _maker(self, field: FieldGenerator, subtask: int, parallelism: int):
        name = field.type_name
        if field.kind == "sequence":
            first = field.start + subtask
            if name == "STRING":
                return lambda rng, position: str(first + position * parallelism)
            if name in _FLOAT_MAX:
                return lambda rng, position: float(first + position * parallelism)
            return lambda rng, position: first + position * parallelism
        if name in _INTEGER_RANGES:
            bits = _INTEGER_RANGES[name]
            low = -(1 << (bits - 1)) if field.minimum is None else int(field.minimum)
            high = (1 << (bits - 1)) - 1 if field.maximum is None else int(field.maximum)
            return lambda rng, position: rng.randint(low, high)
        if name in _FLOAT_MAX:
            low = _FLOAT_MIN[name] if field.minimum is None else float(field.minimum)
            high = _FLOAT_MAX[name] if field.maximum is None else float(field.maximum)
            return lambda rng, position: low + rng.random() * (high - low)
        if name == "BOOLEAN":
            return lambda rng, position: rng.random() < 0.5
        if name == "STRING":
            length = field.length
            if field.variable_length:
                return lambda rng, position: _hex(rng, rng.randint(1, length)) if length > 0 else ""
            return lambda rng, position: _hex(rng, length)
        # Flink's generator takes the time in epoch milliseconds: values to the millisecond
        if name == "TIMESTAMP":          # the local date-time now
            return lambda rng, position: _to_millisecond(datetime.datetime.now() - self._past(rng))
        if name == "TIMESTAMP_LTZ":      # an instant, as a UTC date-time
            return lambda rng, position: _to_millisecond(_utc_now() - self._past(rng))
        raise ValueError("no generator for %s" % name)

    def _past(self, rng) -> datetime.timedelta:
        past = self.field.max_past_ms
        return datetime.timedelta(milliseconds=rng.randint(0, past) if past > 0 else 0)

    def value(self, rng, position: int):
        rate = self.field.null_rate
        if rate and rng.random() <= rate:
            return None
        return self.make(rng, position)


def _hex(rng, digits: int) -> str:
    return ("%0*x" % (digits, rng.getrandbits(4 * digits)))[:digits] if digits > 0 else ""


def _to_millisecond(value: datetime.datetime) -> datetime.datetime:
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def _utc_now() -> datetime.datetime:
    return _EPOCH + datetime.timedelta(microseconds=time.time_ns() // 1000)


def generate(spec: DataGenSpec, subtask: int, parallelism: int, first: int, end: int) -> list:
    """Rows ``first`` to ``end`` (exclusive) of the subtask, as tuples of the columns' values."""
    limit = rows_of_subtask(spec, subtask, parallelism)
    if limit is not None:
        end = min(end, limit)
    if end <= first:
        return []
    rng = random.Random("%d/%d/%d" % (spec.seed, subtask, first))
    makers = [_ValueMaker(field, subtask, parallelism) for field in spec.fields]
    return [tuple(maker.value(rng, position) for maker in makers) for position in range(first, end)]


class DataGenSplit(InputPartition):
    """One Spark task: rows ``[first, end)`` of one subtask. ``finished``: the subtask has emitted all its rows
    by ``end`` (its reader ends, as a Flink source subtask does)."""

    def __init__(self, subtask: int, first: int, end: int, finished: bool):
        self.subtask, self.first, self.end, self.finished = subtask, first, end, finished

    def reader(self, parallelism: int) -> int:
        return self.subtask

    def input_name(self) -> str:
        return "datagen:%d" % self.subtask

    def final_reader_tasks(self, parallelism: int):
        return 1 if self.finished else None

    def __repr__(self):
        return "DataGenSplit(%d [%d, %d))" % (self.subtask, self.first, self.end)


class DataGenDataSource(DataSource):
    """Options: ``spec`` (pickled DataGenSpec), ``parallelism``, ``row_type`` (pickled TypeInformation),
    ``schema``."""

    @classmethod
    def name(cls):
        return FORMAT_NAME

    def schema(self):
        return self.options["schema"]

    def streamReader(self, schema):
        return DataGenStreamReader(self.options)


class DataGenStreamReader(DataSourceStreamReader):

    def __init__(self, options):
        self.spec_text = options["spec"]
        self.spec = decode_object(self.spec_text)
        self.parallelism = int(options["parallelism"])
        self.row_type_text = options["row_type"]
        self.transform_text = options.get(TRANSFORM_OPTION)
        self.final = final_offset(self.spec, self.parallelism)
        self.clock_start = None          # when this run began emitting, and from which offset
        self.offset_start = 0

    def initialOffset(self):
        return {"index": 0}

    def latestOffset(self, start, limit):
        now = time.monotonic()
        if self.clock_start is None:
            self.clock_start, self.offset_start = now, start["index"]
        seconds = int(now - self.clock_start) + 1
        emitted = self.offset_start + rows_per_subtask_second(self.spec, self.parallelism) * seconds
        if self.final is not None:
            emitted = min(emitted, self.final["index"])
        return {"index": max(emitted, start["index"])}

    def partitions(self, start, end):
        if end["index"] <= start["index"]:
            return []
        splits = []
        for subtask in range(self.parallelism):
            limit = rows_of_subtask(self.spec, subtask, self.parallelism)
            splits.append(DataGenSplit(subtask, start["index"], end["index"],
                                       finished=limit is not None and end["index"] >= limit))
        return splits

    def read(self, split):
        from pyflink_compat import codec
        from pyflink_compat.common.types import Row
        rows = [Row(*values) for values in generate(self.spec, split.subtask, self.parallelism, split.first,
                                                    split.end)]
        row_type = decode_object(self.row_type_text)
        batch = codec.make_batch(codec.from_python(rows, row_type), pa.nulls(len(rows), pa.int64()))
        return within_split(split, apply_transform(self.transform_text, iter([batch])))

    def commit(self, end):
        pass

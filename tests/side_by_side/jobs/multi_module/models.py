"""The job's record type and what belongs to it, used both when the job is built and in Spark's workers."""
from pyflink.common import Duration, Row, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner

import settings

ORDER_TYPE = Types.ROW_NAMED(["user", "ts", "amount"], [Types.STRING(), Types.LONG(), Types.INT()])


def parse_order(line: str) -> Row:
    user, ts, amount = line.split(",")
    return Row(user=user.strip(), ts=int(ts), amount=int(amount))


def order_key(order: Row) -> str:
    return order.user


class OrderTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value.ts


def order_watermarks():
    return (WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(settings.OUT_OF_ORDERNESS_S))
            .with_timestamp_assigner(OrderTime()))

"""Resolving Flink offsets initializers to concrete offsets, on the driver.

Offsets travel between the driver, Spark's checkpoint and the executors as
``{"topic": {"partition": offset}}`` (string partition keys, as Spark's JSON
offsets require).
"""
from typing import Dict, Iterable, List, Mapping, Optional

from pyflink_compat.kafka_io import spec as kspec
from pyflink_compat.kafka_io.cluster import TP, Cluster, KafkaTopicNotFoundError

OffsetMap = Dict[TP, int]


class NoInitialOffsetError(RuntimeError):
    """No offset could be found for a partition and the reset strategy is NONE."""


def to_json(offsets: Mapping[TP, int]) -> Dict[str, Dict[str, int]]:
    nested: Dict[str, Dict[str, int]] = {}
    for (topic, partition), offset in sorted(offsets.items()):
        nested.setdefault(topic, {})[str(partition)] = int(offset)
    return nested


# A source offset may also hold a processing-time tick (see kafka_io/source.py): not a topic.
TICK_KEY = "__tick__"


def from_json(nested: Optional[Mapping[str, Mapping[str, int]]]) -> OffsetMap:
    if not nested:
        return {}
    return {(topic, int(p)): int(o) for topic, parts in nested.items() if topic != TICK_KEY
            for p, o in parts.items()}


def subscribed_partitions(cluster: Cluster, subscription: kspec.Subscription) -> List[TP]:
    """The partitions a subscription means right now; missing topics fail naming them."""
    if subscription.mode == "topics":
        layout = cluster.partitions_of(subscription.topics)
        return [(t, p) for t in subscription.topics for p in layout[t]]
    if subscription.mode == "pattern":
        topics = cluster.topics_matching(subscription.pattern)
        layout = cluster.partitions_of(topics)
        return [(t, p) for t in topics for p in layout[t]]
    wanted = sorted(subscription.partitions)
    layout = cluster.partitions_of(sorted({t for t, _ in wanted}))
    absent = [(t, p) for t, p in wanted if p not in layout[t]]
    if absent:
        raise KafkaTopicNotFoundError("Kafka partition(s) %s do not exist on bootstrap servers '%s'"
                                      % (", ".join("%s-%d" % tp for tp in absent), cluster.bootstrap_servers))
    return wanted


def _apply_reset(cluster: Cluster, reset_strategy: str, tps: List[TP], what: str) -> OffsetMap:
    if not tps:
        return {}
    if reset_strategy == kspec.RESET_EARLIEST:
        return cluster.earliest_offsets(tps)
    if reset_strategy == kspec.RESET_LATEST:
        return cluster.latest_offsets(tps)
    raise NoInitialOffsetError("%s for partitions: [%s]" % (what, ", ".join("%s-%d" % tp for tp in tps)))


def resolve(cluster: Cluster, initializer: kspec.OffsetsSpec, tps: Iterable[TP],
            group_id: Optional[str], starting: bool = True) -> OffsetMap:
    """Concrete offsets for ``tps`` as Flink's OffsetsInitializer would give them.

    Starting offsets outside a partition's range move by the reset strategy (as the consumer does on
    seek); stopping offsets (``starting=False``) are taken as given: beyond the end means "wait".
    """
    tps = list(tps)
    kind = initializer.kind
    if kind == kspec.EARLIEST:
        return cluster.earliest_offsets(tps)
    if kind == kspec.LATEST:
        return cluster.latest_offsets(tps)
    if kind == kspec.TIMESTAMP:
        found = cluster.offsets_for_timestamp(tps, initializer.timestamp_ms)
        # No record that late: start at the end (Flink's reset strategy LATEST for timestamp()).
        late = [tp for tp, off in found.items() if off is None]
        latest = cluster.latest_offsets(late) if late else {}
        return {tp: (found[tp] if found[tp] is not None else latest[tp]) for tp in tps}
    if kind == kspec.COMMITTED:
        committed = cluster.committed_offsets(group_id, tps)
        result = {tp: off for tp, off in committed.items() if off is not None}
        result.update(_apply_reset(cluster, initializer.reset_strategy,
                                   [tp for tp in tps if committed[tp] is None],
                                   "Undefined offset with no reset policy"))
        return _reset_out_of_range(cluster, initializer.reset_strategy, result) if starting else result
    if kind == kspec.SPECIFIC:
        result = _resolve_specific(cluster, initializer, tps, group_id)
        return _reset_out_of_range(cluster, initializer.reset_strategy, result) if starting else result
    raise ValueError("unknown offsets initializer kind %r" % kind)


def _resolve_specific(cluster: Cluster, initializer: kspec.OffsetsSpec, tps: List[TP],
                      group_id: Optional[str]) -> OffsetMap:
    """offsets({tp: off}, reset): listed partitions start at their offset (or a sentinel's meaning);
    the others at their committed offset, else by the reset strategy."""
    given = {tp: initializer.offsets[tp] for tp in tps if tp in initializer.offsets}
    result = {tp: off for tp, off in given.items() if off >= 0}
    earliest = [tp for tp, off in given.items() if off == kspec.EARLIEST_OFFSET]
    latest = [tp for tp, off in given.items() if off == kspec.LATEST_OFFSET]
    result.update(cluster.earliest_offsets(earliest) if earliest else {})
    result.update(cluster.latest_offsets(latest) if latest else {})
    rest = [tp for tp in tps if tp not in result]
    if rest and group_id:
        committed = cluster.committed_offsets(group_id, rest)
        result.update({tp: off for tp, off in committed.items() if off is not None})
        rest = [tp for tp in rest if committed[tp] is None]
    result.update(_apply_reset(cluster, initializer.reset_strategy, rest, "Cannot find initial offsets"))
    return result


def _reset_out_of_range(cluster: Cluster, reset_strategy: str, offsets: OffsetMap) -> OffsetMap:
    """Offsets outside [earliest, latest] move by the reset strategy, as Kafka's consumer does."""
    tps = sorted(offsets)
    earliest, latest = cluster.earliest_offsets(tps), cluster.latest_offsets(tps)
    outside = [tp for tp in tps if not earliest[tp] <= offsets[tp] <= latest[tp]]
    if not outside:
        return offsets
    fixed = dict(offsets)
    fixed.update(_apply_reset(cluster, reset_strategy, outside, "Offsets out of range with no reset policy"))
    return fixed

"""pyflink.table.window: the Table API's group windows (``Tumble``, ``Slide``, ``Session``), each planned as
Flink SQL's group window function of the same size (``TUMBLE`` / ``HOP`` / ``SESSION`` in GROUP BY). Over windows
(``Over``) are the ``WINDOW w AS (PARTITION BY ... ORDER BY ... ROWS | RANGE BETWEEN ... PRECEDING AND CURRENT
ROW)`` of SQL."""
import sys

from sqlglot import exp

from pyflink_compat import missing
from pyflink_compat.table.expression import Expression, to_node

_StandIns = missing.stand_ins(__name__)
__all__ = list(_StandIns.__all__)


class GroupWindow(object):
    """A group window with its time field and alias: the SQL group window function it stands for
    (``function``: TUMBLE, HOP or SESSION; ``arguments``: the time column then the intervals)."""

    def __init__(self, java_window):
        self._function, self._time_field, self._intervals, self._alias = java_window

    def _call(self) -> exp.Expr:
        return exp.Anonymous(this=self._function, expressions=[self._time_field.copy()]
                             + [interval.copy() for interval in self._intervals])


def _interval_node(value) -> exp.Expr:
    node = to_node(value)
    if not isinstance(node, exp.Interval):
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("A row-count group window ('%s')" % node.sql(), "table-api",
                                      "time windows of intervals (lit(10).seconds) run")
    return node


class Tumble(object):
    """A tumbling window: ``Tumble.over(lit(10).minutes).on(col('rowtime')).alias('w')``."""

    @classmethod
    def over(cls, size: Expression) -> 'TumbleWithSize':
        return TumbleWithSize(_interval_node(size))


class TumbleWithSize(object):
    def __init__(self, java_window):
        self._size = java_window

    def on(self, time_field: Expression) -> 'TumbleWithSizeOnTime':
        return TumbleWithSizeOnTime(("TUMBLE", to_node(time_field), [self._size]))


class _OnTime(object):
    def __init__(self, java_window):
        self._window = java_window

    def alias(self, alias: str) -> 'GroupWindow':
        function, time_field, intervals = self._window
        return GroupWindow((function, time_field, intervals, alias))


class TumbleWithSizeOnTime(_OnTime):
    pass


class Session(object):
    """A session window: ``Session.with_gap(lit(10).minutes).on(col('rowtime')).alias('w')``."""

    @classmethod
    def with_gap(cls, gap: Expression) -> 'SessionWithGap':
        return SessionWithGap(_interval_node(gap))


class SessionWithGap(object):
    def __init__(self, java_window):
        self._gap = java_window

    def on(self, time_field: Expression) -> 'SessionWithGapOnTime':
        return SessionWithGapOnTime(("SESSION", to_node(time_field), [self._gap]))


class SessionWithGapOnTime(_OnTime):
    pass


class Slide(object):
    """A sliding window: ``Slide.over(lit(10).minutes).every(lit(5).minutes).on(col('rowtime')).alias('w')``."""

    @classmethod
    def over(cls, size: Expression) -> 'SlideWithSize':
        return SlideWithSize(_interval_node(size))


class SlideWithSize(object):
    def __init__(self, java_window):
        self._size = java_window

    def every(self, slide: Expression) -> 'SlideWithSizeAndSlide':
        return SlideWithSizeAndSlide((self._size, _interval_node(slide)))


class SlideWithSizeAndSlide(object):
    def __init__(self, java_window):
        self._size, self._slide = java_window

    def on(self, time_field: Expression) -> 'SlideWithSizeAndSlideOnTime':
        # SQL's HOP takes the slide first, then the size
        return SlideWithSizeAndSlideOnTime(("HOP", to_node(time_field), [self._slide, self._size]))


class SlideWithSizeAndSlideOnTime(_OnTime):
    pass


class OverWindow(object):
    """An over window with its alias: the SQL window definition it stands for (``_definition``)."""

    def __init__(self, java_over_window):
        self._partition, self._order, self._preceding, self._following, self._alias = java_over_window

    def _definition(self) -> exp.Window:
        """``WINDOW alias AS (PARTITION BY ... ORDER BY ... frame)``: Flink's defaults, UNBOUNDED_RANGE preceding
        and a following of the preceding's kind (CURRENT_ROW for rows, CURRENT_RANGE for time)."""
        preceding = to_node(self._preceding) if self._preceding is not None else exp.Var(this="UNBOUNDED_RANGE")
        following = to_node(self._following) if self._following is not None else None
        if isinstance(preceding, exp.Var) and preceding.name in ("UNBOUNDED_ROW", "UNBOUNDED_RANGE"):
            kind, start = ("ROWS" if preceding.name == "UNBOUNDED_ROW" else "RANGE"), "UNBOUNDED"
        elif isinstance(preceding, exp.Anonymous) and preceding.name == "ROW_INTERVAL":
            kind, start = "ROWS", preceding.expressions[0].copy()
        elif isinstance(preceding, exp.Interval):
            kind, start = "RANGE", preceding.copy()
        else:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("An over window preceding '%s'" % preceding.sql(), "table-api")
        if following is not None and not (isinstance(following, exp.Var)
                                          and following.name in ("CURRENT_ROW", "CURRENT_RANGE")):
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("An over window following '%s'" % following.sql(), "table-api",
                                          "over windows end at CURRENT_ROW / CURRENT_RANGE")
        spec = exp.WindowSpec(kind=kind, start=start, start_side="PRECEDING", end="CURRENT ROW")
        order = to_node(self._order).copy()
        if not isinstance(order, exp.Ordered):
            order = exp.Ordered(this=order, nulls_first=True)
        return exp.Window(this=exp.to_identifier(self._alias), partition_by=[each.copy() for each in self._partition],
                          order=exp.Order(expressions=[order]), spec=spec)


class _OverBuilder(object):
    def __init__(self, java_over_window):
        self._partition, self._order, self._preceding, self._following = java_over_window

    def _with(self, **changes) -> '_OverBuilder':
        state = dict(partition=self._partition, order=self._order, preceding=self._preceding,
                     following=self._following)
        state.update(changes)
        return _OverBuilder((state["partition"], state["order"], state["preceding"], state["following"]))

    def order_by(self, order_by: Expression) -> '_OverBuilder':
        return self._with(order=order_by)

    def preceding(self, preceding: Expression) -> '_OverBuilder':
        return self._with(preceding=preceding)

    def following(self, following: Expression) -> '_OverBuilder':
        return self._with(following=following)

    def alias(self, alias: str) -> OverWindow:
        return OverWindow((self._partition, self._order, self._preceding, self._following, alias))


class Over(object):
    """Over windows: ``Over.partition_by(col('k')).order_by(col('ts')).preceding(row_interval(2)).alias('w')``."""

    @classmethod
    def order_by(cls, order_by: Expression) -> _OverBuilder:
        return _OverBuilder(([], order_by, None, None))

    @classmethod
    def partition_by(cls, *partition_by: Expression) -> _OverBuilder:
        return _OverBuilder(([to_node(each).copy() for each in partition_by], None, None, None))


for _name in ("OverWindowPartitioned", "OverWindowPartitionedOrdered", "OverWindowPartitionedOrderedPreceding"):
    globals()[_name] = _OverBuilder

missing.complete(sys.modules[__name__])

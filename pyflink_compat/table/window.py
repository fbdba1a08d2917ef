"""pyflink.table.window: the Table API's group windows (``Tumble``, ``Slide``, ``Session``), each planned as
Flink SQL's group window function of the same size (``TUMBLE`` / ``HOP`` / ``SESSION`` in GROUP BY). Over windows
are PyFlink's stand-ins and raise ``UnsupportedFeatureError``."""
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


missing.complete(sys.modules[__name__])

from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, RuntimeContext
from pyflink.datastream.state import ValueStateDescriptor

from models import order_key


class RunningTotal(KeyedProcessFunction):
    """The total per user so far, in keyed state."""

    def open(self, runtime_context: RuntimeContext):
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.LONG()))

    def process_element(self, value, ctx):
        total = (self.total.value() or 0) + value.amount
        self.total.update(total)
        yield "%s total %d after %s" % (order_key(value), total, value.ts)

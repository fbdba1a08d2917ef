from pyflink.datastream.functions import ProcessWindowFunction


class DescribeWindow(ProcessWindowFunction):
    def process(self, key, context, elements):
        window = context.window()
        amounts = sorted(e.amount for e in elements)
        yield "%s [%d,%d) n=%d sum=%d %s" % (key, window.start, window.end, len(amounts), sum(amounts), amounts)


def describe_window():
    return DescribeWindow()

"""A failed job names the operator whose function raised, located from the task's Python traceback."""
import inspect

from pyflink_compat.common import Types
from pyflink_compat.datastream.functions import CoProcessFunction
from pyflink_compat.plan import graph
from pyflink_compat.runtime.failures import failing_operator


def parse(text):
    return int(text)


class Join(CoProcessFunction):
    def open(self, runtime_context):
        self.state = runtime_context.get_broadcast_state("no such method")

    def process_element1(self, value, ctx):
        yield value

    def process_element2(self, value, ctx):
        yield value


def _traceback(*frames, error="ValueError: bad"):
    lines = ["org.apache.spark.api.python.PythonException: Traceback (most recent call last):",
             '  File "/site-packages/pyspark/worker.py", line 1, in main']
    for function in frames:
        code = function.__code__
        last = max(line for _, _, line in code.co_lines() if line is not None)
        lines.append('  File "%s", line %d, in %s' % (code.co_filename, last, code.co_name))
    lines.append(error)
    return "\n".join(lines)


def _job():
    source = graph.Node(kind=graph.COLLECTION_SOURCE, name="Source: Collection Source", output_type=Types.STRING())
    mapped = graph.Node(kind=graph.MAP, name="Map", output_type=Types.INT(), input=source,
                        payload=lambda text: parse(text) + 1)
    joined = graph.Node(kind=graph.CO_PROCESS, name="Co-Process", output_type=Types.INT(), payload=Join(),
                        inputs=(mapped, source))
    return [graph.Node(kind=graph.PRINT_SINK, name="Print to Std. Out", output_type=Types.INT(), input=joined)]


def test_the_frame_of_an_operators_function_names_it():
    sinks = _job()
    lambda_code = sinks[0].input.inputs[0].payload
    assert failing_operator(sinks, _traceback(lambda_code)) == "Map"
    # a helper the function calls is not an operator's: the function calling it is the innermost that is
    assert failing_operator(sinks, _traceback(lambda_code, parse)) == "Map"
    # a method of a function class, open() included
    assert failing_operator(sinks, _traceback(Join.open, error="AttributeError: no")) == "Co-Process"


def test_no_operator_when_no_frame_is_in_an_operators_function():
    sinks = _job()
    assert failing_operator(sinks, _traceback(parse)) is None
    assert failing_operator(sinks, "java.lang.OutOfMemoryError: Java heap space") is None


def test_the_lines_of_a_function_are_its_whole_body():
    sinks = _job()
    source_lines, first = inspect.getsourcelines(Join.open)
    text = _traceback(error="AttributeError: no").replace(
        "AttributeError", '  File "%s", line %d, in open\nAttributeError' % (Join.open.__code__.co_filename,
                                                                            first + len(source_lines) - 1))
    assert failing_operator(sinks, text) == "Co-Process"

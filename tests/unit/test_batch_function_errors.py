"""foreachBatch functions' errors as Spark gets them: py4j's opening words reworded (Spark matches the text after
them one stack frame per character when a stopped query's batch failed), the rest of the text kept."""
import pytest

from pyflink_compat.runtime.translate import BatchFunctionError, _stop_safe


def _failing(error):
    def write(batch_df, batch_id):
        raise error
    return write


def test_an_error_with_py4js_words_is_reworded_and_keeps_its_text():
    cause = RuntimeError("py4j.protocol.Py4JJavaError: An error occurred while calling o12.collectToPython.\n"
                         ": org.apache.spark.SparkException: Job 3 cancelled\n" + "\tat a.b.C.d(C.java:1)\n" * 200)
    with pytest.raises(BatchFunctionError) as raised:
        _stop_safe(_failing(cause))(None, 7)
    text = str(raised.value)
    assert "An error occurred while calling" not in text
    assert "Py4JJavaError: an error occurred while calling o12.collectToPython." in text
    assert "RuntimeError: " in text and "Job 3 cancelled" in text and text.count("\tat a.b.C.d(C.java:1)") == 200


def test_other_errors_pass_as_they_are():
    cause = ValueError("a user function failed")
    with pytest.raises(ValueError) as raised:
        _stop_safe(_failing(cause))(None, 7)
    assert raised.value is cause
    assert _stop_safe(lambda batch_df, batch_id: batch_id * 2)(None, 21) == 42

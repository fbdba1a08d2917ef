"""Mirror of ``pyflink.datastream.async_retry_predicates``: ready-made retry conditions for async I/O."""


def empty_result_predicate(result: list):
    """Retry when the result is missing or empty."""
    return result is None or len(result) == 0


def has_exception_predicate(error):
    """Retry on any exception."""
    return error is not None


def exception_type_predicate(error, expected_error_type):
    """Retry on an exception of ``expected_error_type``."""
    return isinstance(error, expected_error_type)

"""py4j's INFO lines (its callback server starting) are machinery: a job logging INFO to stdout does not print
them, unless it set the py4j logger's level itself."""
import logging

from pyflink_compat.runtime import session


def test_py4j_info_lines_are_kept_out_unless_the_job_sets_the_level():
    py4j_log = logging.getLogger("py4j")
    before = py4j_log.level
    try:
        py4j_log.setLevel(logging.NOTSET)
        session._prepare_environment()
        assert py4j_log.level == logging.WARNING
        py4j_log.setLevel(logging.DEBUG)
        session._prepare_environment()
        assert py4j_log.level == logging.DEBUG
    finally:
        py4j_log.setLevel(before)

"""Waiting on a running job's Spark queries, for tests whose input must come after a point in the job's life.

A fixed sleep is not enough: on a loaded machine the first micro-batch can start many seconds after
``execute_async`` returns.
"""
import time


def wait_for_completed_batches(client, count: int = 1, timeout_s: float = 90.0):
    """Block until every query of the job started by ``execute_async`` (``client``) has completed ``count``
    micro-batches; fail the test after ``timeout_s``."""
    queries = [query for _, query in client._j_job_client._queries]       # the running JobRun
    deadline = time.monotonic() + timeout_s
    while True:
        completed = [len(query.recentProgress) for query in queries]
        if all(done >= count for done in completed):
            return
        failed = [error for error in (query.exception() for query in queries) if error is not None]
        if failed:
            raise AssertionError("the job failed before %d micro-batches: %s" % (count, failed[0]))
        if time.monotonic() > deadline:
            raise AssertionError("after %.0f s the job's queries had completed %s micro-batches, not %d"
                                 % (timeout_s, completed, count))
        time.sleep(0.2)

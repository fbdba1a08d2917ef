"""JobStatus, JobID, JobExecutionResult, CompletableFuture and the JobClient base."""
import concurrent.futures
import pickle
import re

import pytest

from pyflink_compat.common import CompletableFuture, JobClient, JobExecutionResult, JobID, JobStatus


# -- JobStatus ------------------------------------------------------------------------------------

def test_job_status_members_as_pyflink():
    # PyFlink 2.3.0's enum: Java's order and values, without INITIALIZING
    assert [(status.name, status.value) for status in JobStatus] == [
        ('CREATED', 0), ('RUNNING', 1), ('FAILING', 2), ('FAILED', 3), ('CANCELLING', 4), ('CANCELED', 5),
        ('FINISHED', 6), ('RESTARTING', 7), ('SUSPENDED', 8), ('RECONCILING', 9)]


@pytest.mark.parametrize("status", list(JobStatus), ids=lambda status: status.name)
def test_terminal_states(status):
    globally_terminal = status in (JobStatus.FAILED, JobStatus.CANCELED, JobStatus.FINISHED)
    assert status.is_globally_terminal_state() is globally_terminal
    assert status.is_terminal_state() is (globally_terminal or status is JobStatus.SUSPENDED)


# -- JobID ----------------------------------------------------------------------------------------

def test_generated_job_ids_are_32_lower_case_hex_digits():
    job_id = JobID.generate()
    assert re.fullmatch(r"[0-9a-f]{32}", str(job_id))
    assert job_id.to_hex_string() == str(job_id)
    assert JobID.generate() != job_id


def test_job_id_equality_hash_and_pickle():
    job_id = JobID("FD72014D4C864993A2E5A9287B4A9C5D")
    assert str(job_id) == "fd72014d4c864993a2e5a9287b4a9c5d"
    assert job_id == JobID("fd72014d4c864993a2e5a9287b4a9c5d")
    assert hash(job_id) == hash(JobID("fd72014d4c864993a2e5a9287b4a9c5d"))
    assert job_id != "fd72014d4c864993a2e5a9287b4a9c5d"
    assert pickle.loads(pickle.dumps(job_id)) == job_id


@pytest.mark.parametrize("text", ["", "abc", "g" * 32, "0" * 33])
def test_job_id_rejects_malformed_text(text):
    with pytest.raises(ValueError, match="Cannot parse JobID from"):
        JobID(text)


# -- JobExecutionResult ---------------------------------------------------------------------------

def test_job_execution_result_getters():
    job_id = JobID.generate()
    result = JobExecutionResult._of(job_id, 1234, {"count": 3})
    assert result.get_job_id() is job_id
    assert result.get_net_runtime() == 1234
    assert result.get_accumulator_result("count") == 3
    assert result.get_accumulator_result("missing") is None
    assert result.get_all_accumulator_results() == {"count": 3}
    assert result.is_job_execution_result() is True
    assert result.get_job_execution_result() is result


def test_job_execution_result_accumulators_are_copies():
    result = JobExecutionResult._of(JobID.generate(), 0)
    assert result.get_all_accumulator_results() == {}
    result.get_all_accumulator_results()["x"] = 1
    assert result.get_accumulator_result("x") is None


def test_job_execution_result_to_string_like_java():
    job_id = JobID("fd72014d4c864993a2e5a9287b4a9c5d")
    assert JobExecutionResult._of(job_id, 42).to_string() == (
        "Program execution finished\n"
        "Job with JobID fd72014d4c864993a2e5a9287b4a9c5d has finished.\n"
        "Job Runtime: 42 ms\n")
    assert JobExecutionResult._of(job_id, 42, {"n": 1}).to_string().endswith(
        "Job Runtime: 42 ms\nAccumulator Results: \n- n (int): 1\n\n")


def test_job_execution_result_pickles():
    job_id = JobID.generate()
    copy = pickle.loads(pickle.dumps(JobExecutionResult._of(job_id, 7, {"n": 1})))
    assert (copy.get_job_id(), copy.get_net_runtime(), copy.get_accumulator_result("n")) == (job_id, 7, 1)


# -- CompletableFuture ----------------------------------------------------------------------------

def test_future_completes_with_a_result():
    future = CompletableFuture(None)
    assert not future.done()
    assert future.exception() is None
    assert "[Incomplete]" in str(future)
    assert future.set_result("path") is True
    assert future.done() and not future.cancelled()
    assert future.result() == "path"
    assert future.set_result("again") is False
    assert future.result() == "path"
    assert str(future).endswith("[Completed normally]")


def test_future_converts_its_result_with_py_class():
    backing = concurrent.futures.Future()
    future = CompletableFuture(backing, JobStatus)
    backing.set_result(6)                       # PyFlink numbers FINISHED 6
    assert future.result() is JobStatus.FINISHED


def test_future_completed_exceptionally():
    future = CompletableFuture(None)
    failure = RuntimeError("boom")
    assert future.set_exception(failure) is True
    assert future.done()
    assert future.exception() is failure
    with pytest.raises(RuntimeError, match="boom"):
        future.result()
    assert future.set_result(1) is False
    assert "Completed exceptionally" in str(future)


def test_future_cancel():
    future = CompletableFuture(None)
    assert future.cancel() is True
    assert future.cancelled() and future.done()
    assert future.exception() is None
    with pytest.raises(concurrent.futures.CancelledError):
        future.result()


def test_completed_future_cannot_be_cancelled():
    future = CompletableFuture(None)
    future.set_result(1)
    assert future.cancel() is False
    assert not future.cancelled()


def test_future_wraps_an_executor_future():
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
        future = CompletableFuture(executor.submit(lambda: 6 * 7))
        assert future.result() == 42
    assert future.done()


# -- JobClient ------------------------------------------------------------------------------------

class _Run:
    """The runtime side a JobClient wraps: a job that finishes when told."""

    def __init__(self):
        import concurrent.futures
        self.job_id = "job-1"
        self.status = JobStatus.RUNNING
        self.result_future = concurrent.futures.Future()
        self.cancelled = False

    def cancel(self):
        self.cancelled = True
        self.status = JobStatus.CANCELED
        self.result_future.set_result("result")


def test_job_client_wraps_the_runtime_job():
    run = _Run()
    client = JobClient(run)
    assert client.get_job_id() == "job-1"
    assert client.get_job_status().result() is JobStatus.RUNNING
    result = client.get_job_execution_result()
    cancelled = client.cancel()
    assert run.cancelled and cancelled.result() is None and result.result() == "result"
    assert client.get_job_status().result() is JobStatus.CANCELED


@pytest.mark.parametrize("call", [
    lambda client: client.stop_with_savepoint(False),
    lambda client: client.stop_with_savepoint(True, savepoint_directory="/tmp/sp"),
    lambda client: client.trigger_savepoint(),
])
def test_savepoints_are_not_supported_yet(call):
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    with pytest.raises(UnsupportedFeatureError, match="porting_guide/README.md#checkpoints"):
        call(JobClient(_Run()))


def test_job_client_subclass():
    class FinishedJobClient(JobClient):
        def get_job_status(self):
            future = CompletableFuture(None)
            future.set_result(JobStatus.FINISHED)
            return future

    assert FinishedJobClient("handle")._j_job_client == "handle"
    assert FinishedJobClient(None).get_job_status().result() is JobStatus.FINISHED

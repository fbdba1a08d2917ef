"""The harness itself (no processes): it must see differences, and only real ones."""
import pytest

from harness import (Case, Output, Prints, Run, SideBySideFailure, check_oracle, compare, order_violations,
                     printed_lines)

pytestmark = pytest.mark.side_by_side


def run(records=None, printed=()):
    return Run(engine="x", records=records or {}, printed=list(printed), returncode=0, seconds=0.0,
               stderr_tail="", stopped=False)


def test_exact_comparison_sees_order_values_keys_partitions_and_timestamps():
    case = Case(name="c", job="j.py", args=[], outputs={"out": Output(count=2, keys=True, timestamps=True)})
    oracle = run({"out": [(0, "k", "a", 1), (0, "k", "b", 1)]})
    compare(case, oracle, run({"out": [(0, "k", "a", 1), (0, "k", "b", 1)]}))
    for different in ([(0, "k", "b", 1), (0, "k", "a", 1)], [(0, None, "a", 1), (0, "k", "b", 1)],
                      [(0, "k", "a", 1), (1, "k", "b", 1)], [(0, "k", "a", 2), (0, "k", "b", 1)],
                      [(0, "k", "a", 1)], [(0, "k", "a", 1), (0, "k", "b", 1), (0, "k", "b", 1)]):
        with pytest.raises(SideBySideFailure, match="differs"):
            compare(case, oracle, run({"out": different}))


def test_multiset_comparison_ignores_order_and_optionally_partitions():
    case = Case(name="c", job="j.py", args=[],
                outputs={"out": Output(count=2, compare="multiset", partitioned=False)})
    oracle = run({"out": [(0, None, "a", 1), (1, None, "b", 1)]})
    compare(case, oracle, run({"out": [(0, None, "b", 1), (0, None, "a", 1)]}))
    with pytest.raises(SideBySideFailure, match="only on pyflink-compat"):
        compare(case, oracle, run({"out": [(0, None, "b", 1), (0, None, "c", 1)]}))
    case.outputs["out"].partitioned = True
    with pytest.raises(SideBySideFailure):
        compare(case, oracle, run({"out": [(1, None, "a", 1), (0, None, "b", 1)]}))


def test_order_within_groups():
    key = lambda v: (v[0], int(v[1:]))                       # noqa: E731
    assert order_violations([(0, None, "a1", 0), (0, None, "b1", 0), (0, None, "a2", 0), (1, None, "a0", 0)],
                            key) == []
    assert order_violations([(0, None, "a2", 0), (0, None, "a1", 0)], key)


def test_printed_lines_as_multisets_with_optional_subtask_numbers():
    case = Case(name="c", job="j.py", args=[], prints=Prints(count=2, strip_subtask=True, parallelism=2))
    oracle = run(printed=["1> x", "id:2> y"])
    compare(case, oracle, run(printed=["id:1> y", "2> x"]))
    with pytest.raises(SideBySideFailure, match="subtask prefix"):
        compare(case, oracle, run(printed=["3> x", "id:1> y"]))
    with pytest.raises(SideBySideFailure, match="printed lines"):
        compare(case, oracle, run(printed=["1> x", "id:1> y", "1> x"]))
    exact = Case(name="c", job="j.py", args=[], prints=Prints(count=2))
    with pytest.raises(SideBySideFailure):
        compare(exact, run(printed=["+I[a,1]", ""]), run(printed=["+I[a, 1]", ""]))


def test_the_oracle_must_show_what_the_case_expects():
    case = Case(name="c", job="j.py", args=[], outputs={"out": Output(count=2)})
    with pytest.raises(SideBySideFailure, match="ORACLE"):
        check_oracle(case, run({"out": [(0, None, "a", 1)]}))


def test_log_lines_are_not_printed_output(tmp_path):
    stdout = tmp_path / "out"
    stdout.write_text("26/11/22 07:31:14 WARN NativeCodeLoader: x\nWARNING: Using incubator modules\n"
                      "+I[a,1]\n\n1> b\n")
    assert printed_lines(str(stdout)) == ["+I[a,1]", "", "1> b"]


def test_the_clients_job_lines_are_not_printed_output(tmp_path):
    stdout = tmp_path / "out"
    stdout.write_text("Job has been submitted with JobID %s\n1> a\n\nProgram execution finished\n"
                      "Job with JobID %s has finished.\nJob Runtime: 812 ms\n\n+I[b]\n" % ("ab" * 16, "ab" * 16))
    assert printed_lines(str(stdout)) == ["1> a", "", "+I[b]"]


def test_printed_lines_in_order_exactly_or_per_print_identifier():
    oracle = run(printed=["a> 1", "b> x", "a> 2", "+--+", "| 1 |", "b> y"])
    per_identifier = Case(name="c", job="j.py", args=[], prints=Prints(count=6, order="per-identifier"))
    compare(per_identifier, oracle, run(printed=["b> x", "a> 1", "b> y", "+--+", "a> 2", "| 1 |"]))
    with pytest.raises(SideBySideFailure, match="another order"):
        compare(per_identifier, oracle, run(printed=["a> 2", "b> x", "a> 1", "+--+", "| 1 |", "b> y"]))
    with pytest.raises(SideBySideFailure, match="another order"):
        compare(per_identifier, oracle, run(printed=["a> 1", "b> x", "a> 2", "| 1 |", "+--+", "b> y"]))
    exact = Case(name="c", job="j.py", args=[], prints=Prints(count=6, order="exact"))
    compare(exact, oracle, run(printed=list(oracle.printed)))
    with pytest.raises(SideBySideFailure, match="another order"):
        compare(exact, oracle, run(printed=["b> x", "a> 1", "a> 2", "+--+", "| 1 |", "b> y"]))

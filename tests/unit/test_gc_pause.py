"""The collector pause around batch conversions: resumed afterwards, also on errors; nesting is harmless."""
import gc

import pytest

from pyflink_compat.runtime import gc_pause


@pytest.fixture(autouse=True)
def collector_enabled():
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


def test_the_collector_is_paused_inside_and_resumed_after():
    with gc_pause.paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_inside_resumes_the_collector():
    with pytest.raises(ValueError):
        with gc_pause.paused():
            raise ValueError("user function failed")
    assert gc.isenabled()


def test_a_nested_pause_leaves_the_outer_one_in_charge():
    with gc_pause.paused():
        with gc_pause.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_disabled_by_the_user_stays_disabled():
    gc.disable()
    with gc_pause.paused():
        pass
    assert not gc.isenabled()

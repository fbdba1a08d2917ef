"""Mirror of ``pyflink.common.input_dependency_constraint``.

Scheduling hint only: Spark schedules its own tasks, so the value is accepted and has no effect.
"""
from enum import Enum

__all__ = ['InputDependencyConstraint']


class InputDependencyConstraint(Enum):
    """When a task is scheduled considering its inputs: ``ANY`` input consumable, or ``ALL`` of them."""

    ANY = 0
    ALL = 1

"""Mirror of ``pyflink.common.serializer``: the base of custom Python serializers.

pyflink-compat pickles elements or stores them as Arrow columns; a ``TypeSerializer`` subclass can be
defined and used directly, but the runtime does not call it.
"""
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

__all__ = ['TypeSerializer']

T = TypeVar('T')


class TypeSerializer(ABC, Generic[T]):
    """Serializes elements of type ``T`` to a binary stream and back."""

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(type(self))

    @abstractmethod
    def serialize(self, element: T, stream) -> None:
        """Writes ``element`` to ``stream`` (a binary output stream)."""

    @abstractmethod
    def deserialize(self, stream) -> T:
        """Reads one element from ``stream`` (a binary input stream)."""

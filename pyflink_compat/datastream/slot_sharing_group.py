"""``MemorySize`` and ``SlotSharingGroup`` (mirror of ``pyflink.datastream.slot_sharing_group``).

Plain data classes. Spark schedules tasks its own way, so pyflink-compat only
records slot sharing groups; the builder still checks its arguments like
Flink's (``IllegalArgumentException`` texts, raised as JavaStyleError).
"""
from typing import Dict, Optional

from pyflink_compat.util.exceptions import illegal_argument, no_effect

__all__ = ['MemorySize', 'SlotSharingGroup']

_UNITS = ((1, 'bytes'), (1024, 'kb'), (1024 ** 2, 'mb'), (1024 ** 3, 'gb'), (1024 ** 4, 'tb'))


class MemorySize(object):
    """A number of bytes, viewable in different units."""

    def __init__(self, j_memory_size=None, bytes_size: int = None):
        if j_memory_size is not None:
            bytes_size = (j_memory_size.get_bytes() if isinstance(j_memory_size, MemorySize)
                          else int(j_memory_size))
        if bytes_size is None or bytes_size < 0:
            raise illegal_argument("bytes must be >= 0", "<init>")
        self._bytes = int(bytes_size)

    @staticmethod
    def of_mebi_bytes(mebi_bytes: int) -> 'MemorySize':
        return MemorySize(bytes_size=mebi_bytes << 20)

    def get_bytes(self) -> int:
        return self._bytes

    def get_kibi_bytes(self) -> int:
        return self._bytes >> 10

    def get_mebi_bytes(self) -> int:
        return self._bytes >> 20

    def get_gibi_bytes(self) -> int:
        return self._bytes >> 30

    def get_tebi_bytes(self) -> int:
        return self._bytes >> 40

    @no_effect("there is no Java object: returns itself")
    def get_java_memory_size(self):
        """There is no Java object in pyflink-compat: returns this MemorySize itself."""
        return self

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self._bytes == other._bytes

    def __hash__(self):
        return hash(self._bytes)

    def __lt__(self, other: 'MemorySize'):
        if not isinstance(other, MemorySize):
            raise Exception("Does not support comparison with non-MemorySize %s" % other)
        return self._bytes < other._bytes

    def __le__(self, other: 'MemorySize'):
        return self.__eq__(other) or self.__lt__(other)

    def __str__(self):
        # Java's MemorySize.toString: the largest unit that divides the size exactly.
        multiplier, unit = _UNITS[0]
        for index, (m, _) in enumerate(_UNITS):
            if self._bytes % m != 0:
                multiplier, unit = _UNITS[index - 1] if index > 0 else _UNITS[0]
                break
        return "%d %s" % (self._bytes // multiplier, unit)

    def __repr__(self):
        return "MemorySize(%s)" % self


_ZERO = MemorySize(bytes_size=0)


class SlotSharingGroup(object):
    """A named slot sharing group with an optional resource specification."""

    def __init__(self, j_slot_sharing_group):
        """``j_slot_sharing_group``: another SlotSharingGroup (copied), a group name, or the dict of
        settings ``Builder.build()`` passes (PyFlink passes a Java SlotSharingGroup)."""
        if isinstance(j_slot_sharing_group, SlotSharingGroup):
            self.__dict__.update(j_slot_sharing_group.__dict__)
            return
        spec = j_slot_sharing_group if isinstance(j_slot_sharing_group, dict) else {"name": j_slot_sharing_group}
        self._name = spec.get("name")
        self._cpu_cores = spec.get("cpu_cores")
        self._task_heap_memory = spec.get("task_heap_memory")
        self._task_off_heap_memory = spec.get("task_off_heap_memory")
        self._managed_memory = spec.get("managed_memory")
        self._external_resources = dict(spec.get("external_resources") or {})

    def get_name(self) -> str:
        return self._name

    def get_managed_memory(self) -> Optional[MemorySize]:
        return self._managed_memory

    def get_task_heap_memory(self) -> Optional[MemorySize]:
        return self._task_heap_memory

    def get_task_off_heap_memory(self) -> Optional[MemorySize]:
        return self._task_off_heap_memory

    def get_cpu_cores(self) -> Optional[float]:
        return self._cpu_cores

    def get_external_resources(self) -> dict:
        return dict(self._external_resources)

    @no_effect("there is no Java object: returns itself")
    def get_java_slot_sharing_group(self):
        """There is no Java object in pyflink-compat: returns this group itself."""
        return self

    @staticmethod
    def builder(name: str) -> 'SlotSharingGroup.Builder':
        return SlotSharingGroup.Builder(name)

    def _key(self):
        return (self._name, self._cpu_cores, self._task_heap_memory, self._task_off_heap_memory,
                self._managed_memory, tuple(sorted(self._external_resources.items())))

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "SlotSharingGroup(%r)" % (self._name,)

    class Builder(object):
        """Builder of SlotSharingGroup; every setter returns the builder.

        Giving any resource requires both cpu cores and task heap memory.
        """

        def __init__(self, j_builder):
            self._name = j_builder
            self._cpu_cores = None
            self._task_heap_memory = None
            self._task_off_heap_memory = None
            self._managed_memory = None
            self._external_resources = {}

        def set_cpu_cores(self, cpu_cores: float) -> 'SlotSharingGroup.Builder':
            if not cpu_cores > 0:
                raise illegal_argument("The cpu cores should be positive.", "setCpuCores")
            self._cpu_cores = float(cpu_cores)
            return self

        def set_task_heap_memory(self, task_heap_memory: MemorySize) -> 'SlotSharingGroup.Builder':
            if not task_heap_memory.get_bytes() > 0:
                raise illegal_argument("The task heap memory should be positive.",
                                       "setTaskHeapMemory")
            self._task_heap_memory = task_heap_memory
            return self

        def set_task_heap_memory_mb(self, task_heap_memory_mb: int) -> 'SlotSharingGroup.Builder':
            return self.set_task_heap_memory(MemorySize.of_mebi_bytes(task_heap_memory_mb))

        def set_task_off_heap_memory(self, task_off_heap_memory: MemorySize) \
                -> 'SlotSharingGroup.Builder':
            self._task_off_heap_memory = task_off_heap_memory
            return self

        def set_task_off_heap_memory_mb(self, task_off_heap_memory_mb: int) \
                -> 'SlotSharingGroup.Builder':
            return self.set_task_off_heap_memory(MemorySize.of_mebi_bytes(task_off_heap_memory_mb))

        def set_managed_memory(self, managed_memory: MemorySize) -> 'SlotSharingGroup.Builder':
            self._managed_memory = managed_memory
            return self

        def set_managed_memory_mb(self, managed_memory_mb: int) -> 'SlotSharingGroup.Builder':
            return self.set_managed_memory(MemorySize.of_mebi_bytes(managed_memory_mb))

        def set_external_resource(self, name: str, value: float) -> 'SlotSharingGroup.Builder':
            self._external_resources[name] = float(value)
            return self

        def build(self) -> 'SlotSharingGroup':
            if self._cpu_cores is not None and self._task_heap_memory is not None:
                return SlotSharingGroup(dict(
                    name=self._name, cpu_cores=self._cpu_cores,
                    task_heap_memory=self._task_heap_memory,
                    task_off_heap_memory=self._task_off_heap_memory or _ZERO,
                    managed_memory=self._managed_memory or _ZERO,
                    external_resources=self._external_resources))
            if (self._cpu_cores is not None or self._task_heap_memory is not None
                    or self._task_off_heap_memory is not None or self._managed_memory is not None
                    or self._external_resources):
                raise illegal_argument(
                    "The cpu cores and task heap memory are required when specifying the "
                    "resource of a slot sharing group. You need to explicitly configure them "
                    "with positive value.", "build")
            return SlotSharingGroup(dict(name=self._name))

"""``TimerService`` (mirror of ``pyflink.datastream.timerservice``)."""
from abc import ABC, abstractmethod

__all__ = ['TimerService']


class TimerService(ABC):
    """Interface for querying time and registering timers (all times in epoch milliseconds)."""

    @abstractmethod
    def current_processing_time(self):
        """The current processing time."""
        pass

    @abstractmethod
    def current_watermark(self):
        """The current event-time watermark."""
        pass

    @abstractmethod
    def register_processing_time_timer(self, timestamp: int):
        """Registers a timer called when processing time passes ``timestamp``."""
        pass

    @abstractmethod
    def register_event_time_timer(self, timestamp: int):
        """Registers a timer called when the watermark passes ``timestamp``."""
        pass

    def delete_processing_time_timer(self, timestamp: int):
        """Deletes the processing-time timer with the given trigger time (if any)."""
        pass

    def delete_event_time_timer(self, timestamp: int):
        """Deletes the event-time timer with the given trigger time (if any)."""
        pass

"""The keyed operator engine: keyed state, timers and keyed operators, independent of Spark.

One instance of an operator is one keyed "subtask": the caller feeds it records
(key, value, timestamp) in order, advances the watermark and processing time,
collects outputs, and saves the whole state as bytes between batches
(``snapshot()`` / ``restore()``). See /work/notes/keyed_engine.md.

Modules: ``state_backend`` (keyed state, TTL), ``timers`` (timer service), ``operators``
(``KeyedOperator``, ``KeyedProcessOperator``), ``rolling`` (``KeyedStream.reduce/sum/...``),
``window_operator`` (``WindowOperator``), ``key_groups`` (Flink's key -> subtask mapping),
``keys`` (key identity).
"""
from pyflink_compat.runtime.keyed.keys import key_identity
from pyflink_compat.runtime.keyed.state_backend import KeyedStateBackend, VOID_NAMESPACE
from pyflink_compat.runtime.keyed.timers import InternalTimerService, MIN_WATERMARK, MAX_WATERMARK
from pyflink_compat.runtime.keyed.operators import (KeyedOperator, KeyedProcessOperator,
                                                    ListCollector, NO_TIMESTAMP)

__all__ = ['key_identity', 'KeyedStateBackend', 'VOID_NAMESPACE', 'InternalTimerService',
           'MIN_WATERMARK', 'MAX_WATERMARK', 'NO_TIMESTAMP', 'KeyedOperator',
           'KeyedProcessOperator', 'ListCollector']

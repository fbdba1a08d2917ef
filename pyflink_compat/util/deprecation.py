"""Warnings for the Flink 1.x names pyflink-compat accepts although Flink 2.0 removed them.

Old PyFlink jobs (apache-flink 1.x) use names such as ``FsStateBackend`` or
``set_stream_time_characteristic``. They are provided, mapped onto their 2.x replacement, and each use emits
one ``DeprecationWarning`` naming that replacement (porting_guide/README.md#flink-1-names).
"""
import warnings


def removed_in_2(name: str, replacement: str, since: str = None, stacklevel: int = 3):
    """Warn that ``name`` (deprecated since Flink ``since``) was removed in Flink 2.0: use ``replacement``.

    The default ``stacklevel`` points at the caller of the function that calls this one: the job's line.
    """
    deprecated = "is deprecated since Flink %s" % since if since else "is deprecated"
    warnings.warn("%s %s and removed in 2.0: %s" % (name, deprecated, replacement), DeprecationWarning,
                  stacklevel=stacklevel)

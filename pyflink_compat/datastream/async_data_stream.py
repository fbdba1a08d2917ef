"""Mirror of ``pyflink.datastream.async_data_stream``: ``AsyncDataStream`` is not provided yet.

The class and its four factories exist; each raises ``UnsupportedFeatureError`` (porting guide,
unsupported-apis: call the service from a ``map`` instead).
"""
from pyflink_compat.util.exceptions import unsupported, unsupported_class

__all__ = ['AsyncDataStream']

AsyncDataStream = unsupported_class("AsyncDataStream", "unsupported-apis")
for _name in ('unordered_wait', 'unordered_wait_with_retry', 'ordered_wait', 'ordered_wait_with_retry'):
    setattr(AsyncDataStream, _name, staticmethod(unsupported("AsyncDataStream." + _name, "unsupported-apis")))
del _name

"""ResultKind (mirror of ``pyflink.table.result_kind``): what a TableResult holds."""

__all__ = ['ResultKind']


class ResultKind(object):
    """SUCCESS: a statement (DDL) that only says "OK"; SUCCESS_WITH_CONTENT: one with content (DML, queries)."""

    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1

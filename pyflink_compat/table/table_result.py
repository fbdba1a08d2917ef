"""TableResult of a statement: of DDL ("OK"), of a job that ran INSERT statements, or of a query whose job runs
while its rows are read (``collect()``) or printed as Flink's tableau (``print()``)."""
from typing import List

from pyflink_compat import missing
from pyflink_compat.table.result_kind import ResultKind

__all__ = ["TableResult", "CloseableIterator"]

_StandIns = missing.stand_ins(__name__)

_ROW_KINDS = {"+I": "INSERT", "-U": "UPDATE_BEFORE", "+U": "UPDATE_AFTER", "-D": "DELETE"}


def _with_float_texts(values, positions):
    """A FLOAT column's values as PyFlink's collect() gives them: the Python float of Java's Float.toString
    (0.1 for the float nearest to 0.1, not 0.10000000149011612)."""
    from pyflink_compat.datastream.formats.json import java_float_str
    values = list(values)
    for i in positions:
        if values[i] is not None and values[i] == values[i] and abs(values[i]) != float("inf"):
            values[i] = float(java_float_str(values[i]))
    return values


class CloseableIterator(_StandIns.CloseableIterator):
    """The rows of a query's result as they come, each a Row with its RowKind; ``close()`` stops the job."""

    def __init__(self, j_closeable_iterator, field_data_types):
        self._changes = j_closeable_iterator     # pyflink-compat: an iterator of (row kind, values) changes
        self._field_data_types = field_data_types

    def __iter__(self):
        return self

    def __next__(self):
        from pyflink_compat.common.types import Row, RowKind
        kind, values = next(self._changes)
        floats = getattr(self, "_float_positions", None)
        if floats is None:
            floats = self._float_positions = [i for i, sql_type in enumerate(self._field_data_types or ())
                                              if getattr(sql_type, "name", None) == "FLOAT"]
        if floats:
            values = _with_float_texts(values, floats)
        binaries = getattr(self, "_bytes_positions", None)
        if binaries is None:
            binaries = self._bytes_positions = [i for i, sql_type in enumerate(self._field_data_types or ())
                                                if getattr(sql_type, "name", None) == "BYTES"]
        if binaries:                 # PyFlink gives a BYTES value as a bytearray
            values = [bytearray(value) if i in binaries and value is not None else value
                      for i, value in enumerate(values)]
        row = Row(*values)
        row.set_row_kind(RowKind[_ROW_KINDS[kind]])
        return row

    def next(self):
        return self.__next__()

    def close(self):
        close = getattr(self._changes, "close", None)
        if close is not None:
            close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()


class TableResult(_StandIns.TableResult):

    def __init__(self, j_table_result):
        # pyflink-compat: ("ok",), ("job", the runtime's JobRun, sink names) or ("query", QueryRun)
        self._result = j_table_result
        self._consumed = False

    @staticmethod
    def ok() -> 'TableResult':
        return TableResult(("ok",))

    @staticmethod
    def of_job(run, sink_names: List[str] = ()) -> 'TableResult':
        """The result of the INSERT statements of a job running in the background (a runtime JobRun)."""
        return TableResult(("job", run, list(sink_names)))

    @staticmethod
    def of_query(run: "QueryRun") -> 'TableResult':
        return TableResult(("query", run))

    @staticmethod
    def of_rows(names: List[str], rows: List[tuple]) -> 'TableResult':
        """A result of text rows the table environment knows (SHOW TABLES, DESCRIBE)."""
        return TableResult(("rows", list(names), [tuple(row) for row in rows]))

    def wait(self, timeout_ms: int = None):
        """Waits for an INSERT's job to end (raising its failure), at most ``timeout_ms`` when given; a query's
        rows are read by collect() or print(); a DDL statement has nothing to wait for."""
        if self._result[0] != "job":
            return None
        run = self._result[1]
        if not timeout_ms:
            run.wait()
            return None
        import concurrent.futures
        try:
            run.result_future.result(timeout=timeout_ms / 1000.0)
        except concurrent.futures.TimeoutError:
            from pyflink_compat.util.exceptions import JavaStyleError
            raise JavaStyleError("java.util.concurrent.TimeoutException", None, "await") from None
        return None

    def get_job_client(self):
        if self._result[0] == "job":
            from pyflink_compat.common.job_client import JobClient
            return JobClient(self._result[1])
        return None

    def get_result_kind(self):
        return ResultKind.SUCCESS if self._result[0] == "ok" else ResultKind.SUCCESS_WITH_CONTENT

    def _take(self):
        if self._consumed:
            from pyflink_compat.util.exceptions import illegal_state
            raise illegal_state("The result can only be accessed once.", "collect")
        self._consumed = True

    def collect(self) -> CloseableIterator:
        self._take()
        kind = self._result[0]
        if kind == "ok":
            return CloseableIterator(iter([("+I", ("OK",))]), None)
        if kind == "job":
            self.wait()
            return CloseableIterator(iter([("+I", tuple(-1 for _ in self._result[2]))]), None)
        if kind == "rows":
            return CloseableIterator(iter([("+I", row) for row in self._result[2]]), None)
        return CloseableIterator(self._result[1].changes(), self._result[1].sql_types)

    def print(self):
        """The result as Flink prints it: "OK" for DDL, -1 per sink of an INSERT job (its row count is not
        known), a query's rows as a tableau while they come."""
        self._take()
        kind = self._result[0]
        if kind == "ok":
            print("OK", flush=True)
        elif kind == "job":
            self.wait()                        # the row of an INSERT's result comes when its job has ended
            print(", ".join("-1" for _ in self._result[2]), flush=True)
        elif kind == "rows":
            from pyflink_compat.table.sql.tableau import print_rows
            print_rows(self._result[1], self._result[2], write=lambda text: print(text, flush=True))
        else:
            self._result[1].print_tableau()


class _FinalRows:
    """The rows a changelog leaves, as inserts, in the order their keys first came (an update takes the place
    of the row it retracts): a batch query's result, computed once its (bounded) input is read."""

    def __init__(self, changes):
        self._changes = changes
        self._rows = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._rows is None:
            self._rows = iter(self._final())
        return "+I", next(self._rows)

    def _final(self) -> list:
        slots, where, retracted_at = [], {}, None      # slot: a row or None (retracted); row's text -> its slots
        try:
            for kind, values in self._changes:
                values = tuple(values)
                key = repr(values)                    # rows may hold lists and dicts (ARRAY, MAP columns)
                if kind in ("-U", "-D"):
                    places = where.get(key)
                    position = places.pop() if places else None
                    if position is not None:
                        slots[position] = None
                    retracted_at = position if kind == "-U" else None
                    continue
                if kind == "+U" and retracted_at is not None:
                    slots[retracted_at] = values
                    where.setdefault(key, []).append(retracted_at)
                else:
                    where.setdefault(key, []).append(len(slots))
                    slots.append(values)
                retracted_at = None
        finally:
            self.close()
        return [row for row in slots if row is not None]

    def close(self):
        close = getattr(self._changes, "close", None)
        if close is not None:
            close()


class QueryRun:
    """A query's job, running from the moment its statement returned, and the names and types of its columns."""

    def __init__(self, changes, names: List[str], sql_types: list, streaming: bool, tz: str = None):
        # a runtime iterator of (row kind, values), closed to stop the job; in batch mode the final rows only,
        # as Flink's batch execution gives a query's result
        self._changes = changes if streaming else _FinalRows(changes)
        self.names, self.sql_types, self.streaming = names, sql_types, streaming
        self.tz = tz                         # the session time zone its TIMESTAMP_LTZ values are shown in

    def changes(self):
        return self._changes

    def print_tableau(self):
        from pyflink_compat.util.session_zone import applied
        with applied(self.tz):
            self._print_tableau()

    def _print_tableau(self):
        from pyflink_compat.table.sql.tableau import TableauPrinter
        printer = TableauPrinter(self.names, self.sql_types, row_kind=self.streaming,
                                 write=lambda text: print(text, flush=True))
        try:
            for kind, values in self._changes:
                printer.row(values, kind)
        finally:
            close = getattr(self._changes, "close", None)
            if close is not None:
                close()
        printer.end()

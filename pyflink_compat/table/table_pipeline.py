"""``Table.insert_into(...)``'s pipeline: a table's rows into a sink table, run by ``execute()``."""
from pyflink_compat.util.exceptions import UnsupportedFeatureError

__all__ = ["TablePipeline"]


class TablePipeline:
    """The insertion of a table's rows into a sink table, declared by ``Table.insert_into``; nothing runs until
    ``execute()`` (as ``Table.execute_insert``)."""

    def __init__(self, j_table_pipeline, t_env):
        # PyFlink's signature; here the first argument is (table, target path or descriptor, overwrite)
        self._table, self._target, self._overwrite = j_table_pipeline
        self._t_env = t_env

    def execute(self):
        """Runs the insertion; the returned TableResult's ``wait()`` waits for a bounded one to end."""
        return self._table.execute_insert(self._target, self._overwrite)

    def explain(self, *extra_details) -> str:
        raise UnsupportedFeatureError("TablePipeline.explain", "table-api")

    def print_explain(self, *extra_details):
        raise UnsupportedFeatureError("TablePipeline.print_explain", "table-api")

    def compile_plan(self):
        raise UnsupportedFeatureError("TablePipeline.compile_plan", "table-api")

    def get_sink_identifier(self):
        raise UnsupportedFeatureError("TablePipeline.get_sink_identifier", "table-api")

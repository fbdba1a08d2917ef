"""Table: the result of ``sql_query`` or ``from_path``, as far as Flink SQL runs here: inserted into a sink table
(``execute_insert``) or registered as a view (``TableEnvironment.create_temporary_view``). Its other methods (the
Table API) raise ``UnsupportedFeatureError``."""
from pyflink_compat import missing

__all__ = ["Table", "GroupedTable", "GroupWindowedTable", "OverWindowedTable", "WindowGroupedTable"]

_StandIns = missing.stand_ins(__name__)
GroupedTable = _StandIns.GroupedTable
GroupWindowedTable = _StandIns.GroupWindowedTable
OverWindowedTable = _StandIns.OverWindowedTable
WindowGroupedTable = _StandIns.WindowGroupedTable


class Table(_StandIns.Table):

    def __init__(self, j_table, t_env):
        self._select = j_table            # pyflink-compat: the query's sqlglot SELECT
        self._t_env = t_env

    def execute_insert(self, table_path_or_descriptor, overwrite: bool = False):
        from sqlglot import exp
        if not isinstance(table_path_or_descriptor, str):
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("Table.execute_insert with a TableDescriptor", "table-api")
        if overwrite:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("INSERT OVERWRITE", "table-api")
        insert = exp.Insert(this=exp.to_table(table_path_or_descriptor), expression=self._select.copy())
        return self._t_env._run_inserts([insert], "insert-into_default_catalog.default_database.%s"
                                        % table_path_or_descriptor)

    def execute(self):
        """Runs the query: its rows are read from the returned TableResult (collect() or print())."""
        return self._t_env._run_query(self._select.copy())

"""StatementSet: several INSERT statements run as one job (one read of the sources they share)."""
from pyflink_compat import missing

__all__ = ["StatementSet"]

_StandIns = missing.stand_ins(__name__)


class StatementSet(_StandIns.StatementSet):

    def __init__(self, _j_statement_set, t_env):
        self._t_env = t_env
        self._inserts = []

    def add_insert_sql(self, stmt: str) -> 'StatementSet':
        from sqlglot import exp
        from pyflink_compat.table.sql.expressions import validation_error
        statements = self._t_env._parse(stmt)
        if len(statements) != 1 or not isinstance(statements[0], exp.Insert):
            raise validation_error("Unsupported SQL query! addInsertSql() only accepts a single SQL "
                                      "statements of type INSERT.")
        self._inserts.append(statements[0])
        return self

    def add_insert(self, target_path_or_descriptor, table, overwrite: bool = False) -> 'StatementSet':
        """Adds the insertion of ``table``'s rows into the table ``target_path_or_descriptor``."""
        from sqlglot import exp
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        if not isinstance(target_path_or_descriptor, str):
            target_path_or_descriptor = self._t_env.from_descriptor(target_path_or_descriptor)._path
        if overwrite:
            raise UnsupportedFeatureError("INSERT OVERWRITE", "table-api")
        self._inserts.append(exp.Insert(this=exp.to_table(target_path_or_descriptor),
                                        expression=table._select.copy()))
        return self

    def execute(self):
        if not self._inserts:
            from pyflink_compat.util.exceptions import JavaStyleError
            raise JavaStyleError("java.lang.IllegalStateException", "No operators defined in streaming topology. "
                                 "Cannot execute.", "execute")
        inserts, self._inserts = self._inserts, []
        return self._t_env._run_inserts(inserts, "insert-into_%s" % ",".join(
            "default_catalog.default_database.%s" % insert.this.name for insert in inserts))

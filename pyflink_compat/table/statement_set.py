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
        from pyflink_compat.table.sql import dialect
        from pyflink_compat.table.sql.expressions import validation_error
        statements = dialect.parse(stmt)
        if len(statements) != 1 or not isinstance(statements[0], exp.Insert):
            raise validation_error("Unsupported SQL query! addInsertSql() only accepts a single SQL "
                                      "statements of type INSERT.")
        self._inserts.append(statements[0])
        return self

    def execute(self):
        if not self._inserts:
            from pyflink_compat.util.exceptions import JavaStyleError
            raise JavaStyleError("java.lang.IllegalStateException", "No operators defined in streaming topology. "
                                 "Cannot execute.", "execute")
        inserts, self._inserts = self._inserts, []
        return self._t_env._run_inserts(inserts, "insert-into_%s" % ",".join(
            "default_catalog.default_database.%s" % insert.this.name for insert in inserts))

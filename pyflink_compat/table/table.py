"""Table, as PyFlink's: the result of ``sql_query``, ``from_path`` or a Table API operation. Each operation
makes the SQL query it is equivalent to (a sqlglot SELECT over the previous one), so the Table API and SQL are
planned, validated and run alike. Columns an operation computes without a name are named as Flink names them
(``_c1`` in ``select``, ``EXPR$0`` for an aggregate, ``f0`` for a function's result). What is not implemented
(joins of two tables, over windows, ``order_by``, ``distinct``...) raises ``UnsupportedFeatureError``."""
from typing import List

import attrs
from sqlglot import exp

from pyflink_compat import missing
from pyflink_compat.table.expression import Expression, WindowProperty, to_node
from pyflink_compat.table.sql.planner import query_watermark

__all__ = ["Table", "GroupedTable", "GroupWindowedTable", "OverWindowedTable", "WindowGroupedTable"]
# (AggregatedTable is public in PyFlink's module without being in its __all__)

_StandIns = missing.stand_ins(__name__)
OverWindowedTable = _StandIns.OverWindowedTable


def _unsupported(what: str, advice: str = None):
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    raise UnsupportedFeatureError(what, "table-api", advice)


def _validation_error(message: str, method: str = "select"):
    from pyflink_compat.util.exceptions import JavaStyleError
    return JavaStyleError("org.apache.flink.table.api.ValidationException", message, method)


def _is_unconditioned_join(select) -> bool:
    joins = select.args.get("joins") if isinstance(select, exp.Select) else None
    return bool(joins) and len(joins) == 1 and joins[0].args.get("on") is None and select.args.get("where") is None


def _check_fields(nodes, names, method: str):
    """Flink's Table API resolves each field an expression names against the input's columns."""
    for node in nodes:
        for column in node.find_all(exp.Column):
            if column.name not in names and not _is_keyword(column):
                raise _validation_error("Cannot resolve field [%s], input field list:[%s]."
                                        % (column.name, ", ".join(names)), method)


def _is_keyword(column) -> bool:
    """A word the SQL parser keeps as a column that is syntax: ``MAP`` of ``MAP[k, v]``, the unit of
    ``TIMESTAMPDIFF(DAY, a, b)``, ``LOCALTIMESTAMP``."""
    if column.this.quoted or column.table:
        return False
    if column.name.upper() == "LOCALTIMESTAMP":
        return True
    parent = column.parent
    if isinstance(parent, exp.Bracket) and parent.this is column and column.name.upper() == "MAP":
        return True
    return isinstance(parent, exp.Anonymous) and parent.name.upper() in ("TIMESTAMPDIFF", "TIMESTAMPADD") \
        and parent.expressions and parent.expressions[0] is column


def _subquery(select) -> exp.Expr:
    """``select`` as the FROM of a query on it: the table itself when it is ``SELECT * FROM table``."""
    if isinstance(select, exp.Select) and len(select.expressions) == 1 and isinstance(select.expressions[0], exp.Star) \
            and not any(select.args.get(clause) for clause in ("where", "group", "joins", "having")):
        relation = (select.args.get("from") or select.args.get("from_")).this
        if isinstance(relation, exp.Table) and not isinstance(relation.this, exp.Anonymous):
            return relation.copy()
    return exp.Subquery(this=select.copy(), alias=exp.TableAlias(this=exp.to_identifier("t")))


def column_kind_text(column) -> str:
    """What a table's schema shows after a metadata or computed column's type."""
    if column is None:
        return ""
    if column.metadata is not None:
        return " METADATA%s%s" % ("" if column.metadata == column.name else " FROM '%s'" % column.metadata,
                                  " VIRTUAL" if column.virtual else "")
    if column.computed is not None:
        return " AS " + (column.display or _flink_sql(column.computed))
    return ""


def _flink_sql(node) -> str:
    """An expression as Flink's planner writes it back: identifiers and function names in backquotes."""
    from pyflink_compat.table.sql.dialect import Flink

    def quoted_column(each):
        return exp.column(each.name, quoted=True) if isinstance(each, exp.Column) else each

    def quoted_function(each):
        # Calcite's own functions (PROCTIME) are written as they are, the others' names quoted
        if isinstance(each, exp.Anonymous) and each.args.get("function") is None and each.name.upper() != "PROCTIME":
            each.set("this", "`%s`" % each.name)
        return each
    return node.copy().transform(quoted_column).transform(quoted_function).sql(dialect=Flink)


def watermark_text(column: str, delay_ms: int) -> str:
    """A watermark's expression as Flink prints it: `ts` - INTERVAL '5' SECOND."""
    if delay_ms is None:
        return "SOURCE_WATERMARK()"
    if delay_ms == 0:
        return "`%s`" % column
    for unit, size in (("DAY", 86_400_000), ("HOUR", 3_600_000), ("MINUTE", 60_000), ("SECOND", 1000)):
        if delay_ms % size == 0:
            return "`%s` - INTERVAL '%d' %s" % (column, delay_ms // size, unit)
    return "`%s` - INTERVAL '%s' SECOND" % (column, ("%.3f" % (delay_ms / 1000)).rstrip("0"))


def _select_from(items: list, select, where=None) -> exp.Select:
    query = exp.Select(expressions=items).from_(_subquery(select), copy=False)
    if where is not None:
        query = query.where(where, copy=False)
    return query


def _column(name: str) -> exp.Column:
    return exp.column(name, quoted=True)


def _named(node, name: str) -> exp.Expr:
    return exp.Alias(this=node, alias=exp.to_identifier(name, quoted=True))


def _bound(field, t_env) -> exp.Expr:
    """A copy of a Table API field's expression, its calls by name (``call("f", ...)``) bound to the functions
    registered under those names in ``t_env``, as calls in SQL text are."""
    from pyflink_compat.table.expressions import CALLED_BY_NAME
    from pyflink_compat.table.sql.expressions import Compiler
    node = to_node(field).copy()
    t_env._bind_calls(node)
    for each in node.find_all(exp.Anonymous):
        if each.meta.get(CALLED_BY_NAME) and each.args.get("function") is None \
                and not hasattr(Compiler, "_function_" + each.name.lower()):
            raise _validation_error("Undefined function: %s" % each.name)
    return node


def _expanded(fields, names) -> list:
    """The fields with each ``with_columns(...)`` / ``without_columns(...)`` replaced by the columns it selects."""
    from pyflink_compat.table.expressions import ColumnSelection, selected_columns
    result = []
    for field in fields:
        node = to_node(field) if isinstance(field, Expression) else None
        if isinstance(node, ColumnSelection):
            result.extend(Expression(_column(name)) for name in selected_columns(node, names))
        else:
            result.append(field)
    return result


def _item(field, position: int, generated: str, t_env):
    """A select-list item of a Table API field: a column or an aliased expression as it is, another
    expression named ``generated % position``."""
    if isinstance(field, str):
        _unsupported("A Table API field given as a string ('%s')" % field, "use expressions: col('a')")
    node = _bound(field, t_env)
    if isinstance(node, exp.Column) and node.name == "*" and not node.table:
        return exp.Star()                               # col('*'): all columns
    if isinstance(node, (exp.Alias, exp.Column, exp.Star)):
        return node
    return _named(node, generated % position)


class Table(object):
    """A table: a query, with the Table API's operations making new tables."""

    def __init__(self, j_table, t_env):
        self._select = j_table            # pyflink-compat: the query (a sqlglot SELECT or UNION)
        self._t_env = t_env

    # schema ---------------------------------------------------------------------------------------
    def _columns(self) -> list:
        from pyflink_compat.table.sql.planner import query_columns
        return query_columns(self._select, self._t_env._catalog())

    def _names(self) -> List[str]:
        return [column.name for column in self._columns()]

    def __getattr__(self, name) -> Expression:
        if name.startswith("_"):
            raise AttributeError(name)
        names = self._names()
        if name not in names:
            raise AttributeError("The current table has no column named '%s', available columns: [%s]"
                                 % (name, ', '.join(names)))
        return Expression(_column(name))

    def print_schema(self):
        print(self._schema_text())

    def _schema_text(self) -> str:
        """The schema as Flink's ResolvedSchema prints it (print_schema)."""
        columns, watermark, primary_key = self._schema_parts()
        lines = ["  `%s` %s%s%s" % (column.name, column.type.text(), marker, kind) for column, marker, kind in columns]
        if watermark is not None:
            lines.append("  WATERMARK FOR `%s`: %s AS %s" % watermark)
        if primary_key:
            lines.append("  CONSTRAINT `PK_%s` PRIMARY KEY (%s) NOT ENFORCED" % (
                "_".join(primary_key), ", ".join("`%s`" % name for name in primary_key)))
        return "(\n%s\n)" % ",\n".join(lines)

    def _schema_parts(self):
        """The columns (each with its time attribute marker and what follows its type: a computed column's
        expression, a metadata column's key), the watermark (column, type text, expression text) and the primary
        key's columns of the table's schema."""
        watermark = query_watermark(self._select, self._t_env._catalog())
        columns = self._columns()
        source = self._source_table()
        declared = {column.name: column for column in source.columns} if source is not None else {}
        parts = []
        for column in columns:
            marker = " *ROWTIME*" if watermark is not None and watermark[0] == column.name else \
                " *PROCTIME*" if column.type.time_attribute == "PROCTIME" else ""
            parts.append((column, marker, column_kind_text(declared.get(column.name))))
        from pyflink_compat.table.sql.bridge import DataStreamRelation, UpsertStreamRelation
        shown_watermark = None
        if source is not None and source.watermark is not None and (
                source.query is None or isinstance(source.query, DataStreamRelation)):
            # a view's schema is its query's: time attributes, no watermark specification (as in Flink)
            name, delay_ms = source.watermark
            rowtime_type = next(column.type for column in columns if column.name == name)
            shown_watermark = (name, rowtime_type.text(), source.watermark_display or watermark_text(name, delay_ms))
        primary_key = None
        if source is not None and source.primary_key and (source.query is None or
                                                          isinstance(source.query, UpsertStreamRelation)):
            primary_key = list(source.primary_key)
        return parts, shown_watermark, primary_key

    def get_resolved_schema(self):
        """The table's schema as Flink's ResolvedSchema (printed as print_schema prints it)."""
        from pyflink_compat.table.catalog import ResolvedSchema
        columns, _, primary_key = self._schema_parts()

        def kind(declared):
            if declared is None or (declared.computed is None and declared.metadata is None):
                return "physical"
            if declared.computed is not None:
                return "computed"
            return "virtual" if declared.virtual else "metadata"
        source = self._source_table()
        declared = {column.name: column for column in source.columns} if source is not None else {}
        return ResolvedSchema(j_resolved_schema=(
            [column.name for column, _, _ in columns], [column.type.data_type() for column, _, _ in columns],
            [kind(declared.get(column.name)) for column, _, _ in columns], primary_key, self._schema_text()))

    def get_schema(self):
        """The table's schema as Flink's deprecated TableSchema (its fields' names and data types)."""
        from pyflink_compat.table.table_schema import TableSchema
        columns, watermark, primary_key = self._schema_parts()
        lines = ["%s: %s%s%s" % (column.name, column.type.text(), marker, kind) for column, marker, kind in columns]
        if watermark is not None:
            lines.append("WATERMARK FOR %s: %s AS %s" % watermark)
        if primary_key:
            lines.append("CONSTRAINT PK_%s PRIMARY KEY (%s)" % ("_".join(primary_key), ", ".join(primary_key)))
        return TableSchema([column.name for column, _, _ in columns],
                           [column.type.data_type() for column, _, _ in columns], lines)

    def _source_table(self):
        """The catalog table this table is (made by from_path), else None."""
        path = getattr(self, "_path", None)
        return self._t_env._catalog().get(path) if path is not None else None

    def __str__(self):
        """Its name: a table without one is registered under Flink's UnnamedTable$N, so that SQL can read it
        (``f"SELECT * FROM {table}"``)."""
        if getattr(self, "_name", None) is None:
            self._name = self._t_env._unnamed()
            self._t_env._register_view(self._name, self._select)
        return self._name

    # relational operations ------------------------------------------------------------------------
    def _made(self, select) -> 'Table':
        from pyflink_compat.table.sql.planner import global_aggregation
        table = Table(global_aggregation(select), self._t_env)
        table._columns()                 # validated now, as Flink's planner validates each operation
        return table

    def select(self, *fields: Expression) -> 'Table':
        from pyflink_compat.table.sql.planner import global_aggregation
        fields = _expanded(fields, self._names())
        items = [_item(field, position, "_c%d", self._t_env) for position, field in enumerate(fields)]
        probe = _select_from([item.copy() for item in items], self._select)
        if global_aggregation(probe) is not probe:       # aggregates of all rows: Flink's names for them
            return _grouped_select(self, [], None, fields)
        _check_fields(items, self._names(), "select")
        return self._made(_select_from(items, self._select))

    def alias(self, field: str, *fields: str) -> 'Table':
        names = self._names()
        aliases = (field,) + fields
        if len(aliases) > len(names):
            raise _validation_error("Aliasing more fields than we actually have.", "as")
        items = [_named(_column(name), aliases[i]) if i < len(aliases) else _column(name)
                 for i, name in enumerate(names)]
        return self._made(_select_from(items, self._select))

    def filter(self, predicate: Expression) -> 'Table':
        return self._filtered(predicate, "filter")

    def where(self, predicate: Expression) -> 'Table':
        return self._filtered(predicate, "where")

    def _filtered(self, predicate, method: str) -> 'Table':
        condition = _bound(predicate, self._t_env)
        if _is_unconditioned_join(self._select):        # join(right).where(a == b): the join's condition
            from pyflink_compat.table.sql.planner import query_columns
            catalog = self._t_env._catalog()
            sides = [(self._select.args.get("from") or self._select.args.get("from_")).this,
                     self._select.args["joins"][0].this]
            _check_fields([condition], [column.name for side in sides for column in query_columns(side.this, catalog)],
                          method)
            return self._made(self._select.copy().where(condition, copy=False))
        _check_fields([condition], self._names(), method)
        return self._made(_select_from([exp.Star()], self._select, condition))

    def join(self, right: 'Table', join_predicate: Expression = None) -> 'Table':
        return self._joined(right, join_predicate, None, "join")

    def left_outer_join(self, right: 'Table', join_predicate: Expression = None) -> 'Table':
        return self._joined(right, join_predicate, "LEFT", "leftOuterJoin")

    def right_outer_join(self, right: 'Table', join_predicate: Expression) -> 'Table':
        return self._joined(right, join_predicate, "RIGHT", "rightOuterJoin")

    def full_outer_join(self, right: 'Table', join_predicate: Expression) -> 'Table':
        return self._joined(right, join_predicate, "FULL", "fullOuterJoin")

    def _joined(self, right: 'Table', predicate, side, method: str) -> 'Table':
        """SELECT * FROM this JOIN right ON predicate: the columns of both (their names must differ, as in Flink)."""
        names, right_names = self._names(), right._names()
        for name in names:
            if name in right_names:
                raise _validation_error("Ambiguous column name: %s" % name, method)
        left_relation = exp.Subquery(this=self._select.copy(), alias=exp.TableAlias(this=exp.to_identifier("l")))
        right_relation = exp.Subquery(this=right._select.copy(), alias=exp.TableAlias(this=exp.to_identifier("r")))
        query = exp.Select(expressions=[exp.Star()]).from_(left_relation, copy=False)
        if predicate is None and side is None:        # the condition comes with a where(...) after it
            query.set("joins", [exp.Join(this=right_relation)])
            return Table(query, self._t_env)
        condition = _bound(predicate, self._t_env) if predicate is not None else exp.true()
        _check_fields([condition], names + right_names, method)
        join = exp.Join(this=right_relation, on=condition)
        if side is not None:
            join.set("side", side)
            join.set("kind", "OUTER")
        query.set("joins", [join])
        return self._made(query)

    def add_columns(self, *fields: Expression) -> 'Table':
        names = self._names()
        fields = _expanded(fields, names)
        items = [_item(field, len(names) + position, "_c%d", self._t_env) for position, field in enumerate(fields)]
        _check_fields(items, names, "addColumns")
        for item in items:
            if item.alias_or_name in names:
                raise _validation_error("Ambiguous column name: %s" % item.alias_or_name, "addColumns")
        return self._made(_select_from([exp.Star()] + items, self._select))

    def add_or_replace_columns(self, *fields: Expression) -> 'Table':
        names = self._names()
        added = [_item(field, len(names) + position, "_c%d", self._t_env) for position, field in enumerate(fields)]
        _check_fields(added, names, "addOrReplaceColumns")
        replaced = {item.alias_or_name: item for item in added}
        items = [replaced.pop(name) if name in replaced else _column(name) for name in names]
        return self._made(_select_from(items + [item for item in added if item.alias_or_name in replaced],
                                       self._select))

    def rename_columns(self, *fields: Expression) -> 'Table':
        renames = {}
        for field in fields:
            node = to_node(field)
            if not (isinstance(node, exp.Alias) and isinstance(node.this, exp.Column)):
                raise _validation_error("Invalid AS, parameters are: [%s]." % node.sql(), "renameColumns")
            renames[node.this.name] = node.alias
        names = self._names()
        _check_fields([_column(old) for old in renames], names, "renameColumns")
        items = [_named(_column(name), renames[name]) if name in renames else _column(name) for name in names]
        return self._made(_select_from(items, self._select))

    def drop_columns(self, *fields: Expression) -> 'Table':
        fields = _expanded(fields, self._names())
        dropped = set()
        for field in fields:
            node = to_node(field)
            if not isinstance(node, exp.Column):
                _unsupported("drop_columns of '%s'" % node.sql(), "drop columns by col('name')")
            dropped.add(node.name)
        names = self._names()
        for name in dropped:
            if name not in names:
                raise _validation_error("Field %s does not exist in source table" % name, "dropColumns")
        return self._made(_select_from([_column(name) for name in names if name not in dropped], self._select))

    def union_all(self, right: 'Table') -> 'Table':
        left_columns, right_columns = self._columns(), right._columns()
        if len(left_columns) != len(right_columns):
            raise _validation_error("The union operation on two tables of different column sizes: %d and %d is not "
                                    "supported" % (len(left_columns), len(right_columns)), "unionAll")
        return self._made(exp.Union(this=self._select.copy(), expression=right._select.copy(), distinct=False))

    def group_by(self, *fields: Expression) -> 'GroupedTable':
        fields = _expanded(fields, self._names())
        return GroupedTable((self, [_bound(field, self._t_env) for field in fields], None), self._t_env)

    def window(self, window) -> 'GroupWindowedTable':
        return GroupWindowedTable((self, window), self._t_env)

    # functions -------------------------------------------------------------------------------------
    def _with_function(self, call: exp.Expr, names, keep_empty: bool = False) -> exp.Select:
        """This table joined with a function's rows (LATERAL TABLE)."""
        if isinstance(call, exp.Alias):                     # f(...).alias('one_name')
            call, names = call.this, [call.alias]
        lateral = exp.Lateral(this=exp.Anonymous(this="TABLE", expressions=[call]))
        if names:
            lateral.set("alias", exp.TableAlias(this=exp.to_identifier("T"),
                                                columns=[exp.to_identifier(name, quoted=True) for name in names]))
        join = exp.Join(this=lateral, **({"side": "LEFT", "on": exp.true()} if keep_empty else {}))
        query = exp.Select(expressions=[exp.Star()]).from_(_subquery(self._select), copy=False)
        query.append("joins", join)
        return query

    def _function_call(self, func) -> Expression:
        """``func`` applied to this table's rows: a call expression as it is, a function wrapper called with the
        whole row."""
        if isinstance(func, Expression):
            return func
        func._set_takes_row_as_input()
        return func(*[Expression(_column(name)) for name in self._names()])

    def _function_columns(self, call: Expression) -> "Table":
        """A table of the function columns only (Table.map / flat_map)."""
        base = len(self._names())
        joined = self._made(self._with_function(_bound(call, self._t_env), call._names))
        names = joined._names()[base:]
        return self._made(_select_from([_column(name) for name in names], joined._select))

    def map(self, func) -> 'Table':
        from pyflink_compat.table.udf import UserDefinedScalarFunctionWrapper
        call = self._function_call(func)
        if not isinstance(_bound(call, self._t_env).args.get("function"), UserDefinedScalarFunctionWrapper):
            _unsupported("Table.map of '%s'" % call, "map takes a Python scalar function (udf)")
        return self._function_columns(call)

    def flat_map(self, func) -> 'Table':
        from pyflink_compat.table.udf import UserDefinedTableFunctionWrapper
        call = self._function_call(func)
        if not isinstance(_bound(call, self._t_env).args.get("function"), UserDefinedTableFunctionWrapper):
            _unsupported("Table.flat_map of '%s'" % call, "flat_map takes a Python table function (udtf)")
        return self._function_columns(call)

    def join_lateral(self, table_function_call, join_predicate=None) -> 'Table':
        return self._lateral(table_function_call, join_predicate, keep_empty=False)

    def left_outer_join_lateral(self, table_function_call, join_predicate=None) -> 'Table':
        return self._lateral(table_function_call, join_predicate, keep_empty=True)

    def _lateral(self, call, join_predicate, keep_empty: bool) -> 'Table':
        call = self._function_call(call)       # a wrapper alone takes the whole row
        query = self._with_function(_bound(call, self._t_env), call._names, keep_empty)
        if join_predicate is not None:
            if keep_empty:
                _unsupported("left_outer_join_lateral with a join predicate", "filter the joined table instead")
            query = query.where(_bound(join_predicate, self._t_env), copy=False)
        return self._made(query)

    # execution --------------------------------------------------------------------------------------
    def execute_insert(self, table_path_or_descriptor, overwrite: bool = False):
        if not isinstance(table_path_or_descriptor, str):
            table_path_or_descriptor = self._t_env.from_descriptor(table_path_or_descriptor)._path
        if overwrite:
            _unsupported("INSERT OVERWRITE")
        insert = exp.Insert(this=exp.to_table(table_path_or_descriptor), expression=self._select.copy())
        return self._t_env._run_inserts([insert], "insert-into_default_catalog.default_database.%s"
                                        % table_path_or_descriptor)

    def insert_into(self, table_path_or_descriptor, overwrite: bool = False):
        """The insertion of this table's rows into a sink table, run by the pipeline's ``execute()``."""
        from pyflink_compat.table.table_pipeline import TablePipeline
        return TablePipeline((self, table_path_or_descriptor, overwrite), self._t_env)

    def distinct(self) -> 'Table':
        """The distinct rows (an aggregation grouped by every column, as Flink runs it)."""
        from pyflink_compat.table.sql.dialect import distinct_as_group_by
        query = _select_from([_column(name) for name in self._names()], self._select)
        query.set("distinct", exp.Distinct())
        return self._made(distinct_as_group_by(query))

    def over_window(self, *over_windows) -> 'OverWindowedTable':
        return OverWindowedTable((self, over_windows), self._t_env)

    def order_by(self, *fields: Expression) -> 'Table':
        """Sorted by ``fields`` (``col('a').desc``); on a stream, as in Flink, it runs when the first field is a time
        attribute ascending (a sort in time) or with a fetch / limit after it (a Top-N)."""
        items = [_bound(field, self._t_env) for field in fields]
        items = [item if isinstance(item, exp.Ordered) else exp.Ordered(this=item, nulls_first=False)
                 for item in items]
        _check_fields([item.this for item in items], self._names(), "orderBy")
        query = _select_from([exp.Star()], self._select)
        query.set("order", exp.Order(expressions=items))
        return Table(query, self._t_env)        # a fetch / limit after it makes it a Top-N

    def offset(self, offset: int) -> 'Table':
        return self._limited(None, offset)

    def fetch(self, fetch: int) -> 'Table':
        return self._limited(fetch, None)

    def limit(self, fetch: int, offset: int = 0) -> 'Table':
        return self._limited(fetch, offset)

    def _limited(self, fetch, offset) -> 'Table':
        """The first ``fetch`` rows after ``offset`` of this (possibly sorted) table: Flink's Top-N over it
        (dialect.limit_as_top_n); an order_by's sort and the limit are one operation."""
        from pyflink_compat.table.sql.dialect import limit_as_top_n
        select = self._select
        if isinstance(select, exp.Select) and select.args.get("order") is not None \
                and select.args.get("limit") is None and select.args.get("offset") is None:
            query = select.copy()
        else:
            query = _select_from([exp.Star()], select)
        if offset:
            query.set("offset", exp.Offset(expression=exp.Literal.number(offset)))
        if fetch is not None:
            query.set("limit", exp.Limit(expression=exp.Literal.number(fetch)))
        return self._made(limit_as_top_n(query))

    def explain(self, *extra_details) -> str:
        """The query's plan as text. Flink prints its planner's trees; this gives the query it stands for and the
        columns it makes (the sections are named as Flink's, their content is pyflink-compat's)."""
        from pyflink_compat.table.sql.dialect import Flink
        columns = ", ".join("%s %s" % (column.name, column.type.text()) for column in self._columns())
        return ("== Abstract Syntax Tree ==\n%s\n\n== Optimized Execution Plan ==\n(pyflink-compat) a query of "
                "the columns [%s], run as Spark Structured Streaming\n"
                % (self._select.sql(dialect=Flink, pretty=True), columns))

    def print_explain(self, *extra_details):
        print(self.explain(*extra_details))

    def execute(self):
        """Runs the query: its rows are read from the returned TableResult (collect() or print())."""
        return self._t_env._run_query(self._select.copy())

    def to_pandas(self):
        """The table's rows (its changelog applied) as a pandas DataFrame; an unbounded table never returns."""
        from pyflink_compat.table.sql.pandas_tables import dataframe_of, materialized
        columns = self._columns()
        result = self.execute()
        with result.collect() as rows:
            changes = [(_SHORT_KINDS[row.get_row_kind().name], tuple(row)) for row in rows]
        return dataframe_of([column.name for column in columns], [column.type for column in columns],
                            materialized(changes))


def _aggregate(self, func) -> 'AggregatedTable':
    """An aggregate function over all rows (a global aggregation); ``select`` reads its result."""
    return AggregatedTable((self, [], func), self._t_env)


def _flat_aggregate(self, func) -> 'FlatAggregateTable':
    """A table aggregate function over all rows; ``select`` reads the rows it emits."""
    return FlatAggregateTable((self, [], func), self._t_env)


Table.aggregate = _aggregate
Table.flat_aggregate = _flat_aggregate

for _name in ("minus", "minus_all",
              "union", "intersect", "intersect_all",
              "to_changelog", "from_changelog"):
    if hasattr(_StandIns.Table, _name):
        setattr(Table, _name, getattr(_StandIns.Table, _name))


_SHORT_KINDS = {"INSERT": "+I", "UPDATE_BEFORE": "-U", "UPDATE_AFTER": "+U", "DELETE": "-D"}


def _grouped_select(table: Table, keys: list, window, fields) -> Table:
    """SELECT fields FROM table GROUP BY keys [and the window's function]: unnamed aggregates and expressions
    named EXPR$i, the window's properties as its start / end / rowtime functions."""
    names = table._names()
    _check_fields(keys, names, "groupBy")
    if window is not None:
        _check_fields([window._time_field], names, "window")
        rowtime = query_watermark(table._select, table._t_env._catalog())
        time_type = next(column.type for column in table._columns() if column.name == window._time_field.name)
        if time_type.time_attribute != "PROCTIME" and (rowtime is None or rowtime[0] != window._time_field.name):
            raise _validation_error("A group window expects a time attribute for grouping in a stream "
                                    "environment.", "select")
    key_names = [key.name for key in keys if isinstance(key, exp.Column)]
    items, computed = [], 0
    for field in fields:
        node = _bound(field, table._t_env)
        if window is not None:
            node = _window_properties(node, window)
        _check_fields([node], names, "select")
        if len(key_names) == len(keys):
            _check_fields([_outside_aggregates(node)], key_names, "select")
        # Flink numbers an unnamed item by its place among the items that are not a key column as it is
        if not isinstance(node, (exp.Alias, exp.Column)):
            node = _named(node, "EXPR$%d" % computed)
        if not isinstance(node, exp.Column):
            computed += 1
        items.append(node)
    group = list(keys) + ([window._call()] if window is not None else [])
    query = _select_from(items, table._select)
    if group:
        query = query.group_by(*group, copy=False)
    return table._made(query)


def _outside_aggregates(node):
    """The expression with its aggregate calls and window properties taken out: the columns it names
    outside them must be the grouping keys."""
    from pyflink_compat.table.expression import WindowProperty
    from pyflink_compat.table.udf import UserDefinedAggregateFunctionWrapper

    def drop(each):
        if isinstance(each, (exp.AggFunc, WindowProperty)) or (isinstance(each, exp.Anonymous) and (
                each.name.upper().endswith(("_START", "_END", "_ROWTIME"))
                or isinstance(each.args.get("function"), UserDefinedAggregateFunctionWrapper))):
            return exp.Null()
        return each
    return node.copy().transform(drop, copy=False)


def _window_properties(node, window):
    """``w.start`` / ``w.end`` / ``w.rowtime`` of the window aliased ``w`` as TUMBLE_START(...) and so on."""
    def replace(each):
        if isinstance(each, WindowProperty):
            alias = each.this.name
            if alias != window._alias:
                raise _validation_error("Cannot resolve field [%s], input field list:[...]." % alias)
            call = window._call()
            node = exp.Anonymous(this="%s_%s" % (window._function, each.args["kind"].name),
                                 expressions=call.expressions)
            node.meta["table_api"] = True      # Flink types the Table API's w.start / w.end nullable
            return node
        return each
    return node.transform(replace, copy=False)


class GroupedTable(object):
    """A table grouped by keys: ``select`` computes the aggregates per key."""

    def __init__(self, java_table, t_env):
        self._table, self._keys, self._window = java_table
        self._t_env = t_env

    def select(self, *fields: Expression) -> Table:
        return _grouped_select(self._table, self._keys, self._window, _expanded(fields, self._table._names()))


    def aggregate(self, func) -> 'AggregatedTable':
        """An aggregate function per key (``udaf(...)(col('v')).alias('x', 'y')``); ``select`` then reads the keys
        and the function's result (a ROW result as its fields)."""
        return AggregatedTable((self._table, self._keys, func), self._t_env)


    def flat_aggregate(self, func) -> 'FlatAggregateTable':
        """A table aggregate function per key (``udtaf(...)(col('v')).alias('x', 'y')``, or the function alone,
        given the whole row); ``select`` then reads the keys and the rows it emits."""
        return FlatAggregateTable((self._table, self._keys, func), self._t_env)


class FlatAggregateTable(object):
    """The result of ``flat_aggregate``: the grouping keys, then the fields of each row the table aggregate
    function emits (named by the alias, else as its result type names them; a scalar result ``f0``). Its rows
    are a changelog: a key's rows of before are taken back (-D) when it emits new ones."""

    def __init__(self, java_table, t_env):
        self._table, self._keys, self._func = java_table
        self._t_env = t_env

    def select(self, *fields: Expression) -> 'Table':
        from pyflink_compat.table.sql.catalog import CatalogTable, Column, row_fields, sql_type_of
        from pyflink_compat.table.sql.planner import TableAggregateRelation, relation_of
        from pyflink_compat.table.udf import UserDefinedAggregateFunctionWrapper
        table, t_env = self._table, self._t_env
        func = self._func
        if isinstance(func, UserDefinedAggregateFunctionWrapper):
            func = table._function_call(func)           # the function alone takes the whole row
        node = _bound(func, t_env) if isinstance(func, Expression) else None
        names = getattr(func, "_names", None)
        if isinstance(node, exp.Alias):
            names, node = (node.alias,), node.this
        function = node.args.get("function") if isinstance(node, exp.Anonymous) else None
        if not getattr(function, "_is_table_aggregate", False):
            raise _validation_error("A flatAggregate only accepts an expression which defines a table aggregate "
                                    "function that might be followed by some alias.")
        columns = {column.name: column for column in table._columns()}
        _check_fields(self._keys, list(columns), "groupBy")
        _check_fields([node], list(columns), "select")
        for key in self._keys:
            if not isinstance(key, exp.Column):
                _unsupported("flat_aggregate grouped by an expression ('%s')" % key.sql(),
                             "add the key as a column first (add_columns), then group by it")
        result_type = function._result_type
        results = row_fields(result_type) or [("f0", result_type)]
        if names is not None and len(names) != len(results):
            raise _validation_error("List of column aliases must have same degree as table; the returned table of "
                                    "function '%s' has %d columns, whereas alias list has %d columns"
                                    % (node.name, len(results), len(names)))
        grouping = _select_from([key.copy() for key in self._keys] + [_named(node, "$table_aggregate")],
                                table._select)
        grouping.set("group", exp.Group(expressions=[key.copy() for key in self._keys]))
        catalog = t_env._catalog()
        name = t_env._flat_aggregate_name()
        catalog[name] = CatalogTable(
            name, tuple([Column(key.name, attrs.evolve(columns[key.name].type, time_attribute=None))
                         for key in self._keys]
                        + [Column(field, sql_type_of(field_type))
                           for field, (_, field_type) in zip(names or [each for each, _ in results], results)]),
            {}, None, TableAggregateRelation(grouping, relation_of(grouping, catalog)))
        aggregated = Table(exp.select("*").from_(exp.to_table(name)), t_env)
        return aggregated.select(*fields)


class AggregatedTable(object):
    """The result of ``aggregate``: the grouping keys, then the aggregate's result, a ROW result flattened into
    its fields (named by the alias, else Flink's ``TMP_0$field``; a scalar result ``TMP_0``)."""

    def __init__(self, java_table, t_env):
        self._table, self._keys, self._func = java_table
        self._t_env = t_env

    def select(self, *fields: Expression) -> Table:
        from pyflink_compat.table.udf import UserDefinedAggregateFunctionWrapper
        node = _bound(self._func, self._t_env)
        names = getattr(self._func, "_names", None)
        if isinstance(node, exp.Alias):
            names, node = (node.alias,), node.this
        call = node
        while isinstance(call, (exp.Paren, exp.Alias)):
            call = call.this
        function = call.args.get("function") if isinstance(call, exp.Anonymous) else None
        if not isinstance(function, UserDefinedAggregateFunctionWrapper):
            raise _validation_error("Only a Python aggregate function (udaf) is allowed in aggregate: %s"
                                    % call.sql(), "aggregate")
        temporary = "TMP_0"
        key_items = [key.copy() for key in self._keys]
        grouped = _grouped_select(self._table, self._keys, None,
                                  [Expression(each) for each in key_items]
                                  + [Expression(exp.Alias(this=node, alias=exp.to_identifier(temporary)))])
        result_type = next(column.type for column in grouped._columns() if column.name == temporary)
        items = [exp.column(column.name, quoted=True) for column in grouped._columns() if column.name != temporary]
        if result_type.name == "ROW" and result_type.fields:
            fields_of = [name for name, _ in result_type.fields]
            if names is not None and len(names) != len(fields_of):
                raise _validation_error("List of column aliases must have same degree as table; the returned table "
                                        "of function '%s' has %d columns, whereas alias list has %d columns"
                                        % (call.name, len(fields_of), len(names)), "aggregate")
            for position, field in enumerate(fields_of):
                items.append(exp.Alias(this=exp.Column(this=exp.to_identifier(field, quoted=True),
                                                       table=exp.to_identifier(temporary, quoted=True)),
                                       alias=exp.to_identifier(names[position] if names else
                                                               "%s$%s" % (temporary, field), quoted=True)))
        else:
            items.append(exp.Alias(this=exp.column(temporary, quoted=True),
                                   alias=exp.to_identifier(names[0] if names else temporary, quoted=True)))
        flattened = grouped._made(_select_from(items, grouped._select))
        # the fields over the flattened columns, written straight over the aggregation (one projection of it)
        flattened_items = {item.alias_or_name: item for item in items}
        selected = [_item(field, position, "_c%d", self._t_env) for position, field in enumerate(fields)]
        selected = [exp.Star() if isinstance(item, exp.Column) and item.name == "*" else item for item in selected]
        _check_fields([item for item in selected if not isinstance(item, exp.Star)], flattened._names(), "select")

        def resolved(each):
            if isinstance(each, exp.Column) and not each.table and each.name in flattened_items:
                item = flattened_items[each.name]
                return (item.this if isinstance(item, exp.Alias) else item).copy()
            return each

        merged = []
        for item in selected:
            if isinstance(item, exp.Star):
                merged.extend(each.copy() for each in items)
            elif isinstance(item, exp.Column):
                merged.append(_named(resolved(item.copy()), item.name))
            else:
                merged.append(item.transform(resolved))
        return grouped._made(_select_from(merged, grouped._select))


class OverWindowedTable(object):
    """A table with over windows: ``select`` computes aggregates ``.over(col('w'))`` of them per row."""

    def __init__(self, java_over_windowed_table, t_env):
        self._table, self._windows = java_over_windowed_table
        self._t_env = t_env

    def select(self, *fields: Expression) -> 'Table':
        from pyflink_compat.table.sql.over import over_as_view
        items = [_item(field, position, "_c%d", self._t_env) for position, field in enumerate(fields)]
        query = _select_from(items, self._table._select)
        query.set("windows", [window._definition() for window in self._windows])
        return self._table._made(over_as_view(query))


class GroupWindowedTable(object):
    """A table with a group window: ``group_by`` names the window's alias (and keys)."""

    def __init__(self, java_group_windowed_table, t_env):
        self._table, self._window = java_group_windowed_table
        self._t_env = t_env

    def group_by(self, *fields: Expression) -> 'WindowGroupedTable':
        keys, named_window = [], False
        for field in fields:
            node = to_node(field)
            if isinstance(node, exp.Column) and node.name == self._window._alias:
                named_window = True
            else:
                keys.append(node.copy())
        if not named_window:
            raise _validation_error("GroupBy must contain exactly one window alias.", "groupBy")
        return WindowGroupedTable((self._table, keys, self._window), self._t_env)


class WindowGroupedTable(object):
    """A table grouped by a group window and keys: ``select`` computes the aggregates per key and window."""

    def __init__(self, java_window_grouped_table, t_env):
        self._table, self._keys, self._window = java_window_grouped_table
        self._t_env = t_env

    def select(self, *fields: Expression) -> Table:
        return _grouped_select(self._table, self._keys, self._window, fields)


WindowGroupedTable.aggregate = _StandIns.WindowGroupedTable.aggregate

"""SQL ``VALUES`` rows (``INSERT INTO t VALUES (...), (...)``, ``FROM (VALUES ...) AS v(a, b)``, a bare
``VALUES`` query) as bounded tables of their rows, typed as Flink types them: per column the common type of
its rows (integers INT, exact numbers DECIMAL(p, s) wide enough for every row, strings CHAR(n) when all are,
else VARCHAR of the longest, STRING when a row is one), NOT NULL unless a row gives NULL. A row's values are
constant expressions, evaluated once when the statement is parsed."""
from typing import Callable, List, Optional

import attrs
from sqlglot import exp

from pyflink_compat.table.sql.catalog import CatalogTable, Column, SqlType


def inline_values(statement: exp.Expr, register: Callable[[CatalogTable], str]) -> exp.Expr:
    """``statement`` with each VALUES clause replaced by a reference to a table of its rows; ``register``
    stores such a table in the catalog and returns the name it got."""
    def replace(node):
        if not isinstance(node, exp.Values):
            return node
        alias = node.args.get("alias")
        names = [column.name for column in alias.columns] if alias is not None and alias.columns else None
        table = values_table(node, names)
        name = register(table)
        reference = exp.to_table(name)
        if isinstance(node.parent, (exp.From, exp.Join)):
            if alias is not None and alias.name:
                reference.set("alias", exp.TableAlias(this=exp.to_identifier(alias.name)))
            return reference
        return exp.select("*").from_(reference)         # INSERT INTO t VALUES ..., a bare VALUES query

    return statement.transform(replace)


def values_table(node: exp.Values, names: Optional[List[str]]) -> CatalogTable:
    from pyflink_compat.table.sql.expressions import Compiler, validation_error
    from pyflink_compat.table.sql.bridge import ElementsRelation
    rows, types = [], None
    for row in node.expressions:
        cells = row.expressions if isinstance(row, exp.Tuple) else [row]
        if any(isinstance(cell, exp.Null) for cell in cells):
            raise validation_error("SQL validation failed. Illegal use of 'NULL' (a NULL in VALUES needs a type: "
                                   "CAST(NULL AS ...))")
        compiled = [Compiler({}).compile(cell) for cell in cells]
        if types is not None and len(compiled) != len(types):
            raise validation_error("SQL validation failed. Values passed to VALUES operator must have compatible "
                                   "types")
        rows.append(tuple(function(()) for function, _ in compiled))
        row_types = [cell_type for _, cell_type in compiled]
        types = row_types if types is None else [_common(a, b) for a, b in zip(types, row_types)]
    names = names or ["EXPR$%d" % i for i in range(len(types))]
    if len(names) != len(types):
        raise validation_error("SQL validation failed. List of column aliases must have same degree as table; "
                               "table has %d columns ('%s'), whereas alias list has %d columns"
                               % (len(types), "', '".join("EXPR$%d" % i for i in range(len(types))), len(names)))
    # strings: CHAR(n) when every row is a CHAR(n) (a NULL too: CAST(NULL AS CHAR(n))), else a VARCHAR of the
    # longest, a STRING when a row is one (CAST(NULL AS STRING)), as the common type of the rows
    rows = [tuple(_converted(value, t) for value, t in zip(row, types)) for row in rows]
    columns = tuple(Column(name, attrs.evolve(t, origin=name)) for name, t in zip(names, types))
    return CatalogTable("values", columns, {}, None, ElementsRelation(tuple(rows)))


def _common(a: SqlType, b: SqlType) -> SqlType:
    from pyflink_compat.table.sql.expressions import common_type
    return common_type([a, b], "SQL validation failed. Values passed to VALUES operator must have compatible types")


def _converted(value, sql_type: SqlType):
    """A row's value as its column's common type holds it (an integer of a DECIMAL column as a Decimal of its
    scale, a number of a DOUBLE column as a float)."""
    if value is None:
        return None
    if sql_type.name == "DECIMAL":
        from pyflink_compat.table.sql.values import decimal_of
        return decimal_of(value, sql_type.precision, sql_type.scale)
    if sql_type.name in ("DOUBLE", "FLOAT"):
        return float(value)
    return value

"""pyflink.table.schema: Schema, the columns, watermark and primary key of a table declared in Python
(``Schema.new_builder().column('a', DataTypes.STRING()) ...``). A schema is kept as the CREATE TABLE column
definitions it stands for, so a TableDescriptor's table is made as a DDL statement's table is."""
import sys

from pyflink_compat import missing

__all__ = ['Schema']

_StandIns = missing.stand_ins(__name__)


def _type_text(data_type) -> str:
    return data_type if isinstance(data_type, str) else data_type.sql()


def _expression_text(expr) -> str:
    if isinstance(expr, str):
        return expr
    from pyflink_compat.table.sql.dialect import Flink
    return expr._node.sql(dialect=Flink)


def _shown(expr):
    """How Flink's schema shows an expression given in Python: a SQL text as it is, an Expression object as
    its summary (``times(id, 2)``)."""
    return expr if isinstance(expr, str) else _summary(expr._node)


def _summary(node) -> str:
    """Flink's summary string of a Table API expression: calls by their function names, columns bare."""
    from sqlglot import exp
    names = {exp.Add: "plus", exp.Sub: "minus", exp.Mul: "times", exp.Div: "divide", exp.Mod: "mod",
             exp.EQ: "equals", exp.NEQ: "notEquals", exp.GT: "greaterThan", exp.GTE: "greaterThanOrEqual",
             exp.LT: "lessThan", exp.LTE: "lessThanOrEqual", exp.And: "and", exp.Or: "or"}
    if isinstance(node, exp.Paren):
        return _summary(node.this)
    if isinstance(node, exp.Column):
        return node.name
    if isinstance(node, exp.Literal):
        return "'%s'" % node.this if node.is_string else node.this
    if type(node) in names:
        return "%s(%s, %s)" % (names[type(node)], _summary(node.this), _summary(node.expression))
    if isinstance(node, exp.Not):
        return "not(%s)" % _summary(node.this)
    from pyflink_compat.table.sql.dialect import Flink
    return node.sql(dialect=Flink)


class Schema(object):
    """The declared columns of a table, as CREATE TABLE writes them."""

    def __init__(self, j_schema):
        definitions, self._shown = j_schema
        self._definitions = tuple(definitions)       # pyflink-compat: the column definitions' SQL text
        # computed columns' and the watermark's expressions as given (name or "WATERMARK" -> text)

    @staticmethod
    def new_builder() -> 'Schema.Builder':
        return Schema.Builder(([], {}))

    def __str__(self):
        return "(\n%s\n)" % ",\n".join("  " + definition for definition in self._definitions)

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self._definitions == other._definitions

    def __hash__(self):
        return hash(self._definitions)

    class Builder(object):
        """A builder of a Schema."""

        def __init__(self, j_builder):
            definitions, shown = j_builder
            self._definitions, self._shown = list(definitions), dict(shown)

        def from_schema(self, unresolved_schema: 'Schema') -> 'Schema.Builder':
            self._definitions.extend(unresolved_schema._definitions)
            self._shown.update(unresolved_schema._shown)
            return self

        def from_fields(self, field_names, field_data_types) -> 'Schema.Builder':
            for name, data_type in zip(field_names, field_data_types):
                self.column(name, data_type)
            return self

        def column(self, column_name: str, data_type) -> 'Schema.Builder':
            self._definitions.append("`%s` %s" % (column_name, _type_text(data_type)))
            return self

        def column_by_expression(self, column_name: str, expr) -> 'Schema.Builder':
            self._definitions.append("`%s` AS %s" % (column_name, _expression_text(expr)))
            self._shown[column_name] = _shown(expr)
            return self

        def column_by_metadata(self, column_name: str, data_type, metadata_key: str = None,
                               is_virtual: bool = False) -> 'Schema.Builder':
            self._definitions.append("`%s` %s METADATA%s%s" % (
                column_name, _type_text(data_type), "" if metadata_key is None else " FROM '%s'" % metadata_key,
                " VIRTUAL" if is_virtual else ""))
            return self

        def watermark(self, column_name: str, watermark_expr) -> 'Schema.Builder':
            self._definitions.append("WATERMARK FOR `%s` AS %s" % (column_name, _expression_text(watermark_expr)))
            self._shown["WATERMARK"] = _shown(watermark_expr)
            return self

        def primary_key(self, *column_names: str) -> 'Schema.Builder':
            self._definitions.append("PRIMARY KEY (%s) NOT ENFORCED" % ", ".join("`%s`" % name
                                                                                 for name in column_names))
            return self

        def primary_key_named(self, constraint_name: str, *column_names: str) -> 'Schema.Builder':
            return self.primary_key(*column_names)

        def build(self) -> 'Schema':
            return Schema((self._definitions, self._shown))


for _name in ("from_resolved_schema", "from_row_data_type"):
    setattr(Schema.Builder, _name, getattr(_StandIns.Schema.Builder, _name))

missing.complete(sys.modules[__name__])

"""Flink SQL's syntax on sqlglot: backquoted identifiers, ``WATERMARK FOR col AS expr`` and metadata columns
(``col TYPE METADATA [FROM 'key'] [VIRTUAL]``) in CREATE TABLE."""
import sqlglot
import sqlglot.errors
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.generator import Generator
from sqlglot.parser import Parser
from sqlglot.tokens import Tokenizer, TokenType


class MetadataColumnConstraint(exp.Expression, exp.ColumnConstraintKind):
    """``METADATA [FROM 'key'] [VIRTUAL]`` of a column."""
    arg_types = {"this": False, "virtual": False}


def _metadata(parser) -> exp.Expr:
    key = parser._parse_string() if parser._match_text_seq("FROM") else None
    virtual = parser._match_text_seq("VIRTUAL")
    return parser.expression(MetadataColumnConstraint(this=key, virtual=exp.true() if virtual else None))


def _watermark(parser) -> exp.Expr:
    return parser.expression(exp.WatermarkColumnConstraint(
        this=parser._match(TokenType.FOR) and parser._parse_column(),
        expression=parser._match(TokenType.ALIAS) and parser._parse_disjunction()))


class WindowTableFunction(exp.Expression):
    """A windowing table-valued function: ``TUMBLE(TABLE t, DESCRIPTOR(ts), size)``, ``HOP(..., slide, size)``,
    ``CUMULATE(..., step, size)``; ``this``: the table, ``kind``: the function's name, ``expressions``: the
    descriptor's column then the intervals."""
    arg_types = {"this": True, "kind": True, "expressions": False, "partition": False}


def _window_function(kind: str):
    """TUMBLE / HOP / CUMULATE / SESSION: a window table function when its first argument is ``TABLE name``,
    else a group window function of GROUP BY (``TUMBLE(ts, INTERVAL ...)``)."""
    def parse(parser) -> exp.Expr:
        if parser._match(TokenType.TABLE):
            table = parser._parse_table_parts()
            partition = None
            if parser._match(TokenType.PARTITION_BY):         # SESSION(TABLE t PARTITION BY k, ...)
                partition = parser._parse_wrapped_csv(parser._parse_assignment) \
                    if parser._curr is not None and parser._curr.token_type == TokenType.L_PAREN \
                    else [parser._parse_assignment()]        # one key, or (k1, k2)
            arguments = []
            while parser._match(TokenType.COMMA):
                arguments.append(parser._parse_assignment())
            return parser.expression(WindowTableFunction(this=table, kind=kind, expressions=arguments,
                                                         partition=partition))
        return parser.expression(exp.Anonymous(this=kind, expressions=parser._parse_csv(parser._parse_assignment)))
    return parse


class JsonValue(exp.Expression, exp.Func):
    """``JSON_VALUE(json, path [RETURNING type] [{NULL | ERROR | DEFAULT expr} ON {EMPTY | ERROR}] ...)``:
    ``this`` the JSON text, ``path``, ``returning`` (a DataType or None), ``on_empty`` / ``on_error``: a Var NULL,
    ERROR or DEFAULT, with ``empty_default`` / ``error_default``."""
    arg_types = {"this": True, "path": True, "returning": False, "on_empty": False, "empty_default": False,
                 "on_error": False, "error_default": False}


class ListAggCall(exp.Expression, exp.AggFunc):
    """``LISTAGG([DISTINCT] s [, separator])``."""
    arg_types = {"this": True, "separator": False}
    _sql_names = ["LISTAGG"]


class JsonArrayAggCall(exp.Expression, exp.AggFunc):
    """``JSON_ARRAYAGG(value [{NULL | ABSENT} ON NULL])``: ``this``, ``null_handling``."""
    arg_types = {"this": True, "null_handling": False}
    _sql_names = ["JSON_ARRAYAGG"]


def _json_arrayagg(parser) -> exp.Expr:
    this = parser._parse_assignment()
    null_handling = None
    if parser._match_text_seq("NULL", "ON", "NULL"):
        null_handling = "NULL ON NULL"
    elif parser._match_text_seq("ABSENT", "ON", "NULL"):
        null_handling = "ABSENT ON NULL"
    return parser.expression(JsonArrayAggCall(this=this, null_handling=null_handling))


def _json_arrayagg_sql(generator, node: JsonArrayAggCall) -> str:
    handling = node.args.get("null_handling")
    return "JSON_ARRAYAGG(%s%s)" % (generator.sql(node, "this"), " " + handling if handling else "")


def _listagg(args):
    this, separator = args[0] if args else None, args[1] if len(args) > 1 else None
    if isinstance(this, exp.Distinct) and len(this.expressions) == 2 and separator is None:
        # LISTAGG(DISTINCT s, ';'): the separator is read as a second DISTINCT expression
        this, separator = exp.Distinct(expressions=[this.expressions[0]]), this.expressions[1]
    return ListAggCall(this=this, separator=separator)


class JsonArrayCall(exp.Expression, exp.Func):
    """``JSON_ARRAY([value, ...] [{NULL | ABSENT} ON NULL])``: ``expressions``, ``null_handling`` (None, 'NULL ON
    NULL' or 'ABSENT ON NULL')."""
    arg_types = {"expressions": False, "null_handling": False}


def _json_array(parser) -> exp.Expr:
    values = []
    null_handling = None
    while parser._curr is not None and parser._curr.token_type != TokenType.R_PAREN:
        if parser._match_text_seq("NULL", "ON", "NULL"):
            null_handling = "NULL ON NULL"
            break
        if parser._match_text_seq("ABSENT", "ON", "NULL"):
            null_handling = "ABSENT ON NULL"
            break
        values.append(parser._parse_assignment())
        if not parser._match(TokenType.COMMA):
            if parser._match_text_seq("NULL", "ON", "NULL"):
                null_handling = "NULL ON NULL"
            elif parser._match_text_seq("ABSENT", "ON", "NULL"):
                null_handling = "ABSENT ON NULL"
            break
    return parser.expression(JsonArrayCall(expressions=values, null_handling=null_handling))


def _json_array_sql(generator, node: JsonArrayCall) -> str:
    text = ", ".join(generator.sql(each) for each in node.expressions)
    handling = node.args.get("null_handling")
    return "JSON_ARRAY(%s)" % (" ".join(part for part in (text, handling) if part))


def _json_value(parser) -> exp.Expr:
    this = parser._parse_assignment()
    parser._match(TokenType.COMMA)
    path = parser._parse_assignment()
    args = {"this": this, "path": path}
    if parser._match_text_seq("RETURNING"):
        args["returning"] = parser._parse_types()
    for _ in range(2):
        if parser._match(TokenType.NULL):
            kind, default = "NULL", None
        elif parser._match_text_seq("ERROR"):
            kind, default = "ERROR", None
        elif parser._match(TokenType.DEFAULT):
            kind, default = "DEFAULT", parser._parse_bitwise()
        else:
            break
        if not parser._match(TokenType.ON):
            parser.raise_error("Expecting ON after the JSON_VALUE behaviour %s" % kind)
        target = "empty" if parser._match_text_seq("EMPTY") else "error" if parser._match_text_seq("ERROR") else None
        if target is None:
            parser.raise_error("Expecting EMPTY or ERROR")
        args["on_" + target] = exp.Var(this=kind)
        if default is not None:
            args[target + "_default"] = default
    return parser.expression(JsonValue(**args))


def _json_value_sql(generator, node: JsonValue) -> str:
    text = "JSON_VALUE(%s, %s" % (generator.sql(node, "this"), generator.sql(node, "path"))
    if node.args.get("returning") is not None:
        text += " RETURNING %s" % generator.sql(node, "returning")
    for target in ("empty", "error"):
        kind = node.args.get("on_" + target)
        if kind is not None:
            default = node.args.get(target + "_default")
            text += " %s ON %s" % ("DEFAULT " + generator.sql(default) if default is not None else kind.name,
                                   target.upper())
    return text + ")"


def _timestamp_literal(parser, literal, data_type):
    """``TIMESTAMP '2024-01-02 03:04:05.25'``: Flink types it TIMESTAMP(the digits of its fraction)."""
    if data_type.expressions or not isinstance(literal, exp.Literal):
        return parser.expression(exp.Cast(this=literal, to=data_type))
    _, _, fraction = literal.name.partition(".")
    return parser.expression(exp.Cast(this=literal, to=exp.DataType.build("TIMESTAMP(%d)" % len(fraction.strip()))))


# the meta key of a call of a function sqlglot knows with fewer (or more) arguments than sqlglot takes: the
# call is kept as an exp.Anonymous of its name for the compiler to fail as Flink's validator does
WRONG_ARGUMENT_COUNT = "flink_wrong_argument_count"

# the functions whose wrong argument counts reach the compiler; any other such call stays a parse error
ARGUMENT_COUNT_CHECKED = frozenset((
    "ELT", "REGEXP_COUNT", "REGEXP_INSTR", "REGEXP_SUBSTR", "REGEXP_EXTRACT_ALL", "STARTSWITH", "ENDSWITH",
    "TRANSLATE", "LPAD", "RPAD", "REPEAT", "LEFT", "RIGHT", "REPLACE", "LOCATE", "SPLIT_INDEX", "REGEXP_REPLACE",
    "REGEXP_EXTRACT", "INSTR", "SHA2", "POWER", "ATAN2", "NULLIF", "IF", "REGEXP", "DATE_FORMAT", "MD5", "UPPER",
    "HEX", "CHR", "LTRIM", "RTRIM", "INITCAP", "BIN", "REVERSE", "TO_BASE64", "LOG", "TRUNCATE", "ROUND", "SUBSTR",
    "CONCAT", "LOWER", "ABS", "MOD"))


# functions whose calls with an argument count sqlglot does not take stay an exp.Anonymous of their name that the
# compiler's handler of the function (``_function_<name>``) checks as Flink does
OWN_ARGUMENT_COUNT = frozenset(("ENCODE", "DECODE", "UNHEX", "PARSE_URL", "STR_TO_MAP", "CURRENT_DATABASE"))


#: The name a call of a function with several names was written with (in its node's meta), for Flink's errors.
CALLED_AS = "called_as"
#: Set in the meta of a MOD(a, b) call's node (``a % b`` has the same node): Flink names them apart in errors.
MOD_FUNCTION = "mod_function"


def _mod_function(args, dialect):
    from sqlglot.parser import build_mod
    node = build_mod(args, dialect)
    node.meta[MOD_FUNCTION] = True
    return node


class Flink(Dialect):
    class Tokenizer(Tokenizer):
        # SESSION is Flink's session window function (GROUP BY SESSION(ts, INTERVAL ...)), not a keyword
        # ROW<name type, ...> is Flink's structured type (sqlglot's STRUCT); ROW(a, b) stays a function call
        KEYWORDS = {**{key: token for key, token in Tokenizer.KEYWORDS.items() if key != "SESSION"},
                    "ROW": TokenType.STRUCT}
        IDENTIFIERS = ["`"]
        QUOTES = ["'"]
        STRING_ESCAPES = ["'"]
        HEX_STRINGS = [("x'", "'"), ("X'", "'")]        # a BINARY(n) literal

    class Parser(Parser):
        CONSTRAINT_PARSERS = {**Parser.CONSTRAINT_PARSERS, "WATERMARK": _watermark, "METADATA": _metadata}
        FUNCTION_PARSERS = {**Parser.FUNCTION_PARSERS,
                            **{kind: _window_function(kind) for kind in ("TUMBLE", "HOP", "CUMULATE", "SESSION")},
                            "JSON_VALUE": _json_value, "JSON_ARRAY": _json_array, "JSON_ARRAYAGG": _json_arrayagg}
        # TIMESTAMPDIFF(unit, a, b) is Flink's (sqlglot's reading takes b for a unit): a call of its own
        FUNCTIONS = {**{name: builder for name, builder in Parser.FUNCTIONS.items()
                        if name not in ("TIMESTAMPDIFF", "TIMESTAMP_DIFF")}, "LISTAGG": _listagg,
                     "MOD": _mod_function}
        SCHEMA_UNNAMED_CONSTRAINTS = {*Parser.SCHEMA_UNNAMED_CONSTRAINTS, "WATERMARK"}
        # Flink 2.3's INSERT ... ON CONFLICT DO DEDUPLICATE | NOTHING | ERROR (no keys, no DO UPDATE)
        CONFLICT_ACTIONS = {"DO": ("DEDUPLICATE", "NOTHING", "ERROR")}

        def _parse_on_conflict(self):
            start = self._curr
            conflict = super()._parse_on_conflict()
            if conflict is not None and (conflict.args.get("duplicate") or conflict.args.get("conflict_keys")
                                         or conflict.args.get("constraint") or conflict.args.get("action") is None):
                self.raise_error("ON CONFLICT takes DO DEDUPLICATE, DO NOTHING or DO ERROR", start)
            return conflict
        TYPE_LITERAL_PARSERS = {**Parser.TYPE_LITERAL_PARSERS, exp.DType.TIMESTAMP: _timestamp_literal}

        def _parse_escape(self, this):
            # Flink's ESCAPE takes any character expression (a column, a CAST), not only a literal
            if not self._match(TokenType.ESCAPE):
                return this
            return self.expression(exp.Escape(this=this, expression=self._parse_bitwise()))

        def _parse_trim(self):
            # Flink's grammar has TRIM([[BOTH | LEADING | TRAILING] [chars] FROM] s) only: no TRIM(s, chars)
            start = self._index
            self._match_texts(self.TRIM_TYPES)
            self._parse_bitwise()
            if self._curr is not None and self._curr.token_type == TokenType.COMMA:
                self.raise_error('Encountered ","', self._curr)
            self._retreat(start)
            return super()._parse_trim()

        def _parse_function_call(self, *args, **kwargs):
            # the name of each call being parsed (the innermost last), for validate_expression
            calls = self.__dict__.setdefault("_flink_calls", [])
            calls.append(self._curr.text.upper() if self._curr else None)
            try:
                return super()._parse_function_call(*args, **kwargs)
            finally:
                calls.pop()

        def validate_expression(self, expression, args=None):
            """A call of a function sqlglot knows, with an argument count sqlglot does not take (``ELT(1)``,
            ``LPAD('a')``), as an exp.Anonymous of its name marked WRONG_ARGUMENT_COUNT: Flink fails it in its
            validator, not in its parser."""
            calls = self.__dict__.get("_flink_calls")
            name = calls[-1] if calls else None
            if name and isinstance(expression, (exp.Length, exp.Log)):
                expression.meta[CALLED_AS] = name         # CHAR_LENGTH or CHARACTER_LENGTH, LOG10 or LOG
            if args is not None and (name in ARGUMENT_COUNT_CHECKED or name in OWN_ARGUMENT_COUNT) \
                    and isinstance(expression, (exp.Func, exp.Mod)) and not isinstance(expression, exp.Anonymous):
                messages = expression.error_messages(args)
                if messages and all(message.startswith(("Required keyword", "The number of provided arguments"))
                                    for message in messages) \
                        and all(isinstance(each, exp.Expr) and not isinstance(each, exp.PropertyEQ) for each in args):
                    call = exp.Anonymous(this=name, expressions=list(args))
                    call.meta[WRONG_ARGUMENT_COUNT] = name not in OWN_ARGUMENT_COUNT
                    return call
            return super().validate_expression(expression, args)

    class Generator(Generator):
        TRANSFORMS = {**Generator.TRANSFORMS, JsonValue: _json_value_sql, JsonArrayCall: _json_array_sql,
                      JsonArrayAggCall: _json_arrayagg_sql}
        TYPE_MAPPING = {**Generator.TYPE_MAPPING, exp.DType.TEXT: "STRING", exp.DType.STRUCT: "ROW"}


def parse_error(text: str):
    """Flink's parser error, as PyFlink raises it (a Py4JJavaError); the text is our parser's."""
    from pyflink_compat.util.exceptions import JavaStyleError
    return JavaStyleError("org.apache.flink.table.api.SqlParserException",
                          "SQL parse failed. %s (pyflink-compat's SQL parser: the Flink SQL it reads is listed in "
                          "porting_guide/README.md#table-api)" % text, "executeSql")


def _flink_position(message: str) -> str:
    """``Encountered ",". Line 1, Col: 16.`` as Flink's parser words it: ``Encountered "," at line 1, column 16.``"""
    import re
    return re.sub(r'^(Encountered ".*")\. Line (\d+), Col: (\d+)\.?$', r"\1 at line \2, column \3.", message)


def parse(sql: str) -> list:
    """The statements of ``sql`` (sqlglot expressions). Statements sqlglot keeps as commands (SHOW ...) are
    parsed without its warning: the table environment runs or refuses them by name."""
    import logging
    sqlglot_log = logging.getLogger("sqlglot")
    level = sqlglot_log.level
    sqlglot_log.setLevel(logging.ERROR)
    try:
        statements = [statement for statement in sqlglot.parse(sql, read=Flink) if statement is not None]
    except sqlglot.errors.ParseError as error:
        raise parse_error(_flink_position(str(error).splitlines()[0])) from None
    finally:
        sqlglot_log.setLevel(level)
    from pyflink_compat.table.sql.over import over_as_view
    return [statement.transform(inline_common_tables).transform(subquery_columns_renamed)
            .transform(distinct_as_group_by).transform(limit_as_top_n).transform(over_as_view)
            .transform(aggregate_filter_as_case)
            for statement in statements]


def inline_common_tables(node):
    """``WITH a AS (query) SELECT ... FROM a``: each reference to a common table expression becomes its query as a
    subquery under the name it was referred to by, as Flink's planner expands WITH. A later one may read an
    earlier one."""
    common = node.args.get("with_") if isinstance(node, (exp.Select, exp.Union)) else None
    if common is None:
        return node
    if common.args.get("recursive"):
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("WITH RECURSIVE", "table-api")
    definitions = {}
    for table_expression in common.expressions:
        definitions[table_expression.alias] = (_with_common_tables(table_expression.this.copy(), definitions),
                                               _column_names(table_expression))
    body = node.copy()
    body.set("with_", None)
    return _with_common_tables(body, definitions)


def _with_common_tables(query, definitions: dict):
    def replace(each):
        if not (isinstance(each, exp.Table) and isinstance(each.this, exp.Identifier) and not each.args.get("db")
                and each.name in definitions):
            return each
        if isinstance(each.parent, WindowTableFunction):
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("A window table function over a WITH query ('%s')" % each.name, "table-api",
                                          "create a view of the query (CREATE TEMPORARY VIEW) and window that")
        query, columns = definitions[each.name]
        return exp.Subquery(this=query.copy(), alias=exp.TableAlias(
            this=exp.to_identifier(each.alias_or_name), columns=[column.copy() for column in columns] or None))
    return query.transform(replace) if definitions else query


def _column_names(table_expression) -> list:
    """The column list of ``WITH name (a, b) AS (query)``: the query's columns renamed, as a subquery's alias list
    renames them; it must name every column."""
    alias = table_expression.args.get("alias")
    columns = list(alias.columns) if alias is not None else []
    first = table_expression.this
    while isinstance(first, exp.Union):
        first = first.this
    if columns and isinstance(first, exp.Select) and not any(isinstance(item, exp.Star) for item in first.expressions) \
            and len(first.expressions) != len(columns):
        from pyflink_compat.table.sql.expressions import validation_error
        raise validation_error("SQL validation failed. Number of columns must match number of query columns "
                               "(WITH %s)" % alias.sql())
    return columns


def subquery_columns_renamed(node):
    """``FROM (query) AS t (a, b)`` (also what ``WITH t (a, b) AS (query)`` expands to): the query's columns take
    the alias list's names, in order, as Flink's validator renames them; the list must name every column."""
    alias = node.args.get("alias") if isinstance(node, exp.Subquery) else None
    if alias is None or not alias.columns or not isinstance(node.this, (exp.Select, exp.Union)):
        return node
    first = node.this.copy()
    renamed = first
    while isinstance(first, exp.Union):              # a UNION's columns are named by its first query
        first = first.this
    items = first.expressions
    if any(isinstance(item, exp.Star) or isinstance(item, exp.Column) and isinstance(item.this, exp.Star)
           for item in items):
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("A column alias list on a subquery that selects '*' ('%s')" % alias.sql(),
                                      "table-api", "name the subquery's columns in its SELECT instead")
    if len(items) != len(alias.columns):
        from pyflink_compat.table.sql.expressions import validation_error
        raise validation_error("SQL validation failed. List of column aliases must have same degree as table; table "
                               "has %d columns ('%s'), whereas alias list has %d columns"
                               % (len(items), "', '".join(item.alias_or_name for item in items), len(alias.columns)))
    first.set("expressions", [exp.alias_(item.this if isinstance(item, exp.Alias) else item, column.name,
                                         quoted=True) for item, column in zip(items, alias.columns)])
    subquery = node.copy()
    subquery.set("this", renamed)
    subquery.set("alias", exp.TableAlias(this=alias.this.copy()))
    return subquery


# the built-in aggregates, which all leave NULL inputs out (a FILTER clause is then a CASE of their argument)
_NULL_IGNORING_AGGREGATES = (exp.Count, exp.Sum, exp.Min, exp.Max, exp.Avg, exp.FirstValue, exp.LastValue,
                             exp.VariancePop, exp.Variance, exp.StddevPop, exp.StddevSamp, exp.Stddev, ListAggCall)


def is_array_agg(node) -> bool:
    """Whether ``node`` is an ARRAY_AGG call, maybe inside its IGNORE / RESPECT NULLS."""
    if isinstance(node, (exp.IgnoreNulls, exp.RespectNulls)):
        node = node.this
    return isinstance(node, exp.ArrayAgg)


def aggregate_filter_as_case(node):
    """``AGG(x) FILTER (WHERE c)`` as ``AGG(CASE WHEN c THEN x END)`` (``COUNT(*)``: of ``CASE WHEN c THEN 1
    END``; ``COUNT(DISTINCT x)``: of ``DISTINCT CASE ...``): the aggregate leaves out the rows the condition does
    not keep, as Flink's does."""
    if not isinstance(node, exp.Filter) or not isinstance(node.expression, exp.Where):
        return node
    aggregate, condition = node.this, node.expression.this
    if isinstance(aggregate, (exp.JSONObjectAgg, JsonArrayAggCall)):     # Flink's grammar has no FILTER there
        raise parse_error("Incorrect syntax near the keyword 'FILTER'")
    if is_array_agg(aggregate):
        return node                  # a NULL is a value to it: the aggregate skips the rows itself
    if not isinstance(aggregate, _NULL_IGNORING_AGGREGATES):
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("A FILTER clause on %s" % aggregate.sql(dialect=Flink), "table-api")
    aggregate = aggregate.copy()

    def kept(value):
        return exp.Case(ifs=[exp.If(this=condition.copy(), true=value)])
    argument = aggregate.this
    if isinstance(argument, exp.Star):
        aggregate.set("this", kept(exp.Literal.number(1)))
    elif isinstance(argument, exp.Distinct):
        argument.set("expressions", [kept(each) for each in argument.expressions])
    else:
        aggregate.set("this", kept(argument))
    return aggregate


def distinct_as_group_by(node):
    """``SELECT DISTINCT items FROM ...`` as Flink's planner runs it: an aggregation grouped by the items without
    aggregates (``+I`` for each new row; one seen before changes nothing)."""
    distinct = node.args.get("distinct") if isinstance(node, exp.Select) else None
    if distinct is None or distinct.args.get("on") is not None or node.args.get("group") \
            or any(isinstance(item, exp.Star) or item.find(exp.AggFunc) for item in node.expressions):
        return node
    grouped = node.copy()
    grouped.set("distinct", None)
    keys = [item.this.copy() if isinstance(item, exp.Alias) else item.copy() for item in grouped.expressions]
    grouped.set("group", exp.Group(expressions=keys))
    return grouped


# the row number of a query's LIMIT, as Flink's planner turns ORDER BY ... LIMIT n into a Top-n
LIMIT_RANK = "$limit_rank"


def limit_as_top_n(node):
    """``SELECT items FROM t [WHERE c] [ORDER BY o] LIMIT n`` as Flink runs it on a stream: a Top-n over the whole
    input, ``SELECT items FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY o) AS $limit_rank FROM t [WHERE c]) AS t
    WHERE $limit_rank <= n``; without ORDER BY, the first n rows (a constant order keeps the arrival order)."""
    if not isinstance(node, exp.Select) or node.args.get("limit") is None or node.args.get("group") \
            or node.args.get("distinct"):
        return node
    limit = node.args["limit"].expression
    offset = node.args.get("offset")
    offset = offset.expression if offset is not None else exp.Literal.number(0)
    if not all(isinstance(each, exp.Literal) and not each.is_string for each in (limit, offset)):
        return node
    source_clause = node.args.get("from") or node.args.get("from_")
    if source_clause is None or node.args.get("joins"):
        return node
    order = node.args.get("order") or exp.Order(expressions=[exp.Ordered(this=exp.Literal.number(0))])
    inner = node.copy()
    for clause in ("order", "limit", "offset"):
        inner.set(clause, None)
    over = exp.Window(this=exp.RowNumber(), order=order.copy())
    inner.set("expressions", [exp.Star(), exp.alias_(over, exp.to_identifier(LIMIT_RANK, quoted=True))])
    relation = source_clause.this
    alias = relation.alias_or_name if isinstance(relation, (exp.Table, exp.Subquery)) else "t"
    outer = exp.Select(expressions=[item.copy() for item in node.expressions])
    outer.set("from" if node.args.get("from") is not None else "from_", exp.From(this=exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(alias)))))
    rank = exp.column(exp.to_identifier(LIMIT_RANK, quoted=True))
    skipped = int(offset.this)
    bound = exp.LTE(this=rank.copy(), expression=exp.Literal.number(skipped + int(limit.this)))
    if skipped:           # LIMIT n OFFSET m: the ranks m + 1 to m + n
        bound = exp.and_(exp.GT(this=rank.copy(), expression=exp.Literal.number(skipped)), bound)
    outer.set("where", exp.Where(this=bound))
    return outer


def parse_type(text: str) -> exp.DataType:
    """The sqlglot type of a Flink SQL type's text (``BIGINT``, ``VARCHAR(10)``, ``ARRAY<STRING>``)."""
    return sqlglot.parse_one("CAST(NULL AS %s)" % text, read=Flink).args["to"]

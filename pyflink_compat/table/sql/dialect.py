"""Flink SQL's syntax on sqlglot: backquoted identifiers, ``WATERMARK FOR col AS expr`` and metadata columns
(``col TYPE METADATA [FROM 'key'] [VIRTUAL]``) in CREATE TABLE."""
import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
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
    arg_types = {"this": True, "kind": True, "expressions": False}


def _window_function(kind: str):
    """TUMBLE / HOP / CUMULATE / SESSION: a window table function when its first argument is ``TABLE name``,
    else a group window function of GROUP BY (``TUMBLE(ts, INTERVAL ...)``)."""
    def parse(parser) -> exp.Expr:
        if parser._match(TokenType.TABLE):
            table = parser._parse_table_parts()
            arguments = []
            while parser._match(TokenType.COMMA):
                arguments.append(parser._parse_assignment())
            return parser.expression(WindowTableFunction(this=table, kind=kind, expressions=arguments))
        return parser.expression(exp.Anonymous(this=kind, expressions=parser._parse_csv(parser._parse_assignment)))
    return parse


class Flink(Dialect):
    class Tokenizer(Tokenizer):
        # SESSION is Flink's session window function (GROUP BY SESSION(ts, INTERVAL ...)), not a keyword
        KEYWORDS = {key: token for key, token in Tokenizer.KEYWORDS.items() if key != "SESSION"}
        IDENTIFIERS = ["`"]
        QUOTES = ["'"]
        STRING_ESCAPES = ["'"]

    class Parser(Parser):
        CONSTRAINT_PARSERS = {**Parser.CONSTRAINT_PARSERS, "WATERMARK": _watermark, "METADATA": _metadata}
        FUNCTION_PARSERS = {**Parser.FUNCTION_PARSERS,
                            **{kind: _window_function(kind) for kind in ("TUMBLE", "HOP", "CUMULATE", "SESSION")}}
        SCHEMA_UNNAMED_CONSTRAINTS = {*Parser.SCHEMA_UNNAMED_CONSTRAINTS, "WATERMARK"}


def parse(sql: str) -> list:
    """The statements of ``sql`` (sqlglot expressions). Statements sqlglot keeps as commands (SHOW ...) are
    parsed without its warning: the table environment runs or refuses them by name."""
    import logging
    sqlglot_log = logging.getLogger("sqlglot")
    level = sqlglot_log.level
    sqlglot_log.setLevel(logging.ERROR)
    try:
        return [statement for statement in sqlglot.parse(sql, read=Flink) if statement is not None]
    finally:
        sqlglot_log.setLevel(level)


def parse_type(text: str) -> exp.DataType:
    """The sqlglot type of a Flink SQL type's text (``BIGINT``, ``VARCHAR(10)``, ``ARRAY<STRING>``)."""
    return sqlglot.parse_one("CAST(NULL AS %s)" % text, read=Flink).args["to"]

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


class Flink(Dialect):
    class Tokenizer(Tokenizer):
        # SESSION is Flink's session window function (GROUP BY SESSION(ts, INTERVAL ...)), not a keyword
        KEYWORDS = {key: token for key, token in Tokenizer.KEYWORDS.items() if key != "SESSION"}
        IDENTIFIERS = ["`"]
        QUOTES = ["'"]
        STRING_ESCAPES = ["'"]

    class Parser(Parser):
        CONSTRAINT_PARSERS = {**Parser.CONSTRAINT_PARSERS, "WATERMARK": _watermark, "METADATA": _metadata}
        SCHEMA_UNNAMED_CONSTRAINTS = {*Parser.SCHEMA_UNNAMED_CONSTRAINTS, "WATERMARK"}


def parse(sql: str) -> list:
    """The statements of ``sql`` (sqlglot expressions)."""
    return [statement for statement in sqlglot.parse(sql, read=Flink) if statement is not None]

"""JSON string literals as Flink's JSON formats write them (Jackson writing to bytes) and as its JSON functions
write them (Jackson writing to a String).

Kept apart from the formats so that the table formats' writers, which run in Spark's Python workers, can use it
without importing the DataStream API.
"""
import re

_ESCAPES = {'"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t'}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\U00010000-\U0010ffff]')


def quote(text: str) -> str:
    """A JSON string as Flink's Jackson writes it to bytes: control characters as \\uXXXX (upper-case hex), a
    character beyond the Basic Multilingual Plane as its two UTF-16 surrogates so escaped, other non-ASCII kept."""
    def escape(match):
        ch = match.group(0)
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            return "\\u%04X\\u%04X" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))
        return _ESCAPES.get(ch) or "\\u%04X" % code
    return '"' + _NEEDS_ESCAPE.sub(escape, text) + '"'


_NEEDS_ESCAPE_IN_TEXT = re.compile(r'["\\\x00-\x1f]')


def quote_in_text(text: str) -> str:
    """A JSON string as Jackson writes it to a String (JSON_OBJECT, JSON_QUERY): control characters as \\uXXXX
    (upper-case hex), every other character as it is."""
    return '"' + _NEEDS_ESCAPE_IN_TEXT.sub(lambda match: _ESCAPES.get(match.group(0))
                                          or "\\u%04X" % ord(match.group(0)), text) + '"'

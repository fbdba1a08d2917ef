"""Flink SQL's string functions (and NULLIF, GREATEST, LEAST, UUID, HASH_CODE) with Flink 2.3's result types and
results: Java's regular expressions (as far as Python's ``re`` can follow them), Java's UTF-16 indexing where
Flink works on Java strings (LPAD, RPAD, OVERLAY: a supplementary character is two characters there) and
code-point indexing where it works on its own string data (POSITION, LOCATE, CHAR_LENGTH), Java's hash codes,
URLEncoder / URLDecoder and Base64 decoder.

``StringFunctions`` holds the compiler's handlers (``_<sqlglot node>`` and ``_function_<name>``); the rest are
pure helpers of the values."""
import base64
import functools
import hashlib
import re
import uuid

import attrs
from sqlglot import exp

from pyflink_compat.table.sql.catalog import SECTION, SqlType
from pyflink_compat.table.sql.nulls import null_safe as _null_safe
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError

_TEXT = "STRING"
_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_NUMBERS = _INTEGERS + ("DECIMAL", "FLOAT", "DOUBLE")


# UTF-16 code units ---------------------------------------------------------------------------------
def utf16_units(text: str) -> str:
    """``text`` with each supplementary character as its two surrogates: a Java string's characters."""
    if all(ord(c) < 0x10000 for c in text):
        return text
    return "".join(c if ord(c) < 0x10000 else
                   chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + ((ord(c) - 0x10000) & 0x3FF))
                   for c in text)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def from_utf16_units(units: str) -> str:
    """Code units back to text: surrogate pairs joined, a lone surrogate as '?' (as Flink writes it out)."""
    if all(ord(c) < 0xD800 or ord(c) > 0xDFFF for c in units):
        return units
    joined = units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _LONE_SURROGATE.sub("?", joined)


def java_string_order(text: str) -> bytes:
    """A key ordering texts as Java's String.compareTo does (by UTF-16 code unit)."""
    return text.encode("utf-16-be", "surrogatepass")


# Java's regular expressions on Python's re -----------------------------------------------------------
_POSIX = {"Lower": "a-z", "Upper": "A-Z", "ASCII": "\\x00-\\x7f", "Alpha": "a-zA-Z", "Digit": "0-9",
          "Alnum": "a-zA-Z0-9", "Punct": "!-/:-@\\[-`{-~", "Graph": "!-~", "Print": " -~", "Blank": " \\t",
          "Cntrl": "\\x00-\\x1f\\x7f", "XDigit": "0-9a-fA-F", "Space": " \\t\\n\\x0b\\f\\r"}
# Java's '.' matches any character but a line terminator
_JAVA_DOT = "[^\\n\\r\\x85\\u2028\\u2029]"


def _java_to_python(pattern: str) -> str:
    """Java's regex syntax as Python's: \\Q...\\E quoting, \\p{Alpha}-style POSIX classes, (?<name>...) groups
    and \\k<name>, \\z / \\Z, and Java's '.' that stops at any line terminator. Anything else is the same in
    both, or fails to compile (the caller's NULL, as Flink's for a bad regex)."""
    dotall = re.search(r"\(\?[a-zA-Z]*s", pattern) is not None
    out, i, in_class = [], 0, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt == "Q":
                end = pattern.find("\\E", i + 2)
                literal = pattern[i + 2:] if end < 0 else pattern[i + 2:end]
                out.append(re.escape(literal))
                i = len(pattern) if end < 0 else end + 2
                continue
            if nxt in "pP" and pattern[i + 2:i + 3] == "{":
                end = pattern.find("}", i + 3)
                name = pattern[i + 3:end] if end > 0 else ""
                name = name[2:] if name.startswith("Is") and name[2:] in _POSIX else name
                if name not in _POSIX or (nxt == "P" and in_class):
                    raise re.error("unsupported property \\%s{%s}" % (nxt, name))
                members = _POSIX[name]
                out.append(members if in_class else "[%s%s]" % ("^" if nxt == "P" else "", members))
                i = end + 1
                continue
            if nxt == "k" and pattern[i + 2:i + 3] == "<":
                end = pattern.find(">", i + 3)
                out.append("(?P=%s)" % pattern[i + 3:end])
                i = end + 1
                continue
            if nxt == "z" and not in_class:
                out.append("\\Z")
            elif nxt == "Z" and not in_class:
                out.append("(?=[\\n\\r\\x85\\u2028\\u2029]?\\Z)")
            else:
                out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            if c == "[":                  # a class in a class is a union in Java: its members join the outer one
                if pattern[i + 1:i + 2] == "^":
                    raise re.error("negated nested character class")
                in_class += 1
                i += 1
                continue
            if c == "&" and pattern.startswith("&&", i):
                raise re.error("character class intersection")
            if c == "]":
                in_class -= 1
                if in_class:
                    i += 1
                    continue
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = 1
            out.append(c)
            i += 1
            if pattern[i:i + 1] == "^":
                out.append("^")
                i += 1
            if pattern[i:i + 1] == "]":                   # a leading ']' is a member in Java and in Python
                out.append("\\]")
                i += 1
            continue
        if c == "(" and pattern.startswith("(?<", i) and pattern[i + 3:i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
            continue
        if c == "." and not dotall:
            out.append(_JAVA_DOT)
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=256)
def java_regex(pattern: str):
    """``pattern`` (Java's syntax) compiled for Python's re, with Java's defaults: \\w, \\d, \\s, \\b and
    case-insensitive matching ASCII only. Raises re.error for a pattern it cannot follow."""
    return re.compile(_java_to_python(pattern), re.ASCII)


def _compiled_or_none(pattern: str):
    try:
        return java_regex(pattern)
    except (re.error, ValueError, OverflowError, RecursionError):
        return None


def regexp_extract(text: str, pattern: str, group: int = 0):
    """The ``group``-th group (0: the whole match) of the first match; NULL when none matches, the group did
    not take part in it, the group is not in the pattern or the pattern is not a valid one."""
    regex = _compiled_or_none(pattern)
    if regex is None or group < 0 or group > regex.groups:
        return None
    found = regex.search(text)
    return None if found is None else found.group(group)


def regexp_replace(text: str, pattern: str, replacement: str):
    """Every match replaced by ``replacement`` taken literally (Flink 2.3 gives $1 and backslashes no meaning);
    NULL for a pattern that is not a valid one."""
    regex = _compiled_or_none(pattern)
    if regex is None:
        return None
    return regex.sub(lambda found: replacement, text)


def regexp(text: str, pattern: str) -> bool:
    """Whether the pattern matches anywhere in the text; FALSE for an empty or invalid pattern, as Flink's."""
    if pattern == "":
        return False
    regex = _compiled_or_none(pattern)
    return regex is not None and regex.search(text) is not None


# padding, case, hashes, encodings ----------------------------------------------------------------------
def pad(text: str, length: int, filler: str, left: bool):
    """LPAD / RPAD: ``text`` padded with ``filler`` repeated (on the left or the right) or cut to ``length``
    Java characters; NULL for a negative length or an empty filler."""
    if length < 0 or filler == "":
        return None
    units = utf16_units(text)
    if length <= len(units):
        return from_utf16_units(units[:length])
    filler = utf16_units(filler)
    missing = length - len(units)
    padding = (filler * (missing // len(filler) + 1))[:missing]
    return from_utf16_units(padding + units if left else units + padding)


def _ascii_alphanumeric(c: str) -> bool:
    return "a" <= c <= "z" or "A" <= c <= "Z" or "0" <= c <= "9"


def initcap(text: str) -> str:
    """Each word's first letter upper case, its other letters lower case; a word is a run of ASCII letters
    and digits (any other character, a non-ASCII letter too, separates words and is kept as it is)."""
    out, word_start = [], True
    for c in text:
        if _ascii_alphanumeric(c):
            out.append(c.upper() if word_start else c.lower())
            word_start = False
        else:
            out.append(c)
            word_start = True
    return "".join(out)


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def digest(text: str, algorithm: str) -> str:
    return hashlib.new(algorithm, _utf8(text)).hexdigest()


_SHA2_BITS = {224: "sha224", 256: "sha256", 384: "sha384", 512: "sha512"}


def sha2(text: str, bits: int) -> str:
    if bits not in _SHA2_BITS:
        raise ValueError("Unsupported algorithm.")
    return digest(text, _SHA2_BITS[bits])


def to_base64(text: str) -> str:
    return base64.b64encode(_utf8(text)).decode("ascii")


_BASE64 = re.compile("[A-Za-z0-9+/]*")


def from_base64(text: str) -> str:
    """Java's Base64 decoder: the padding may be left out, but no other character (nor a line break) is
    allowed; the bytes read as UTF-8, a malformed sequence as U+FFFD."""
    body = text.rstrip("=")
    padding = len(text) - len(body)
    if not _BASE64.fullmatch(body):
        bad = next(c for c in body if not (c.isascii() and (c.isalnum() or c in "+/")))
        raise ValueError("Illegal base64 character %x" % ord(bad))
    if len(body) % 4 == 1 or padding > 2 or (padding and (len(body) + padding) % 4):
        raise ValueError("Last unit does not have enough valid bits" if len(body) % 4 == 1 else
                         "Input byte array has wrong 4-byte ending unit")
    data = base64.b64decode(body + "=" * (-len(body) % 4))
    return data.decode("utf-8", "replace")


def ascii_code(text: str) -> int:
    """ASCII: the first UTF-8 byte of the text as a (signed) Java byte; 0 for an empty text."""
    data = _utf8(text[:1])
    if not data:
        return 0
    return data[0] - 256 if data[0] >= 128 else data[0]


def chr_of(code: int) -> str:
    """CHR: the character of ``code`` modulo 256 (Latin-1); '' for a negative code."""
    return "" if code < 0 else chr(code % 256)


def hex_of(value) -> str:
    """HEX: a text's UTF-8 bytes, an integer as Java's Long.toHexString (negative ones in 64-bit two's
    complement), upper case."""
    if isinstance(value, str):
        return _utf8(value).hex().upper()
    return "%X" % (value & 0xFFFFFFFFFFFFFFFF)


def position(text: str, part: str, start: int = 1) -> int:
    """POSITION / LOCATE: the 1-based position of ``part`` in ``text`` from ``start`` (below 1: 1), 0 when it is
    not there; an empty ``part`` is at 1, whatever the start."""
    if part == "":
        return 1
    return text.find(part, max(start, 1) - 1) + 1


def instr(text: str, part: str, start: int = 1, occurrence: int = 1) -> int:
    """INSTR: the 1-based position of the ``occurrence``-th ``part`` in ``text``, searched forward from
    ``start`` or, for a negative ``start``, backward from that position counted from the end (a match ending
    there at the latest); 0 when there is none or ``start`` is 0. An empty ``part`` is at 1 (forward) or
    after the end (backward)."""
    if occurrence <= 0:
        raise ValueError("The occurrence %d must be positive" % occurrence)
    if start == 0:
        return 0
    if part == "":
        return 1 if start > 0 else len(text) + 1
    if start > 0:
        found = start - 2
        for _ in range(occurrence):
            found = text.find(part, found + 1)
            if found < 0:
                return 0
        return found + 1
    limit = len(text) + start + 1              # the match ends at this (1-based) position at the latest
    for _ in range(occurrence):
        found = text.rfind(part, 0, limit) if limit > 0 else -1
        if found < 0:
            return 0
        limit = found - 1 + len(part)          # the next one starts before this one
    return found + 1


def overlay(text: str, placed: str, start: int, length=None) -> str:
    """OVERLAY(text PLACING placed FROM start [FOR length]) in Java characters: ``length`` of them (by default
    as many as ``placed`` has) from ``start`` replaced by ``placed``; a ``start`` outside the text leaves it as
    it is, a ``length`` below 1 drops the rest of the text, as Flink's."""
    units, placed_units = utf16_units(text), utf16_units(placed)
    if start < 1 or start > len(units):
        return text
    if length is None:
        length = len(placed_units)
    rest = units[start - 1 + length:] if length > 0 else ""
    return from_utf16_units(units[:start - 1] + placed_units + rest)


def translate(text: str, source, target) -> str:
    """TRANSLATE(text, from, to): each character of ``from`` replaced by the one at its place in ``to`` (the
    first place when it is there twice), removed when ``to`` is shorter; a NULL ``from`` changes nothing, a
    NULL ``to`` removes."""
    if source is None or source == "":
        return text
    target = target or ""
    mapping = {}
    for index, c in enumerate(source):
        mapping.setdefault(ord(c), target[index] if index < len(target) else None)
    return text.translate(mapping)


def btrim(text: str, characters: str = " ") -> str:
    return text.strip(characters) if characters else text


# Java's Character.isWhitespace: the space separators but the no-break ones, and the ASCII controls it names
_JAVA_WHITESPACE = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                             "\u2008\u2009\u200a\u2028\u2029\u205f\u3000")


def split_index(text: str, separator, index: int):
    """SPLIT_INDEX(text, separator, index): the index-th (from 0) piece of the text split at each
    ``separator`` (keeping empty pieces; a number is a character's code point, an empty text splits at each
    whitespace character); NULL for an empty text and beyond the last piece."""
    if index < 0 or text == "":
        return None
    if isinstance(separator, int):
        separator = chr(separator)
    if separator == "":
        pieces, current = [], []
        for c in text:
            if c in _JAVA_WHITESPACE:
                pieces.append("".join(current))
                current = []
            else:
                current.append(c)
        pieces.append("".join(current))
    else:
        pieces = text.split(separator)
    return pieces[index] if index < len(pieces) else None


_URL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-*_")


def url_encode(text: str) -> str:
    """Java's URLEncoder with UTF-8: letters, digits and . - * _ as they are, a space as '+', any other
    character as %XX of its UTF-8 bytes."""
    out = []
    for c in text:
        if c in _URL_SAFE:
            out.append(c)
        elif c == " ":
            out.append("+")
        else:
            data = b"?" if 0xD800 <= ord(c) <= 0xDFFF else c.encode("utf-8")     # a lone surrogate: '?'
            out.append("".join("%%%02X" % byte for byte in data))
    return "".join(out)


def url_decode(text: str):
    """Java's URLDecoder with UTF-8 ('+' a space, runs of %XX as UTF-8 bytes, malformed ones U+FFFD); NULL for
    an incomplete or invalid escape, as Flink's."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "%":
            data = bytearray()
            while i < len(text) and text[i] == "%":
                digits = text[i + 1:i + 3]
                if len(digits) < 2 or not all(d in "0123456789abcdefABCDEF" for d in digits):
                    return None
                data.append(int(digits, 16))
                i += 3
            out.append(data.decode("utf-8", "replace"))
            continue
        out.append(" " if c == "+" else c)
        i += 1
    return "".join(out)


# Java's hashCode ----------------------------------------------------------------------------------------
def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def java_string_hash(text: str) -> int:
    h = 0
    data = text.encode("utf-16-be", "surrogatepass")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return _int32(h)


def _long_hash(value: int) -> int:
    value &= 0xFFFFFFFFFFFFFFFF
    return _int32(value ^ (value >> 32))


def _big_integer_hash(value: int) -> int:
    magnitude, h = abs(value), 0
    words = []
    while magnitude:
        words.append(magnitude & 0xFFFFFFFF)
        magnitude >>= 32
    for word in reversed(words):
        h = (31 * h + word) & 0xFFFFFFFF
    return _int32(h * (1 if value > 0 else -1 if value < 0 else 0))


def java_hash_code(value, value_type: SqlType) -> int:
    """HASH_CODE: the value's Java hashCode (String, Integer, Long, Boolean, Double, Float, BigDecimal of the
    DECIMAL's scale)."""
    import struct
    name = value_type.name
    if name == _TEXT:
        return java_string_hash(value)
    if name == "BOOLEAN":
        return 1231 if value else 1237
    if name in ("TINYINT", "SMALLINT", "INT"):
        return value
    if name == "BIGINT":
        return _long_hash(value)
    if name == "DOUBLE":
        bits = 0x7FF8000000000000 if value != value else struct.unpack(">q", struct.pack(">d", value))[0]
        return _long_hash(bits)
    if name == "FLOAT":
        return 0x7FC00000 if value != value else struct.unpack(">i", struct.pack(">f", value))[0]
    if name == "DECIMAL":
        scale = value_type.scale
        unscaled = int(value.scaleb(scale))
        return _int32(31 * _big_integer_hash(unscaled) + scale)
    raise UnsupportedFeatureError("HASH_CODE of a %s" % value_type.text(), SECTION)


# the compiler's handlers -------------------------------------------------------------------------------
def _nullable(*types: SqlType) -> bool:
    return any(t.nullable for t in types)




def _name_length(node) -> int:
    """The length of the name a function was called by, from the positions sqlglot keeps of its name's token
    (None when it kept none, as for POSITION(a IN b))."""
    meta = node.meta or {}
    if "start" in meta and "end" in meta:
        return meta["end"] - meta["start"] + 1
    return None


def _offset(node) -> int:
    """Where an argument starts in the SQL text, as far as sqlglot kept it (-1 when it did not)."""
    for each in node.walk():
        meta = each.meta or {}
        if "start" in meta:
            return meta["start"]
    return -1


def _calcite_name(t: SqlType) -> str:
    if t.name == _TEXT:
        return "CHAR" if t.fixed_length else "VARCHAR"
    return {"INT": "INTEGER"}.get(t.name, t.name)


class StringFunctions:
    """The compiler's handlers of Flink's string functions (mixed into ``expressions.Compiler``, whose
    ``compile`` gives each argument's (function, type))."""

    def _arguments(self, *nodes):
        return [self.compile(node) for node in nodes if node is not None]

    def _string_function(self, function, nodes, result: SqlType, nullable=None):
        """A function of the arguments' values, NULL when any is NULL; nullable as any argument is unless
        ``nullable`` says."""
        compiled = self._arguments(*nodes)
        if nullable is None:
            nullable = _nullable(*(t for _, t in compiled))
        return _null_safe(function, *(f for f, _ in compiled)), attrs.evolve(result, nullable=nullable)

    def _wrong_arguments(self, name: str, node, expected: str):
        from pyflink_compat.table.sql.expressions import validation_error
        return validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Invalid number "
                                "of arguments to function '%s'. Was expecting %s arguments"
                                % (len(node.sql()) if isinstance(node, exp.Expr) else 1, name, expected))

    def _no_match(self, node, name: str):
        from pyflink_compat.table.sql.expressions import validation_error
        return validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: No match found "
                                "for function signature %s(<ANY>)" % (len(node.sql()), name))

    def _levenshtein(self, node):             # functions sqlglot knows and Flink 2.3 has not
        raise self._no_match(node, "LEVENSHTEIN")

    def _soundex(self, node):
        raise self._no_match(node, "SOUNDEX")

    # regular expressions
    def _regexpextract(self, node):
        group = node.args.get("group") or node.args.get("position")
        nodes = [node.this, node.expression] + ([group] if group is not None else [])
        return self._string_function(regexp_extract, nodes, SqlType(_TEXT), nullable=True)

    def _regexpreplace(self, node):
        if node.args.get("replacement") is None:
            raise self._wrong_arguments("REGEXP_REPLACE", node, "3")
        return self._string_function(regexp_replace, [node.this, node.expression, node.args["replacement"]],
                                     SqlType(_TEXT))

    def _function_regexp(self, arguments):
        if len(arguments) != 2:
            raise self._wrong_arguments("REGEXP", None, "2")
        return self._string_function(regexp, arguments, SqlType("BOOLEAN"))

    # padding, case, reversal, repetition
    def _pad(self, node):
        if node.args.get("fill_pattern") is None:
            raise self._wrong_arguments("LPAD" if node.args.get("is_left") else "RPAD", node, "3")
        left = bool(node.args.get("is_left"))
        return self._string_function(lambda text, length, filler: pad(text, length, filler, left),
                                     [node.this, node.expression, node.args["fill_pattern"]], SqlType(_TEXT))

    def _initcap(self, node):
        operand, operand_type = self.compile(node.this)       # INITCAP keeps a CHAR(n) / VARCHAR(n)
        result = operand_type if operand_type.name == _TEXT else SqlType(_TEXT, nullable=operand_type.nullable)
        return _null_safe(initcap, operand), result

    def _reverse(self, node):
        return self._string_function(lambda text: text[::-1], [node.this], SqlType(_TEXT), nullable=True)

    def _repeat(self, node):
        return self._string_function(lambda text, times: text * max(times, 0), [node.this, node.args["times"]],
                                     SqlType(_TEXT))

    # hashes and encodings
    def _digest(self, node, algorithm: str, digits: int):
        return self._string_function(lambda text: digest(text, algorithm), [node],
                                     SqlType(_TEXT, length=digits, fixed_length=True))

    def _md5(self, node):
        return self._digest(node.this, "md5", 32)

    def _sha(self, node):
        return self._digest(node.this, "sha1", 40)

    def _function_sha1(self, arguments):
        return self._digest(arguments[0], "sha1", 40)

    def _function_sha224(self, arguments):
        return self._digest(arguments[0], "sha224", 56)

    def _function_sha256(self, arguments):
        return self._digest(arguments[0], "sha256", 64)

    def _function_sha384(self, arguments):
        return self._digest(arguments[0], "sha384", 96)

    def _function_sha512(self, arguments):
        return self._digest(arguments[0], "sha512", 128)

    def _sha2(self, node):
        bits = node.args.get("length")
        if bits is None:
            raise self._wrong_arguments("SHA2", node, "2")
        if isinstance(bits, exp.Literal) and not bits.is_string and int(bits.this) not in _SHA2_BITS:
            raise JavaStyleError("java.lang.RuntimeException", "Unsupported algorithm.", "executeSql")
        return self._string_function(sha2, [node.this, bits], SqlType(_TEXT, length=128))

    def _tobase64(self, node):
        return self._string_function(to_base64, [node.this], SqlType(_TEXT))

    def _frombase64(self, node):
        return self._string_function(from_base64, [node.this], SqlType(_TEXT))

    def _function_url_encode(self, arguments):
        return self._string_function(url_encode, arguments, SqlType(_TEXT), nullable=True)

    def _function_url_decode(self, arguments):
        return self._string_function(url_decode, arguments, SqlType(_TEXT), nullable=True)

    def _ascii(self, node):
        return self._string_function(ascii_code, [node.this], SqlType("INT"))

    def _chr(self, node):
        if len(node.expressions) != 1:
            raise self._wrong_arguments("CHR", node, "1")
        return self._string_function(chr_of, node.expressions, SqlType(_TEXT), nullable=True)

    def _hex(self, node):
        if _name_length(node) == len("TO_HEX"):
            raise self._no_match(node, "TO_HEX")
        operand, operand_type = self.compile(node.this)
        if operand_type.name not in _INTEGERS + (_TEXT, "NULL"):
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Cannot "
                                   "apply 'HEX' to arguments of type 'HEX(<%s>)'. Supported form(s): "
                                   "'HEX(<INTEGER>)'\n'HEX(<CHARACTER>)'" % (len(node.sql()), operand_type.text()))
        return _null_safe(hex_of, operand), SqlType(_TEXT, nullable=operand_type.nullable)

    # searching
    def _strposition(self, node):
        """POSITION(part IN text), LOCATE(part, text [, start]) and INSTR(text, part [, start [, occurrence]])
        (sqlglot reads all three as StrPosition; INSTR, whose start counts backward when negative, is told from
        LOCATE by the length of the function's name, which sqlglot keeps in the node's positions)."""
        start, occurrence = node.args.get("position"), node.args.get("occurrence")
        name_length = _name_length(node)
        if name_length in (len("CHARINDEX"), len("STR_POSITION")):         # sqlglot's, not Flink's
            raise self._no_match(node, "CHARINDEX" if name_length == len("CHARINDEX") else "STR_POSITION")
        if name_length == len("STRPOS") and _offset(node.this) < _offset(node.args["substr"]):
            raise self._no_match(node, "STRPOS")        # STRPOS(text, part), not LOCATE(part, text)
        is_instr = occurrence is not None or name_length == len("INSTR")
        nodes = [node.this, node.args["substr"]] + [each for each in (start, occurrence) if each is not None]
        return self._string_function(instr if is_instr else position, nodes, SqlType("INT"))

    def _startswith(self, node):
        return self._string_function(lambda text, part: text.startswith(part), [node.this, node.expression],
                                     SqlType("BOOLEAN"))

    def _endswith(self, node):
        return self._string_function(lambda text, part: text.endswith(part), [node.this, node.expression],
                                     SqlType("BOOLEAN"))

    # rewriting
    def _overlay(self, node):
        nodes = [node.this, node.expression, node.args["from_"], node.args.get("for_")]
        compiled = self._arguments(*nodes)
        (_, text_type), (_, placed_type) = compiled[:2]
        nullable = _nullable(*(t for _, t in compiled))
        if text_type.length is not None and placed_type.length is not None:     # VARCHAR(n + m)
            result = SqlType(_TEXT, nullable=nullable, length=text_type.length + placed_type.length)
        else:
            result = SqlType(_TEXT, nullable=nullable)
        return _null_safe(overlay, *(f for f, _ in compiled)), result

    def _translate(self, node):
        (text, text_type), (source, _), (target, _) = self._arguments(node.this, node.args["from_"],
                                                                        node.args["to"])

        def translated(values):
            value = text(values)
            return None if value is None else translate(value, source(values), target(values))
        return translated, SqlType(_TEXT, nullable=text_type.nullable)

    def _function_translate3(self, arguments):
        if len(arguments) != 3:
            raise self._wrong_arguments("TRANSLATE3", None, "3")
        return self._translate(exp.Translate(this=arguments[0], from_=arguments[1], to=arguments[2]))

    def _function_btrim(self, arguments):
        if len(arguments) not in (1, 2):
            raise self._wrong_arguments("BTRIM", None, "1 or 2")
        return self._string_function(btrim, arguments, SqlType(_TEXT))

    def _function_split_index(self, arguments):
        """(Compiler's own SPLIT_INDEX comes first while it has one; this is Flink's: a code point as the
        separator, an empty separator splitting at whitespace.)"""
        if len(arguments) != 3:
            raise self._wrong_arguments("SPLIT_INDEX", None, "3")
        return self._string_function(split_index, arguments, SqlType(_TEXT), nullable=True)

    # general functions
    def _nullif(self, node):
        (first, first_type), (second, second_type) = self._arguments(node.this, node.expression)
        kinds = {"number" if t.name in _NUMBERS else t.name for t in (first_type, second_type) if t.name != "NULL"}
        if len(kinds) > 1:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("implicit type conversion between %s and %s is not supported now"
                                   % (_calcite_name(first_type), _calcite_name(second_type)))

        def unless_equal(values):
            value = first(values)
            if value is None:
                return None
            other = second(values)
            return None if other is not None and other == value else value
        return unless_equal, attrs.evolve(first_type, nullable=True)

    def _extreme(self, node, name: str, pick):
        from pyflink_compat.table.sql.expressions import as_common, common_type
        nodes = [node.this] + list(node.expressions)
        compiled = self._arguments(*nodes)
        types = [t for _, t in compiled]
        message = "SQL validation failed. Invalid function call:\n%s(%s)" % (name, ", ".join(t.text() for t in types))
        result = common_type(types, message)
        names = {t.name for t in types}
        if result.name == "DOUBLE" and "DOUBLE" not in names:      # FLOAT with exact numbers stays a FLOAT here
            result = SqlType("FLOAT")
        result = attrs.evolve(result, nullable=_nullable(*types))
        parts = [as_common(each, result) for each in compiled]
        key = java_string_order if result.name == _TEXT else None

        def chosen(values):
            found = [part(values) for part in parts]
            if any(value is None for value in found):
                return None
            return pick(found, key=key)
        return chosen, result

    def _greatest(self, node):
        return self._extreme(node, "GREATEST", max)

    def _least(self, node):
        return self._extreme(node, "LEAST", min)

    def _uuid(self, node):
        return (lambda values: str(uuid.uuid4())), SqlType(_TEXT, nullable=False, length=36, fixed_length=True)

    def _function_uuid(self, arguments):
        return self._uuid(None)

    def _function_hash_code(self, arguments):
        if len(arguments) != 1:
            raise self._wrong_arguments("HASH_CODE", None, "1")
        operand, operand_type = self.compile(arguments[0])
        if operand_type.name not in _NUMBERS + (_TEXT, "BOOLEAN"):
            raise UnsupportedFeatureError("HASH_CODE of a %s" % operand_type.text(), SECTION)
        return _null_safe(lambda value: java_hash_code(value, operand_type), operand), \
            SqlType("INT", nullable=operand_type.nullable)

"""Flink SQL's string functions (and NULLIF, GREATEST, LEAST, UUID, HASH_CODE) with Flink 2.3's result types and
results: Java's regular expressions (as far as Python's ``re`` can follow them), Java's UTF-16 indexing where
Flink works on Java strings (LPAD, RPAD, OVERLAY: a supplementary character is two characters there) and
code-point indexing where it works on its own string data (POSITION, LOCATE, CHAR_LENGTH), Java's hash codes,
URLEncoder / URLDecoder and Base64 decoder.

``StringFunctions`` holds the compiler's handlers (``_<sqlglot node>`` and ``_function_<name>``); the rest are
pure helpers of the values."""
import base64
import datetime
import decimal
import functools
import hashlib
import math
import re
import struct
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


def regexp_count(text: str, pattern: str):
    """How many times the pattern matches in the text (an empty match counts, after a match too, as Java's
    Matcher.find goes on); NULL for a pattern that is not a valid one."""
    regex = _compiled_or_none(pattern)
    if regex is None:
        return None
    return sum(1 for _ in regex.finditer(text))


def regexp_instr(text: str, pattern: str):
    """The 1-based position (in Java characters) where the first match starts, 0 when none does; NULL for a
    pattern that is not a valid one."""
    regex = _compiled_or_none(pattern)
    if regex is None:
        return None
    found = regex.search(text)
    return 0 if found is None else len(utf16_units(text[:found.start()])) + 1


def regexp_substr(text: str, pattern: str):
    """The first match; NULL when none matches or the pattern is not a valid one."""
    regex = _compiled_or_none(pattern)
    if regex is None:
        return None
    found = regex.search(text)
    return None if found is None else found.group(0)


def regexp_extract_all(text: str, pattern: str, group: int = 1):
    """The ``group``-th group (by default the first; 0: the whole match) of every match, NULL for a group that
    did not take part in one; NULL when the group is not in the pattern or the pattern is not a valid one."""
    regex = _compiled_or_none(pattern)
    if regex is None or group < 0 or group > regex.groups:
        return None
    return [found.group(group) for found in regex.finditer(text)]


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


def bin_of(value: int) -> str:
    """BIN: the integer in binary as Java's Long.toBinaryString (negative ones in 64-bit two's complement)."""
    return format(value & 0xFFFFFFFFFFFFFFFF, "b")


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


def java_hash_map_order(keys, initial_capacity: int) -> list:
    """The distinct ``keys`` (given in insertion order) as a Java HashMap(initial_capacity) of Strings iterates
    them: by bucket (the String hash code, its high half folded into the low one, modulo the table's size: the
    power of two the capacity rounds up to, doubled whenever the map grows beyond three quarters of it), a bucket's
    keys in insertion order."""
    distinct = list(dict.fromkeys(keys))
    size = 1
    while size < initial_capacity:
        size *= 2
    threshold, count = int(size * 0.75), 0
    for _ in distinct:
        count += 1
        if count > threshold:
            size *= 2
            threshold = int(size * 0.75)

    def bucket(key):
        h = java_string_hash(key) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (size - 1)
    order = {key: position for position, key in enumerate(distinct)}
    return sorted(distinct, key=lambda key: (bucket(key), order[key]))


def unhex(text: str):
    """UNHEX: the bytes of a text of hex digits (either case); NULL for any other character. A text of an odd
    length gives a zero byte first, its first digit only checked, as Flink 2.3's does ('123' is 00 23)."""
    if any(c not in "0123456789abcdefABCDEF" for c in text):
        return None
    if len(text) % 2:
        return b"\0" + bytes.fromhex(text[1:])
    return bytes.fromhex(text)


def java_split(text: str, regex, limit: int = 0) -> list:
    """Java's String.split(regex, limit) with a compiled regex: no leading empty piece for an empty match at the
    start; at most ``limit`` pieces when it is positive, else the trailing empty pieces dropped; the text itself
    when nothing matches."""
    pieces, index = [], 0
    for found in regex.finditer(text):
        if 0 < limit <= len(pieces) + 1:
            break
        if index == 0 and found.start() == 0 and found.end() == 0:
            continue
        pieces.append(text[index:found.start()])
        index = found.end()
    if not pieces:
        return [text]
    pieces.append(text[index:])
    if limit == 0:
        while pieces and pieces[-1] == "":
            pieces.pop()
    return pieces


def str_to_map(text: str, entry_delimiter: str = ",", key_value_delimiter: str = "="):
    """STR_TO_MAP: the text split into entries at the entry delimiter, each into key and value at the first
    key-value delimiter (both Java regexes; an entry without one has a NULL value; a later entry of a key
    replaces its value); {} for an empty text. The entries come in Flink's HashMap order (sized by the number of
    entries); a delimiter Java cannot compile fails the job with Java's PatternSyntaxException."""
    from pyflink_compat.table.sql.similar_to import java_compiled
    if text == "":
        return {}
    entries = java_split(text, java_compiled(entry_delimiter))
    mapping = {}
    for entry in entries:
        key_value = java_split(entry, java_compiled(key_value_delimiter), 2)
        mapping[key_value[0]] = key_value[1] if len(key_value) > 1 else None
    return {key: mapping[key] for key in java_hash_map_order(list(mapping), len(entries))}


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


# Java's Formatter (PRINTF) -------------------------------------------------------------------------------
class IllegalFormat(ValueError):
    """Java's IllegalFormatException (a bad specifier, a missing argument, an argument of the wrong kind): the
    NULL PRINTF gives."""


_SPECIFIER = re.compile(r"%(\d+\$)?([-#+ 0,(<]*)(\d+)?(\.\d+)?([tT])?([a-zA-Z%])")
_DATE_TIME_CONVERSIONS = frozenset("HIklMSLNpzZsQBbhAaCYyjmdeRTrDFc")
_FLOAT_KINDS = ("FLOAT", "DOUBLE")
_INTEGER_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "DATE": 32, "BIGINT": 64}
_WIDE = decimal.Context(prec=1000, rounding=decimal.ROUND_HALF_UP, Emax=999999, Emin=-999999)


@attrs.frozen
class _Specifier:
    index: object            # 1-based explicit index, "<" (the previous argument) or None (the next one)
    flags: str
    width: object
    precision: object
    conversion: str          # 'd', 'x', ... ('t' + the date/time conversion for %t)


def _checked_specifier(found) -> _Specifier:
    """A specifier as Java's Formatter reads it, with its checks of the flags, width and precision."""
    index, flags, width, precision, time, conversion = found.groups()
    if len(set(flags)) != len(flags):
        raise IllegalFormat("DuplicateFormatFlagsException")
    if index is not None:
        index = int(index[:-1])
        if index == 0:
            raise IllegalFormat("IllegalFormatArgumentIndexException")
    if "<" in flags:
        index, flags = "<", flags.replace("<", "")
    width = None if width is None else int(width)
    precision = None if precision is None else int(precision[1:])

    def refuse(bad: str):
        if any(flag in flags for flag in bad):
            raise IllegalFormat("FormatFlagsConversionMismatchException")
    if time:
        if conversion not in _DATE_TIME_CONVERSIONS or precision is not None:
            raise IllegalFormat("UnknownFormatConversionException")
        refuse("#+ 0,(")
        conversion = "t" + conversion
    elif conversion in "%n":
        if precision is not None or (conversion == "n" and (width is not None or flags)) or \
                (conversion == "%" and flags not in ("", "-")):
            raise IllegalFormat("IllegalFormatException")
    elif conversion in "bBhHsScCdoxXeEfgGaA":
        numeric = conversion in "doxXeEfgGaA"
        if numeric and ("+" in flags and " " in flags or "-" in flags and "0" in flags):
            raise IllegalFormat("IllegalFormatFlagsException")
        if conversion in "bBhHsS":
            refuse("+ 0,(" + ("#" if conversion in "bBhH" else ""))
        elif conversion in "cC":
            refuse("#+ 0,(")
        elif conversion == "d":
            refuse("#")
        elif conversion in "oxX":
            refuse(",")
        elif conversion in "eE":
            refuse(",")
        elif conversion in "gG":
            refuse("#")
        elif conversion in "aA":
            refuse("(,")
        if precision is not None and conversion in "cCdoxX":
            raise IllegalFormat("IllegalFormatPrecisionException")
    else:
        raise IllegalFormat("UnknownFormatConversionException")
    if width is None and ("-" in flags or "0" in flags):
        raise IllegalFormat("MissingFormatWidthException")
    return _Specifier(index, flags, width, precision, conversion)


def _justified(text: str, spec: _Specifier) -> str:
    """Spaces before (after, for '-') the text up to the width, in Java characters."""
    missing = (spec.width or 0) - len(utf16_units(text))
    if missing <= 0:
        return text
    return text + " " * missing if "-" in spec.flags else " " * missing + text


def _general(text: str, spec: _Specifier) -> str:
    """%s and the like: the text cut to the precision (in Java characters), upper case for %S, justified."""
    if spec.precision is not None:
        text = from_utf16_units(utf16_units(text)[:spec.precision])
    if spec.conversion.isupper():
        text = text.upper()
    return _justified(text, spec)


def _signs(negative: bool, flags: str):
    if negative:
        return ("(", ")") if "(" in flags else ("-", "")
    return ("+" if "+" in flags else " " if " " in flags else ""), ""


def _magnitude(lead: str, digits: str, flags: str, width) -> str:
    """The digits after the sign: grouped by thousands for ',', zero-padded up to the width for '0'."""
    whole, point, fraction = digits.partition(".")
    if "," in flags:
        whole = "{:,}".format(int(whole))
    body = whole + point + fraction
    if width is not None and "0" in flags:
        body = body.rjust(width - len(lead), "0")
    return lead + body


def _rounded(value: decimal.Decimal, places: int) -> decimal.Decimal:
    return value.quantize(decimal.Decimal(1).scaleb(-places), rounding=decimal.ROUND_HALF_UP, context=_WIDE)


def _scientific(value: decimal.Decimal, places: int):
    """The mantissa's digits and the exponent ('+04') of a non-negative value."""
    if value == 0:
        return format(_rounded(value, places), "f"), "+00"
    exponent = value.adjusted()
    mantissa = _rounded(value.scaleb(-exponent, context=_WIDE), places)
    if mantissa >= 10:
        exponent += 1
        mantissa = _rounded(mantissa.scaleb(-1, context=_WIDE), places)
    return format(mantissa, "f"), "%s%02d" % ("-" if exponent < 0 else "+", abs(exponent))


def _java_hex_double(value: float) -> str:
    """Java's Double.toHexString of a non-negative finite double, without its '0x'."""
    bits = struct.unpack(">Q", struct.pack(">d", value))[0]
    exponent, fraction = bits >> 52, bits & ((1 << 52) - 1)
    if value == 0:
        return "0.0p0"
    digits = ("%013x" % fraction).rstrip("0") or "0"
    return "0.%sp-1022" % digits if exponent == 0 else "1.%sp%d" % (digits, exponent - 1023)


def _floating(value: float, spec: _Specifier) -> str:
    """%e, %f, %g and %a of a double: its shortest decimal digits rounded half up, as Java's Formatter does."""
    upper, flags, conversion = spec.conversion.isupper(), spec.flags, spec.conversion.lower()
    if math.isnan(value):
        return _justified("NAN" if upper else "NaN", spec)
    negative = math.copysign(1.0, value) < 0
    lead, trail = _signs(negative, flags)
    width = spec.width
    narrower = 1 if negative and "(" in flags else 0          # the closing parenthesis takes a place
    if math.isinf(value):
        return _justified(lead + ("INFINITY" if upper else "Infinity") + trail, spec)
    if conversion == "a":
        if spec.precision is not None:
            raise UnsupportedFeatureError("PRINTF's %a with a precision", SECTION)
        text = _java_hex_double(abs(value))
        mantissa, _, exponent = text.partition("p")
        if "0" in flags:
            mantissa = mantissa.rjust(width - len(lead) - 2 - len(exponent) - 1, "0")
        if upper:
            mantissa = mantissa.upper()
        return _justified(lead + ("0X" if upper else "0x") + mantissa + ("P" if upper else "p") + exponent, spec)
    exact = decimal.Decimal(repr(abs(value)))
    exponent = None
    if conversion == "f":
        places = 6 if spec.precision is None else spec.precision
        digits = format(_rounded(exact, places), "f")
    elif conversion == "e":
        places = 6 if spec.precision is None else spec.precision
        digits, exponent = _scientific(exact, places)
    else:
        significant = 6 if spec.precision is None else max(spec.precision, 1)
        places = significant - 1
        if exact == 0:
            digits = format(_rounded(exact, places), "f")
        else:
            power = exact.adjusted()
            if _rounded(exact.scaleb(-power, context=_WIDE), places) >= 10:
                power += 1
            if -4 <= power < significant:
                places = significant - 1 - power
                digits = format(_rounded(exact, places), "f")
            else:
                digits, exponent = _scientific(exact, places)
    if "#" in flags and places == 0:
        digits += "."
    if exponent is None:
        body = _magnitude(lead, digits, flags, None if width is None else width - narrower)
    else:
        body = _magnitude(lead, digits, flags, None if width is None else width - len(exponent) - 1 - narrower)
        body += ("E" if upper else "e") + exponent
    return _justified(body + trail, spec)


def _integral(value: int, bits: int, spec: _Specifier) -> str:
    """%d, %o, %x of a Java Byte, Short, Integer or Long (%o and %x in two's complement of its width)."""
    flags, conversion = spec.flags, spec.conversion
    if conversion == "d":
        negative = value < 0
        lead, trail = _signs(negative, flags)
        width = None if spec.width is None else spec.width - (1 if negative and "(" in flags else 0)
        return _justified(_magnitude(lead, str(abs(value)), flags, width) + trail, spec)
    if any(flag in flags for flag in "(+ "):
        raise IllegalFormat("FormatFlagsConversionMismatchException")
    digits = format(value & ((1 << bits) - 1), "o" if conversion == "o" else "x")
    prefix = ("0" if conversion == "o" else "0x") if "#" in flags else ""
    if "0" in flags:
        digits = digits.rjust(spec.width - len(prefix), "0")
    text = prefix + digits
    return _justified(text.upper() if conversion == "X" else text, spec)


def _java_object(value, value_type: SqlType):
    """What Flink hands Java's Formatter for a value of the type: a Java Integer (DATE: its days), Long, Short,
    Byte, Boolean, Float or Double, or an object of Flink's own (a string, a decimal, a timestamp) known only
    by its text."""
    name = value_type.name
    if name == "TIMESTAMP":
        from pyflink_compat.table.sql.values import local_date_time_text
        return "object", local_date_time_text(value)
    if name == "TIMESTAMP_LTZ":                 # its TimestampData: the instant's UTC date-time
        from pyflink_compat.table.sql.values import local_date_time_text
        return "object", local_date_time_text(value)
    if name == "DATE":
        return "integer", (value - _EPOCH_DAY).days
    if name in _INTEGER_BITS:
        return "integer", value
    if name == "FLOAT":
        from pyflink_compat.datastream.formats.json import java_float_str
        return "float", value, java_float_str(value)
    if name in ("BOOLEAN", "DOUBLE"):
        return name.lower(), value
    if name == _TEXT:
        return "object", value
    from pyflink_compat.table.sql.expressions import cast_value
    return "object", cast_value(value, SqlType(_TEXT), value_type)


_EPOCH_DAY = datetime.date(1970, 1, 1)


def _formatted(spec: _Specifier, value, value_type: SqlType) -> str:
    conversion = spec.conversion
    if conversion.startswith("t"):
        if value is None:
            return _general("null", spec)
        if value_type.name == "BIGINT":
            raise UnsupportedFeatureError("PRINTF's %t of a BIGINT (milliseconds in the JVM's time zone)", SECTION)
        raise IllegalFormat("IllegalFormatConversionException")
    lowered = conversion.lower()
    if lowered == "b":
        return _general("false" if value is None else "true" if value_type.name != "BOOLEAN" else
                        "true" if value else "false", spec)
    if value is None:
        return _general("null", spec)
    kind = _java_object(value, value_type)
    if lowered == "s":
        if "#" in spec.flags:
            raise IllegalFormat("FormatFlagsConversionMismatchException")
        if kind[0] == "boolean":
            return _general("true" if value else "false", spec)
        if kind[0] == "integer":
            return _general(str(kind[1]), spec)
        if kind[0] == "double":
            from pyflink_compat.table.sql.expressions import cast_value
            return _general(cast_value(value, SqlType(_TEXT), value_type), spec)
        return _general(kind[-1], spec)
    if lowered == "h":
        if kind[0] == "object":
            raise UnsupportedFeatureError("PRINTF's %%h of a %s (the hash code of Flink's own data)"
                                          % value_type.text(), SECTION)
        hashed = kind[1] if kind[0] == "integer" and value_type.name != "BIGINT" else \
            java_hash_code(value, value_type)
        return _general(format(hashed & 0xFFFFFFFF, "x"), spec)
    if lowered == "c":
        if kind[0] != "integer" or value_type.name == "BIGINT" or not 0 <= kind[1] <= 0x10FFFF:
            raise IllegalFormat("IllegalFormatConversionException")
        return _general(chr(kind[1]), spec)
    if lowered in "dox":
        if kind[0] != "integer":
            raise IllegalFormat("IllegalFormatConversionException")
        return _integral(kind[1], _INTEGER_BITS[value_type.name], spec)
    if kind[0] not in ("float", "double"):                                      # e, f, g, a
        raise IllegalFormat("IllegalFormatConversionException")
    return _floating(value, spec)


def java_format(template: str, values, value_types) -> str:
    """PRINTF: Java's String.format(Locale.US, template, values...) of the values as Flink hands them over (a
    DATE as its days, a TIMESTAMP as its date-time's text); raises IllegalFormat where Java throws."""
    pieces, start = [], 0
    while start < len(template):
        percent = template.find("%", start)
        if percent < 0:
            pieces.append(template[start:])
            break
        pieces.append(template[start:percent])
        found = _SPECIFIER.match(template, percent)
        if found is None:
            raise IllegalFormat("UnknownFormatConversionException")
        pieces.append(_checked_specifier(found))
        start = found.end()
    out, ordinary, last = [], 0, None
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        if piece.conversion == "%":
            out.append(_justified("%", piece))
            continue
        if piece.conversion == "n":
            out.append("\n")
            continue
        if piece.index == "<":
            position = last
        elif piece.index is not None:
            position = piece.index - 1
        else:
            position, ordinary = ordinary, ordinary + 1
        if position is None or position >= len(values):
            raise IllegalFormat("MissingFormatArgumentException")
        last = position
        out.append(_formatted(piece, values[position], value_types[position]))
    return "".join(out)


# the compiler's handlers -------------------------------------------------------------------------------
def _nullable(*types: SqlType) -> bool:
    return any(t.nullable for t in types)




def _illegal_null():
    from pyflink_compat.table.sql.expressions import validation_error
    return validation_error("SQL validation failed. From line 1, column 1 to line 1, column 4: Illegal use of "
                            "'NULL'")


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


def _binary_named(calcite: str, t: SqlType) -> str:
    """Calcite's name of a type, BINARY(n) / VARBINARY(n) for binary strings of a length."""
    if t.name == "BYTES" and t.length is not None:
        return "%s(%d)" % ("BINARY" if t.fixed_length else "VARBINARY", t.length)
    return calcite


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

    def _invalid_call(self, name: str, types):
        from pyflink_compat.table.sql.expressions import validation_error
        return validation_error("SQL validation failed. Invalid function call:\n%s(%s)"
                                % (name, ", ".join(t.text() for t in types)))

    def _regexp_function(self, node, name: str, function, result: SqlType, group=None):
        """REGEXP_COUNT / REGEXP_INSTR / REGEXP_SUBSTR (text, regex) and REGEXP_EXTRACT_ALL (text, regex
        [, group]): NULL for a NULL argument or a regex that is not a valid one, so nullable whatever the
        arguments are."""
        if any(value is not None for key, value in node.args.items() if key not in ("this", "expression", group)):
            raise self._no_match(node, name)
        nodes = [node.this, node.expression] + ([node.args[group]] if group and node.args.get(group) else [])
        compiled = self._arguments(*nodes)
        types = [t for _, t in compiled]
        expected = [(_TEXT,), (_TEXT,), _INTEGERS]
        if any(t.name not in kinds + ("NULL",) for t, kinds in zip(types, expected)):
            raise self._invalid_call(name, types)
        return _null_safe(function, *(f for f, _ in compiled)), result

    def _regexpcount(self, node):
        return self._regexp_function(node, "REGEXP_COUNT", regexp_count, SqlType("INT"))

    def _regexpinstr(self, node):
        return self._regexp_function(node, "REGEXP_INSTR", regexp_instr, SqlType("INT"))

    def _regexpsubstr(self, node):
        return self._regexp_function(node, "REGEXP_SUBSTR", regexp_substr, SqlType(_TEXT))

    def _regexpextractall(self, node):
        return self._regexp_function(node, "REGEXP_EXTRACT_ALL", regexp_extract_all,
                                     SqlType("ARRAY", element=SqlType(_TEXT)), group="group")

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

    def _function_bin(self, arguments):
        if len(arguments) != 1:
            raise self._wrong_arguments("BIN", None, "1")
        operand, operand_type = self.compile(arguments[0])
        if operand_type.name == "NULL":
            raise _illegal_null()
        if operand_type.name not in _INTEGERS:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Cannot "
                                   "apply 'BIN' to arguments of type 'BIN(<%s>)'. Supported form(s): "
                                   "'BIN(<INTEGER>)'" % (len(arguments[0].sql()) + 5,
                                                         attrs.evolve(operand_type, nullable=True).text()))
        return _null_safe(bin_of, operand), SqlType(_TEXT, nullable=operand_type.nullable)

    def _function_printf(self, arguments):
        """PRINTF(format, values...): Java's String.format of the values as Flink passes them; NULL for a NULL
        format and for one Java's Formatter rejects (a NULL value is written 'null')."""
        if not arguments:
            raise self._no_match(exp.Anonymous(this="PRINTF"), "PRINTF")
        compiled = self._arguments(*arguments)
        (template, template_type), rest = compiled[0], compiled[1:]
        if template_type.name not in (_TEXT, "NULL"):
            raise self._invalid_call("PRINTF", [t for _, t in compiled])
        value_types = [t for _, t in rest]
        for value_type in value_types:
            if value_type.name in ("ARRAY", "MAP", "ROW"):    # Java's identity hash of Flink's data: no value to match
                raise UnsupportedFeatureError("PRINTF of a %s" % value_type.text(), SECTION)

        def printed(values):
            text = template(values)
            if text is None:
                return None
            try:
                return java_format(text, [function(values) for function, _ in rest], value_types)
            except IllegalFormat:
                return None
        return printed, SqlType(_TEXT)

    # choosing
    def _elt(self, node):
        """ELT(index, text1, text2, ...): the index-th text (from 1), NULL for an index out of range; Flink's
        generated code reads the index as an INT, so a job with a TINYINT, SMALLINT or BIGINT index fails."""
        compiled = self._arguments(node.this, *node.expressions)
        (index, index_type), choices = compiled[0], compiled[1:]
        types = [t for _, t in compiled]
        if index_type.name == "NULL":
            raise _illegal_null()
        negative = isinstance(node.this, exp.Neg) and isinstance(node.this.this, exp.Literal)
        if index_type.name not in _INTEGERS or negative or any(t.name not in (_TEXT, "NULL") for t in types[1:]):
            raise self._invalid_call("ELT", types)
        from pyflink_compat.table.sql.expressions import common_type
        result = attrs.evolve(common_type(types[1:], ""), nullable=True)
        if any(t.name == "NULL" for t in types[1:]):            # a NULL among CHAR(n)s makes a VARCHAR(n)
            result = attrs.evolve(result, fixed_length=False)
        boxed = {"TINYINT": "Byte", "SMALLINT": "Short", "BIGINT": "Long"}.get(index_type.name)

        def chosen(values):
            position = index(values)
            if position is None:
                return None
            if boxed is not None:
                raise TypeError("java.lang.ClassCastException: class java.lang.%s cannot be cast to class "
                                "java.lang.Integer (java.lang.%s and java.lang.Integer are in module java.base "
                                "of loader 'bootstrap')" % (boxed, boxed))
            return choices[position - 1][0](values) if 1 <= position <= len(choices) else None
        return chosen, result

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

    # binary strings, URLs, IP addresses, maps of text, JSON quoting, SIMILAR TO
    def _calcite_operands(self, name: str, nodes, forms, forms_text: str):
        """The compiled operands of a Calcite-checked function: Illegal use of 'NULL' for a NULL literal, "Cannot
        apply" when no form (a tuple of kinds: CHARACTER, BINARY) takes their types."""
        from pyflink_compat.table.sql.operand_types import calcite_type
        compiled = self._arguments(*nodes)
        types = [t for _, t in compiled]
        if any(t.name == "NULL" for t in types):
            raise _illegal_null()
        kinds = {"CHARACTER": _TEXT, "BINARY": "BYTES"}
        if not any(len(form) == len(types) and all(kinds[kind] == t.name for kind, t in zip(form, types))
                   for form in forms):
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column 1: Cannot apply "
                                   "'%s' to arguments of type '%s(%s)'. Supported form(s): %s"
                                   % (name, name, ", ".join("<%s>" % _binary_named(calcite_type(t), t)
                                                            for t in types), forms_text))
        return compiled

    def _signature_mismatch(self, name: str, arguments, supported: str):
        """Flink's type inference's error for a call of a function of its own with an argument count it has no
        signature of."""
        from pyflink_compat.table.sql.expressions import _type_family, validation_error
        families = ", ".join("<%s>" % _type_family(self.compile(each)[1]) for each in arguments)
        return validation_error("SQL validation failed. From line 1, column 1 to line 1, column 1: No match found "
                                "for function signature %s(%s).\nSupported signatures are:\n%s"
                                % (name, families, supported))

    def _character_string_operand(self, name: str, arguments, supported: str):
        """The one operand of a function taking a CHARACTER_STRING (or NULL)."""
        if len(arguments) != 1:
            raise self._signature_mismatch(name, arguments, supported)
        operand, operand_type = self.compile(arguments[0])
        if operand_type.name not in (_TEXT, "NULL"):
            raise self._invalid_call(name, [operand_type])
        return operand, operand_type

    def _unhex(self, node):
        return self._function_unhex([node.this] + ([node.expression] if node.expression is not None else []))

    def _function_unhex(self, arguments):
        operand, _ = self._character_string_operand("UNHEX", arguments, "UNHEX(expr <CHARACTER_STRING>)")
        return _null_safe(unhex, operand), SqlType("BYTES")

    def _hexstring(self, node):
        """X'0aff': a BINARY(n) literal."""
        digits = node.this
        if len(digits) % 2:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Binary "
                                   "literal string must contain an even number of hexits" % (len(digits) + 3))
        value = bytes.fromhex(digits)
        return (lambda values: value), SqlType("BYTES", nullable=False, length=len(value), fixed_length=True)

    def _encode(self, node):
        return self._function_encode([node.this, node.args.get("charset")])

    def _function_encode(self, arguments):
        """ENCODE(text, charset): the text's bytes in the charset, as Java's String.getBytes (charsets)."""
        from pyflink_compat.table.sql import charsets
        if len(arguments) != 2 or None in arguments:
            raise self._wrong_arguments("ENCODE", None, "2")
        compiled = self._calcite_operands("ENCODE", arguments, [("CHARACTER", "CHARACTER")],
                                          "'ENCODE(<CHARACTER>, <CHARACTER>)'")
        self._charset_checked(arguments[1])
        return _null_safe(charsets.encode, *(f for f, _ in compiled)), \
            SqlType("BYTES", nullable=_nullable(*(t for _, t in compiled)))

    def _decode(self, node):
        return self._function_decode([node.this, node.args.get("charset")])

    def _decodecase(self, node):              # DECODE(x, search, result, ...): not Flink's
        raise self._wrong_arguments("DECODE", None, "2")

    def _function_decode(self, arguments):
        """DECODE(bytes, charset): the text of the bytes in the charset, as Java's new String(bytes, charset)."""
        from pyflink_compat.table.sql import charsets
        if len(arguments) != 2 or None in arguments:
            raise self._wrong_arguments("DECODE", None, "2")
        compiled = self._calcite_operands("DECODE", arguments, [("BINARY", "CHARACTER")],
                                          "'DECODE(<BINARY>, <CHARACTER>)'")
        self._charset_checked(arguments[1])
        return _null_safe(charsets.decode, *(f for f, _ in compiled)), \
            SqlType(_TEXT, nullable=_nullable(*(t for _, t in compiled)))

    def _charset_checked(self, node):
        """A charset given as a literal that Java has and pyflink-compat has not is refused before the job runs
        (a name Java does not know fails the job when a row comes, as Flink's)."""
        from pyflink_compat.table.sql import charsets
        if isinstance(node, exp.Literal) and node.is_string:
            try:
                charsets.charset(node.this)
            except JavaStyleError:
                pass

    def _parseurl(self, node):
        extra = [node.args[key] for key in node.args if key not in ("this", "part_to_extract", "key")
                 and node.args[key] is not None]
        arguments = [node.this, node.args.get("part_to_extract"), node.args.get("key")] + extra
        while arguments and arguments[-1] is None:
            arguments.pop()
        return self._function_parse_url(arguments)

    def _function_parse_url(self, arguments):
        """PARSE_URL(url, part [, key]) (url_functions): NULL where the URL, the part or the key gives none."""
        from pyflink_compat.table.sql.url_functions import parse_url
        if len(arguments) not in (2, 3) or None in arguments:
            raise self._wrong_arguments("PARSE_URL", None, "2")
        compiled = self._calcite_operands("PARSE_URL", arguments, [("CHARACTER",) * 2, ("CHARACTER",) * 3],
                                          "'PARSE_URL(<CHARACTER>, <CHARACTER>)'\n"
                                          "'PARSE_URL(<CHARACTER>, <CHARACTER>, <CHARACTER>)'")
        return _null_safe(parse_url, *(f for f, _ in compiled)), SqlType(_TEXT)

    def _function_inet_aton(self, arguments):
        from pyflink_compat.table.sql.url_functions import inet_aton
        operand, _ = self._character_string_operand("INET_ATON", arguments, "INET_ATON(<CHARACTER_STRING>)")
        return _null_safe(inet_aton, operand), SqlType("BIGINT")

    def _function_inet_ntoa(self, arguments):
        from pyflink_compat.table.sql.url_functions import inet_ntoa
        if len(arguments) != 1:
            raise self._signature_mismatch("INET_NTOA", arguments, "INET_NTOA(<INTEGER_NUMERIC>)")
        operand, operand_type = self.compile(arguments[0])
        if operand_type.name not in _INTEGERS + ("NULL",):
            raise self._invalid_call("INET_NTOA", [operand_type])
        return _null_safe(inet_ntoa, operand), SqlType(_TEXT)

    def _strtomap(self, node):
        extra = [node.args[key] for key in node.args if key not in ("this", "pair_delim", "key_value_delim")
                 and node.args[key] is not None]
        arguments = [node.this, node.args.get("pair_delim"), node.args.get("key_value_delim")] + extra
        while arguments and arguments[-1] is None:
            arguments.pop()
        return self._function_str_to_map(arguments)

    def _function_str_to_map(self, arguments):
        """STR_TO_MAP(text [, entry delimiter, key-value delimiter]): a MAP<STRING, STRING>, NULL when an
        argument is NULL."""
        if len(arguments) not in (1, 3) or None in arguments:
            raise self._wrong_arguments("STR_TO_MAP", None, "1")
        compiled = self._calcite_operands("STR_TO_MAP", arguments, [("CHARACTER",), ("CHARACTER",) * 3],
                                          "'STR_TO_MAP(<CHARACTER>)'\n"
                                          "'STR_TO_MAP(<CHARACTER>, <CHARACTER>, <CHARACTER>)'")
        return _null_safe(str_to_map, *(f for f, _ in compiled)), \
            SqlType("MAP", key=SqlType(_TEXT), element=SqlType(_TEXT))

    def _function_json_quote(self, arguments):
        from pyflink_compat.table.sql.json_functions import json_quote
        operand, operand_type = self._character_string_operand("JSON_QUOTE", arguments,
                                                               "JSON_QUOTE(<CHARACTER_STRING>)")
        return _null_safe(json_quote, operand), SqlType(_TEXT, nullable=operand_type.nullable)

    def _function_json_unquote(self, arguments):
        from pyflink_compat.table.sql.json_functions import json_unquote
        operand, operand_type = self._character_string_operand("JSON_UNQUOTE", arguments,
                                                               "JSON_UNQUOTE(<CHARACTER_STRING>)")
        return _null_safe(json_unquote, operand), SqlType(_TEXT, nullable=operand_type.nullable)

    def _currentdatabase(self, node):
        return self._function_current_database([])

    def _function_current_database(self, arguments):
        """CURRENT_DATABASE(): the table environment's database (it has one: default_database)."""
        from pyflink_compat.table.catalog import DEFAULT_DATABASE
        if arguments:
            raise self._wrong_arguments("CURRENT_DATABASE", None, "0")
        return (lambda values: DEFAULT_DATABASE), SqlType(_TEXT, nullable=False)

    def _similarto(self, node):
        return self._similar_to(node, None)

    def _escape(self, node):
        if not isinstance(node.this, exp.SimilarTo):          # LIKE ... ESCAPE: not run here
            raise UnsupportedFeatureError("The SQL expression '%s'" % node.sql(), SECTION)
        return self._similar_to(node.this, node.expression)

    def _similar_to(self, node, escape_node):
        """value SIMILAR TO pattern [ESCAPE c] (similar_to); NULL when any of them is NULL."""
        from pyflink_compat.table.sql.operand_types import calcite_type
        from pyflink_compat.table.sql.similar_to import similar_to
        nodes = [node.this, node.expression] + ([escape_node] if escape_node is not None else [])
        compiled = self._arguments(*nodes)
        types = [t for _, t in compiled]
        if any(t.name not in (_TEXT, "BYTES") for t in types):
            # a NULL after the value is named by the value's type, as Calcite infers it
            shown = [_binary_named(calcite_type(t), t) if t.name != "NULL" else
                     ("NULL" if i == 0 or types[0].name == "NULL" else _binary_named(calcite_type(types[0]), types[0]))
                     for i, t in enumerate(types)]
            name = "NOT SIMILAR TO" if isinstance(node.parent, exp.Not) or isinstance(
                getattr(node.parent, "parent", None), exp.Not) and escape_node is not None else "SIMILAR TO"
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column 1: Cannot apply "
                                   "'%s' to arguments of type '%s(%s)'. Supported form(s): '%s(<STRING>, <STRING>, "
                                   "<STRING>)'" % (name, name, ", ".join("<%s>" % each for each in shown), name))
        return _null_safe(similar_to, *(f for f, _ in compiled)), SqlType("BOOLEAN", nullable=_nullable(*types))

"""``value SIMILAR TO pattern [ESCAPE c]`` as Flink 2.3 runs it, and the errors Java's regex compiler raises for a
pattern it refuses (also those of STR_TO_MAP's delimiters).

Flink turns the SQL pattern into a Java regular expression matched against the whole value: ``%`` is any text (line
breaks too), ``_`` any one character but a line break; ``$`` and a backslash stand for themselves; ``[...]`` is a set
of characters (``[:ALPHA:]``, ``[:DIGIT:]``, ``[:ALNUM:]``, ``[:UPPER:]``, ``[:LOWER:]``, ``[:SPACE:]`` and
``[:WHITESPACE:]`` name classes; ``%`` and ``_`` and another ``[`` may not be in it); everything else (``| * + ? {m,n}
( ) ^ .``) goes to Java's regex as it is. The escape character quotes the next one, which must be one of ``[ ] ( ) | ^
- + * _ % ? { }`` or the escape character itself. The pattern's errors come up when a row is matched, as Flink's do
(ValidationException for an escape, RuntimeException for a bracket, PatternSyntaxException from Java's regex)."""
import functools
import re
from typing import Optional, Tuple

from pyflink_compat.util.exceptions import JavaStyleError

_SPECIALS = frozenset("[]()|^-+*_%?{}")
_JAVA_METACHARACTERS = frozenset("\\^$.|?*+()[]{}")
# the character classes Flink's SIMILAR TO names inside brackets, as Java regex
_POSIX_CLASSES = {"ALPHA": "\\p{Alpha}", "DIGIT": "\\p{Digit}", "ALNUM": "\\p{Alnum}", "UPPER": "\\p{Upper}",
                  "LOWER": "\\p{Lower}", "SPACE": " ", "WHITESPACE": "\\s"}
_ANY_TEXT = "(?s:.*)"                     # % in Java's regex (the length Java's error positions count)
_ANY_TEXT_HERE = "(?:[\\s\\S]*)"          # % for pyflink-compat's Java-to-Python translation (no (?s: there)
_VALIDATION = "org.apache.flink.table.api.ValidationException"


def _invalid_escape(pattern: str, index: int) -> JavaStyleError:
    return JavaStyleError(_VALIDATION, "Invalid escape sequence '%s', %d" % (pattern, index), "executeSql")


def _invalid_regex(pattern: str) -> JavaStyleError:
    return JavaStyleError("java.lang.RuntimeException", "Invalid regular expression '%s'" % pattern, "executeSql")


def _escaped(pattern: str, index: int, escape: str) -> str:
    """The character the escape at ``index`` quotes, checked as Flink checks it."""
    if index + 1 >= len(pattern):
        raise _invalid_escape(pattern, index)
    quoted = pattern[index + 1]
    if escape in "%_" and quoted == escape:
        raise _invalid_escape(pattern, index + 1)
    if quoted not in _SPECIALS and quoted != escape:
        raise _invalid_escape(pattern, index)
    return quoted


def _quoted(character: str) -> str:
    return "\\" + character if character in _JAVA_METACHARACTERS and character != "\\" else character


def translate(pattern: str, escape: Optional[str]) -> Tuple[str, str]:
    """The Java regex of a SIMILAR TO pattern, twice: as Flink writes it (what Java's error messages show) and as
    pyflink-compat compiles it. Raises Flink's error for a bad escape or bracket."""
    if escape is not None and len(escape) != 1:
        raise JavaStyleError(_VALIDATION, "Invalid escape character '%s'" % escape, "executeSql")
    shown, compiled = [], []

    def add(text: str, here: str = None):
        shown.append(text)
        compiled.append(text if here is None else here)
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if escape is not None and c == escape:
            add(_quoted(_escaped(pattern, i, escape)))
            i += 2
        elif c == "[":
            i = _bracket(pattern, i, escape, add)
        elif c == "]":
            raise _invalid_regex(pattern)
        elif c == "%":
            add(_ANY_TEXT, _ANY_TEXT_HERE)
            i += 1
        elif c == "_":
            add(".")
            i += 1
        else:
            add("\\" + c if c in "$\\" else c)
            i += 1
    return "".join(shown), "".join(compiled)


def _bracket(pattern: str, start: int, escape: Optional[str], add) -> int:
    """A ``[...]`` set from ``start``: added as a Java character class; returns where the pattern goes on."""
    parts = ["["]
    i = start + 1
    while True:
        if i >= len(pattern):
            raise _invalid_regex(pattern)
        c = pattern[i]
        if c == "]":
            parts.append("]")
            add("".join(parts))
            return i + 1
        if escape is not None and c == escape:
            parts.append(_quoted(_escaped(pattern, i, escape)))
            i += 2
            continue
        if c == "[":
            end = pattern.find(":]", i + 2) if pattern.startswith("[:", i) else -1
            name = pattern[i + 2:end].upper() if end >= 0 else None
            if name not in _POSIX_CLASSES:
                raise _invalid_regex(pattern)
            parts.append(_POSIX_CLASSES[name])
            i = end + 2
            continue
        if c in "%_":
            raise _invalid_regex(pattern)
        parts.append(c)
        i += 1


# Java's regex syntax errors ---------------------------------------------------------------------------
def _class_end(pattern: str, start: int) -> int:
    """Where a Java character class opened at ``start`` ends (after its ']'), -1 when it does not: a ']' right
    after '[' or '[^' is a member, a nested '[' opens a class of its own."""
    i = start + 1
    if pattern[i:i + 1] == "^":
        i += 1
    if pattern[i:i + 1] == "]":
        i += 1
    depth = 1
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


_GROUP_FLAGS = re.compile(r"\(\?[idmsuxU-]*\)")
_COUNTED = re.compile(r"\{(\d+)(,(\d*))?")


def syntax_error(pattern: str) -> Tuple[Optional[Tuple[str, int]], str]:
    """(Java's PatternSyntaxException description and index of ``pattern`` when Java refuses it for an unclosed
    group or character class, an unmatched ')', a dangling quantifier or a bad {m,n}; else None, and the pattern
    without the {m,n}s that repeat nothing, which Java takes and Python's re does not)."""
    out, groups, i, atom = [], [], 0, False
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            if pattern.startswith("\\Q", i):
                end = pattern.find("\\E", i + 2)
                stop = n if end < 0 else end + 2
            else:
                stop = i + 2
            out.append(pattern[i:stop])
            i, atom = stop, True
            continue
        if c == "[":
            stop = _class_end(pattern, i)
            if stop < 0:
                return ("Unclosed character class", n - 1), pattern
            out.append(pattern[i:stop])
            i, atom = stop, True
            continue
        if c == "(":
            flags = _GROUP_FLAGS.match(pattern, i)
            if flags is not None:                       # (?i): flags, no group
                out.append(flags.group())
                i, atom = flags.end(), False
                continue
            groups.append(i)
            stop = i + 1
            if pattern.startswith("(?", i):             # (?:  (?=  (?!  (?>  (?<=  (?<!  (?<name>  (?i:
                named = re.match(r"\(\?(<[A-Za-z][A-Za-z0-9]*>|<=|<!|[:=!>]|[idmsuxU-]*:)", pattern[i:])
                stop = i + (len(named.group()) if named else 2)
            out.append(pattern[i:stop])
            i, atom = stop, False
            continue
        if c == ")":
            if not groups:
                return ("Unmatched closing ')'", i - 1), pattern
            groups.pop()
            out.append(c)
            i, atom = i + 1, True
            continue
        if c in "*+?":
            if not atom:
                return ("Dangling meta character '%s'" % c, i), pattern
            stop = i + 1 + (pattern[i + 1:i + 2] in ("?", "+"))
            out.append(pattern[i:stop])
            i, atom = stop, False
            continue
        if c == "{":
            counted = _COUNTED.match(pattern, i)
            if counted is None:
                return ("Illegal repetition", i + 1), pattern
            stop = counted.end()
            if pattern[stop:stop + 1] != "}":
                return ("Unclosed counted closure", stop), pattern
            low, high = int(counted.group(1)), counted.group(3)
            if high and int(high) < low:
                return ("Illegal repetition range", stop), pattern
            stop += 1 + (pattern[stop + 1:stop + 2] in ("?", "+"))
            if atom:
                out.append(pattern[i:stop])
            i, atom = stop, False          # a {m,n} with nothing to repeat repeats nothing
            continue
        out.append(c)
        i, atom = i + 1, c != "|"
    if groups:
        return ("Unclosed group", n), pattern
    return None, "".join(out)


def pattern_syntax_exception(description: str, index: int, pattern: str) -> JavaStyleError:
    """Java's PatternSyntaxException: its description, the index (when there is one), the pattern and a caret."""
    message = description if index < 0 else "%s near index %d" % (description, index)
    message += "\n" + pattern + ("\n" + " " * index + "^" if index >= 0 else "")
    return JavaStyleError("java.util.regex.PatternSyntaxException", message, "executeSql")


def java_compiled(pattern: str):
    """A Java regex compiled for Python's re, or Java's PatternSyntaxException for one Java refuses; raises
    UnsupportedFeatureError for one Java takes and Python's re cannot follow."""
    return _java_compiled(pattern, pattern)


@functools.lru_cache(maxsize=256)
def _java_compiled(shown: str, compiled: str):
    from pyflink_compat.table.sql.string_functions import java_regex
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    error, _ = syntax_error(shown)
    if error is not None:
        raise pattern_syntax_exception(error[0], error[1], shown)
    _, cleaned = syntax_error(compiled)
    try:
        return java_regex(cleaned)
    except (re.error, ValueError, OverflowError, RecursionError):
        raise UnsupportedFeatureError("The regular expression '%s'" % shown, "table-api",
                                      "pyflink-compat runs Java's regular expressions on Python's re, which "
                                      "cannot follow this one") from None


@functools.lru_cache(maxsize=256)
def _similar_regex(pattern: str, escape: Optional[str]):
    shown, compiled = translate(pattern, escape)
    return _java_compiled(shown, compiled)


def similar_to(value: str, pattern: str, escape: Optional[str] = None) -> bool:
    """Whether the whole ``value`` matches the SIMILAR TO ``pattern``; raises Flink's error for a bad pattern."""
    return _similar_regex(pattern, escape).fullmatch(value) is not None

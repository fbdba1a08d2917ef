"""Flink's tableau, as ``TableResult.print()`` shows a result: a bordered table whose column widths come from
the columns' types (a query's rows arrive one by one, so no width waits for the data), values right-aligned,
longer ones cut to ``...``, ``<NULL>`` for NULL, an ``op`` column with each row's kind in streaming mode, and
``N rows in set`` (or ``Empty set``) at the end."""
import unicodedata
from typing import List, Optional, Sequence

NULL_TEXT = "<NULL>"
MAX_COLUMN_WIDTH = 30
ROW_KIND_COLUMN = "op"

# Widths of the types whose longest text is known: the sign counts for integers; a TIMESTAMP(p) is 19 characters
# and, with a fraction, a dot and p digits.
_TYPE_WIDTHS = {"TINYINT": 4, "SMALLINT": 6, "INT": 11, "BIGINT": 20, "BOOLEAN": 5}


def _type_width(sql_type) -> int:
    if sql_type.name in _TYPE_WIDTHS:
        return _TYPE_WIDTHS[sql_type.name]
    if sql_type.name == "DECIMAL":            # the digits, a point and a sign
        return sql_type.precision + 2
    if sql_type.name == "DATE":
        return 10
    if sql_type.name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        precision = 6 if sql_type.precision is None else sql_type.precision
        return 19 if precision == 0 else 20 + precision
    return MAX_COLUMN_WIDTH


def column_widths(names: Sequence[str], sql_types: Sequence, row_kind: bool) -> List[int]:
    widths = [max(len(name), _type_width(sql_type), len(NULL_TEXT)) for name, sql_type in zip(names, sql_types)]
    return ([len(ROW_KIND_COLUMN)] if row_kind else []) + widths


def display_width(text: str) -> int:
    """Columns the text takes as Flink's tableau counts them: two for East Asian wide and full-width characters;
    Flink walks Java's characters, so a character beyond the BMP takes one more (for its low surrogate): an
    emoji takes three."""
    return sum((2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1) + (ord(ch) > 0xFFFF) for ch in text)


def _fitted(text: str, width: int) -> str:
    if display_width(text) <= width:
        return text
    kept, used = [], 0
    for ch in text:
        step = display_width(ch)
        if used + step > width - 3:
            break
        kept.append(ch)
        used += step
    return "".join(kept) + "..."


def border(widths: Sequence[int]) -> str:
    return "+" + "+".join("-" * (width + 2) for width in widths) + "+"


def line(cells: Sequence[str], widths: Sequence[int]) -> str:
    parts = []
    for cell, width in zip(cells, widths):
        cell = _fitted(cell, width)
        parts.append(" " * (width - display_width(cell)) + cell)
    return "| " + " | ".join(parts) + " |"


def cell_text(value, sql_type) -> str:
    """A value as the tableau shows it: SQL's CAST to STRING (TRUE / FALSE, a TIMESTAMP with its precision's
    digits), NULL as <NULL>."""
    from pyflink_compat.table.sql.values import printed, timestamp_cast_text
    if value is None:
        return NULL_TEXT
    if sql_type.name == "BOOLEAN":
        return "TRUE" if value else "FALSE"
    if sql_type.name == "TIMESTAMP":
        return timestamp_cast_text(value, 6 if sql_type.precision is None else sql_type.precision)
    if sql_type.name == "TIMESTAMP_LTZ":           # in the session time zone
        from pyflink_compat.table.sql.values import local_of_utc
        return timestamp_cast_text(local_of_utc(value), 6 if sql_type.precision is None else sql_type.precision)
    if sql_type.name == "BYTES":                   # x'0aff'
        return "x'%s'" % bytes(value).hex()
    if sql_type.name in ("ROW", "ARRAY", "MAP", "DECIMAL"):
        from pyflink_compat.table.sql.values import cast_text
        return cast_text(value, sql_type)
    return printed(value, sql_type, null_text="NULL")


def rows_in_set(count: int) -> str:
    if count == 0:
        return "Empty set"
    return "%d row%s in set" % (count, "" if count == 1 else "s")


class TableauPrinter:
    """Prints a result row by row: the header before the first row, the closing border and count at the end."""

    def __init__(self, names: Sequence[str], sql_types: Sequence, row_kind: bool, write=print):
        self.names, self.sql_types, self.row_kind = list(names), list(sql_types), row_kind
        self.widths = column_widths(self.names, self.sql_types, row_kind)
        self.write = write
        self.count = 0

    def _header(self):
        self.write(border(self.widths))
        self.write(line(([ROW_KIND_COLUMN] if self.row_kind else []) + self.names, self.widths))
        self.write(border(self.widths))

    def row(self, values, kind: Optional[str] = None):
        if self.count == 0:
            self._header()
        cells = [cell_text(value, sql_type) for value, sql_type in zip(values, self.sql_types)]
        self.write(line(([kind or "+I"] if self.row_kind else []) + cells, self.widths))
        self.count += 1

    def end(self):
        if self.count:
            self.write(border(self.widths))
        self.write(rows_in_set(self.count))


def print_rows(names: Sequence[str], rows: Sequence[Sequence[str]], write=print):
    """A result of text rows (SHOW, DESCRIBE) as Flink prints it: each column as wide as its longest text, no
    row kind column."""
    widths = [max([display_width(name)] + [display_width(row[i]) for row in rows]) for i, name in enumerate(names)]
    if not rows:
        write(rows_in_set(0))
        return
    write(border(widths))
    write(line(list(names), widths))
    write(border(widths))
    for row in rows:
        write(line(list(row), widths))
    write(border(widths))
    write(rows_in_set(len(rows)))

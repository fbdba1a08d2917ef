"""Flink SQL's array and map functions (ARRAY_CONTAINS ... ARRAY_SORT, MAP_KEYS ... MAP_FROM_ARRAYS, ELEMENT) with
Flink 2.3's result types and results: NULL for a NULL array or map, elements compared as Flink compares them (a
NULL element is an element), orders kept as Flink keeps them (the first array's, then the second's), duplicates
left out where Flink's documentation says so (ARRAY_DISTINCT, ARRAY_UNION, ARRAY_EXCEPT, ARRAY_INTERSECT).

``CollectionFunctions`` holds the compiler's handlers (``_<sqlglot node>`` and ``_function_<name>``)."""
import attrs

from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.table.sql.nulls import null_safe as _null_safe


def _distinct(items) -> list:
    seen, kept = [], []
    for item in items:
        if item not in seen:
            seen.append(item)
            kept.append(item)
    return kept


def _slice(items, start, end):
    """ARRAY_SLICE: 1-based offsets, inclusive; 0 is the start, a negative offset counts from the end."""
    count = len(items)

    def position(offset):
        return count + offset + 1 if offset < 0 else max(offset, 1)
    first = position(start)
    last = count if end is None else position(end)
    if first > last or first > count or last < 1:
        return []
    return items[max(first, 1) - 1:min(last, count)]


def _sort_key(ascending: bool, nulls_first: bool):
    def key(item):
        if item is None:
            return (0 if nulls_first == ascending else 1, 0)
        return (1 if nulls_first == ascending else 0, item)
    return key


def _single_element(items):
    if len(items) > 1:
        from pyflink_compat.util.exceptions import JavaStyleError
        raise JavaStyleError("org.apache.flink.table.api.TableRuntimeException", "Array has more than one element.",
                             "execute")
    return items[0] if items else None


class CollectionFunctions:
    """The compiler's handlers of Flink's array and map functions (mixed into expressions.Compiler)."""

    def _collection(self, node, name: str, kind: str = "ARRAY"):
        function, collection_type = self.compile(node)
        if collection_type.name != kind:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("SQL validation failed. Invalid function call:\n%s(%s)"
                                   % (name, collection_type.text()))
        return function, collection_type

    def _element_of(self, node, element_type: SqlType):
        from pyflink_compat.table.sql.expressions import as_common
        return as_common(self.compile(node), element_type)

    def _arraycontains(self, node):
        array, array_type = self._collection(node.this, "ARRAY_CONTAINS")
        needle = self._element_of(node.expression, array_type.element)

        def contains(values):
            items = array(values)
            return None if items is None else needle(values) in items
        return contains, SqlType("BOOLEAN", nullable=array_type.nullable)

    def _arraydistinct(self, node):
        array, array_type = self._collection(node.this, "ARRAY_DISTINCT")
        return _null_safe(_distinct, array), array_type

    def _arraytostring(self, node):
        """ARRAY_JOIN(array, delimiter [, null replacement]): NULL elements left out unless replaced."""
        array, array_type = self._collection(node.this, "ARRAY_JOIN")
        if array_type.element.name != "STRING":
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("SQL validation failed. Invalid function call:\nARRAY_JOIN(%s, ...)"
                                   % array_type.text())
        delimiter, delimiter_type = self.compile(node.expression)
        replacement = self.compile(node.args["null"])[0] if node.args.get("null") is not None else None

        def join(values):
            items, separator = array(values), delimiter(values)
            if items is None or separator is None:
                return None
            other = replacement(values) if replacement is not None else None
            return separator.join(item if item is not None else other for item in items
                                  if item is not None or other is not None)
        return join, SqlType("STRING", nullable=array_type.nullable or delimiter_type.nullable)

    def _arrayposition(self, node):
        array, array_type = self._collection(node.this, "ARRAY_POSITION")
        needle = self._element_of(node.expression, array_type.element)

        def position(values):
            items = array(values)
            if items is None:
                return None
            wanted = needle(values)
            return next((index + 1 for index, item in enumerate(items) if item == wanted), 0)
        return position, SqlType("INT", nullable=array_type.nullable)

    def _arrayremove(self, node):
        array, array_type = self._collection(node.this, "ARRAY_REMOVE")
        needle = self._element_of(node.expression, array_type.element)

        def remove(values):
            items = array(values)
            if items is None:
                return None
            unwanted = needle(values)
            return [item for item in items if item != unwanted]
        return remove, array_type

    def _arrayreverse(self, node):
        array, array_type = self._collection(node.this, "ARRAY_REVERSE")
        return _null_safe(lambda items: items[::-1], array), array_type

    def _arrayslice(self, node):
        array, array_type = self._collection(node.this, "ARRAY_SLICE")
        start, start_type = self.compile(node.args["start"])
        end = self.compile(node.args["end"]) if node.args.get("end") is not None else None

        def sliced(values):
            items, first = array(values), start(values)
            last = end[0](values) if end is not None else None
            if items is None or first is None or (end is not None and last is None):
                return None
            return _slice(items, first, last)
        nullable = array_type.nullable or start_type.nullable or (end is not None and end[1].nullable)
        return sliced, attrs.evolve(array_type, nullable=nullable)

    def _arrays(self, nodes, name: str):
        from pyflink_compat.table.sql.expressions import as_common, common_type
        compiled = [self._collection(each, name) for each in nodes]
        element = common_type([each_type.element for _, each_type in compiled], "SQL validation failed. Invalid "
                              "function call:\n%s(%s)" % (name, ", ".join(t.text() for _, t in compiled)))
        result = SqlType("ARRAY", nullable=any(t.nullable for _, t in compiled), element=element)
        return [as_common(each, result) for each in compiled], result

    def _function_array_union(self, arguments):
        (first, second), result = self._arrays(arguments, "ARRAY_UNION")
        return _null_safe(lambda a, b: _distinct(a + b), first, second), result

    def _arrayconcat(self, node):
        arrays, result = self._arrays([node.this] + list(node.expressions), "ARRAY_CONCAT")

        def concat(values):
            parts = [array(values) for array in arrays]
            return None if any(part is None for part in parts) else [item for part in parts for item in part]
        return concat, result

    def _arrayexcept(self, node):
        (first, second), result = self._arrays([node.this, node.expression], "ARRAY_EXCEPT")
        return _null_safe(lambda a, b: _distinct(item for item in a if item not in b), first, second), result

    def _arrayintersect(self, node):
        (first, second), result = self._arrays(list(node.expressions), "ARRAY_INTERSECT")
        return _null_safe(lambda a, b: _distinct(item for item in a if item in b), first, second), result

    def _array_extreme(self, node, name: str, pick):
        """ARRAY_MAX / ARRAY_MIN: ``pick`` of the non-NULL elements, NULL without any."""
        array, array_type = self._collection(node.this, name)
        return _null_safe(lambda items: pick((item for item in items if item is not None), default=None), array), \
            attrs.evolve(array_type.element, nullable=True)

    def _arraymax(self, node):
        return self._array_extreme(node, "ARRAY_MAX", max)

    def _arraymin(self, node):
        return self._array_extreme(node, "ARRAY_MIN", min)

    def _arraysort(self, node):
        """ARRAY_SORT(array [, ascending [, nulls first]]): ascending with NULLs first by default, descending
        with NULLs last."""
        array, array_type = self._collection(node.this, "ARRAY_SORT")
        # sqlglot reads the second argument as "expression" and the third as "asc"
        flags = [self.compile(each)[0] for each in (node.args.get("expression"), node.args.get("asc"))
                 if each is not None]

        def sort(values):
            items = array(values)
            if items is None:
                return None
            ascending = flags[0](values) if flags else True
            nulls_first = flags[1](values) if len(flags) > 1 else ascending
            if ascending is None or nulls_first is None:
                return None
            return sorted(items, key=_sort_key(ascending, nulls_first), reverse=not ascending)
        return sort, array_type

    def _arrayappend(self, node):
        array, array_type = self._collection(node.this, "ARRAY_APPEND")
        element = self._element_of(node.expression, array_type.element)
        return (lambda values: None if array(values) is None else array(values) + [element(values)]), \
            self._grown(array_type, node.expression)

    def _arrayprepend(self, node):
        array, array_type = self._collection(node.this, "ARRAY_PREPEND")
        element = self._element_of(node.expression, array_type.element)
        return (lambda values: None if array(values) is None else [element(values)] + array(values)), \
            self._grown(array_type, node.expression)

    def _grown(self, array_type: SqlType, element_node) -> SqlType:
        """ARRAY_APPEND's / ARRAY_PREPEND's type: the array's, nullable where the array or the element is."""
        return attrs.evolve(array_type, nullable=array_type.nullable or self.compile(element_node)[1].nullable)

    def _function_element(self, arguments):
        array, array_type = self._collection(arguments[0], "ELEMENT")
        return _null_safe(_single_element, array), array_type.element

    def _mapkeys(self, node):
        mapping, map_type = self._collection(node.this, "MAP_KEYS", "MAP")
        return _null_safe(lambda entries: list(entries), mapping), \
            SqlType("ARRAY", nullable=map_type.nullable, element=map_type.key)

    def _function_map_values(self, arguments):
        mapping, map_type = self._collection(arguments[0], "MAP_VALUES", "MAP")
        return _null_safe(lambda entries: list(entries.values()), mapping), \
            SqlType("ARRAY", nullable=map_type.nullable, element=map_type.element)

    def _function_map_entries(self, arguments):
        from pyflink_compat.common.types import Row
        mapping, map_type = self._collection(arguments[0], "MAP_ENTRIES", "MAP")
        entry = SqlType("ROW", fields=(("key", map_type.key), ("value", map_type.element)))
        return _null_safe(lambda entries: [Row(key, value) for key, value in entries.items()], mapping), \
            SqlType("ARRAY", nullable=map_type.nullable, element=entry)

    def _function_map_from_arrays(self, arguments):
        keys, keys_type = self._collection(arguments[0], "MAP_FROM_ARRAYS")
        items, items_type = self._collection(arguments[1], "MAP_FROM_ARRAYS")

        def from_arrays(key_list, item_list):
            if len(key_list) != len(item_list):
                from pyflink_compat.util.exceptions import JavaStyleError
                raise JavaStyleError("org.apache.flink.table.api.TableRuntimeException", "Invalid function "
                                     "MAP_FROM_ARRAYS call:\nThe length of the keys array %d is not equal to the "
                                     "length of the values array %d" % (len(key_list), len(item_list)), "execute")
            return dict(zip(key_list, item_list))
        return _null_safe(from_arrays, keys, items), \
            SqlType("MAP", nullable=keys_type.nullable or items_type.nullable, key=keys_type.element,
                    element=items_type.element)


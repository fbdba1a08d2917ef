"""``JsonRowDeserializationSchema.Builder.json_schema()``: the row type a JSON Schema describes.

PyFlink converts the schema text in Java (Flink's JSON-schema-to-TypeInformation converter) and
brings the type back to Python. The rules below reproduce what that conversion gives, measured
against PyFlink 2.3.0, including its error messages:

* ``"type"``: ``object`` -> ROW_NAMED of ``properties`` in document order (no or non-object
  ``properties``: an empty ROW); ``array`` -> OBJECT_ARRAY of ``items`` (an array of strings is
  Flink's BASIC_ARRAY(STRING)), or a ROW named ``f0``, ``f1``, ... when ``items`` is a list;
  ``number`` and ``integer`` -> BIG_DEC; ``boolean`` -> BOOLEAN; ``string`` -> STRING, SQL_TIMESTAMP /
  SQL_DATE / SQL_TIME for ``format`` ``date-time`` / ``date`` / ``time``, a byte array for
  ``contentEncoding: base64``; ``null`` -> Java's Void, which PyFlink cannot bring to Python.
* A list of types, or ``oneOf`` alternatives, may add ``null`` to one type; more is refused.
  ``allOf``, ``anyOf``, ``not`` and ``extends`` are refused.
* ``$ref`` points into the same document (``#/definitions/x``, ``#/properties/y``, ...); the node's
  own ``type``, if it has one, wins over the target's.
"""
import json

from pyflink_compat.common.typeinfo import Types
from pyflink_compat.util.exceptions import JavaStyleError, illegal_argument

_METHOD = "z:org.apache.flink.formats.json.JsonRowSchemaConverter.convert"
_UNIONS = ("allOf", "anyOf", "not", "extends")
# Deeper than this, a schema refers to itself without end: the JVM runs out of stack there.
_MAX_DEPTH = 150


def row_type_of(json_schema: str):
    """The TypeInformation PyFlink's ``json_schema(json_schema)`` sets (errors as PyFlink raises them)."""
    if json_schema is None:
        raise TypeError("The json_schema must not be None.")
    text = json_schema.strip()
    if not text:
        root = None                                  # Jackson reads nothing: a "missing" node
    else:
        try:
            root, _ = json.JSONDecoder().raw_decode(text)    # like Jackson, ignore what follows the value
        except ValueError:
            raise _error("Invalid JSON schema.") from None
    converted = _Converter(root).convert(root, "<root>", 0)
    if _contains_void(converted):          # Java converts it; PyFlink cannot bring it to Python
        raise TypeError("The java type info: Void is not supported in PyFlink currently.")
    return converted


def _contains_void(type_info) -> bool:
    from pyflink_compat.common.typeinfo import RowTypeInfo
    if type_info is _VOID:
        return True
    if isinstance(type_info, RowTypeInfo):
        return any(_contains_void(t) for t in type_info.get_field_types())
    element = getattr(type_info, "_element_type", None)
    return element is not None and _contains_void(element)


def _error(message: str) -> JavaStyleError:
    return illegal_argument(message, _METHOD)


class _Void:
    """Java's Void type (a schema node of type "null")."""

    def __repr__(self):
        return "Void"


_VOID = _Void()


class _Converter:

    def __init__(self, root):
        self.root = root

    def convert(self, node, path: str, depth: int):
        if depth > _MAX_DEPTH:
            raise JavaStyleError("java.lang.StackOverflowError", None, _METHOD)
        if not isinstance(node, dict):
            raise _error("No type could be found in node:%s" % path)
        if any(keyword in node for keyword in _UNIONS):
            raise _error("Union types are such as 'allOf', 'anyOf' etc. and extending are not supported yet.")
        target = node
        if "$ref" in node:
            target = self._resolve(node["$ref"])
        if "type" in node:
            return self._of_type_property(node, path, depth)
        if target is not node:
            return self.convert(target, path, depth + 1)          # at the referring node's path
        if "oneOf" in node:
            return self._one_of(node["oneOf"], path, depth)
        raise _error("No type could be found in node:%s" % path)

    def _resolve(self, reference):
        if not isinstance(reference, str) or not reference.startswith("#"):
            raise _error("Only JSON schemes with simple references (one indirection in the same document) are "
                         "supported yet. But was: %s" % (reference,))
        node = self.root
        for part in reference[1:].split("/")[1:] if reference != "#" else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise _error("Could not find reference: %s" % reference)
        return node

    def _of_type_property(self, node, path, depth):
        declared = node["type"]
        if isinstance(declared, str):
            return self._single(declared, node, path, depth)
        if isinstance(declared, list) and declared and all(isinstance(t, str) for t in declared):
            return _union([self._single(t, node, path, depth) for t in declared], path)
        raise _error("No type could be found in node:%s" % path)

    def _one_of(self, alternatives, path, depth):
        if not isinstance(alternatives, list) or not alternatives:
            raise _error("No type could be found in node:%s" % path)
        return _union([self.convert(alternative, "%s/oneOf[%d]" % (path, i), depth + 1)
                       for i, alternative in enumerate(alternatives)], path)

    def _single(self, name, node, path, depth):
        if name == "object":
            properties = node.get("properties")
            if not isinstance(properties, dict) or not properties:
                return Types.ROW([])
            names = list(properties)
            return Types.ROW_NAMED(names, [self.convert(properties[n], "%s/%s" % (path, n), depth + 1)
                                           for n in names])
        if name == "array":
            if "items" not in node:
                raise _error("Arrays must specify an 'items' property in node: %s" % path)
            items = node["items"]
            if isinstance(items, list):                    # a positional row; Java names its fields
                return Types.ROW_NAMED(["f%d" % i for i in range(len(items))],
                                       [self.convert(item, "%s/items[%d]" % (path, i), depth + 1)
                                        for i, item in enumerate(items)])
            element = self.convert(items, "%s/items" % path, depth + 1)
            if element == Types.STRING():
                return Types.BASIC_ARRAY(Types.STRING())
            return Types.OBJECT_ARRAY(element)
        if name in ("number", "integer"):
            return Types.BIG_DEC()
        if name == "boolean":
            return Types.BOOLEAN()
        if name == "null":
            return _VOID
        if name == "string":
            return self._string(node, path)
        raise _error("Unsupported type '%s' in node: %s" % (name, path))

    @staticmethod
    def _string(node, path):
        if "format" in node:
            format_ = node["format"]
            if not isinstance(format_, str):
                raise _error("Invalid 'format' property in node: %s" % path)
            by_format = {"date-time": Types.SQL_TIMESTAMP(), "date": Types.SQL_DATE(), "time": Types.SQL_TIME()}
            if format_ in by_format:
                return by_format[format_]
        if "contentEncoding" in node:
            encoding = node["contentEncoding"]
            if encoding != "base64":
                raise _error("Invalid encoding '%s' in node: %s" % (encoding, path))
            return Types.PRIMITIVE_ARRAY(Types.BYTE())
        return Types.STRING()


def _union(types, path):
    """One type out of alternatives: nulls dropped, the rest must agree."""
    concrete = []
    for t in types:
        if t is not _VOID and not any(t == seen for seen in concrete):
            concrete.append(t)
    if not concrete:
        return _VOID
    if len(concrete) > 1:
        raise _error("Union types with more than just a null type are not supported yet.")
    return concrete[0]

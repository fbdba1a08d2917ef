"""pyflink.table.table_descriptor: TableDescriptor and FormatDescriptor, a table declared in Python
(``TableDescriptor.for_connector('kafka').schema(...).option(...).format('json').build()``), made the table of
the CREATE TABLE statement it stands for."""
import sys
from typing import Dict, List, Optional

from pyflink_compat import missing

__all__ = ['TableDescriptor', 'FormatDescriptor']

_StandIns = missing.stand_ins(__name__)


def _key(key) -> str:
    return key if isinstance(key, str) else key.key()


_JAVA_CLASSES = {bool: "java.lang.Boolean", int: "java.lang.Integer", float: "java.lang.Double"}


def _value(key, value) -> str:
    """An option's value: text for a key given as text (Java's option(String, String); another value finds no
    method, as through py4j), any value for a ConfigOption."""
    if isinstance(key, str) and not isinstance(value, str):
        from py4j.protocol import Py4JError
        raise Py4JError("An error occurred while calling option. Trace:\norg.apache.flink.api.python.shaded.py4j."
                        "Py4JException: Method option([class java.lang.String, class %s]) does not exist"
                        % _JAVA_CLASSES.get(type(value), type(value).__name__))
    return str(value).lower() if isinstance(value, bool) else str(value)


class TableDescriptor(object):
    """A connector, its options and a schema."""

    def __init__(self, j_table_descriptor):
        self._schema, self._options, self._partition_keys, self._comment = j_table_descriptor

    @staticmethod
    def for_connector(connector: str) -> 'TableDescriptor.Builder':
        return TableDescriptor.Builder((None, {"connector": connector}, [], None))

    def get_schema(self):
        return self._schema

    def get_options(self) -> Dict[str, str]:
        return dict(self._options)

    def get_partition_keys(self) -> List[str]:
        return list(self._partition_keys)

    def get_comment(self) -> Optional[str]:
        return self._comment

    def _create_table_sql(self, name: str, masked: bool = False) -> str:
        """The CREATE TABLE statement of this descriptor's table named ``name`` (``masked``: password-like
        values shown as ******, for its text)."""
        if self._schema is None:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("A TableDescriptor without a schema", "table-api",
                                          "give the table its columns with .schema(Schema.new_builder()...)")
        from pyflink_compat.kafka_io.spec import redacted
        shown = redacted(self._options) if masked else self._options
        options = ",\n".join("  '%s' = '%s'" % (key, str(value).replace("'", "''"))
                             for key, value in shown.items())
        return "CREATE TABLE `%s` %s WITH (\n%s\n)" % (name, str(self._schema), options)

    def __str__(self):
        return self._create_table_sql("anonymous", masked=True)

    __repr__ = __str__

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self._create_table_sql("t") == other._create_table_sql("t")

    def __hash__(self):
        return hash(self._create_table_sql("t"))

    class Builder(object):
        """A builder of a TableDescriptor."""

        def __init__(self, j_builder):
            self._schema, options, partition_keys, self._comment = j_builder
            self._options, self._partition_keys = dict(options), list(partition_keys)

        def schema(self, schema) -> 'TableDescriptor.Builder':
            self._schema = schema
            return self

        def option(self, key, value) -> 'TableDescriptor.Builder':
            self._options[_key(key)] = _value(key, value)
            return self

        def format(self, format, format_option=None) -> 'TableDescriptor.Builder':
            """'format' = name (or the option ``format_option``, e.g. 'value.format'), the format's own options
            under its name ('json.ignore-parse-errors'; with 'value.format': 'value.json.ignore-parse-errors')."""
            key = "format" if format_option is None else _key(format_option)
            prefix = key[:-len("format")] if key.endswith("format") else ""
            if isinstance(format, str):
                self._options[key] = format
                return self
            self._options[key] = format._format
            for option, value in format._options.items():
                self._options["%s%s.%s" % (prefix, format._format, option)] = value
            return self

        def partitioned_by(self, *partition_keys: str) -> 'TableDescriptor.Builder':
            self._partition_keys.extend(partition_keys)
            return self

        def comment(self, comment: str) -> 'TableDescriptor.Builder':
            self._comment = comment
            return self

        def build(self) -> 'TableDescriptor':
            return TableDescriptor((self._schema, dict(self._options), list(self._partition_keys), self._comment))


class FormatDescriptor(object):
    """A format and its options (without the format's prefix)."""

    def __init__(self, j_format_descriptor):
        self._format, self._options = j_format_descriptor

    @staticmethod
    def for_format(format: str) -> 'FormatDescriptor.Builder':
        return FormatDescriptor.Builder((format, {}))

    def get_format(self) -> str:
        return self._format

    def get_options(self) -> Dict[str, str]:
        return dict(self._options)

    def __str__(self):
        return "%s[%s]" % (self._format, ", ".join("%s=%s" % item for item in self._options.items()))

    def __eq__(self, other):
        return self.__class__ == other.__class__ and (self._format, self._options) == (other._format,
                                                                                       other._options)

    def __hash__(self):
        return hash((self._format, tuple(sorted(self._options.items()))))

    class Builder(object):
        def __init__(self, j_builder):
            self._format, options = j_builder
            self._options = dict(options)

        def option(self, key, value) -> 'FormatDescriptor.Builder':
            self._options[_key(key)] = _value(key, value)
            return self

        def build(self) -> 'FormatDescriptor':
            return FormatDescriptor((self._format, dict(self._options)))


missing.complete(sys.modules[__name__])

"""PyFlink's catalog objects as a table environment has them: its one in-memory catalog ``default_catalog`` with
the database ``default_database``, which holds the tables and views created without TEMPORARY (temporary ones
shadow it, as in Flink, and are not in it). What else a catalog does raises ``UnsupportedFeatureError``."""
import sys

from pyflink_compat import missing
from pyflink_compat.util.exceptions import UnsupportedFeatureError, illegal_argument

_StandIns = missing.stand_ins(__name__)

__all__ = list(_StandIns.__all__)

DEFAULT_CATALOG = "default_catalog"
DEFAULT_DATABASE = "default_database"


def _database_not_exist(database_name: str):
    from pyflink_compat.util.exceptions import DatabaseNotExistException
    return DatabaseNotExistException(
        "org.apache.flink.table.catalog.exceptions.DatabaseNotExistException: Database %s does not exist in "
        "Catalog %s." % (database_name, DEFAULT_CATALOG))


class ObjectPath(_StandIns.ObjectPath):
    """A table's path in a catalog: its database and its name."""

    def __init__(self, database_name=None, object_name=None, j_object_path=None):
        for label, value in (("databaseName", database_name), ("objectName", object_name)):
            if not value:
                raise illegal_argument("%s cannot be null or empty" % label,
                                       "None.org.apache.flink.table.catalog.ObjectPath")
        self._database_name, self._object_name = database_name, object_name

    @staticmethod
    def from_string(full_name: str) -> 'ObjectPath':
        parts = full_name.split(".")
        if len(parts) != 2 or not all(parts):
            raise illegal_argument("Cannot get split '%s' to get databaseName and objectName" % full_name,
                                   "z:org.apache.flink.table.catalog.ObjectPath.fromString")
        return ObjectPath(*parts)

    def get_database_name(self) -> str:
        return self._database_name

    def get_object_name(self) -> str:
        return self._object_name

    def get_full_name(self) -> str:
        return "%s.%s" % (self._database_name, self._object_name)

    def compare_to(self, other: 'ObjectPath') -> int:
        mine, theirs = self.get_full_name(), other.get_full_name()
        return (mine > theirs) - (mine < theirs)

    def __eq__(self, other):
        return isinstance(other, ObjectPath) and self.get_full_name() == other.get_full_name()

    def __hash__(self):
        return hash(self.get_full_name())

    def __str__(self):
        return self.get_full_name()


class Catalog(_StandIns.Catalog):
    """The table environment's ``default_catalog``: its tables and views are those created without TEMPORARY."""

    def __init__(self, j_catalog):
        self._t_env = j_catalog            # pyflink-compat: the table environment whose catalog this is

    def get_default_database(self) -> str:
        return DEFAULT_DATABASE

    def list_databases(self):
        return [DEFAULT_DATABASE]

    def database_exists(self, database_name: str) -> bool:
        return database_name == DEFAULT_DATABASE

    def _names(self, database_name: str, views: bool):
        if database_name != DEFAULT_DATABASE:
            raise _database_not_exist(database_name)
        permanent = self._t_env._permanent_names()        # in the order they were created, as Flink lists them
        return [name for name, table in self._t_env._catalog().items()
                if name in permanent and (not views or table.query is not None)]

    def list_tables(self, database_name: str):
        return self._names(database_name, views=False)

    def list_views(self, database_name: str):
        return self._names(database_name, views=True)

    def table_exists(self, table_path: ObjectPath) -> bool:
        return table_path.get_database_name() == DEFAULT_DATABASE and \
            table_path.get_object_name() in self._names(DEFAULT_DATABASE, views=False)


class ResolvedSchema(_StandIns.ResolvedSchema):
    """A table's resolved schema: its columns' names and data types, which of them are physical and persisted,
    its primary key, and Flink's text of it (what print_schema prints). Its Column, WatermarkSpec and
    UniqueConstraint objects are not provided."""

    def __init__(self, columns=None, watermark_specs=None, primary_key=None, j_resolved_schema=None):
        if j_resolved_schema is None:
            raise UnsupportedFeatureError("ResolvedSchema(columns, ...) made in Python", "table-api",
                                          "use Table.get_resolved_schema()")
        self._names, self._types, self._kinds, self._primary_key, self._text = j_resolved_schema

    def __str__(self):
        return self._text

    def __eq__(self, other):
        return isinstance(other, ResolvedSchema) and self._text == other._text and self._types == other._types

    def __hash__(self):
        return hash(self._text)

    def get_column_count(self) -> int:
        return len(self._names)

    def get_column_names(self):
        return list(self._names)

    def get_column_data_types(self):
        return list(self._types)

    def get_primary_key_indexes(self):
        return [self._names.index(name) for name in self._primary_key or ()]

    def _row_type(self, kinds):
        from pyflink_compat.table.types import DataTypes
        return DataTypes.ROW([DataTypes.FIELD(name, data_type) for name, data_type, kind
                              in zip(self._names, self._types, self._kinds) if kind in kinds], nullable=False)

    def to_source_row_data_type(self):
        return self._row_type(("physical", "computed", "metadata", "virtual"))

    def to_physical_row_data_type(self):
        return self._row_type(("physical",))

    def to_sink_row_data_type(self):
        return self._row_type(("physical", "metadata"))


missing.complete(sys.modules[__name__])

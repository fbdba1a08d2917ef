"""TableEnvironment and StreamTableEnvironment, as PyFlink's: created and configured as PyFlink's; SQL DDL
(``CREATE TABLE``) and ``INSERT INTO ... SELECT`` of one table's projections and filters, alone or in a statement
set (table/sql/). What else a table environment does (the Table API, other queries, functions, catalogs)
raises ``UnsupportedFeatureError`` (porting guide, table-api)."""
from typing import Union

from pyflink_compat import missing
from pyflink_compat.common.configuration import Configuration
from pyflink_compat.util import session_zone

VALUES_TABLE_PREFIX = "ValuesRows$"    # the tables of VALUES clauses (table_environment._register_values)
FLAT_AGGREGATE_PREFIX = "FlatAggregate$"   # the tables of Table API flat_aggregates (table.FlatAggregateTable)
# tables of the planner's own, which no listing shows
_HIDDEN_PREFIXES = (VALUES_TABLE_PREFIX, FLAT_AGGREGATE_PREFIX)
from pyflink_compat.table.environment_settings import EnvironmentSettings
from pyflink_compat.table.table_config import TableConfig

__all__ = ["StreamTableEnvironment", "TableEnvironment"]

_StandIns = missing.stand_ins(__name__)


class TableEnvironment(_StandIns.TableEnvironment):
    """A table environment that can be created and configured; its Table API and SQL methods raise."""

    @classmethod
    def _made(cls, settings: EnvironmentSettings, root: Configuration = None):
        environment = cls.__new__(cls)
        environment._settings = settings
        own = Configuration(settings.get_configuration())
        environment._table_config = TableConfig((own, root))
        return environment

    @staticmethod
    def create(environment_settings: Union[EnvironmentSettings, Configuration]) -> 'TableEnvironment':
        if isinstance(environment_settings, Configuration):
            environment_settings = EnvironmentSettings.new_instance() \
                .with_configuration(environment_settings).build()
        elif not isinstance(environment_settings, EnvironmentSettings):
            raise TypeError("argument should be EnvironmentSettings or Configuration")
        return TableEnvironment._made(environment_settings)

    def get_config(self) -> TableConfig:
        return self._table_config

    def _catalog(self) -> dict:
        if not hasattr(self, "_tables"):
            self._tables = {}
        return self._tables

    def _stream_environment(self):
        """The StreamExecutionEnvironment a job of this table environment runs on."""
        from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment
        return StreamExecutionEnvironment.get_execution_environment(_configuration_of(self._table_config.to_map()))

    # functions ---------------------------------------------------------------------------------------
    def _functions(self) -> dict:
        if not hasattr(self, "_registered_functions"):
            self._registered_functions = {}
        return self._registered_functions

    def _register(self, name: str, function, if_exists_message: str):
        from pyflink_compat.table.sql.expressions import validation_error
        from pyflink_compat.table.udf import UserDefinedFunctionWrapper
        if not isinstance(function, UserDefinedFunctionWrapper):
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("Registering %r (not a Python udf or udtf)" % (function,), "table-api")
        functions = self._functions()
        if name.lower() in functions:
            raise validation_error(if_exists_message % name)
        functions[name.lower()] = function

    def create_temporary_function(self, path: str, function):
        """Registers a Python function (``udf`` / ``udtf``) for SQL under ``path``."""
        self._register(path, function, "Could not register temporary catalog function. A function "
                                       "'default_catalog.default_database.%s' does already exist.")

    def create_temporary_system_function(self, name: str, function):
        """Registers a Python function (``udf`` / ``udtf``) for SQL under ``name`` in every catalog."""
        self._register(name, function, "Could not register temporary system function. A function named '%s' "
                                       "does already exist.")

    def register_function(self, name: str, function):
        """Flink 1.x's name of create_temporary_system_function (removed in 2.0)."""
        from pyflink_compat.util.deprecation import removed_in_2
        removed_in_2("TableEnvironment.register_function", "use create_temporary_system_function", since="1.10")
        self.create_temporary_system_function(name, function)

    def drop_temporary_function(self, path: str) -> bool:
        return self._functions().pop(path.lower(), None) is not None

    def drop_temporary_system_function(self, name: str) -> bool:
        return self._functions().pop(name.lower(), None) is not None

    def list_user_defined_functions(self):
        return sorted(self._functions())

    def _bind_calls(self, node):
        """Bind the calls by name in ``node`` of functions registered here to them (the planner calls them)."""
        from sqlglot import exp
        functions = self._functions()
        for call in node.find_all(exp.Anonymous):
            function = functions.get(call.name.lower())
            if function is not None and call.args.get("function") is None:
                call.args["function"] = function

    def _parse(self, stmt: str) -> list:
        """The statements of ``stmt``, their calls of registered Python functions bound to them."""
        from pyflink_compat.table.sql import dialect
        statements = dialect.parse(stmt)
        for statement in statements:
            self._bind_calls(statement)
        from pyflink_compat.table.sql.planner import global_aggregation
        from pyflink_compat.table.sql.values_clause import inline_values
        return [inline_values(statement, self._register_values).transform(global_aggregation)
                for statement in statements]

    def _register_values(self, table) -> str:
        """A VALUES clause's rows as a catalog table under a name of its own, not listed (Flink names none)."""
        import attrs
        self._values_count = getattr(self, "_values_count", -1) + 1
        name = "%s%d" % (VALUES_TABLE_PREFIX, self._values_count)
        self._catalog()[name] = attrs.evolve(table, name=name)
        return name

    def execute_sql(self, stmt: str):
        from pyflink_compat.table.table_result import TableResult
        from sqlglot import exp
        statements = self._parse(stmt)
        if len(statements) != 1:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("Unsupported SQL query! executeSql() only accepts a single SQL statement.")
        statement = statements[0]
        if isinstance(statement, exp.Create) and (statement.args.get("kind") or "").upper() == "TABLE":
            self._create_table(statement)
            return TableResult.ok()
        if isinstance(statement, exp.Create) and (statement.args.get("kind") or "").upper() == "VIEW":
            self._register_view(statement.this.name, statement.expression,
                                bool(statement.args.get("exists")), permanent=not _is_temporary(statement))
            return TableResult.ok()
        if isinstance(statement, exp.Insert):
            return self._run_inserts([statement], "insert-into_default_catalog.default_database.%s"
                                     % statement.this.name)
        if isinstance(statement, (exp.Select, exp.Subquery, exp.Union)):
            return self._run_query(statement)
        if isinstance(statement, exp.Create) and (statement.args.get("kind") or "").upper() == "FUNCTION":
            self._create_function(statement)
            return TableResult.ok()
        if isinstance(statement, exp.Drop):
            self._drop(statement)
            return TableResult.ok()
        if isinstance(statement, exp.Describe):
            from pyflink_compat.table.sql.planner import describe_rows
            names = ["name", "type", "null", "key", "extras", "watermark"]
            return TableResult.of_rows(names, describe_rows(statement.this.name, self._catalog()))
        if isinstance(statement, exp.Use):
            if statement.args.get("kind") is not None and statement.args["kind"].name.upper() == "CATALOG":
                self.use_catalog(statement.this.name)
            elif statement.args.get("kind") is None:
                self.use_database(statement.this.name)
            else:
                self._unsupported_statement(stmt)
            return TableResult.ok()
        if isinstance(statement, exp.Command) and statement.name.upper() == "SHOW":
            shown = self._show(statement.expression.name)
            if shown is not None:
                return TableResult.of_rows(*shown)
        self._unsupported_statement(stmt)

    @staticmethod
    def _unsupported_statement(stmt: str):
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("The SQL statement '%s'" % " ".join(stmt.split())[:80], "table-api",
                                      "CREATE TABLE / VIEW / FUNCTION, DROP, DESCRIBE, SHOW TABLES / VIEWS / "
                                      "CATALOGS / DATABASES / CURRENT ..., USE, INSERT INTO and queries run")

    def _show(self, what: str):
        """(column names, rows) of SHOW ``what`` (TABLES [LIKE 'pattern'], VIEWS, CATALOGS, ...), None for a SHOW
        statement not there."""
        import re
        words = what.split(None, 2)
        subject = " ".join(words[:2]).upper() if words[0].upper() == "CURRENT" else words[0].upper()
        if subject in ("TABLES", "VIEWS"):
            names = self.list_tables() if subject == "TABLES" else self.list_views()
            rest = what.split(None, 1)[1:]
            if rest:
                like = re.fullmatch(r"(?i)LIKE\s+'((?:[^']|'')*)'", rest[0].strip())
                if like is None:
                    return None
                pattern = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c)
                                  for c in like.group(1).replace("''", "'"))
                names = [name for name in names if re.fullmatch(pattern, name, re.DOTALL)]
            return ["table name" if subject == "TABLES" else "view name"], [(name,) for name in names]
        if len(words) > (2 if subject.startswith("CURRENT") else 1):
            return None
        shown = {"CATALOGS": ("catalog name", self.list_catalogs()),
                 "DATABASES": ("database name", self.list_databases()),
                 "CURRENT CATALOG": ("current catalog name", [self.get_current_catalog()]),
                 "CURRENT DATABASE": ("current database name", [self.get_current_database()])}.get(subject)
        if shown is None:
            return None
        return [shown[0]], [(name,) for name in shown[1]]

    def _create_table(self, statement):
        from pyflink_compat.table.sql.catalog import table_of
        from pyflink_compat.table.sql.expressions import validation_error
        table = table_of(statement)
        tables = self._catalog()
        if table.name in tables:
            if statement.args.get("exists"):
                return
            raise validation_error("Could not execute CreateTable in path `default_catalog`.`default_database`"
                                      ".`%s`" % table.name)
        tables[table.name] = table
        if not _is_temporary(statement):
            self._permanent_names().add(table.name)

    def _permanent_names(self) -> set:
        """The tables and views in the catalog (created without TEMPORARY); the others are temporary."""
        if not hasattr(self, "_permanent"):
            self._permanent = set()
        return self._permanent

    # catalogs: one in-memory catalog of one database, as a table environment starts with
    def get_current_catalog(self) -> str:
        from pyflink_compat.table.catalog import DEFAULT_CATALOG
        return DEFAULT_CATALOG

    def get_current_database(self) -> str:
        from pyflink_compat.table.catalog import DEFAULT_DATABASE
        return DEFAULT_DATABASE

    def list_catalogs(self):
        return [self.get_current_catalog()]

    def list_databases(self):
        return [self.get_current_database()]

    def get_catalog(self, catalog_name: str):
        from pyflink_compat.table.catalog import Catalog
        return Catalog(self) if catalog_name == self.get_current_catalog() else None

    def use_catalog(self, catalog_name: str):
        from pyflink_compat.util.exceptions import CatalogException
        if catalog_name != self.get_current_catalog():
            raise CatalogException("org.apache.flink.table.catalog.exceptions.CatalogException: A catalog with "
                                   "name [%s] does not exist." % catalog_name)

    def use_database(self, database_name: str):
        from pyflink_compat.util.exceptions import CatalogException
        if database_name != self.get_current_database():
            raise CatalogException("org.apache.flink.table.catalog.exceptions.CatalogException: A database with "
                                   "name [%s] does not exist in the catalog: [%s]." % (database_name,
                                                                                      self.get_current_catalog()))

    def create_temporary_table(self, path: str, descriptor, ignoreIfExists: bool = False):
        """Registers the table a TableDescriptor declares (its connector, options and schema) under ``path``."""
        import attrs
        statement = self._parse(descriptor._create_table_sql(path))[0]
        if ignoreIfExists:
            statement.set("exists", True)
        self._create_table(statement)
        shown = descriptor.get_schema()._shown
        table = self._catalog()[path]
        self._catalog()[path] = attrs.evolve(
            table, columns=tuple(attrs.evolve(column, display=shown.get(column.name)) for column in table.columns),
            watermark_display=shown.get("WATERMARK"))

    def create_table(self, path: str, descriptor, ignoreIfExists: bool = False):
        """As create_temporary_table, the table in the catalog (which lives as long as the table environment, as
        Flink's default in-memory catalog)."""
        known = path in self._catalog()
        self.create_temporary_table(path, descriptor, ignoreIfExists)
        if not known:
            self._permanent_names().add(path)

    def from_descriptor(self, descriptor):
        """A table backed by a TableDescriptor (registered under an UnnamedTable$N name)."""
        name = self._unnamed()
        self.create_temporary_table(name, descriptor)
        return self.from_path(name)

    def _create_function(self, statement):
        """CREATE [TEMPORARY] [SYSTEM] FUNCTION name AS 'module.attribute' LANGUAGE PYTHON: the Python function
        (a udf / udtf) the module defines."""
        import importlib
        from sqlglot import exp
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        properties = statement.args.get("properties")
        languages = [each for each in (properties.expressions if properties is not None else [])
                     if isinstance(each, exp.LanguageProperty)]
        if not languages or languages[0].this.name.upper() != "PYTHON":
            raise UnsupportedFeatureError("CREATE FUNCTION of a Java function", "table-api",
                                          "Python functions (LANGUAGE PYTHON) run")
        path = statement.expression.name
        module_name, _, attribute = path.rpartition(".")
        function = getattr(importlib.import_module(module_name), attribute)
        name = statement.this.name
        if statement.args.get("exists") and name.lower() in self._functions():
            return
        self.create_temporary_system_function(name, function)

    def _drop(self, statement):
        from pyflink_compat.table.sql.expressions import validation_error
        kind = (statement.args.get("kind") or "").upper()
        for target in statement.args.get("tables") or [statement.this]:
            name = target.name
            if kind == "FUNCTION":
                found = self._functions().pop(name.lower(), None) is not None
                what = "Temporary system function %s" % name
            else:
                table = self._catalog().get(name)
                found = table is not None and ((kind == "VIEW") == (table.query is not None))
                if found:
                    del self._catalog()[name]
                    self._permanent_names().discard(name)
                what = "%s with identifier 'default_catalog.default_database.%s'" % (
                    "View" if kind == "VIEW" else "Table", name)
            if not found and not statement.args.get("exists"):
                raise validation_error("%s does not exist." % what)

    def list_tables(self):
        return sorted(name for name in self._catalog() if not name.startswith(_HIDDEN_PREFIXES))

    def list_views(self):
        return sorted(name for name, table in self._catalog().items()
                      if table.query is not None and not name.startswith(_HIDDEN_PREFIXES))

    def list_temporary_tables(self):
        return [name for name in self.list_tables() if name not in self._permanent_names()]

    def list_temporary_views(self):
        return [name for name in self.list_views() if name not in self._permanent_names()]

    def drop_temporary_table(self, table_path: str) -> bool:
        table = self._catalog().get(table_path)
        if table is None or table.query is not None or table_path in self._permanent_names():
            return False
        del self._catalog()[table_path]
        return True

    def drop_temporary_view(self, view_path: str) -> bool:
        table = self._catalog().get(view_path)
        if table is None or table.query is None or view_path in self._permanent_names():
            return False
        del self._catalog()[view_path]
        return True

    def _register_view(self, name: str, select, if_not_exists: bool = False, permanent: bool = False):
        from pyflink_compat.table.sql.expressions import validation_error
        from pyflink_compat.table.sql.planner import view_of
        tables = self._catalog()
        if name in tables:
            if if_not_exists:
                return
            raise validation_error("Could not execute CreateTable in path `default_catalog`.`default_database`.`%s`"
                                   % name)
        tables[name] = view_of(name, select, tables)
        if permanent:
            self._permanent_names().add(name)

    def sql_query(self, query: str):
        from sqlglot import exp
        from pyflink_compat.table.sql.expressions import validation_error
        from pyflink_compat.table.sql.planner import query_columns
        from pyflink_compat.table.table import Table
        statements = self._parse(query)
        if len(statements) != 1 or not isinstance(statements[0], (exp.Select, exp.Subquery, exp.Union)):
            raise validation_error("Unsupported SQL query! sqlQuery() only accepts a single SQL query.")
        query_columns(statements[0], self._catalog())        # validates it now, as Flink's planner does
        return Table(statements[0], self)

    def from_path(self, path: str):
        from sqlglot import exp
        from pyflink_compat.table.table import Table
        from pyflink_compat.table.sql.planner import relation_of
        select = exp.select("*").from_(exp.to_table(path))
        relation_of(select, self._catalog())
        table = Table(select, self)
        table._path = path
        return table

    def from_elements(self, elements, schema=None, verify_schema: bool = True):
        """A bounded table of ``elements`` (tuples, lists, Rows, dicts): columns named and typed by ``schema``
        (DataTypes.ROW, or column names with types inferred as PyFlink infers them)."""
        from sqlglot import exp
        from pyflink_compat.table.expression import Expression
        from pyflink_compat.table.sql.bridge import table_of_elements
        from pyflink_compat.table.table import Table
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        elements = list(elements)
        if any(isinstance(element, Expression) for element in elements):
            raise UnsupportedFeatureError("from_elements of expressions (row(...))", "table-api",
                                          "give the values as tuples")
        name = self._unnamed()
        self._catalog()[name] = table_of_elements(name, elements, schema)
        table = Table(exp.select("*").from_(exp.to_table(name)), self)
        table._name = name
        return table

    def from_pandas(self, pdf, schema=None, splits_num: int = 1):
        """A bounded table of a pandas DataFrame's rows: columns typed from its Arrow schema, or by ``schema``
        (DataTypes.ROW, column names, or a list of DataTypes)."""
        from sqlglot import exp
        from pyflink_compat.table.sql.pandas_tables import table_of_dataframe
        from pyflink_compat.table.table import Table
        name = self._unnamed()
        self._catalog()[name] = table_of_dataframe(name, pdf, schema)
        table = Table(exp.select("*").from_(exp.to_table(name)), self)
        table._name = name
        return table

    def create_temporary_view(self, view_path: str, table_or_data_stream, *fields_or_schema):
        from pyflink_compat.table.table import Table
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        if not isinstance(table_or_data_stream, Table):
            from pyflink_compat.table.sql.expressions import validation_error
            if view_path in self._catalog():
                raise validation_error("Temporary table '`default_catalog`.`default_database`.`%s`' already "
                                       "exists" % view_path, "createTemporaryView")
            select = self._register_stream(view_path, table_or_data_stream, fields_or_schema)
            if select is not None:
                self._register_stream_view(view_path, select)
            return
        if fields_or_schema:
            raise UnsupportedFeatureError("TableEnvironment.create_temporary_view with fields or a schema",
                                          "table-api")
        self._register_view(view_path, table_or_data_stream._select)

    def _register_stream_view(self, name: str, select):
        """The view showing a DataStream table's columns; the columns its SELECT lists in its meta "nullable"
        typed nullable (a proctime attribute of from_data_stream's expressions: Flink's legacy field mapping)."""
        self._register_view(name, select)
        nullable = select.meta.get("nullable") if select.meta else None
        if nullable:
            import attrs
            view = self._catalog()[name]
            self._catalog()[name] = attrs.evolve(view, columns=tuple(
                attrs.evolve(column, type=attrs.evolve(column.type, nullable=True)) if column.name in nullable
                else column for column in view.columns))

    def _register_stream(self, name: str, data_stream, fields_or_schema):
        """Register the table of a DataStream under ``name``; when a schema shows some of its columns only, the
        table is registered under a name of its own and the SELECT of the shown columns is returned (None
        otherwise)."""
        from sqlglot import exp
        from pyflink_compat.table.schema import Schema
        from pyflink_compat.table.expression import Expression, to_node
        from pyflink_compat.table.sql.bridge import (table_of_stream, table_of_stream_with_fields,
                                                     table_of_stream_with_schema)
        if len(fields_or_schema) == 1 and isinstance(fields_or_schema[0], Schema):
            source_name = "%s$source" % name
            table, shown = table_of_stream_with_schema(source_name, data_stream, fields_or_schema[0])
            if shown is not None:
                self._catalog()[source_name] = table
                return exp.select(*[exp.column(column, quoted=True) for column in shown]).from_(
                    exp.to_table(source_name))
            import attrs
            self._catalog()[name] = attrs.evolve(table, name=name)
            return None
        if not fields_or_schema:
            self._catalog()[name] = table_of_stream(name, data_stream)
            return None
        if not all(isinstance(field, Expression) for field in fields_or_schema):
            raise ValueError("Invalid arguments for 'fields': %r" % (fields_or_schema,))
        source_name = "%s$source" % name
        table, shown = table_of_stream_with_fields(source_name, data_stream,
                                                   [to_node(field) for field in fields_or_schema])
        if shown is not None:
            self._catalog()[source_name] = table
            return shown
        import attrs
        self._catalog()[name] = attrs.evolve(table, name=name)
        return None

    def _flat_aggregate_name(self) -> str:
        self._flat_aggregate_count = getattr(self, "_flat_aggregate_count", -1) + 1
        return "%s%d" % (FLAT_AGGREGATE_PREFIX, self._flat_aggregate_count)

    def _unnamed(self) -> str:
        """A name for a table that has none (Flink's UnnamedTable$N), under which SQL can read it."""
        self._unnamed_count = getattr(self, "_unnamed_count", -1) + 1
        return "UnnamedTable$%d" % self._unnamed_count

    def _build_environment(self):
        """The environment a table job's operations are added to: the StreamExecutionEnvironment of a
        StreamTableEnvironment (its DataStreams may be the job's tables), else the job's own."""
        return getattr(self, "_environment", None) or self._stream_environment()

    def _run_inserts(self, inserts: list, job_name: str):
        from pyflink_compat.table.sql.planner import JobBuilder
        from pyflink_compat.table.table_result import TableResult
        from pyflink_compat.runtime import job
        settings = self._stream_environment()
        build = self._build_environment()
        with _operations_kept_apart(build) as added, session_zone.applied(self._session_tz()):
            builder = JobBuilder(build, self._catalog(), self._table_config.to_map())
            for insert in inserts:
                builder.add_insert(insert)
        # As Flink, the job is submitted and runs in the background: TableResult.wait() waits for it, and
        # `pyflink-compat run` waits for the jobs a job file leaves running before it exits.
        run = job.start_in_background(settings._job_plan(added.sinks), job_name)
        return TableResult.of_job(run, ["%s.%s" % ("default_catalog.default_database", insert.this.name)
                                        for insert in inserts])

    def _run_query(self, select):
        """A query's job, started now (as Flink submits it): its rows are read by the TableResult's collect() or
        print()."""
        from pyflink_compat.plan import graph
        from pyflink_compat.runtime import job
        from pyflink_compat.table.sql.planner import JobBuilder
        from pyflink_compat.table.table_result import QueryRun, TableResult
        settings = self._stream_environment()
        build = self._build_environment()
        tz = self._session_tz()
        with _operations_kept_apart(build), session_zone.applied(tz):
            builder = JobBuilder(build, self._catalog(), self._table_config.to_map())
            changes, columns = builder.add_query(select)
        collect = graph.Node(kind=graph.COLLECT_SINK, name="Collect", output_type=changes._node.output_type,
                             input=changes._node, payload=None)
        run = job.execute_and_collect(settings._job_plan([collect]), collect, "collect", None)
        return TableResult.of_query(QueryRun(run, [column.name for column in columns],
                                             [column.type for column in columns],
                                             self._settings.is_streaming_mode(), tz))

    def _session_tz(self):
        """The time zone the job's work runs in when its session zone is not the machine's (Flink's error for a
        zone it does not know)."""
        return session_zone.job_tz(self._table_config.to_map())

    def create_statement_set(self):
        from pyflink_compat.table.statement_set import StatementSet
        return StatementSet(None, self)


class _operations_kept_apart:
    """Operations a table job adds to an environment belong to that job only: the sinks and streams added
    while it is built are taken out of the environment again (its own DataStream job does not run them), the
    sinks kept in ``sinks``."""

    def __init__(self, environment):
        self.environment = environment
        self.sinks = []

    def __enter__(self):
        self._sinks, self._streams = list(self.environment._sinks), dict(self.environment._streams)
        return self

    def __exit__(self, *failure):
        from pyflink_compat.plan import graph
        before = {id(sink) for sink in self._sinks}
        sinks = [sink for sink in self.environment._sinks if id(sink) not in before]
        streams = [node for key, node in self.environment._streams.items() if key not in self._streams]
        # a stream nothing reads (a blackhole table's rows) is computed and dropped, as in a DataStream job
        self.sinks = sinks + [graph.discard_sink(end) for end in graph.dangling_ends(streams, sinks)]
        self.environment._sinks, self.environment._streams = self._sinks, self._streams
        return False


def _configuration_of(options: dict) -> Configuration:
    configuration = Configuration()
    for key, value in options.items():
        configuration.set_string(key, value)
    return configuration


class StreamTableEnvironment(TableEnvironment, _StandIns.StreamTableEnvironment):
    """A StreamTableEnvironment over a StreamExecutionEnvironment: created and configured; converting
    between tables and data streams and its Table API and SQL methods raise."""

    @staticmethod
    def create(stream_execution_environment=None,
               environment_settings: EnvironmentSettings = None) -> 'StreamTableEnvironment':
        if stream_execution_environment is None and environment_settings is None:
            raise ValueError("No argument found, the param 'stream_execution_environment' "
                             "or 'environment_settings' is required.")
        if environment_settings is None:
            # Flink's table config over the environment's configuration: no own settings
            environment_settings = EnvironmentSettings(Configuration())
        root = (stream_execution_environment._configuration if stream_execution_environment is not None
                else None)
        made = StreamTableEnvironment._made(environment_settings, root)
        made._environment = stream_execution_environment
        return made

    def from_data_stream(self, data_stream, *fields_or_schema):
        """The table of a DataStream's elements (columns from its output type)."""
        from sqlglot import exp
        from pyflink_compat.table.table import Table
        name = self._unnamed()
        select = self._register_stream(name, data_stream, fields_or_schema)
        if select is not None:
            self._register_stream_view(name, select)
        table = Table(exp.select("*").from_(exp.to_table(name)), self)
        table._name = name
        if select is None:
            table._path = name          # its schema shows computed and metadata columns and the watermark
        return table

    def from_changelog_stream(self, data_stream, schema=None, changelog_mode=None):
        """The table of a DataStream of Rows whose RowKind says the change each is (+I, -U, +U, -D): an updating
        table, read as the changelog it is; with a schema and ``ChangelogMode.insert_only()`` an insert-only table
        (a Row of another kind fails the job, as in Flink), with ``ChangelogMode.upsert()`` upserts of the
        schema's primary key (normalized as Flink's ChangelogNormalize)."""
        from sqlglot import exp
        from pyflink_compat.table.changelog_mode import ChangelogMode
        from pyflink_compat.table.sql.bridge import as_changelog, as_insert_only, as_upsert
        from pyflink_compat.table.table import Table
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        if schema is None:
            changelog_mode = None       # PyFlink passes a changelog mode on only with a schema
        insert_only = changelog_mode == ChangelogMode.insert_only()
        upsert = changelog_mode == ChangelogMode.upsert()
        if changelog_mode is not None and changelog_mode != ChangelogMode.all() and not insert_only and not upsert:
            raise UnsupportedFeatureError("from_changelog_stream with %r" % changelog_mode, "table-api",
                                          "a changelog of all kinds (the default), of insertions only or of "
                                          "upserts is read")
        name = self._unnamed()
        select = self._register_stream(name, data_stream, () if schema is None else (schema,))
        if select is not None:
            import attrs
            source = self._catalog().pop("%s$source" % name)
            if [each.name for each in select.expressions] != source.column_names:
                raise UnsupportedFeatureError("from_changelog_stream with a schema showing some of the stream's "
                                              "columns", "table-api", "declare all of them in order, or none")
            self._catalog()[name] = attrs.evolve(source, name=name)   # a schema declaring them all, in order
        table = self._catalog()[name]
        self._catalog()[name] = as_insert_only(table) if insert_only else as_upsert(table) if upsert \
            else as_changelog(table)
        table = Table(exp.select("*").from_(exp.to_table(name)), self)
        table._name = table._path = name
        return table

    def to_data_stream(self, table):
        """The DataStream of an insert-only table's rows (Rows named as its columns), in this environment's job."""
        return self._data_stream_of(table, changelog=False)

    def to_changelog_stream(self, table, *args):
        """The DataStream of a table's changes: Rows whose RowKind is +I, -U, +U or -D."""
        if args:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("to_changelog_stream with a schema or changelog mode", "table-api")
        return self._data_stream_of(table, changelog=True)

    def to_append_stream(self, table, type_info):
        """Flink 1.x's to_data_stream of an insert-only table."""
        return self._data_stream_of(table, changelog=False)

    def _data_stream_of(self, table, changelog: bool):
        from sqlglot import exp
        from pyflink_compat.common.typeinfo import RowTypeInfo
        from pyflink_compat.table.sql.bridge import data_stream_row
        from pyflink_compat.table.sql.expressions import validation_error
        from pyflink_compat.table.sql.planner import JobBuilder
        if self._environment is None:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("to_data_stream of a StreamTableEnvironment made without a "
                                          "StreamExecutionEnvironment", "table-api")
        select = table._select.copy()
        if not changelog and isinstance(select, exp.Select) and select.args.get("group"):
            from pyflink_compat.table.sql.planner import plan_grouping, relation_of, compiler_of
            source = relation_of(select, self._catalog())
            grouping = plan_grouping(select, source, compiler_of(source))
            if grouping.window is None:
                raise validation_error(
                    "Table sink '*anonymous_datastream_sink$%d*' doesn't support consuming update changes which "
                    "is produced by node GroupAggregate(groupBy=[%s])"
                    % (getattr(self, "_unnamed_count", 0) + 1, ", ".join(grouping.key_sql)))
        if not changelog and isinstance(select, exp.Select) and not select.args.get("group"):
            from pyflink_compat.table.sql.planner import relation_of
            source = relation_of(select, self._catalog())
            if source.query is None and source.option("connector") == "upsert-kafka":
                raise validation_error(
                    "Table sink '*anonymous_datastream_sink$%d*' doesn't support consuming update and delete changes "
                    "which is produced by node ChangelogNormalize(key=[%s])"
                    % (getattr(self, "_unnamed_count", 0) + 1, ", ".join(source.primary_key)))
        builder = JobBuilder(self._environment, self._catalog(), self._table_config.to_map())
        changes, columns = builder.add_query(select)
        names = [column.name for column in columns]
        row_type = RowTypeInfo([column.type.type_info() for column in columns], names)
        row_type._row_kinds = changelog          # each Row's RowKind kept on its way through the job
        return changes.map(data_stream_row(names), output_type=row_type).name("SinkConversion")

    def _stream_environment(self):
        """An environment with the settings of the one it was created from (its configuration, parallelism and
        checkpointing), not that one itself: a SQL job does not take the DataStream sinks defined on it, as in
        Flink, where env.execute() runs those."""
        if self._environment is None:
            return super()._stream_environment()
        from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment
        own = _configuration_of(self._environment._configuration.to_dict())
        own.add_all(self._table_config.get_configuration())
        env = StreamExecutionEnvironment.get_execution_environment(own)
        env.set_parallelism(self._environment.get_parallelism())
        interval = self._environment.get_checkpoint_interval()
        if interval and interval > 0:
            env.enable_checkpointing(interval)
        return env


def _is_temporary(statement) -> bool:
    """Whether a CREATE statement says TEMPORARY."""
    from sqlglot import exp
    properties = statement.args.get("properties")
    return properties is not None and any(isinstance(each, exp.TemporaryProperty) for each in properties.expressions)

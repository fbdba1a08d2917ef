"""INSERT INTO ... SELECT planned as a DataStream pipeline of the mirror: the source table's connector and
format as a source, the projection and filter as one function (Flink's Calc), the sink table's connector and
format as a sink. The statements of one statement set go into one job, and every statement reading a table
reads the same stream: the source is read once (Flink reuses identical sources likewise)."""
import collections
import functools
import logging
from typing import Dict, List, Optional

import attrs
from sqlglot import exp

from pyflink_compat.common.watermark_strategy import TimestampAssigner
from pyflink_compat.plan import graph
from pyflink_compat.datastream.functions import ProcessFunction
from pyflink_compat.table.sql import (binary_keys, catalog as catalog_module, datagen_table, expressions, kafka_table,
                                      window_input)
from pyflink_compat.table.sql.catalog import SECTION, CatalogTable, Column, SqlType
from pyflink_compat.table.sql.bridge import ChangelogStreamRelation, UpsertStreamRelation
from pyflink_compat.table.sql.dialect import LIMIT_RANK
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError, table_exception

CATALOG_PATH = "default_catalog.default_database"
log = logging.getLogger("pyflink_compat")


def _refuse(what: str, advice: str = None):
    raise UnsupportedFeatureError(what, SECTION, advice)


# Column types whose values travel as typed row fields; rows with any other column are pickled: a TIMESTAMP, whose
# microseconds a SQL_TIMESTAMP field would cut to milliseconds (Flink keeps the fraction it reads), or the NULL
# type of a column that is only NULL.
_TYPED = ("INT", "BIGINT", "SMALLINT", "TINYINT", "STRING", "BOOLEAN", "DOUBLE", "FLOAT")


class _Identity:
    """An object as a key of the job's streams by identity, kept alive by the key: a key holding only ``id()`` of
    a relation planned and dropped could be taken by another relation made later at the same address (two
    aggregations of one job then read one stream)."""

    __slots__ = ("target",)

    def __init__(self, target):
        self.target = target

    def __hash__(self):
        return id(self.target)

    def __eq__(self, other):
        return isinstance(other, _Identity) and other.target is self.target


def _row_type(table: CatalogTable):
    """The type of the table's rows between the operators (None: pickled rows)."""
    from pyflink_compat.common.typeinfo import Types
    if any(column.type.name not in _TYPED for column in table.columns):
        return None
    return Types.ROW_NAMED(table.column_names, [column.type.type_info() for column in table.columns])


def _batch(builder) -> bool:
    """Whether the job runs in batch mode (``execution.runtime-mode`` BATCH): its aggregations give final
    results only."""
    return str(builder.options.get("execution.runtime-mode", "STREAMING")).upper() == "BATCH"


#: How far a batch job's watermark trails its time column: no window closes before the end of the input
BATCH_WATERMARK_DELAY_MS = 2 ** 62


def batch_time_attributes(tables: Dict[str, CatalogTable]) -> Dict[str, CatalogTable]:
    """The tables as a batch job reads them: Flink's batch planner windows and orders rows by any TIMESTAMP column,
    time attribute or not. A source table with no watermark and one TIMESTAMP / TIMESTAMP_LTZ column gets a
    watermark on it that no row ever passes, so that its windows give their results at the end of the input, as in
    batch execution (a table with several such columns keeps none)."""
    timed = {}
    for name, table in tables.items():
        stamps = [column.name for column in table.columns
                  if column.type is not None and column.type.name in ("TIMESTAMP", "TIMESTAMP_LTZ")
                  and column.type.time_attribute is None]
        if table.query is None and table.watermark is None and len(stamps) == 1:
            table = attrs.evolve(table, watermark=(stamps[0], BATCH_WATERMARK_DELAY_MS))
        timed[name] = table
    return timed


class JobBuilder:
    """The DataStream job of one or more INSERT statements."""

    def __init__(self, env, tables: Dict[str, CatalogTable], options: Dict[str, str] = None):
        self.env, self.tables, self.options = env, tables, options or {}
        if _batch(self):
            self.tables = batch_time_attributes(tables)
        from pyflink_compat.util import session_zone
        session_zone.tz_of(self.options.get(session_zone.KEY))         # Flink's error for a zone it does not know
        self.streams = {}                         # source table name -> its stream of Rows

    def table(self, name: str) -> CatalogTable:
        return _lookup(self.tables, name)

    def add_insert(self, insert: exp.Insert):
        if isinstance(insert.this, exp.Schema):
            insert = self._listed_columns_applied(insert)
        target = _insert_target(self.table(insert.this.name))
        select = insert.expression
        if isinstance(select, exp.Subquery):
            select = select.this
        if insert.args.get("conflict") is not None:
            self._check_on_conflict(insert.args["conflict"].args["action"].name.split()[-1], target, select)
        if isinstance(select, exp.Union):
            column_types = [column.type for column in target.columns]
            if union_of_changelogs(select, self.tables):
                self._check_union_columns(_union_branches(select), target)
                if target.option("connector") == kafka_table.KAFKA:
                    raise table_exception("Table sink '%s.%s' doesn't support consuming update and delete changes "
                                          "which is produced by node Union(all=[true])" % (CATALOG_PATH, target.name))
                self._sink_changes(self._union_changes(select, column_types), target)
                return
            self._sink(self._union_rows(select, column_types, target), target)
            return
        if not isinstance(select, exp.Select):
            _refuse("INSERT INTO ... %s" % type(select).__name__.upper())
        if _batch(self):
            query, order, _, last = _batch_sort_of(select)
            if order is not None or last is not None or _numbering_items(query):
                self._insert_at_end(select, target)
                return
        source = relation_of(select, self.tables)
        compiler = compiler_of(source)
        if _is_changelog_source(source) and not select.args.get("group"):
            projections = _projections(select, source, compiler)
            _check_columns(_projected_columns(projections), target)
            converters = [expressions.cast_to(compiled, column.type)
                          for (_, compiled), column in zip(projections, target.columns)]
            changes = self._changelog_changes(select, source, compiler, converters)
            if target.option("connector") == kafka_table.KAFKA and not (
                    isinstance(source.query, RankRelation) and source.query.insert_only):
                changes_kind, node = _updating_node(source)
                error = table_exception if node.startswith("GroupAggregate") else expressions.validation_error
                raise error("Table sink '%s.%s' doesn't support consuming %s which is produced by node %s"
                            % (CATALOG_PATH, target.name, changes_kind, node))
            self._sink_changes(changes, target)
            return
        if select.args.get("group"):
            grouping = plan_grouping(select, source, compiler)
            _check_columns(list(zip(grouping.names, grouping.types)), target)
            if grouping.window is None and target.option("connector") not in ("print", "blackhole",
                                                                                kafka_table.UPSERT_KAFKA):
                raise table_exception("Table sink '%s.%s' doesn't support consuming %s which is produced by "
                                      "node %s" % (CATALOG_PATH, target.name, "update and delete changes"
                                                   if _is_changelog_source(source) else "update changes",
                                                   grouping.node_text()))
            column_types = [column.type for column in target.columns]
            changes = self._shared(("changes", repr(select), _types_text(column_types)),
                                   lambda: grouping.changes(self, column_types))
            self._sink_changes(changes, target, grouping.upsert_key())
            return
        _refuse_window_table_without_aggregation(source)
        projections = _projections(select, source, compiler)
        _check_columns(_projected_columns(projections), target)
        condition = _condition(select, compiler)
        converters = [expressions.cast_to(compiled, column.type)
                      for (_, compiled), column in zip(projections, target.columns)]
        calc = _calc(condition, converters)
        rows = self._shared(("rows", repr(select), _types_text([column.type for column in target.columns])),
                            lambda: self._source_stream(source).flat_map(calc, output_type=_row_type(target))
                            .name("Calc"))
        self._sink(rows, target)

    def _insert_at_end(self, select, target: CatalogTable):
        """A batch INSERT of a query that sorts, limits or numbers its rows at the end of the input: the query's rows
        (add_query), cast to the sink's columns, in their order."""
        changes, columns = self.add_query(select)
        _check_columns([(column.name, column.type) for column in columns], target)
        converters = [expressions.cast_to((_field(position), column.type), sink_column.type)
                      for position, (column, sink_column) in enumerate(zip(columns, target.columns))]
        self._sink_changes(changes.map(_projected_change(converters)).name("Calc"), target)

    def _shared(self, key, build):
        """The stream of one query planned once for all the inserts of a job that write it (a statement set
        writing one table to two sinks): one operator, one state, its functions called once per row, as
        Flink's planner reuses a sub-plan (a processing-time window's rows then agree between the sinks)."""
        if key not in self.streams:
            self.streams[key] = build()
        return self.streams[key]

    def _check_union_columns(self, branches, target: CatalogTable):
        """The columns of a UNION ALL (the first branch's names, each column the common type of the branches')
        checked against the sink's."""
        typed = []
        for branch in branches:
            source = relation_of(branch, self.tables)
            typed.append(_projected_columns(_projections(branch, source, compiler_of(source))))
        if len({len(columns) for columns in typed}) != 1:
            return                  # the branches' own count check gives Flink's message
        columns = [(typed[0][i][0], expressions.common_type([columns[i][1] for columns in typed],
                                                            "SQL validation failed. Type mismatch in UNION ALL"))
                   for i in range(len(typed[0]))]
        _check_columns(columns, target)

    def _union_changes(self, union: exp.Union, column_types):
        """The changes (row kind, values) of a UNION ALL, each query's converted to ``column_types``: an updating
        query's as they come, an insert-only one's as insertions."""
        if not union_of_changelogs(union, self.tables):
            return self._union_rows(union, column_types).map(_insertion)
        branches = _union_branches(union)
        sources = [relation_of(branch, self.tables) for branch in branches]
        # an 'upsert-kafka' table several queries read is normalized once for all of them, as Flink's planner
        # reuses it: each change goes through each query's filter in turn, keeping its kind (-U in one, +U in
        # another), where one query alone has its filter applied inside the normalization (a row leaving it is
        # deleted)
        shared = collections.Counter(source.name for source in sources if _is_upsert_source(source))
        streams, queries_of = [], {}
        for branch, source in zip(branches, sources):
            compiler, _, converters = _union_branch(branch, source, column_types)
            if _is_upsert_source(source) and shared[source.name] > 1:
                if source.name not in queries_of:
                    queries_of[source.name] = []
                    streams.append((source, queries_of[source.name]))
                queries_of[source.name].append(_filtered_change(_condition(branch, compiler), converters))
            elif _is_changelog_source(source):
                streams.append(self._changelog_changes(branch, source, compiler, converters))
            else:
                _refuse_window_table_without_aggregation(source)
                streams.append(self._source_stream(source).flat_map(_calc(_condition(branch, compiler), converters))
                               .name("Calc").map(_insertion))
        streams = [self._relation_changes(each[0]).flat_map(_each_query(each[1])).name("Calc")
                   if isinstance(each, tuple) else each for each in streams]
        return streams[0].union(*streams[1:])

    def _union_rows(self, union: exp.Union, column_types, target: CatalogTable = None):
        """UNION ALL of queries of projections and filters: their rows, converted to ``column_types``, as one
        stream (each branch reads its table, a table read by several branches once). ``target``: the sink table
        of an INSERT, whose column types the union's must cast to."""
        branches = _union_branches(union)
        if target is not None:
            self._check_union_columns(branches, target)
        streams = []
        for branch in branches:
            source = relation_of(branch, self.tables)
            if not branch.args.get("group"):     # (_union_branch refuses that first)
                _refuse_window_table_without_aggregation(source)
            compiler, projections, converters = _union_branch(branch, source, column_types)
            row_type = _row_type(CatalogTable("union", tuple(Column(name, t) for (name, _), t
                                                            in zip(projections, column_types)), {}))
            streams.append(self._source_stream(source).flat_map(_calc(_condition(branch, compiler), converters),
                                                                output_type=row_type).name("Calc"))
        return streams[0].union(*streams[1:])

    def add_query(self, select):
        """The changelog stream of a query's result, (row kind, values) per change, and the result's columns
        (names and types): what TableResult.print() and collect() show."""
        if isinstance(select, exp.Subquery):
            select = select.this
        if isinstance(select, exp.Union):
            columns = query_columns(select, self.tables)
            return self._union_changes(select, [column.type for column in columns]), columns
        if _batch(self):
            select, order, first, last = _batch_sort_of(select)
            if order is not None or last is not None:
                return self._sorted_at_end(select, order, first, last)
            numbered = _numbering_items(select)
            if numbered:
                return self._numbered_at_end(select, numbered)
        source = relation_of(select, self.tables)
        compiler = compiler_of(source)
        if _is_changelog_source(source) and not select.args.get("group"):
            projections = _projections(select, source, compiler)
            columns = [Column(name, column_type) for name, (_, column_type) in projections]
            changes = self._changelog_changes(select, source, compiler, [function for _, (function, _)
                                                                         in projections])
            return changes, columns
        if select.args.get("group"):
            grouping = plan_grouping(select, source, compiler)
            return grouping.changes(self, grouping.types), grouping.columns()
        _refuse_window_table_without_aggregation(source)
        projections = _projections(select, source, compiler)
        calc = _calc(_condition(select, compiler), [function for _, (function, _) in projections])
        columns = [Column(name, column_type) for name, (_, column_type) in projections]
        rows = self._source_stream(source).flat_map(calc, output_type=_row_type(CatalogTable("q", tuple(columns),
                                                                                            {})))
        return rows.name("Calc").map(_insertion), columns

    def _listed_columns_applied(self, insert: exp.Insert) -> exp.Insert:
        """``INSERT INTO t (c, a) query``: the query's columns go to the listed ones in order, NULL to the others
        (Flink's validator's checks and messages), as an INSERT of all of the sink's columns."""
        target = _insert_target(self.table(insert.this.this.name))
        names = [column.name for column in target.columns]
        listed = []
        for identifier in insert.this.expressions:
            where = _position(identifier)
            if identifier.name not in names:
                raise expressions.validation_error("SQL validation failed. %s: Unknown target column '%s'"
                                                   % (where, identifier.name))
            if identifier.name in listed:
                raise expressions.validation_error("SQL validation failed. %s: Target column '%s' is assigned more "
                                                   "than once" % (where, identifier.name))
            listed.append(identifier.name)
        query = insert.expression.this if isinstance(insert.expression, exp.Subquery) else insert.expression
        query = self._star_expanded(query)
        rows = query.expressions if isinstance(query, exp.Values) else [query]
        if not isinstance(query, (exp.Select, exp.Values)) or any(
                isinstance(item, exp.Star) or isinstance(item, exp.Column) and isinstance(item.this, exp.Star)
                for item in (query.expressions if isinstance(query, exp.Select) else ())):
            _refuse("INSERT INTO a column list of %s" % ("SELECT *" if isinstance(query, exp.Select) else
                                                         type(query).__name__.upper()),
                    "name the query's columns, or select the sink's columns in its order")
        for row in rows:
            if len(row.expressions) != len(listed):
                spans = [node.meta for node in row.walk() if node.meta.get("start") is not None]
                start = min(meta["start"] for meta in spans) - len("SELECT ") if spans else -1
                end = max(meta["end"] for meta in spans) if spans else -1
                raise expressions.validation_error(
                    "SQL validation failed. From line 1, column %d to line 1, column %d: Number of columns must "
                    "match number of query columns" % (start + 1, end + 1))
        for column in target.columns:
            if column.name not in listed and not column.type.nullable:
                raise expressions.validation_error("SQL validation failed. At line 0, column 0: Column '%s' has no "
                                                   "default value and does not allow NULLs" % column.name)
        from pyflink_compat.table.sql.dialect import parse_type
        query = query.copy()
        for row in (query.expressions if isinstance(query, exp.Values) else [query]):
            given = list(row.expressions)
            row.set("expressions", [
                given[listed.index(column.name)] if column.name in listed else
                exp.alias_(exp.Cast(this=exp.Null(), to=parse_type(column.type.text())), column.name, quoted=True)
                if isinstance(query, exp.Select) else exp.Cast(this=exp.Null(), to=parse_type(column.type.text()))
                for column in target.columns])
        return exp.Insert(this=insert.this.this.copy(), expression=query, conflict=insert.args.get("conflict"))

    def _star_expanded(self, query):
        """``SELECT * FROM t`` (what VALUES rows become) with t's columns named instead of '*'."""
        if not isinstance(query, exp.Select) or query.args.get("joins") or len(query.expressions) != 1 \
                or not isinstance(query.expressions[0], exp.Star):
            return query
        source = query.args.get("from_")
        if source is None or not isinstance(source.this, exp.Table) or source.this.name not in self.tables:
            return query
        expanded = query.copy()
        expanded.set("expressions", [exp.column(column.name, quoted=True)
                                     for column in self.tables[source.this.name].columns if not column.virtual])
        return expanded

    def _check_on_conflict(self, strategy: str, target: CatalogTable, query):
        """Flink 2.3's ON CONFLICT: for sinks taking updates only; DO DEDUPLICATE writes each change as it comes
        (the latest row of a key wins), DO NOTHING and DO ERROR need watermarks on every source table."""
        if target.option("connector") == kafka_table.KAFKA:
            raise expressions.validation_error(
                "ON CONFLICT clause is only allowed for upsert sinks. The sink '%s.%s' is not an upsert sink because "
                "it only accepts INSERT (append-only) changes." % (CATALOG_PATH, target.name))
        if strategy == "DEDUPLICATE":
            return
        without = [name for name in self._source_tables(query) if self.table(name).watermark is None]
        if without:
            raise expressions.validation_error(
                "ON CONFLICT DO %s requires all source tables to define watermarks, but the following source(s) do "
                "not: %s. Please add a WATERMARK declaration to these tables."
                % (strategy, ", ".join("%s.%s" % (CATALOG_PATH, name) for name in without)))
        _refuse("INSERT ... ON CONFLICT DO %s" % strategy, "ON CONFLICT DO DEDUPLICATE runs")

    def _source_tables(self, query) -> List[str]:
        """The names of the connector tables a query reads, through the views it reads, in the order named (a
        table read twice named twice, as Flink lists its scans)."""
        names = []
        for table in query.find_all(exp.Table):
            if table.name not in self.tables:
                continue
            found = self.tables[table.name]
            if found.query is None:
                names.append(table.name)
            elif isinstance(found.query, exp.Expression):
                names.extend(self._source_tables(found.query))
        return names

    def _sink_changes(self, changes, target: CatalogTable, upsert_key=None):
        """A changelog stream of (row kind, values) into a print or blackhole table (or, insertions only, into
        any sink table). ``upsert_key``: the positions of the columns the rows are keyed by, when known: an
        upsert table whose primary key does not hold them gets Flink's sink upsert materializer first."""
        from pyflink_compat.common.typeinfo import Types
        if target.option("connector") == "blackhole":
            return
        if target.option("connector") not in ("print", kafka_table.UPSERT_KAFKA):    # insertions only
            self._sink(changes.map(_values_row, output_type=_row_type(target)), target)    # _sink enforces
            return
        enforcer = self._not_null_enforcer(target, changelog=True)
        if enforcer is not None:
            changes = changes.flat_map(enforcer).name("ConstraintEnforcer")
        lengths = _length_enforcer(target, changelog=True)
        if lengths is not None:
            changes = changes.map(lengths).name("ConstraintEnforcer")
        if target.option("connector") == kafka_table.UPSERT_KAFKA:
            primary = [[column.name for column in target.columns].index(name) for name in target.primary_key]
            if upsert_key is not None and not set(upsert_key) <= set(primary):
                changes = self._materialized(changes, target, primary, upsert_key)
            layout = kafka_table.layout_of(target, kafka_table.SINK)
            records = changes.flat_map(_upsert_records(kafka_table.upsert_record(target, layout)),
                                       output_type=kafka_table.record_type())
            records.sink_to(kafka_table.sink(target, layout))
            return
        identifier = target.option("print-identifier")
        lines = changes.map(_change_line([column.type for column in target.columns]), output_type=Types.STRING())
        lines.print(identifier)

    def _materialized(self, changes, target: CatalogTable, primary: list, upsert_key):
        """Flink's SinkMaterializer: the changes keyed by the sink's primary key, each key's latest row kept
        (changelog.SinkUpsertMaterializer), as Flink's planner adds it when rows of several upsert keys may map to
        one primary key (ON CONFLICT DO DEDUPLICATE in Flink 2.3)."""
        from pyflink_compat.table.sql.changelog import SinkUpsertMaterializer
        key_type = binary_keys.key_type_of([target.columns[i].type for i in primary])
        return changes.map(_keyed_by(primary)).name("Calc").key_by(_group_key, key_type) \
            .process(SinkUpsertMaterializer(upsert_key)).name("SinkMaterializer")

    def _changelog_changes(self, select, source: CatalogTable, compiler, converters):
        """The changes of a query's projections and filter over an updating relation: an 'upsert-kafka' table
        or a left outer join."""
        if _is_upsert_source(source):
            return self._normalized_changes(select, source, compiler, converters)
        if isinstance(source.query, UnionRelation):
            changes = self._union_changes(source.query.union, [column.type for column in source.columns])
            return changes.flat_map(_filtered_change(_condition(select, compiler), converters)).name("Calc")
        if isinstance(source.query, UpdatingView):         # a projection of a projection of an updating relation
            view = source.query
            inner_compiler = compiler_of(view.source)
            inner = [function for _, (function, _) in _projections(view.select, view.source, inner_compiler)]
            changes = self._changelog_changes(view.select, view.source, inner_compiler, inner)
            return changes.flat_map(_filtered_change(_condition(select, compiler), converters)).name("Calc")
        if isinstance(source.query, RankRelation):
            return self._ranked_changes(select, source, compiler, converters)
        if isinstance(source.query, ChangelogStreamRelation):
            return self._stream_changes(source).flat_map(_filtered_change(_condition(select, compiler), converters)) \
                .name("Calc")
        if isinstance(source.query, TableAggregateRelation):
            return self._table_aggregate_changes(source).flat_map(
                _filtered_change(_condition(select, compiler), converters)).name("Calc")
        if isinstance(source.query, UpsertStreamRelation):
            return self._upsert_stream_changes(select, source, compiler, converters)
        condition = _condition(select, compiler)
        changes = self._grouped_changes(source) if isinstance(source.query, GroupedRelation) \
            else self._joined_stream(source)
        return changes.flat_map(_filtered_change(condition, converters)).name("Calc")

    def _stream_changes(self, table: CatalogTable):
        """The changes of a changelog stream's table (from_changelog_stream), read once per job."""
        from pyflink_compat.table.sql.bridge import changes_of
        key = ("changelog-stream", _Identity(table.query), table.name)
        if key not in self.streams:
            rows = table.query.rows
            self.streams[key] = rows.stream.map(changes_of(rows)).name("SourceConversion[%s]" % table.name)
        return self.streams[key]

    def _upsert_stream_changes(self, select, source: CatalogTable, compiler, converters):
        """The changes of a query's projections and filter over an upsert changelog stream's table: its rows
        normalized per primary key (ChangelogNormalize, the filter inside it), then projected."""
        from pyflink_compat.table.sql.bridge import upserts_of
        if not source.primary_key:
            raise table_exception("Table '%s' produces a changelog stream that contains UPDATE_AFTER but no "
                                  "UPDATE_BEFORE. This requires defining a primary key constraint on the table."
                                  % source.name)
        positions = [source.column_names.index(name) for name in source.primary_key]
        rows = source.query.rows
        upserts = rows.stream.map(upserts_of(rows, positions)).name("SourceConversion[%s]" % source.name)
        return _normalized(upserts, source, select, compiler, converters)

    def _table_aggregate_changes(self, table: CatalogTable):
        """The changelog of a flat_aggregate's table (its table aggregation added to the job once)."""
        key = ("table-aggregate", _Identity(table.query))
        if key not in self.streams:
            relation = table.query
            grouping = plan_grouping(relation.select, relation.source, compiler_of(relation.source))
            self.streams[key] = grouping.table_aggregate_changes(self, [column.type for column in table.columns])
        return self.streams[key]

    def _relation_changes(self, table: CatalogTable):
        """All changes (row kind, values) of an updating relation, its columns as they are: a side of a join."""
        select = exp.select("*").from_(exp.to_table(table.name))
        identities = [_column_at(position) for position in range(len(table.columns))]
        return self._changelog_changes(select, table, compiler_of(table), identities)

    def _grouped_changes(self, view: CatalogTable):
        """The changelog of a GROUP BY view (its aggregation added to the job once)."""
        key = ("grouped", view.name, _Identity(view.query))
        if key not in self.streams:
            relation = view.query
            grouping = plan_grouping(relation.select, relation.source, compiler_of(relation.source))
            self.streams[key] = grouping.changes(self, grouping.types)
        return self.streams[key]

    def _ranked_changes(self, select, source: CatalogTable, compiler, converters):
        """The changes of a query over a ROW_NUMBER() view: its filter on the row number makes a Top-N (or, with
        rn = 1 over a time attribute, a deduplication); the rest of the filter and
        the projections apply to the changes."""
        from pyflink_compat.table.sql import ranking
        relation = source.query
        deduplicated = False
        where = select.args.get("where")
        first, limit, rest = _rank_limit(where.this if where is not None else None, relation.rank_name)
        if limit is None:
            _refuse("ROW_NUMBER() OVER (...) without a filter rn <= N (or rn < N, rn = 1) on the query of it",
                    "Top-N queries and deduplication run")
        condition = None if not rest else compiler.compile(rest[0] if len(rest) == 1 else exp.and_(*rest))[0]
        selected = any((isinstance(node, exp.Star) and relation.rank_name != LIMIT_RANK)
                       or (isinstance(node, exp.Column) and node.name == relation.rank_name)
                       for item in select.expressions for node in item.walk())
        time_order = relation.time_order if len(relation.order) == 1 and relation.rank_name != LIMIT_RANK else None
        updating = _is_changelog_source(relation.base)
        if updating:
            if not isinstance(relation.base.query, GroupedRelation):
                _refuse("Top-N over an outer join or an 'upsert-kafka' table", "Top-N over a GROUP BY view runs")
            operator, name = ranking.RetractableTopN(
                limit, tuple(desc for _, desc, _ in relation.order), relation.rank_position if selected else None,
                first, tuple(nulls_first for _, _, nulls_first in relation.order)), "Rank(strategy=[RetractStrategy])"
        elif limit == 1 and first == 1 and time_order is not None:
            # rn = 1 is a constant that Flink takes out of the rank before it plans a Deduplicate, also
            # where the query selects it
            deduplicated = True
            descending = relation.order[0][1]
            name = "Deduplicate(keep=[%s])" % ("LastRow" if descending else "FirstRow")
            operator = (ranking.FirstRowAtWatermark() if time_order == "rowtime" and not descending
                        else ranking.Deduplicate(keep_last=descending))
        else:
            operator, name = ranking.AppendOnlyTopN(limit, tuple(desc for _, desc, _ in relation.order),
                                                    relation.rank_position if selected else None, first,
                                                    tuple(nulls_first for _, _, nulls_first in relation.order)), "Rank"
        key = ("rank", _Identity(relation), first, limit, selected)
        if key not in self.streams:
            if updating:
                rows = self._grouped_changes(relation.base).flat_map(relation.keyed_changes())
            else:
                rows = self._source_stream(relation.base).flat_map(relation.keyed_rows(time_order == "proctime"))
            self.streams[key] = rows.name("Calc").key_by(_group_key, relation.key_type).process(operator).name(name)
        width = len(source.columns)
        # the row number's place kept where the operator does not give it: NULL where the query does not select
        # it, 1 after a deduplication
        added = () if selected and not deduplicated else ((relation.rank_position, 1 if selected else None),)

        def widened(change):
            kind, values = change
            if added:
                values = list(values)
                values.insert(*added[0])
            return kind, tuple(values)[:width]
        return self.streams[key].map(widened).flat_map(_filtered_change(condition, converters)).name("Calc")

    def _normalized_changes(self, select, source: CatalogTable, compiler, converters):
        """The changes (row kind, values) of a query's projections and filter over an 'upsert-kafka' table: its
        records normalized per primary key (ChangelogNormalize, the filter inside it), then projected."""
        from pyflink_compat.common.watermark_strategy import WatermarkStrategy
        layout = kafka_table.layout_of(source, kafka_table.SOURCE)
        kafka, _ = kafka_table.source(source, layout, self._idle_timeout_ms())
        records = self.env.from_source(kafka, WatermarkStrategy.no_watermarks(),
                                       "KafkaSource-%s.%s" % (CATALOG_PATH, source.name))
        upserts = records.flat_map(kafka_table.upsert_reader(source, layout)).name("%s/%s[%s]" % (
            layout.key_format, layout.value_format, source.name))
        return _normalized(upserts, source, select, compiler, converters)

    # sources ---------------------------------------------------------------------------------------
    def _source_stream(self, table: CatalogTable):
        from pyflink_compat.table.sql.bridge import DataStreamRelation, ElementsRelation, rows_of
        if isinstance(table.query, ElementsRelation):
            key = ("elements", _Identity(table.query))
            if key not in self.streams:
                from pyflink_compat.common.types import Row
                self.streams[key] = self.env.from_collection([Row(*row) for row in table.query.rows],
                                                             type_info=_row_type(table))
            return self.streams[key]
        if isinstance(table.query, DataStreamRelation):
            key = ("datastream", _Identity(table.query), table.name)
            if key not in self.streams:
                self.streams[key] = self._data_stream_source(table)
            return self.streams[key]
        if table.query is not None:
            return self._view_stream(table)
        if table.name not in self.streams:
            connector = table.option("connector")
            if connector == kafka_table.UPSERT_KAFKA:
                _refuse("Reading an 'upsert-kafka' table through a view, a join, UNNEST or GROUP BY",
                        "projections and filters of it run (INSERT INTO ... SELECT ... FROM it, and queries)")
            if connector == datagen_table.DATAGEN:
                self.streams[table.name] = self._datagen_source(table)
                return self.streams[table.name]
            if connector != "kafka":
                _refuse("The '%s' connector as a source" % connector, "sources are Kafka and 'datagen' tables")
            self.streams[table.name] = self._kafka_source(table)
        return self.streams[table.name]

    def _view_stream(self, view: CatalogTable):
        """The rows of a view: its query's projections and filter over its own source (read once per job)."""
        if isinstance(view.query, (GroupedRelation, UpdatingView)):
            _refuse("A join, UNNEST, window or OVER aggregation of a GROUP BY view",
                    "projections and filters of it, and Top-N over it, run")
        if isinstance(view.query, UnnestRelation):
            return self._unnested_stream(view)
        if isinstance(view.query, UnionRelation):
            key = ("union", view.name, _Identity(view.query))
            if key not in self.streams:
                self.streams[key] = self._union_rows(view.query.union, [column.type for column in view.columns]) \
                    .map(lambda row: row, output_type=_row_type(view)).name("Calc[%s]" % view.name)
            return self.streams[key]
        if isinstance(view.query, WindowTableRelation):       # its window columns come with the aggregation
            return self._source_stream(view.query.base)
        if isinstance(view.query, WindowedRelation):
            key = ("windowed", view.name, _Identity(view.query))
            if key not in self.streams:
                grouping = view.query.grouping
                self.streams[key] = grouping.changes(self, grouping.types).map(
                    _values_row, output_type=_row_type(view)).name("Calc[%s]" % view.name)
            return self.streams[key]
        if isinstance(view.query, OverRelation):
            key = ("over", view.name, _Identity(view.query))
            if key not in self.streams:
                relation = view.query
                self.streams[key] = self._source_stream(relation.base).flat_map(relation.keyed_rows()).name("Calc") \
                    .key_by(_group_key, relation.key_type) \
                    .process(relation.operator, output_type=_row_type(view)).name("OverAggregate")
            return self.streams[key]
        if isinstance(view.query, SortedRelation):
            return self._sorted_stream(view.query)
        if isinstance(view.query, JoinRelation):
            if view.query.updating:
                _refuse("A UNION, UNNEST, window or OVER aggregation of an outer join (or of a join of a changelog)",
                        "its projections, filters, GROUP BY and joins run")
            return self._joined_stream(view)
        key = ("view", view.name, _Identity(view.query))
        if key not in self.streams:
            select = view.query
            source = relation_of(select, self.tables)
            compiler = compiler_of(source)
            if select.args.get("group"):
                _refuse("A view or subquery with GROUP BY", "insert the aggregation into its sink directly")
            projections = _projections(select, source, compiler)
            condition = _condition(select, compiler)
            calc = _calc(condition, [function for _, (function, _) in projections])
            self.streams[key] = self._source_stream(source).flat_map(calc, output_type=_row_type(view)) \
                .name("Calc[%s]" % view.name)
        return self.streams[key]

    def _sorted_at_end(self, select, order, first: int, last: Optional[int]):
        """A batch query's final rows sorted by its ORDER BY (``order``, or None), ranks ``first`` to ``last`` of
        them (LIMIT / OFFSET), once its bounded input has ended, as Flink's batch Sort / SortLimit. The sort keys of
        a query without GROUP BY are computed from its input (hidden columns of the result); those of a GROUP BY
        are its result's columns (by name, alias or position) or an aggregate it selects."""
        from pyflink_compat.table.sql import ranking
        unsorted = select.copy()
        for clause in ("order", "limit", "offset"):
            unsorted.set(clause, None)
        keys = [] if order is None else list(order.expressions)
        grouped = select.args.get("group") is not None
        hidden = 0
        if keys and not grouped:
            aliases = {item.alias: item.this for item in select.expressions if isinstance(item, exp.Alias)}
            for position, each in enumerate(keys):
                node = each.this
                if isinstance(node, exp.Literal) and not node.is_string:
                    continue
                if isinstance(node, exp.Column) and not node.table and node.name in aliases:
                    node = aliases[node.name]
                unsorted.append("expressions", exp.alias_(node.copy(), exp.to_identifier("$sort%d" % position,
                                                                                         quoted=True)))
                keys[position] = each.copy()
                keys[position].set("this", exp.column(exp.to_identifier("$sort%d" % position, quoted=True)))
            hidden = len(unsorted.expressions) - len(select.expressions)
        changes, columns = self.add_query(unsorted)
        width = len(columns) - hidden
        output = expressions.Compiler({column.name: (position, column.type)
                                       for position, column in enumerate(columns)})
        sort = []
        for each in keys:
            node = each.this
            if isinstance(node, exp.Literal) and not node.is_string and 1 <= int(node.this) <= width:
                node = exp.column(exp.to_identifier(columns[int(node.this) - 1].name, quoted=True))
            selected = next((position for position, item in enumerate(select.expressions)
                             if (item.this if isinstance(item, exp.Alias) else item).sql() == node.sql()), None)
            if grouped and selected is not None and not isinstance(node, exp.Column):
                node = exp.column(exp.to_identifier(columns[selected].name, quoted=True))
            try:
                function = output.compile(node)[0]
            except (JavaStyleError, UnsupportedFeatureError):
                _refuse("ORDER BY %s of a batch GROUP BY query (not a column of its result)" % node.sql(),
                        "ORDER BY the result's columns, their aliases or positions")
            sort.append(_sort_key(each, function))
        text = "Sort(%s)" % order.sql() if order is not None else "Limit"
        sorted_changes = changes.key_by(_no_key, binary_keys.key_type_of([])) \
            .process(ranking.SortAtEndOfInput(sort, first, last, width)).name(text).set_parallelism(1)
        return sorted_changes, columns[:width]

    def _numbered_at_end(self, select, numbered):
        """A batch query selecting ROW_NUMBER(), RANK() or DENSE_RANK() OVER (...) (no filter on it): every row with
        its number, at the end of the bounded input."""
        from pyflink_compat.table.sql import ranking
        if len(numbered) > 1 or select.args.get("group") is not None:
            _refuse("Several OVER windows, or one over a GROUP BY, in a batch query")
        position = numbered[0]
        if not isinstance(select.expressions[position], exp.Alias):           # named as Flink names it
            select = select.copy()
            item = select.expressions[position]
            item.replace(exp.alias_(item.copy(), exp.to_identifier("EXPR$%d" % position, quoted=True)))
        window = select.expressions[position].this
        source = relation_of(select, self.tables)
        relation, columns = _numbered_relation(select, source, compiler_of(source), position, None)
        ordered = relation.order
        function = {exp.RowNumber: "ROW_NUMBER", exp.Rank: "RANK", exp.DenseRank: "DENSE_RANK"}[type(window.this)]
        operator = ranking.NumberAtEndOfInput(function, tuple(desc for _, desc, _ in ordered),
                                              tuple(first for _, _, first in ordered), position)
        numbered_changes = self._source_stream(source).flat_map(relation.keyed_rows(False)).name("Calc") \
            .key_by(_no_key, binary_keys.key_type_of([])).process(operator).name("OverAggregate").set_parallelism(1)
        return numbered_changes, columns

    def _sorted_stream(self, relation: "SortedRelation"):
        from pyflink_compat.table.sql import ranking
        key = ("sorted", _Identity(relation))
        if key not in self.streams:
            operator = (ranking.RowTimeSort(relation.order) if relation.time_order == "rowtime"
                        else ranking.ProcessingTimeSort(relation.order))
            # one instance, as Flink's planner runs a sort (a sink after it too: _single_subtask_input)
            self.streams[key] = self._source_stream(relation.base) \
                .key_by(_no_key, binary_keys.key_type_of([])) \
                .process(operator, output_type=_row_type(relation.base)).name("TemporalSort(%s)" % relation.text) \
                .set_parallelism(1)
        return self.streams[key]

    def _joined_stream(self, table: CatalogTable):
        """The joined rows of an inner join of insert-only sides; the changes (row kind, values) of an outer join
        or of a join of a changelog."""
        from pyflink_compat.table.sql.joins import InnerJoin, IntervalJoin, OuterJoin
        relation = table.query
        key = ("join", _Identity(relation.left.query), relation.left.name, relation.right.name, relation.text)
        if key not in self.streams:
            sides = []
            for side, keys, outer in ((relation.left, relation.left_keys, relation.side in ("LEFT", "FULL")),
                                      (relation.right, relation.right_keys, relation.side in ("RIGHT", "FULL"))):
                if _is_changelog_source(side):
                    sides.append(self._relation_changes(side).flat_map(_keyed_change(keys, outer)).name("Calc"))
                else:
                    sides.append(self._source_stream(side).flat_map(_keyed_side(keys, outer)).name("Calc"))
            left, right = sides
            keyed = left.connect(right).key_by(_group_key, _group_key, key_type=relation.key_type)
            if relation.interval is not None:
                left_time, right_time, lower_ms, upper_ms = relation.interval
                join = IntervalJoin(relation.condition, len(relation.left.columns), len(relation.right.columns),
                                    relation.side in ("LEFT", "FULL"), relation.side in ("RIGHT", "FULL"),
                                    left_time, right_time, lower_ms, upper_ms)
                self.streams[key] = keyed.process(join, output_type=_row_type(table)).name(
                    "IntervalJoin(joinType=[%s])" % relation.join_type())
            elif relation.updating:
                join = OuterJoin(relation.condition, len(relation.left.columns), len(relation.right.columns),
                                 relation.side in ("LEFT", "FULL"), relation.side in ("RIGHT", "FULL"),
                                 (_is_changelog_source(relation.left), _is_changelog_source(relation.right)))
                self.streams[key] = keyed.process(join).name("Join(joinType=[%s])" % relation.join_type())
            else:
                self.streams[key] = keyed.process(InnerJoin(relation.condition), output_type=_row_type(table)) \
                    .name("Join")
        return self.streams[key]

    def _unnested_stream(self, table: CatalogTable):
        relation = table.query
        key = ("unnest", relation.base.name, _Identity(relation.base.query), relation.text)
        if key not in self.streams:
            self.streams[key] = self._source_stream(relation.base).flat_map(
                _expand(relation), output_type=_row_type(table)).name("Correlate")
        return self.streams[key]

    def _kafka_source(self, table: CatalogTable):
        from pyflink_compat.common.watermark_strategy import WatermarkStrategy
        layout = kafka_table.layout_of(table, kafka_table.SOURCE)
        source, to_rows = kafka_table.source(table, layout, self._idle_timeout_ms())
        stream = self.env.from_source(source, WatermarkStrategy.no_watermarks(),
                                      "KafkaSource-%s.%s" % (CATALOG_PATH, table.name))
        read = attrs.evolve(table, columns=tuple(table.reader_columns))
        formats = layout.value_format if layout.key_format is None else "%s/%s" % (layout.key_format,
                                                                                   layout.value_format)
        rows = stream.flat_map(to_rows, output_type=_row_type(read)).name("%s[%s]" % (formats, table.name))
        if list(read.columns) != list(table.columns):
            rows = rows.map(_with_computed_columns(table), output_type=_row_type(table)).name("computed columns")
        if table.watermark is not None:
            rows = rows.assign_timestamps_and_watermarks(self._watermark_strategy(table))
        return rows

    def _data_stream_source(self, table: CatalogTable):
        """The rows of a DataStream's table: its elements as rows (with the record's timestamp for a 'rowtime'
        metadata column), computed columns, the watermark of a WATERMARK (the stream's own for
        SOURCE_WATERMARK())."""
        from pyflink_compat.table.sql.bridge import rows_of
        relation = table.query
        read = attrs.evolve(table, columns=tuple(table.reader_columns))
        to_row = rows_of(relation.shape, relation.instants, relation.floats, relation.insert_only)
        if table.metadata_columns:
            rows = relation.stream.process(_WithRecordTimestamp(to_row, relation.rowtime_required),
                                           output_type=_row_type(read))
        else:
            rows = relation.stream.map(to_row, output_type=_row_type(read))
        rows = rows.name("SourceConversion[%s]" % table.name)
        if list(read.columns) != list(table.columns):
            rows = rows.map(_with_computed_columns(table), output_type=_row_type(table)).name("computed columns")
        if table.watermark is not None and table.watermark[1] is not None:
            rows = rows.assign_timestamps_and_watermarks(self._watermark_strategy(table))
        return rows

    def _datagen_source(self, table: CatalogTable):
        if table.metadata_columns:
            raise expressions.validation_error(
                "Table '%s.%s' declares metadata columns, but the underlying DynamicTableSource doesn't implement "
                "the SupportsReadingMetadata interface. Therefore, metadata cannot be read from the given source."
                % (CATALOG_PATH, table.name))
        spec = datagen_table.spec_of(table)
        physical = attrs.evolve(table, columns=tuple(table.physical_columns))
        rows = self.env._from_datagen(spec, _row_type(physical), "DataGenSource-%s.%s" % (CATALOG_PATH, table.name),
                                      datagen_table.parallelism_of(table))
        if spec.rows_per_second <= 0:
            log.warning("Table '%s' generates no rows: its rows-per-second is %d (so it is on Flink)", table.name,
                        spec.rows_per_second)
        if list(physical.columns) != list(table.columns):
            rows = rows.map(_with_computed_columns(table), output_type=_row_type(table)).name("computed columns")
        if table.watermark is not None:
            rows = rows.assign_timestamps_and_watermarks(self._watermark_strategy(table))
        return rows

    def _watermark_strategy(self, table: CatalogTable):
        """WATERMARK FOR ts AS ts - INTERVAL d: each record's timestamp is ts (a TIMESTAMP read as UTC), the
        watermark trails the largest by d, idle sources per table.exec.source.idle-timeout."""
        from pyflink_compat.common.time import Duration
        from pyflink_compat.common.watermark_strategy import WatermarkStrategy
        column, delay_ms = table.watermark
        if delay_ms is None:
            _refuse("WATERMARK FOR %s AS SOURCE_WATERMARK() on a '%s' table" % (column, table.option("connector")),
                    "a DataStream's table has its stream's watermarks; others: WATERMARK FOR ts AS ts - INTERVAL ...")
        position = table.column_names.index(column)
        # Flink SQL's watermark is the expression's value; the DataStream strategies emit it minus 1 ms
        strategy = (WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(delay_ms - 1)) if delay_ms > 0
                    else WatermarkStrategy.for_monotonous_timestamps())
        idle_ms = self._idle_timeout_ms()
        if idle_ms > 0:
            strategy = strategy.with_idleness(Duration.of_millis(idle_ms))
        return strategy.with_timestamp_assigner(_RowtimeAssigner(position))

    def _idle_timeout_ms(self) -> int:
        idle = self.env_option("table.exec.source.idle-timeout")
        return duration_ms(idle) if idle else 0

    def env_option(self, key: str):
        return self.options.get(key)

    # sinks -----------------------------------------------------------------------------------------
    def _not_null_enforcer(self, table: CatalogTable, changelog: bool):
        """Flink's sink constraint enforcer of the table's NOT NULL columns (a primary key's are): a NULL in one
        fails the job, or, with table.exec.sink.not-null-enforcer = DROP, drops the row; None: nothing to check."""
        positions = [(i, column.name) for i, column in enumerate(table.columns) if not column.type.nullable]
        if not positions:
            return None
        mode = (self.env_option("table.exec.sink.not-null-enforcer") or "ERROR").upper()
        if mode not in ("ERROR", "DROP"):
            raise expressions.validation_error("Could not parse value '%s' for key "
                                               "'table.exec.sink.not-null-enforcer'." % mode)
        return _NotNullEnforcer(positions, mode == "DROP", changelog)

    def _sink(self, rows, table: CatalogTable):
        connector = table.option("connector")
        enforcer = None if connector == "blackhole" else self._not_null_enforcer(table, changelog=False)
        if enforcer is not None:
            rows = rows.flat_map(enforcer, output_type=_row_type(table)).name("ConstraintEnforcer")
        lengths = None if connector == "blackhole" else _length_enforcer(table, changelog=False)
        if lengths is not None:
            rows = rows.map(lengths, output_type=_row_type(table)).name("ConstraintEnforcer")
        if connector == "print":
            identifier = table.option("print-identifier")
            if table.option("standard-error", "false") == "true":
                _refuse("The print connector's standard-error option")
            from pyflink_compat.common.typeinfo import Types
            lines = rows.map(_inserted_line([column.type for column in table.columns]), output_type=Types.STRING())
            sink = lines.print(identifier)
            parallelism = int(table.option("sink.parallelism") or 0) or _single_subtask_input(rows)
            if parallelism:
                lines.set_parallelism(parallelism)
                sink.set_parallelism(parallelism)
        elif connector == "blackhole":
            pass                     # a stream nothing reads: its records are computed and dropped
        elif connector in (kafka_table.KAFKA, kafka_table.UPSERT_KAFKA):
            timestamped = any(column.metadata == "timestamp" for column in table.columns)
            if table.metadata_columns:
                rows, table = _timestamped_by_metadata(rows, table)
            layout = kafka_table.layout_of(table, kafka_table.SINK)
            records = rows.map(_records_of(kafka_table.writer(table, layout)), output_type=kafka_table.record_type())
            records.sink_to(kafka_table.sink(table, layout, timestamped))
        elif connector == datagen_table.DATAGEN:
            raise kafka_table.factory_error(table, kafka_table.SINK, "Connector 'datagen' can only be used as a "
                                                                     "source. It cannot be used as a sink.")
        else:
            _refuse("The '%s' connector as a sink" % connector, "sinks are Kafka, upsert-kafka, print or blackhole "
                                                               "tables")


def _updating_node(source: CatalogTable):
    """(the changes, the node) Flink's planner names when an append-only sink is given an updating relation."""
    if _is_upsert_source(source):
        return "update and delete changes", "ChangelogNormalize(key=[%s])" % ", ".join(source.primary_key)
    relation = source.query
    while isinstance(relation, (RankRelation, UpdatingView)):
        if isinstance(relation, UpdatingView):
            return _updating_node(relation.source)
        relation = relation.base.query
    if isinstance(relation, GroupedRelation):
        grouping = plan_grouping(relation.select, relation.source, compiler_of(relation.source))
        return "update changes", grouping.node_text()
    if isinstance(relation, JoinRelation):
        return "update and delete changes", "Join(joinType=[%s])" % relation.join_type()
    return "update and delete changes", "Rank"


def global_aggregation(node):
    """``SELECT COUNT(*), SUM(v) FROM t`` (aggregates without GROUP BY) as Flink plans it: a GROUP BY of no keys,
    one group of all rows with its changelog. For ``statement.transform``."""
    from pyflink_compat.table.udf import UserDefinedAggregateFunctionWrapper
    if not isinstance(node, exp.Select) or node.args.get("group"):
        return node

    def aggregates(item) -> bool:
        for each in item.find_all(exp.AggFunc, exp.Anonymous):
            if isinstance(each, exp.Anonymous) and not isinstance(each.args.get("function"),
                                                                  UserDefinedAggregateFunctionWrapper):
                continue
            if each.find_ancestor(exp.Window, exp.Select) is node:
                return True           # not an OVER aggregate, nor one of a subquery
        return False

    having = node.args.get("having")
    if not any(aggregates(item) for item in node.expressions + ([having] if having is not None else [])):
        return node
    grouped = node.copy()
    grouped.set("group", exp.Group(expressions=[]))
    return grouped


def _is_upsert_source(table: CatalogTable) -> bool:
    return table.query is None and table.option("connector") == kafka_table.UPSERT_KAFKA


def _is_changelog_source(table: CatalogTable) -> bool:
    """Whether a relation's rows are updates, not only insertions: an 'upsert-kafka' table, an outer join, a
    Top-N or deduplication, a GROUP BY view."""
    return (_is_upsert_source(table) or (isinstance(table.query, JoinRelation) and table.query.updating)
            or isinstance(table.query, (RankRelation, GroupedRelation, UpdatingView))
            or (isinstance(table.query, UnionRelation) and table.query.updating)
            or isinstance(table.query, (ChangelogStreamRelation, TableAggregateRelation, UpsertStreamRelation)))


def _filtered_change(condition, converters):
    """A Calc over a changelog: each change whose row passes the filter, projected, with its kind."""
    def calc(change):
        kind, values = change
        if condition is not None and condition(values) is not True:
            return
        yield kind, [convert(values) for convert in converters]
    return calc


def _each_query(calcs):
    """Several queries' Calcs over one changelog: each change through each of them, in the queries' order."""
    def calc(change):
        for each in calcs:
            yield from each(change)
    return calc


def _projected_change(converters):
    def project(change):
        kind, values = change
        return kind, [convert(values) for convert in converters]
    return project


def _insert_target(table: CatalogTable) -> CatalogTable:
    """A sink table as an INSERT sees it: the columns it takes values for (no computed or VIRTUAL ones); a
    metadata column a sink cannot write fails as in Flink."""
    for column in table.columns:
        if column.metadata is not None and not column.virtual \
                and column.metadata not in catalog_module.WRITABLE_METADATA:
            raise expressions.validation_error(
                "Invalid metadata key '%s' in column '%s' of table '%s.%s'. The DynamicTableSink class "
                "'org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSink' supports the following "
                "metadata keys for writing:\nheaders\ntimestamp" % (column.metadata, column.name, CATALOG_PATH,
                                                                    table.name))
    columns = table.sink_columns
    return table if len(columns) == len(table.columns) else attrs.evolve(table, columns=tuple(columns))


def _timestamped_by_metadata(rows, table: CatalogTable):
    """Rows into a Kafka table with a 'timestamp' metadata column: each element's timestamp (what the record is
    written with) set from that column, the rows narrowed to the physical columns."""
    from pyflink_compat.common.watermark_strategy import WatermarkStrategy
    stamp = next((i for i, column in enumerate(table.columns) if column.metadata == "timestamp"), None)
    if stamp is not None:
        local = table.columns[stamp].type.name == "TIMESTAMP"
        rows = rows.assign_timestamps_and_watermarks(
            WatermarkStrategy.no_watermarks().with_timestamp_assigner(_MetadataTimestamp(stamp, local)))
    physical = [i for i, column in enumerate(table.columns) if column.metadata is None]
    narrowed = attrs.evolve(table, columns=tuple(table.columns[i] for i in physical))
    return rows.map(_narrowed(physical), output_type=_row_type(narrowed)).name("WritableMetadata"), narrowed


def _narrowed(positions):
    def narrow(row):
        from pyflink_compat.common.types import Row
        values = tuple(row)
        return Row(*[values[i] for i in positions])
    return narrow


def _condition(select: exp.Select, compiler):
    """The WHERE clause's function, or None."""
    where = select.args.get("where")
    return compiler.compile(where.this)[0] if where is not None else None


def _projections(select: exp.Select, source: CatalogTable, compiler) -> list:
    """(output name, (function, type)) of each item of the select list (``*`` expanded)."""
    projections = []
    for item in select.expressions:
        if isinstance(item, exp.Star):          # (not the row number of a LIMIT)
            projections.extend((column.name, (_field(position), column.type))
                               for position, column in enumerate(source.columns) if column.name != LIMIT_RANK)
        elif isinstance(item, exp.Column) and isinstance(item.this, exp.Star):     # alias.*: that side's columns
            prefix = item.table + "."
            own = sorted((position, key[len(prefix):], column_type)
                         for key, (position, column_type) in compiler.columns.items() if key.startswith(prefix))
            if not own:                           # one table: its name or alias, all its columns
                own = [(position, column.name, column.type) for position, column in enumerate(source.columns)
                       if column.name != LIMIT_RANK]
            projections.extend((name, (_field(position), column_type)) for position, name, column_type in own)
        else:
            if isinstance(item.this if isinstance(item, exp.Alias) else item, exp.Null):
                raise expressions.validation_error("SQL validation failed. Illegal use of 'NULL' (a NULL column "
                                                   "needs a type: CAST(NULL AS ...))")
            projections.append((output_name(item, len(projections)), compiler.compile(item)))
    return _unique_names(projections)


def _unique_names(projections: list) -> list:
    """Flink's planner's names for repeated output names: the second ``name`` is ``name0``, the next ``name1``."""
    seen, unique = set(), []
    for name, compiled in projections:
        if name in seen:
            suffix = 0
            while "%s%d" % (name, suffix) in seen:
                suffix += 1
            name = "%s%d" % (name, suffix)
        seen.add(name)
        unique.append((name, compiled))
    return unique


def output_name(item, position: int) -> str:
    """The name of a select-list item's column, as Flink's planner names it: its alias, the column it is, else
    EXPR$ and its position."""
    if isinstance(item, exp.Alias):
        return item.alias
    if isinstance(item, exp.Column):
        return item.name
    return "EXPR$%d" % position


def _field(position: int):
    return lambda values: values[position]


def compiler_of(table: CatalogTable):
    """The expression compiler over a relation's rows: its columns by name, those of a join also by
    ``table.column`` (a name both sides have only so)."""
    if isinstance(table.query, JoinRelation):
        return table.query.compiler()
    if isinstance(table.query, SortedRelation):
        return compiler_of(table.query.base)
    return expressions.Compiler({column.name: (position, column.type)
                                 for position, column in enumerate(table.columns)})


def relation_of(select: exp.Select, tables: Dict[str, CatalogTable]) -> CatalogTable:
    """The one table, view or subquery a SELECT reads (what a first version of SQL support runs), its rows
    expanded by a CROSS JOIN UNNEST when it has one."""
    for clause in ("having", "limit", "distinct", "windows", "laterals", "with"):
        if select.args.get(clause) and not (clause == "having" and select.args.get("group") is not None):
            _refuse("%s in a query" % clause.upper(), "queries of one table, view or subquery run: projections, "
                                                      "filters, GROUP BY, group windows and CROSS JOIN UNNEST")
    source_clause = select.args.get("from") or select.args.get("from_")
    if source_clause is None:         # SELECT expressions: one row (Flink's VALUES of one empty row)
        from pyflink_compat.table.sql.bridge import ElementsRelation
        return CatalogTable("$one_row", (), {}, None, ElementsRelation(((),)))
    relation = source_clause.this
    if isinstance(relation, exp.Subquery):
        table = view_of(relation.alias_or_name or "subquery", relation.this, tables)
    elif isinstance(relation, exp.Table) and isinstance(relation.this, exp.Anonymous) \
            and relation.this.name.upper() == "TABLE" and len(relation.this.expressions) == 1:
        table = _window_table(relation.this.expressions[0], tables)
    elif isinstance(relation, exp.Table):
        table = _lookup(tables, relation.name)
    else:
        _refuse("FROM %s" % relation.sql())
    if select.args.get("order"):            # ORDER BY ... LIMIT became a Top-N when parsed (dialect.parse)
        return _sorted(table, select)
    joins = select.args.get("joins") or []
    if not joins:
        return table
    if len(joins) > 1:
        return _chained_joins(relation, table, joins, tables)
    if isinstance(joins[0].this, exp.Unnest):
        return _unnested(table, joins[0])
    if isinstance(joins[0].this, exp.Lateral):
        return _lateral(table, joins[0])
    where = select.args.get("where")
    return _joined(relation, table, joins[0], tables, None if where is None else where.this)


def _sorted(table: CatalogTable, select) -> CatalogTable:
    """The relation of a query with ORDER BY (without LIMIT) over ``table``: its rows sorted in time, as Flink's
    planner allows on a stream (a time attribute first, ascending)."""
    from pyflink_compat.table.sql import aggregates

    def target(node):                       # an output column's name stands for its expression
        if isinstance(node, exp.Column) and not node.table and node.name not in table.column_names:
            for item in select.expressions:
                if isinstance(item, exp.Alias) and item.alias == node.name:
                    return item.this
        return node
    order = select.args["order"].expressions
    first = target(order[0].this)
    column = first.name if isinstance(first, exp.Column) else None
    time_order = None
    if column is not None and not order[0].args.get("desc"):
        if aggregates.is_proctime(table, column):
            time_order = "proctime"
        elif table.watermark is not None and table.watermark[0] == column:
            time_order = "rowtime"
    if time_order is None:
        raise table_exception("Sort on a non-time-attribute field is not supported.")
    if select.args.get("group") or select.args.get("joins") or isinstance(table.query, (JoinRelation,
                                                                                       UnnestRelation)):
        _refuse("ORDER BY a time attribute of an aggregation, a join or an UNNEST",
                "ORDER BY a time attribute of a table's or a view's rows runs")
    compiler = compiler_of(table)
    rest = [_sort_key(each, compiler.compile(target(each.this))[0]) for each in order[1:]]
    return attrs.evolve(table, query=SortedRelation(table, time_order, rest, select.args["order"].sql()))


class SortedRelation:
    """ORDER BY a time attribute, then ``order`` ([(function of the row values, descending, NULL first)]), over
    one relation (``base``): its rows as the time passes them (JobBuilder._view_stream)."""

    def __init__(self, base: CatalogTable, time_order: str, order, text: str):
        self.base, self.time_order, self.order, self.text = base, time_order, order, text


class JoinRelation:
    """A regular inner join of two relations on an equality of columns (and a further condition on the joined
    row): each side's rows kept in keyed state, a row joined with every kept row of the other side when it comes,
    as Flink's Join operator does for an inner join of insert-only inputs."""

    def __init__(self, left: CatalogTable, right: CatalogTable, names, left_keys, right_keys, condition,
                 qualified, ambiguous, text):
        self.left, self.right = left, right
        self.names = names                      # per joined column: (qualifiers, its name)
        self.left_keys, self.right_keys = left_keys, right_keys    # compiled key expressions of each side
        self.condition = condition              # the rest of ON over the joined row (or None)
        self.qualified, self.ambiguous, self.text = qualified, ambiguous, text
        self.side = ""                          # "LEFT", "RIGHT" or "FULL" of an outer join
        self.outer = False                      # an outer join: its rows are a changelog (+I / -D)
        self.updating = False                   # an outer join, or a side is a changelog: so are its rows
        self.key_type = None                    # the SqlKeyType of both sides' keys (None: pickled keys)
        self.interval = None                    # an interval join's (left time, right time, lower ms, upper ms)

    def compiler(self):
        return expressions.Compiler(self.qualified, self.ambiguous)

    def join_type(self) -> str:
        """The join's type as Flink's plan names it (InnerJoin, LeftOuterJoin, ...)."""
        return {"LEFT": "LeftOuterJoin", "RIGHT": "RightOuterJoin", "FULL": "FullOuterJoin"}.get(self.side,
                                                                                                 "InnerJoin")


def _chained_joins(first_node, first: CatalogTable, joins, tables: Dict[str, CatalogTable]) -> CatalogTable:
    """``a JOIN b ON ... JOIN c ON ...``: joined left to right, as Flink's planner joins them (it reorders no
    joins unless asked): each JOIN's left side is the joined row so far, its columns still named by their
    tables' names or aliases."""
    for join in joins:
        if isinstance(join.this, (exp.Unnest, exp.Lateral)) or join.args.get("on") is None:
            _refuse("UNNEST, LATERAL TABLE or a JOIN without ON among several JOINs",
                    "a chain of JOIN ... ON runs; UNNEST a view of the joined rows")
    joined = _joined(first_node, first, joins[0], tables)
    for join in joins[1:]:
        joined = _joined(None, joined, join, tables)
    return joined


def _side_columns(node, table: CatalogTable, offset: int):
    """One side of a join: its columns by ``qualifier.name``, and by the bare name where that name is the
    side's only column so called ((position in the joined row, type)), and how often each bare name is there.
    A side that is itself a chain's joined row (``node`` None) keeps the qualifiers of its own sides."""
    if node is None:
        inner = table.query
        shifted = {name: (offset + position, kind) for name, (position, kind) in inner.qualified.items()}
        qualified = {name: place for name, place in shifted.items() if "." in name}
        bare = {name: place for name, place in shifted.items() if "." not in name}
        counts = collections.Counter(list(bare))
        counts.update({name: 2 for name in inner.ambiguous})
        return qualified, bare, counts
    qualified, bare = {}, {}
    for position, column in enumerate(table.columns):
        for qualifier in {node.alias_or_name, node.name}:
            qualified["%s.%s" % (qualifier, column.name)] = (offset + position, column.type)
        bare[column.name] = (offset + position, column.type)
    return qualified, bare, collections.Counter(column.name for column in table.columns)


def _unique_name(name: str, used) -> str:
    """A joined row's column name as Flink's validator makes it unique: name, name0, name1, ..."""
    candidate, attempt = name, 0
    while candidate in used:
        candidate, attempt = "%s%d" % (name, attempt), attempt + 1
    return candidate


def _joined(left_node, left: CatalogTable, join: exp.Join, tables: Dict[str, CatalogTable],
            where=None) -> CatalogTable:
    """The relation a JOIN makes. ``FROM a, b WHERE ...`` (Flink's interval joins are written so) joins on the
    WHERE clause's equalities, the rest of it applied to the joined rows. ``left_node`` None: the left side is
    the joined row of the JOINs before this one."""
    kind = (join.args.get("kind") or "").upper()
    side = (join.args.get("side") or "").upper()
    if side not in ("", "LEFT", "RIGHT", "FULL") or kind not in ("", "INNER", "OUTER") or (kind == "INNER" and side):
        _refuse("%s JOIN" % " ".join(each for each in (side, kind) if each),
                "inner, left, right and full outer joins run")
    right_node = join.this
    if isinstance(right_node, exp.Subquery):
        right = view_of(right_node.alias_or_name or "subquery", right_node.this, tables)
    elif not isinstance(right_node, exp.Table) or isinstance(right_node.this, exp.Anonymous):
        _refuse("JOIN %s" % right_node.sql(), "a join of two tables, views or subqueries runs")
    else:
        right = _lookup(tables, right_node.name)
    on = join.args.get("on")
    if on is None and not kind and not side and where is not None:      # FROM a, b WHERE a.k = b.k AND ...
        on = where
    if on is None:
        _refuse("A JOIN without ON", "an inner join on an equality of columns runs")
    # the joined row: the left side's columns, then the right side's
    qualified, counts = {}, collections.Counter()
    width = len(left.columns)
    sides = ((left_node, left, 0), (right_node, right, width))
    bare = {}
    for node, table, offset in sides:
        side_qualified, side_bare, side_counts = _side_columns(node, table, offset)
        qualified.update(side_qualified)
        bare.update(side_bare)
        counts.update(side_counts)
    qualified.update((name, place) for name, place in bare.items() if counts[name] == 1)
    ambiguous = frozenset(name for name, count in counts.items() if count > 1)
    compiler = expressions.Compiler(qualified, ambiguous)
    left_keys, right_keys, key_types, rest = [], [], [], []
    for conjunct in _conjuncts(on):
        sides_of = [_side_of(each, compiler, width) for each in (conjunct.this, conjunct.expression)] \
            if isinstance(conjunct, exp.EQ) else None
        if sides_of in (["left", "right"], ["right", "left"]):
            left_expr, right_expr = ((conjunct.this, conjunct.expression) if sides_of[0] == "left"
                                     else (conjunct.expression, conjunct.this))
            (left_key, left_type), (right_key, right_type) = (compiler.compile(each) for each in (left_expr,
                                                                                              right_expr))
            left_keys.append(left_key)
            right_keys.append(_shifted(right_key, width))
            key_types.append(left_type if left_type == right_type else None)
        else:
            rest.append(conjunct)
    if not left_keys:
        _refuse("A JOIN without an equality of the two sides' columns", "Flink joins such rows on one subtask; "
                                                                         "an equi-join runs")
    condition = None
    if rest:
        condition = compiler.compile(rest[0] if len(rest) == 1 else exp.and_(*rest))[0]
    # Flink's names for the joined row's columns: a name both sides have gets a number on the right side
    names, columns = [], []
    for node, table, offset in sides:
        for column in table.columns:
            name = _unique_name(column.name, names)
            names.append(name)
            # the right side of a left outer join may be NULL, the left side of a right one, both of a full one
            padded = (side == "FULL" or (side == "LEFT" and offset > 0) or (side == "RIGHT" and offset == 0))
            columns.append(Column(name, attrs.evolve(column.type, nullable=True) if padded else column.type))
    relation = JoinRelation(left, right, names, left_keys, right_keys, condition, qualified, ambiguous, join.sql())
    relation.interval = _interval_bounds(rest, compiler, left, right)
    if relation.interval is not None and (_is_changelog_source(left) or _is_changelog_source(right)):
        _refuse("An interval join of a changelog (an outer join, a GROUP BY, an 'upsert-kafka' table)",
                "interval joins of insert-only relations run, and regular joins of changelogs")
    # an interval join's outer rows come padded once they can no longer join: insert-only, as Flink's
    relation.side, relation.outer = side, bool(side) and relation.interval is None
    relation.updating = relation.outer or _is_changelog_source(left) or _is_changelog_source(right)
    # both sides keyed as Flink keys them when their key columns have one type (else Flink casts them first)
    relation.key_type = binary_keys.key_type_of(key_types)
    # an interval join's rows keep the left side's rowtime as a time attribute (a window may follow it)
    watermark = None if relation.interval is None else (names[relation.interval[0]], left.watermark[1])
    return CatalogTable("%s_join_%s" % (left.name, right.name), tuple(columns), {}, watermark, relation)


def _interval_bounds(conjuncts, compiler, left: CatalogTable, right: CatalogTable):
    """(left rowtime position, right rowtime position, lower ms, upper ms) when the join's condition bounds
    ``left.rowtime - right.rowtime`` on both sides (``l.ts BETWEEN r.ts - INTERVAL ... AND r.ts``, ``>=``, ``<``
    ...; both rowtime attributes): Flink plans such a join as an interval join. None otherwise."""
    times = []
    for table, offset in ((left, 0), (right, len(left.columns))):
        if table.watermark is None:
            return None
        position = next((i for i, c in enumerate(table.columns) if c.name == table.watermark[0]), None)
        if position is None:
            return None
        times.append(offset + position)

    def operand(node):
        """(0 for the left rowtime, 1 for the right one, ms added to it), or None."""
        node = node.this if isinstance(node, exp.Paren) else node
        shift = 0
        if isinstance(node, (exp.Add, exp.Sub)) and isinstance(node.expression, exp.Interval):
            try:
                shift = catalog_module.interval_ms(node.expression) * (1 if isinstance(node, exp.Add) else -1)
            except UnsupportedFeatureError:
                return None
            node = node.this
        if not isinstance(node, exp.Column):
            return None
        key = "%s.%s" % (node.table, node.name) if node.table else node.name
        position = compiler.columns.get(key, (None,))[0]
        return (times.index(position), shift) if position in times else None

    lower, upper = None, None

    def bound(greater, smaller, strict: bool):
        """``greater >= smaller`` (``>`` when strict) as a bound of left - right."""
        nonlocal lower, upper
        a, b = operand(greater), operand(smaller)
        if a is None or b is None or a[0] == b[0]:
            return
        limit = b[1] - a[1] + (1 if strict else 0)       # t_a - t_b >= limit
        if a[0] == 0:
            lower = limit if lower is None else max(lower, limit)
        else:
            upper = -limit if upper is None else min(upper, -limit)

    for conjunct in conjuncts:
        if isinstance(conjunct, exp.Between):
            bound(conjunct.this, conjunct.args["low"], False)
            bound(conjunct.args["high"], conjunct.this, False)
        elif isinstance(conjunct, (exp.GTE, exp.GT)):
            bound(conjunct.this, conjunct.expression, isinstance(conjunct, exp.GT))
        elif isinstance(conjunct, (exp.LTE, exp.LT)):
            bound(conjunct.expression, conjunct.this, isinstance(conjunct, exp.LT))
    if lower is None or upper is None:
        return None
    return times[0], times[1] - len(left.columns), lower, upper


def _conjuncts(node) -> list:
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    if isinstance(node, exp.Paren):
        return _conjuncts(node.this)
    return [node]


def _side_of(node, compiler, width: int) -> Optional[str]:
    """"left" / "right" when every column of ``node`` is of that side of the join, else None."""
    positions = set()
    for column in node.find_all(exp.Column):
        key = compiler.column_key(column)
        if key is None:
            compiler.compile(column)                   # Flink's error for an unknown or ambiguous column
            return None
        positions.add("left" if compiler.columns[key][0] < width else "right")
    return positions.pop() if len(positions) == 1 else None


def _shifted(function, width: int):
    """A function of the joined row's right part, applied to a right row alone."""
    padding = (None,) * width
    return lambda values: function(padding + tuple(values))


# The columns a window table function adds, and the bound of the window each one is
_WINDOW_COLUMNS = {"window_start": "start", "window_end": "end", "window_time": "rowtime"}


def _window_column_type(name: str, relation) -> SqlType:
    """window_start / window_end: TIMESTAMP(3) NOT NULL; window_time: of the rowtime's type (a TIMESTAMP_LTZ(3)
    over a TIMESTAMP_LTZ rowtime), NOT NULL."""
    if name == "window_time" and not relation.window.processing:
        rowtime = next((c.type for c in relation.base.columns if c.name == relation.window.column), None)
        if rowtime is not None and rowtime.name == "TIMESTAMP_LTZ":
            return SqlType("TIMESTAMP_LTZ", nullable=False, precision=3)
    return SqlType("TIMESTAMP", nullable=False, precision=3)


class WindowTableRelation:
    """A window table function over a table (TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size)), HOP): the table's
    rows with window_start, window_end and window_time, of which a GROUP BY makes a window aggregation."""

    def __init__(self, base: CatalogTable, window):
        self.base, self.window = base, window


def _window_table(function, tables: Dict[str, CatalogTable]) -> CatalogTable:
    from pyflink_compat.table.sql import aggregates
    from pyflink_compat.table.sql.catalog import Column, SqlType, interval_ms
    from pyflink_compat.table.sql.dialect import WindowTableFunction
    if not isinstance(function, WindowTableFunction):
        _refuse("FROM TABLE(%s)" % function.sql())
    kind = function.args["kind"]
    base = _lookup(tables, function.this.name)
    partition = function.args.get("partition") or []
    if partition and kind != "SESSION":
        raise expressions.validation_error("Only SESSION window table function supports PARTITION BY clause.")
    for key in partition:
        if not isinstance(key, exp.Column) or key.name not in base.column_names:
            raise expressions.validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: "
                                               "Column '%s' not found in any table" % (len(key.sql()), key.sql()))
    arguments = function.expressions
    descriptor = arguments[0] if arguments else None
    if not (isinstance(descriptor, exp.Anonymous) and descriptor.name.upper() == "DESCRIPTOR"
            and len(descriptor.expressions) == 1 and isinstance(descriptor.expressions[0], exp.Column)):
        _refuse("%s without DESCRIPTOR(time column) as its second argument" % kind)
    column = descriptor.expressions[0].name
    expected = 1 if kind in ("TUMBLE", "SESSION") else 2
    if len(arguments) < expected + 1:
        raise expressions.validation_error("SQL validation failed. Invalid number of arguments to function '%s'. "
                                           "Was expecting %d arguments" % (kind, expected + 2))
    if len(arguments) != expected + 1:
        _refuse("%s with %d arguments" % (kind, len(arguments) + 1), "an offset is not there yet")
    processing = aggregates.is_proctime(base, column)
    if not processing and (base.watermark is None or base.watermark[0] != column):
        column_type = next((c.type for c in base.columns if c.name == column), None)
        raise expressions.validation_error(
            "The window function requires the timecol is a time attribute type, but is %s."
            % ("TIMESTAMP(%d)" % column_type.precision if column_type is not None and column_type.name == "TIMESTAMP"
               else column_type.name if column_type is not None else column))
    # a SESSION's sessions are those of each group of the GROUP BY, which holds the PARTITION BY keys
    window = aggregates.GroupWindow(kind, column, [interval_ms(each) for each in arguments[1:]], processing,
                                    tuple(key.name for key in partition), aggregates.is_local_time(base, column))
    if kind == "CUMULATE" and window.intervals[1] % window.intervals[0] != 0:
        raise expressions.validation_error(
            "CUMULATE table function based aggregate requires maxSize must be an integral multiple of step, but got "
            "maxSize %d ms and step %d ms." % (window.intervals[1], window.intervals[0]))
    bound = SqlType("TIMESTAMP", precision=3)
    columns = tuple(base.columns) + tuple(Column(name, bound) for name in _WINDOW_COLUMNS)
    return CatalogTable("%s_windowed" % base.name, columns, {}, base.watermark, WindowTableRelation(base, window))


class UnnestRelation:
    """A table's rows, each repeated once per row an expression over it gives, with that row's values as added
    columns: CROSS JOIN UNNEST (an array's elements) and LATERAL TABLE (a Python table function's rows); LEFT
    JOIN ... ON TRUE keeps a row that gives none, with NULLs."""

    def __init__(self, base: CatalogTable, rows_of, width: int, keep_empty: bool, text: str):
        self.base, self.rows_of, self.width, self.keep_empty, self.text = base, rows_of, width, keep_empty, text


def _join_kind(join: exp.Join, what: str) -> bool:
    """Whether a join with UNNEST or LATERAL TABLE keeps the rows without results (LEFT JOIN ... ON TRUE)."""
    side, on = (join.args.get("side") or "").upper(), join.args.get("on")
    if side not in ("", "LEFT") or (on is not None and not (isinstance(on, exp.Boolean) and on.this)) \
            or (side == "LEFT" and on is None):
        _refuse("%s JOIN %s ... %s" % (side, what, "ON " + on.sql() if on is not None else ""),
                "CROSS JOIN %s(...) and LEFT JOIN %s(...) ON TRUE run" % (what, what))
    return side == "LEFT"


def _unnested(base: CatalogTable, join: exp.Join) -> CatalogTable:
    unnest = join.this
    keep_empty = _join_kind(join, "UNNEST")
    alias = unnest.args.get("alias")
    if len(unnest.expressions) != 1 or unnest.args.get("offset") or alias is None or len(alias.columns) != 1:
        _refuse("UNNEST('%s')" % unnest.sql(), "UNNEST of one array AS t(column) runs")
    compiler = compiler_of(base)
    array, array_type = compiler.compile(unnest.expressions[0])
    if array_type.name != "ARRAY":
        raise expressions.validation_error("SQL validation failed. UNNEST argument must be a collection")
    name = alias.columns[0].name
    columns = tuple(base.columns) + (Column(name, array_type.element),)
    return CatalogTable("%s_unnested" % base.name, columns, {}, base.watermark,
                        UnnestRelation(base, _elements_of(array), 1, keep_empty, join.sql()))


def _elements_of(array):
    def rows(values):
        return [(element,) for element in array(values) or ()]
    return rows


def lateral_table(base: CatalogTable, call: exp.Expr, names, keep_empty: bool, text: str) -> CatalogTable:
    """``base`` joined with the rows of a Python table function's call (LATERAL TABLE), or with the one row of a
    Python scalar function's (Table.map): its columns named ``names`` (else as the function declares them: f0,
    f1, ... or its ROW's field names)."""
    from pyflink_compat.table.sql.catalog import row_fields, sql_type_of
    from pyflink_compat.table.udf import UserDefinedScalarFunctionWrapper, UserDefinedTableFunctionWrapper
    wrapper = call.args.get("function") if isinstance(call, exp.Anonymous) else None
    if isinstance(wrapper, UserDefinedTableFunctionWrapper):
        declared, scalar = wrapper._result_types, False
    elif isinstance(wrapper, UserDefinedScalarFunctionWrapper):
        declared, scalar = wrapper._result_type, True
    else:
        _refuse("LATERAL TABLE(%s)" % call.sql(), "LATERAL TABLE of a Python table function (udtf) runs")
    fields = row_fields(declared)
    row_result = fields is not None
    if fields is None and not isinstance(declared, list):
        fields = [("f0", declared)]
    elif fields is None:
        own = getattr(wrapper, "_result_names", None) or ["f%d" % i for i in range(len(declared))]
        fields = list(zip(own, declared))
    names = list(names) if names else [name for name, _ in fields]
    if len(names) != len(fields):
        raise expressions.validation_error(
            "SQL validation failed. List of column aliases must have same degree as table; table has %d columns "
            "%s, whereas alias list has %d columns" % (len(fields), [name for name, _ in fields], len(names)))
    compiler = compiler_of(base)
    arguments = [compiler.compile(each)[0] for each in call.expressions]
    row_names = [column.type.origin or column.name for column in base.columns] if wrapper._takes_row_as_input \
        else None
    columns = tuple(base.columns) + tuple(Column(name, attrs.evolve(sql_type_of(field_type), origin=declared_name))
                                          for name, (declared_name, field_type) in zip(names, fields))
    rows_of = _function_rows(wrapper._invoker(), arguments, len(fields), row_names, scalar, row_result)
    relation = UnnestRelation(base, rows_of, len(fields), keep_empty, text)
    return CatalogTable("%s_lateral" % base.name, columns, {}, base.watermark, relation)


def _function_rows(invoke, arguments, width: int, row_names, scalar: bool, row_result: bool):
    """The rows a function gives for a row, as tuples of ``width`` values: a table function's, which ``eval``
    returns or yields (a value is a row of one column), or a scalar function's one (its ROW's fields)."""
    def rows(values):
        from pyflink_compat.common.types import Row
        given = [argument(values) for argument in arguments]
        if row_names is not None:                  # Table.map / flat_map: the function takes the whole row
            row = Row(*given)
            row.set_field_names(row_names)
            given = [row]
        results = invoke(*given)
        if scalar:
            results = [results]
        elif results is None:
            return []
        made = []
        for result in results:
            if result is None and scalar and row_result:
                made.append((None,) * width)
            elif not row_result and width == 1 and (scalar or not isinstance(result, (Row, tuple, list))):
                made.append((result,))
            else:
                made.append(tuple(result))
        return made
    return rows


def _lateral(base: CatalogTable, join: exp.Join) -> CatalogTable:
    lateral = join.this
    keep_empty = _join_kind(join, "LATERAL TABLE")
    table_call = lateral.this
    if not (isinstance(table_call, exp.Anonymous) and table_call.name.upper() == "TABLE"
            and len(table_call.expressions) == 1):
        _refuse("LATERAL %s" % table_call.sql(), "LATERAL TABLE(function(...)) runs")
    alias = lateral.args.get("alias")
    names = [column.name for column in alias.columns] if alias is not None else None
    return lateral_table(base, table_call.expressions[0], names, keep_empty, join.sql())


def _lookup(tables: Dict[str, CatalogTable], name: str) -> CatalogTable:
    if name not in tables:
        raise expressions.validation_error(
            "SQL validation failed. From line 1, column 1 to line 1, column %d: Object '%s' not found"
            % (len(name), name))
    return tables[name]


def _union_branches(union: exp.Union) -> list:
    if union.args.get("distinct"):
        _refuse("UNION (without ALL)", "UNION ALL runs")
    branches = []
    for side in (union.this, union.expression):
        side = side.this if isinstance(side, exp.Subquery) else side
        if isinstance(side, exp.Union):
            branches.extend(_union_branches(side))
        elif isinstance(side, exp.Select):
            branches.append(side)
        else:
            _refuse("UNION ALL of %s" % type(side).__name__.upper())
    return branches


def query_columns(select, tables: Dict[str, CatalogTable]) -> list:
    """The columns of a query's result (its validation, as Flink's planner validates a query it is given)."""
    if isinstance(select, exp.Subquery):
        select = select.this
    if isinstance(select, exp.Union):
        return union_columns(select, tables)
    if isinstance(select, exp.Select) and select.args.get("group"):
        source = relation_of(select, tables)
        compiler = compiler_of(source)
        return plan_grouping(select, source, compiler).columns()
    return list(view_of("query", select, tables).columns)


def _union_branch(branch: exp.Select, source: CatalogTable, column_types):
    """One query of a UNION ALL: its compiler, projections and their conversions to the union's column types."""
    if branch.args.get("group"):
        _refuse("GROUP BY in a branch of UNION ALL", "UNION ALL of projections and filters runs")
    compiler = compiler_of(source)
    projections = _projections(branch, source, compiler)
    if len(projections) != len(column_types):
        raise expressions.validation_error("SQL validation failed. Column count mismatch in UNION ALL")
    converters = [expressions.cast_to(compiled, column_type)
                  for (_, compiled), column_type in zip(projections, column_types)]
    return compiler, projections, converters


def union_of_changelogs(union: exp.Union, tables: Dict[str, CatalogTable]) -> bool:
    """Whether a query of the UNION ALL reads an updating relation (an 'upsert-kafka' table, a GROUP BY view, an
    outer join): then the union's rows are changes."""
    return any(_is_changelog_source(relation_of(branch, tables)) for branch in _union_branches(union))


def union_columns(union: exp.Union, tables: Dict[str, CatalogTable]) -> list:
    """The columns of a UNION ALL: the first query's names, each column of the common type of the queries', as
    Flink's validator types them."""
    branches = [query_columns(branch, tables) for branch in _union_branches(union)]
    if any(len(columns) != len(branches[0]) for columns in branches):
        raise expressions.validation_error("SQL validation failed. Column count mismatch in UNION ALL")
    return [Column(column.name, expressions.common_type([columns[i].type for columns in branches],
                                                        "SQL validation failed. Type mismatch in UNION ALL"))
            for i, column in enumerate(branches[0])]


def describe_rows(name: str, tables: Dict[str, CatalogTable]) -> list:
    """DESCRIBE's rows of a table or view: name, type (with *ROWTIME* / *PROCTIME*), null, key, extras (metadata
    and computed columns), watermark."""
    from pyflink_compat.table.table import column_kind_text, watermark_text
    table = _lookup(tables, name)
    if isinstance(table.query, (exp.Select, exp.Union)):
        columns = query_columns(table.query, tables)
    else:
        columns = list(table.columns)
    rowtime = table.watermark[0] if table.watermark is not None else None
    # a table, not a view of a query (whose watermark is its tables')
    declared = not isinstance(table.query, (exp.Select, exp.Union, UnionRelation))
    rows = []
    for column in columns:
        attribute = " *ROWTIME*" if column.name == rowtime else \
            " *PROCTIME*" if column.type.time_attribute == "PROCTIME" else ""
        type_text = attrs.evolve(column.type, nullable=True).text() + attribute
        key = "PRI(%s)" % ", ".join(table.primary_key) if column.name in table.primary_key else ""
        extras = column_kind_text(column).strip() if declared else ""
        mark = (table.watermark_display or watermark_text(*table.watermark)) if column.name == rowtime \
            and declared else ""
        rows.append((column.name, type_text, "TRUE" if column.type.nullable else "FALSE", key, extras, mark))
    return rows


def query_watermark(select, tables: Dict[str, CatalogTable]):
    """The (rowtime column, delay) of a query's result, None when it has no rowtime column."""
    if isinstance(select, exp.Subquery):
        select = select.this
    if isinstance(select, exp.Union):
        watermarks = {query_watermark(branch, tables) for branch in _union_branches(select)}
        return watermarks.pop() if len(watermarks) == 1 else None
    if not isinstance(select, exp.Select) or select.args.get("group"):
        return None
    return view_of("query", select, tables).watermark


def view_of(name: str, select, tables: Dict[str, CatalogTable]) -> CatalogTable:
    """A view of ``select``: its columns (names and types of the select list), the source's watermark when the
    rowtime column is selected as it is."""
    if isinstance(select, exp.Subquery):
        select = select.this
    if isinstance(select, exp.Union):
        return CatalogTable(name, tuple(union_columns(select, tables)), {}, query_watermark(select, tables),
                            UnionRelation(select, union_of_changelogs(select, tables)))
    if not isinstance(select, exp.Select):
        _refuse("A view of %s" % type(select).__name__.upper())
    source = relation_of(select, tables)
    compiler = compiler_of(source)
    if select.args.get("group"):
        grouping = plan_grouping(select, source, compiler)
        if grouping.window is not None:
            # insert-only rows; their window_time (a group window's *_ROWTIME) stays a time attribute, so that
            # a window over the view cascades (Flink's rows carry it as their timestamp, as ours do)
            rowtime = next((grouping.names[position] for position, output in enumerate(grouping.outputs)
                            if output == ("window", "rowtime")), None)
            return CatalogTable(name, tuple(grouping.columns()), {}, None if rowtime is None else (rowtime, 0),
                                WindowedRelation(grouping))
        return CatalogTable(name, tuple(grouping.columns()), {}, None, GroupedRelation(select, source))
    _refuse_window_table_without_aggregation(source)
    ranked = [position for position, item in enumerate(select.expressions) if isinstance(item, exp.Alias)
              and isinstance(item.this, exp.Window)]
    from pyflink_compat.table.sql.over import RANKINGS
    if ranked and any(not isinstance(select.expressions[position].this.this, (exp.RowNumber,) + RANKINGS)
                      for position in ranked):
        return _over_view(name, select, source, compiler, ranked)
    if ranked:
        return _rank_view(name, select, source, compiler, ranked)
    projections = _projections(select, source, compiler)
    columns = tuple(Column(column_name, column_type) for column_name, (_, column_type) in projections)
    if _is_changelog_source(source):
        return CatalogTable(name, columns, {}, None, UpdatingView(select, source))
    watermark = None
    if source.watermark is not None:
        rowtime = source.column_names.index(source.watermark[0])

        def is_rowtime(node) -> bool:
            # by position: both sides of a join may have a column of the rowtime's name
            if not isinstance(node, exp.Column):
                return False
            key = "%s.%s" % (node.table, node.name) if node.table else node.name
            return compiler.columns.get(key, (None,))[0] == rowtime

        for item in select.expressions:
            if isinstance(item, exp.Star) or is_rowtime(item):
                watermark = source.watermark
            elif isinstance(item, exp.Alias) and is_rowtime(item.this):
                watermark = (item.alias, source.watermark[1])
            if watermark is not None:
                break
    return CatalogTable(name, columns, {}, watermark, select)


class UpdatingView:
    """A view or subquery projecting and filtering an updating relation (a GROUP BY view, an outer join, an
    'upsert-kafka' table, another such view): its rows are that relation's changes, projected."""

    def __init__(self, select, source: CatalogTable):
        self.select, self.source = select, source


class UnionRelation:
    """A view or subquery of a UNION ALL of queries of projections and filters: their rows, each converted to the
    union's column types, as one stream; ``updating`` when a query reads an updating relation (its rows are then
    changes)."""

    def __init__(self, union: exp.Union, updating: bool):
        self.union, self.updating = union, updating


class WindowedRelation:
    """A view or subquery of a window aggregation: the window's results as insert-only rows."""

    def __init__(self, grouping: "_Grouping"):
        self.grouping = grouping


class GroupedRelation:
    """A view or subquery with GROUP BY (no window): its rows are the aggregation's changelog (+I, -U / +U)."""

    def __init__(self, select, source: CatalogTable):
        self.select, self.source = select, source


class TableAggregateRelation:
    """The table of a Table API flat_aggregate: ``select`` is ``SELECT keys, f(args) FROM source GROUP BY keys``
    of a table aggregate function ``f``; its rows are the keys followed by each row ``f`` emits, a changelog
    (+I, and -D of the rows a key emitted before)."""

    def __init__(self, select, source: CatalogTable):
        self.select, self.source = select, source


class RankRelation:
    """A view selecting ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) AS rn over one relation (``base``):
    its other select items per row, the number at ``rank_position``; a query filtering on rn over it is a Top-N
    (see JobBuilder._ranked_changes)."""

    def __init__(self, base: CatalogTable, condition, items, partition, order, rank_name: str, rank_position: int,
                 time_order: Optional[str], key_type):
        self.base, self.condition, self.items, self.partition, self.order = base, condition, items, partition, order
        self.rank_name, self.rank_position, self.time_order = rank_name, rank_position, time_order
        self.key_type = key_type
        self.insert_only = False               # ordered by constants (a LIMIT alone): rows only ever come in

    def keyed_rows(self, processing_time: bool):
        """(partition key, (sort key, the select items' values)) of a base row; the sort key of processing-time
        order is None (arrival order)."""
        items, partition, order = self.items, self.partition, [entry[0] for entry in self.order]
        condition = self.condition

        def keyed(row):
            if row is None:
                return
            values = tuple(row)
            if condition is not None and condition(values) is not True:
                return
            sort_key = (None,) if processing_time else tuple(function(values) for function in order)
            yield (tuple(function(values) for function in partition),
                   (sort_key, tuple(function(values) for function in items)))
        return keyed

    def keyed_changes(self):
        """(partition key, (row kind, sort key, the select items' values)) of a change of an updating base."""
        items, partition, order = self.items, self.partition, [entry[0] for entry in self.order]
        condition = self.condition

        def keyed(change):
            kind, values = change
            values = tuple(values)
            if condition is not None and condition(values) is not True:
                return
            yield (tuple(function(values) for function in partition),
                   (kind, tuple(function(values) for function in order),
                    tuple(function(values) for function in items)))
        return keyed


def _sort_key(ordered: exp.Ordered, function) -> tuple:
    """(function of the row values, descending, NULL first) of an ORDER BY item whose value ``function`` gives: Flink
    SQL sorts NULL as the least value unless told (the Table API's order_by says NULLS LAST)."""
    descending = bool(ordered.args.get("desc"))
    nulls_first = ordered.args.get("nulls_first")
    return function, descending, bool(nulls_first) if nulls_first is not None else not descending


def _numbered_relation(select, source: CatalogTable, compiler, position: int, time_order: Optional[str]):
    """(the RankRelation, the columns) of a query selecting ROW_NUMBER() (or RANK(), DENSE_RANK()) OVER (...) at
    ``position`` of its items, over ``source``."""
    alias = select.expressions[position]
    window = alias.this
    order = window.args.get("order")
    if order is None or not order.expressions:
        raise expressions.validation_error("Over Agg: The window rank function requires order by clause with "
                                           "non-constant fields. please re-check the over window statement.")
    partition = [compiler.compile(node) for node in window.args.get("partition_by") or []]
    ordered = [_sort_key(each, compiler.compile(each.this)[0]) for each in order.expressions]
    others = [item for index, item in enumerate(select.expressions) if index != position]
    projections = _projections(exp.Select(expressions=others), source, compiler)
    columns = [Column(column_name, column_type) for column_name, (_, column_type) in projections]
    columns.insert(position, Column(alias.alias, SqlType("BIGINT", nullable=False)))
    relation = RankRelation(source, _condition(select, compiler), [function for _, (function, _) in projections],
                            [function for function, _ in partition], ordered, alias.alias, position, time_order,
                            binary_keys.key_type_of([key_type for _, key_type in partition]))
    return relation, columns


def _rank_view(name: str, select, source: CatalogTable, compiler, ranked) -> CatalogTable:
    from pyflink_compat.table.sql import aggregates
    if len(ranked) > 1:
        _refuse("Several OVER windows in a query")
    position = ranked[0]
    alias = select.expressions[position]
    window = alias.this
    from pyflink_compat.table.sql.over import RANKINGS
    if isinstance(window.this, RANKINGS):
        raise table_exception("%s() on streaming table is not supported currently"
                              % ("RANK" if isinstance(window.this, exp.Rank) else "DENSE_RANK"))
    if not isinstance(window.this, exp.RowNumber):
        _refuse("%s OVER (...)" % window.this.sql(), "ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) for Top-N "
                                                     "and deduplication runs; OVER aggregations are not there yet")
    if window.args.get("spec") is not None:
        _refuse("ROW_NUMBER() OVER (... ROWS/RANGE ...)")
    order = window.args.get("order")
    time_order = None
    first = order.expressions[0].this if order is not None and order.expressions else None
    if isinstance(first, exp.Column):
        if aggregates.is_proctime(source, first.name):
            time_order = "proctime"
        elif source.watermark is not None and source.watermark[0] == first.name:
            time_order = "rowtime"
    relation, columns = _numbered_relation(select, source, compiler, position, time_order)
    relation.insert_only = all(isinstance(each.this, exp.Literal) for each in order.expressions)
    return CatalogTable(name, tuple(columns), {}, None, relation)


class OverRelation:
    """A view of a relation (``base``) with OVER aggregates as columns (over.py): per base row that passes
    ``condition``, the values of ``items`` (the view's other columns) and of the aggregates' arguments, keyed by
    ``partition``."""

    def __init__(self, base: CatalogTable, condition, items, partition, key_type, arguments, operator, text):
        self.base, self.condition, self.items, self.partition = base, condition, items, partition
        self.key_type, self.arguments, self.operator, self.text = key_type, arguments, operator, text

    def keyed_rows(self):
        items, partition, arguments, condition = self.items, self.partition, self.arguments, self.condition

        def keyed(row):
            if row is None:
                return
            values = tuple(row)
            if condition is not None and condition(values) is not True:
                return
            yield (tuple(function(values) for function in partition),
                   (tuple(function(values) for function in items),
                    tuple(None if function is None else function(values) for function in arguments)))
        return keyed


def _over_view(name: str, select, source: CatalogTable, compiler, positions) -> CatalogTable:
    """The view of OVER aggregates (over.over_as_view made it): Flink's checks and messages, the operator."""
    from pyflink_compat.table.sql import aggregates, over
    from pyflink_compat.table.sql.dialect import Flink
    windows = [select.expressions[position].this for position in positions]
    if any(isinstance(window.this, exp.RowNumber) for window in windows):
        _refuse("ROW_NUMBER() and OVER aggregations in one query")
    specs = {(tuple(node.sql(dialect=Flink) for node in window.args.get("partition_by") or []),
              window.args["order"].sql(dialect=Flink) if window.args.get("order") is not None else "",
              window.args["spec"].sql(dialect=Flink) if window.args.get("spec") is not None else "")
             for window in windows}
    if len(specs) > 1:
        raise table_exception("Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the "
                              "same window. please re-check the over window statement.")
    window = windows[0]
    order = window.args.get("order")
    ordered = order.expressions if order is not None else []
    first = ordered[0].this if ordered else None
    time_order = None
    if len(ordered) == 1 and isinstance(first, exp.Column) and not ordered[0].args.get("desc"):
        if aggregates.is_proctime(source, first.name):
            time_order = "proctime"
        elif source.watermark is not None and source.watermark[0] == first.name:
            time_order = "rowtime"
    spec = window.args.get("spec")
    if time_order is None:
        start = spec.args.get("start") if spec is not None else "UNBOUNDED"
        if not (isinstance(start, str) and start.upper() == "UNBOUNDED"):
            raise table_exception("Non-time attribute sort is not supported for bounded OVER window.")
        raise expressions.validation_error("OVER windows' ordering in stream mode must be defined on a time "
                                           "attribute.")
    kind, preceding = "RANGE", None          # no frame: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    if spec is not None:
        kind = str(spec.args.get("kind") or "RANGE").upper()
        end = spec.args.get("end")
        end_text = (end if isinstance(end, str) else end.sql() if end is not None else "CURRENT ROW").upper()
        if end_text != "CURRENT ROW" or spec.args.get("end_side"):
            _refuse("An OVER window ending after the current row (%s)" % spec.sql(dialect=Flink),
                    "OVER windows end at CURRENT ROW, as Flink's streaming ones must")
        start = spec.args.get("start")
        start_text = start.upper() if isinstance(start, str) else None
        if start_text == "UNBOUNDED":
            preceding = None
        elif start_text == "CURRENT ROW":
            preceding = 0
        elif kind == "ROWS" and isinstance(start, exp.Literal) and not start.is_string:
            preceding = int(start.this)
        elif kind == "RANGE" and isinstance(start, exp.Interval):
            preceding = catalog_module.interval_ms(start)
        else:
            _refuse("The OVER window frame %s" % spec.sql(dialect=Flink))
    names, arguments, over_types = [], [], []
    for each in windows:
        call = aggregates.call_of(each.this, compiler)
        if call is None or not isinstance(call[0], str) or call[0].startswith(aggregates.DISTINCT):
            _refuse("%s OVER (...)" % each.this.sql(dialect=Flink), "COUNT, SUM, MIN, MAX and AVG over a window run")
        names.append(call[0])
        arguments.append(call[1])
        over_types.append(call[2])
    others = [item for index, item in enumerate(select.expressions) if index not in positions]
    projections = _projections(exp.Select(expressions=others), source, compiler)
    columns = [Column(column_name, column_type) for column_name, (_, column_type) in projections]
    for position, over_type in zip(positions, over_types):
        columns.insert(position, Column(select.expressions[position].alias, over_type))
    partition = [compiler.compile(node) for node in window.args.get("partition_by") or []]
    operator = over.OverAggregate(names, list(positions), kind, preceding, time_order == "rowtime")
    relation = OverRelation(source, _condition(select, compiler), [function for _, (function, _) in projections],
                            [function for function, _ in partition],
                            binary_keys.key_type_of([key_type for _, key_type in partition]), arguments, operator,
                            window.sql(dialect=Flink))
    watermark = None
    if source.watermark is not None and any(column.name == source.watermark[0] for column in columns):
        watermark = source.watermark
    return CatalogTable(name, tuple(columns), {}, watermark, relation)


def _numbering_items(select) -> list:
    """Positions of a query's ROW_NUMBER() / RANK() / DENSE_RANK() OVER (...) items."""
    from pyflink_compat.table.sql.over import RANKINGS
    windows = [item.this if isinstance(item, exp.Alias) else item for item in select.expressions]
    return [position for position, window in enumerate(windows)
            if isinstance(window, exp.Window) and isinstance(window.this, (exp.RowNumber,) + RANKINGS)]


def _batch_sort_of(select):
    """(the query, its ORDER BY or None, first rank, last rank or None) of a batch query: a LIMIT the parser made a
    Top-N (dialect.limit_as_top_n) is taken back to the query it was, which a batch job sorts at its end."""
    order = select.args.get("order")
    first, last = 1, None
    limit, offset = select.args.get("limit"), select.args.get("offset")
    if limit is not None and isinstance(limit.expression, exp.Literal):
        last = int(limit.expression.this)
    if offset is not None and isinstance(offset.expression, exp.Literal):
        first = int(offset.expression.this) + 1
        last = None if last is None else last + first - 1
    source_clause = select.args.get("from") or select.args.get("from_")
    inner = source_clause.this.this if source_clause is not None and isinstance(source_clause.this, exp.Subquery) \
        else None
    ranked = [item for item in (inner.expressions if isinstance(inner, exp.Select) else [])
              if isinstance(item, exp.Alias) and item.alias == LIMIT_RANK]
    where = select.args.get("where")
    if not ranked or where is None:
        return select, order, first, last
    first, last, rest = _rank_limit(where.this, LIMIT_RANK)
    original = inner.copy()
    original.set("expressions", [item.copy() for item in select.expressions])
    window_order = ranked[0].this.args.get("order")
    constant = window_order is None or all(isinstance(each.this, exp.Literal) for each in window_order.expressions)
    if rest:
        return select, order, 1, None            # a filter on the row number of the user's own: not a LIMIT
    return original, (None if constant else window_order.copy()), first, last


def _rank_limit(condition, rank_name: str):
    """(first rank, last rank, the other conjuncts) of a filter bounding the row number: rn <= N, rn < N, rn = N,
    rn > M, rn >= M, rn BETWEEN M AND N (last None without an upper bound)."""
    first, last, rest = 1, None, []
    for conjunct in _conjuncts(condition) if condition is not None else []:
        bounds = None
        if isinstance(conjunct, exp.Between) and isinstance(conjunct.this, exp.Column) \
                and conjunct.this.name == rank_name and all(isinstance(conjunct.args.get(side), exp.Literal)
                                                            for side in ("low", "high")):
            bounds = (int(conjunct.args["low"].this), int(conjunct.args["high"].this))
        elif isinstance(conjunct, (exp.LTE, exp.LT, exp.EQ, exp.GTE, exp.GT)):
            left, right = conjunct.this, conjunct.expression
            flipped = isinstance(right, exp.Column) and right.name == rank_name
            column, number = (right, left) if flipped else (left, right)
            if isinstance(column, exp.Column) and column.name == rank_name and isinstance(number, exp.Literal) \
                    and not number.is_string:
                n = int(number.this)
                kind = type(conjunct)
                if flipped:
                    kind = {exp.GTE: exp.LTE, exp.GT: exp.LT, exp.LTE: exp.GTE, exp.LT: exp.GT}.get(kind, kind)
                bounds = {exp.LTE: (1, n), exp.LT: (1, n - 1), exp.EQ: (n, n), exp.GTE: (n, None),
                          exp.GT: (n + 1, None)}[kind]
        if bounds is None:
            rest.append(conjunct)
        else:
            first = max(first, bounds[0])
            if bounds[1] is not None:
                last = bounds[1] if last is None else min(last, bounds[1])
    return first, last, rest


def _with_computed_columns(table: CatalogTable):
    """The function completing a row of the columns a source reads (physical, then metadata) with the computed
    ones, in the declared order."""
    read = table.reader_columns
    compiler = expressions.Compiler({column.name: (position, column.type) for position, column in enumerate(read)})
    parts = [(None, read.index(column)) if column.computed is None
             else (compiler.compile(column.computed)[0], None) for column in table.columns]

    def complete(row):
        from pyflink_compat.common.types import Row
        values = tuple(row)
        return Row(*[values[position] if function is None else function(values) for function, position in parts])
    return complete


def _with_value_at(position: int):
    def has_value(row) -> bool:
        return row is not None and row[position] is not None
    return has_value


def _no_key(row):
    return ()


def _normalized(upserts, source: CatalogTable, select, compiler, converters):
    """A stream of (primary key, row or None for a deletion) of ``source`` normalized per key as Flink's
    ChangelogNormalize (the query's filter inside it), then projected: its changes."""
    from pyflink_compat.table.sql.changelog import ChangelogNormalize, keys_of
    key_type = binary_keys.key_type_of([next(c.type for c in source.columns if c.name == name)
                                        for name in source.primary_key])
    normalized = upserts.key_by(keys_of, key_type=key_type).process(ChangelogNormalize(_condition(select, compiler))) \
        .name("ChangelogNormalize")
    return normalized.map(_projected_change(converters)).name("Calc")


def _keyed_input(condition, key_functions, argument_functions):
    """The function making an input row of a grouping (key values, argument values of each aggregate call), none
    for a row its WHERE filters out."""
    def keyed(row):
        if row is None:
            return
        values = tuple(row)
        if condition is not None and condition(values) is not True:
            return
        yield (tuple(function(values) for function in key_functions),
               tuple(None if argument is None else argument(values) for argument in argument_functions))
    return keyed


def _group_key(pair):
    return pair[0]


def _position(node) -> str:
    """Where a parsed name stands in the statement, as Calcite's validator says it."""
    line, start, end = node.meta.get("line", 1), node.meta.get("start", -1) + 1, node.meta.get("end", -1) + 1
    if start == end:
        return "At line %d, column %d" % (line, start)
    return "From line %d, column %d to line %d, column %d" % (line, start, line, end)


def _keyed_by(positions):
    """A change as (the values at ``positions``, the change)."""
    def keyed(change):
        return tuple(change[1][i] for i in positions), change
    return keyed


def _values_row(change):
    from pyflink_compat.common.types import Row
    return Row(*change[1])


def duration_ms(text: str, key: str = "table.exec.source.idle-timeout") -> int:
    """Flink's duration text: '5 s', '500 ms', '1 min', '10000' (ms), the value of option ``key``."""
    import re
    match = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", text.lower())
    if match is None:
        raise expressions.validation_error("Could not parse value '%s' for key '%s'." % (text, key))
    number, unit = int(match.group(1)), match.group(2)
    factors = {"": 1, "ms": 1, "milli": 1, "millis": 1, "s": 1000, "sec": 1000, "secs": 1000, "second": 1000,
               "seconds": 1000, "min": 60_000, "m": 60_000, "minute": 60_000, "minutes": 60_000, "h": 3_600_000,
               "hour": 3_600_000, "hours": 3_600_000}
    if unit not in factors:
        raise expressions.validation_error("Could not parse value '%s' for key '%s'." % (text, key))
    return number * factors[unit]


def plan_grouping(select: exp.Select, source: CatalogTable, compiler) -> "_Grouping":
    """GROUP BY with aggregates, as Flink's GroupAggregate: per key, the first row is an insertion (+I), each
    later input row retracts the previous result (-U) and sends the new one (+U), unless it is unchanged; or
    a group window's aggregate, an insertion per key and window when the window fires."""
    from pyflink_compat.table.sql import aggregates
    from pyflink_compat.table.sql.catalog import SqlType
    group = select.args["group"]
    if group.args.get("rollup") or group.args.get("cube") or group.args.get("grouping_sets"):
        _refuse("GROUPING SETS, ROLLUP and CUBE")
    windows = [each for each in group.expressions
               if isinstance(each, exp.Anonymous) and each.name.upper() in aggregates.GROUP_WINDOWS]
    if len(windows) > 1:
        _refuse("Two group windows in one GROUP BY")
    window = aggregates.group_window(windows[0], source) if windows else None
    key_nodes = [each for each in group.expressions if each not in windows]
    table_window = isinstance(source.query, WindowTableRelation)
    if table_window:
        # a window table function's aggregation: GROUP BY window_start, window_end (and keys)
        window = source.query.window
        bounds = [each.name for each in key_nodes if isinstance(each, exp.Column) and each.name in _WINDOW_COLUMNS]
        if "window_start" not in bounds or "window_end" not in bounds:
            _refuse("A window table function's GROUP BY without both window_start and window_end",
                    "group by window_start, window_end and the keys")
        key_nodes = [each for each in key_nodes if not (isinstance(each, exp.Column) and each.name in bounds)]
        grouped = {each.name for each in key_nodes if isinstance(each, exp.Column)}
        if window.kind == "SESSION" and not set(window.partition) <= grouped:
            _refuse("A SESSION window table function whose PARTITION BY keys are not all in the GROUP BY",
                    "group by the partition keys, window_start and window_end")
        for node in key_nodes:
            inner = [column.name for column in node.find_all(exp.Column) if column.name in _WINDOW_COLUMNS]
            if inner:
                _refuse("%s in an expression of the GROUP BY" % inner[0], "group by window_start and window_end "
                                                                         "as they are")
        compiler = expressions.Compiler({column.name: (position, column.type) for position, column
                                         in enumerate(source.query.base.columns)})
    keys = [compiler.compile(each) for each in key_nodes]
    grouping = _Grouping(source, select, compiler, window, [each.sql() for each in key_nodes], keys)
    grouping.key_nodes = key_nodes
    if table_window:
        grouping.bound_types = {bound: _window_column_type(name, source.query) for name, bound in _WINDOW_COLUMNS.items()}
    for item in select.expressions:
        node = item.this if isinstance(item, exp.Alias) else item
        grouping.names.append(output_name(item, len(grouping.names)))
        if table_window and isinstance(node, exp.Column) and node.name in _WINDOW_COLUMNS:
            grouping.outputs.append(("window", _WINDOW_COLUMNS[node.name]))
            grouping.types.append(_window_column_type(node.name, source.query))
            continue
        if node.sql() in grouping.key_sql:
            index = grouping.key_sql.index(node.sql())
            grouping.outputs.append(("key", index))
            grouping.types.append(keys[index][1])
            continue
        bound = window.bound_of(node) if window is not None else None
        if bound is not None:
            grouping.outputs.append(("window", bound))
            # Flink types SQL's TUMBLE_START / _END NOT NULL, TUMBLE_ROWTIME and the Table API's w.start nullable
            grouping.types.append(SqlType("TIMESTAMP_LTZ" if bound == "rowtime" and window.local else "TIMESTAMP",
                                          precision=3,
                                          nullable=bound == "rowtime" or bool(node.meta.get("table_api"))))
            continue
        call = aggregates.call_of(node, compiler)
        if call is None and node.find(exp.Column) is None and not list(node.find_all(exp.AggFunc)):
            function, constant_type = compiler.compile(node)       # a constant: 'all', 1 + 1
            grouping.outputs.append(("constant", function(())))
            grouping.types.append(constant_type)
            continue
        if call is None:                   # an expression of the keys and aggregates: SUM(a) * 2, CAST(MAX(t) ...)
            function, result_type = grouping.over_results(node)
            grouping.outputs.append(("expression", len(grouping.expressions)))
            grouping.types.append(result_type)
            grouping.expressions.append(function)
            continue
        grouping.outputs.append(("agg", grouping.add_call(node, call)))
        grouping.types.append(call[2])
    having = select.args.get("having")
    if having is not None:
        grouping.having, _ = grouping.over_results(having.this)
    return grouping


class _Grouping:
    """A GROUP BY planned: its keys, window, aggregate calls and output columns; ``changes`` adds its
    operators to the job."""

    def __init__(self, source: CatalogTable, select: exp.Select, compiler, window, key_sql, keys):
        self.source, self.select, self.compiler = source, select, compiler
        self.window, self.key_sql, self.keys = window, key_sql, keys
        self.names, self.types = [], []   # of the output columns
        # per output column: ("key", index), ("agg", index), ("window", "start" / "end"), ("constant", value)
        self.outputs = []
        self.calls = []       # (aggregate name, compiled argument or None)
        self.call_types = []  # their result types
        self.call_nodes = []  # the aggregate calls' nodes
        self.key_nodes = []
        self.expressions = []  # functions of aggregates.GroupOutput's row, for ("expression", index) outputs
        self.having = None
        self.bound_types = None  # a window table function's: the types of window_start, window_end, window_time

    def upsert_key(self):
        """The output positions of the GROUP BY keys when each is selected as it is (the columns the rows are
        keyed by); None for a window's rows (insertions only) or a key not selected."""
        if self.window is not None:
            return None
        positions = [self.outputs.index(("key", index)) if ("key", index) in self.outputs else None
                     for index in range(len(self.keys))]
        return None if None in positions else tuple(positions)

    def add_call(self, node, call) -> int:
        """The index of the aggregate call ``node`` (compiled: ``call``), the same call once."""
        text = node.sql()
        for index, known in enumerate(self.call_nodes):
            if known.sql() == text:
                return index
        self.calls.append(call[:2])
        self.call_nodes.append(node)
        self.call_types.append(call[2])
        return len(self.calls) - 1

    def over_results(self, node):
        """``node`` (a select item or HAVING's condition) compiled over GroupOutput's row: its aggregate calls,
        grouping keys and window bounds replaced by that row's columns; any other column is not being grouped."""
        from pyflink_compat.table.sql import aggregates
        from pyflink_compat.table.sql.catalog import SqlType

        def replaced(each):
            if not isinstance(each, exp.Expr) or isinstance(each, (exp.Literal, exp.Boolean, exp.Null)):
                return each
            if each.sql() in self.key_sql:
                return exp.column("$key%d" % self.key_sql.index(each.sql()), quoted=True)
            if self.bound_types is not None and isinstance(each, exp.Column) and each.name in _WINDOW_COLUMNS:
                return exp.column("$window_" + _WINDOW_COLUMNS[each.name], quoted=True)     # a window TVF's column
            bound = self.window.bound_of(each) if self.window is not None else None
            if bound is not None:
                return exp.column("$window_" + bound, quoted=True)
            call = aggregates.call_of(each, self.compiler)
            if call is not None:
                return exp.column("$agg%d" % self.add_call(each, call), quoted=True)
            return each

        rewritten = node.transform(replaced)
        for column in rewritten.find_all(exp.Column):
            if not column.name.startswith("$"):
                self._refuse_unknown_aggregate(column)
                raise expressions.validation_error(
                    "SQL validation failed. Expression '%s' is not being grouped" % column.sql())
        bound_types = self.bound_types or dict.fromkeys(("start", "end", "rowtime"),
                                                        SqlType("TIMESTAMP", precision=3, nullable=False))
        if self.bound_types is None and self.window is not None and self.window.local:
            bound_types["rowtime"] = SqlType("TIMESTAMP_LTZ", precision=3, nullable=False)
        columns = {"$window_" + bound: (position, bound_types[bound])
                   for position, bound in enumerate(("start", "end", "rowtime"))}
        columns.update({"$key%d" % index: (3 + index, key_type) for index, (_, key_type) in enumerate(self.keys)})
        columns.update({"$agg%d" % index: (3 + len(self.keys) + index, call_type)
                        for index, call_type in enumerate(self.call_types)})
        return expressions.Compiler(columns).compile(rewritten)

    def _refuse_unknown_aggregate(self, column):
        """A column left ungrouped inside an aggregate call that is not run here: Flink's aggregates refused by
        name (ARRAY_AGG, COLLECT, JSON_ARRAYAGG, ...), an unknown function with Flink's validation error."""
        from pyflink_compat.table.sql.dialect import Flink
        aggregate = column.find_ancestor(exp.AggFunc)
        if aggregate is not None:
            _refuse("The aggregate function %s" % aggregate.sql(dialect=Flink), expressions.AGGREGATES_RUN)
        call = column.find_ancestor(exp.Anonymous)
        if call is not None:        # Flink's "No match found for function signature ...", or refused by name
            self.compiler.compile(call)

    def output(self, column_types):
        from pyflink_compat.table.sql import aggregates
        return aggregates.GroupOutput(self.outputs, column_types, self.expressions, self.having, self.types)

    def columns(self) -> list:
        return [Column(name, sql_type) for name, sql_type in zip(self.names, self.types)]

    def node_text(self) -> str:
        """The aggregation as Flink's plan names it: ``GroupAggregate(groupBy=[k], select=[k, SUM(v) AS s])``."""
        from pyflink_compat.table.sql.dialect import Flink
        aggregated = ["%s AS %s" % (node.sql(dialect=Flink), self.names[self.outputs.index(("agg", index))]
                                    if ("agg", index) in self.outputs else "$f%d" % (len(self.keys) + index))
                      for index, node in enumerate(self.call_nodes)]
        return "GroupAggregate(groupBy=[%s], select=[%s])" % (", ".join(self.key_sql),
                                                             ", ".join(self.key_sql + aggregated))

    def changes(self, builder: "JobBuilder", column_types):
        """The stream of (row kind, values) changes of the job ``builder`` builds, the values converted to
        ``column_types``."""
        from pyflink_compat.table.sql import aggregates
        condition = _condition(self.select, self.compiler)
        key_functions = [function for function, _ in self.keys]
        argument_functions = [argument for _, argument in self.calls]
        keyed_input = _keyed_input(condition, key_functions, argument_functions)

        names = [name for name, _ in self.calls]
        pandas = [getattr(name, "pandas", None) for name in names if not isinstance(name, str)]
        if True in pandas and False in pandas:
            raise table_exception("Pandas UDAFs and General Python UDAFs are not supported in used together "
                                  "currently.")
        if self.window is None and True in pandas:
            raise table_exception("Pandas UDAFs are not supported in streaming mode currently.")
        key_type = self._key_type()
        if _is_changelog_source(self.source):
            return self._retracting_changes(builder, condition, key_functions, argument_functions, names, key_type,
                                            column_types)
        rows = builder._source_stream(self.source)
        if self.window is None:
            return rows.flat_map(keyed_input).name("Calc").key_by(_group_key, key_type) \
                .process(aggregates.GroupAggregate(names, self.output(column_types), final_only=_batch(builder))) \
                .name("GroupAggregate")
        timeless = _batch(builder) and not self.window.processing
        if timeless:              # Flink's batch windows leave out a row without a time (a stream's go to 1970)
            rows = rows.filter(_with_value_at(self.source.column_names.index(self.window.column))).name("Calc")
        if self.window.kind != "SESSION" and window_input.mergeable(names):
            # each row's contribution as a partial accumulator; where the batch form applies, a batch's rows of
            # one key and pane are summed up before the exchange
            slice_of = self._slice_of(names)
            partials = window_input.WindowPartials(
                condition, key_functions, argument_functions, names,
                None if slice_of or timeless else self._batch_form(builder, names), slice_of)
            return rows.flat_map(partials).name("Calc").key_by(_group_key, key_type).window(self.window.assigner()) \
                .aggregate(aggregates.Accumulate(names, partials=True, sliced=slice_of is not None),
                           aggregates.WindowAggregate(names, self.output(column_types), self.window.local)) \
                .name("GroupWindowAggregate")
        windowed = rows.flat_map(keyed_input).name("Calc").key_by(_group_key, key_type) \
            .window(self.window.assigner())
        if self.window.kind == "SESSION":
            # merging windows keep their elements: our DataStream window operator reproduces PyFlink's keeping
            # one accumulator when a record bridges sessions, and Flink SQL's planner merges them all
            changes = windowed.process(aggregates.SessionAggregate(names, self.output(column_types), self.window.local))
        else:
            changes = windowed.aggregate(aggregates.Accumulate(names),
                                         aggregates.WindowAggregate(names, self.output(column_types), self.window.local))
        return changes.name("GroupWindowAggregate")

    def _key_type(self):
        return binary_keys.key_type_of([key_type for _, key_type in self.keys])

    def table_aggregate_changes(self, builder: "JobBuilder", column_types):
        """The changes of a flat_aggregate (its one call a table aggregate function's), its rows converted to
        ``column_types`` (the keys', then the function's fields')."""
        from pyflink_compat.table.sql import aggregates
        if _is_changelog_source(self.source):
            _refuse("flat_aggregate over an updating table (a GROUP BY, an outer join, an 'upsert-kafka' table)",
                    "flat_aggregate over an insert-only table runs")
        (function, arguments), = self.calls
        keyed_input = _keyed_input(_condition(self.select, self.compiler), [each for each, _ in self.keys],
                                   [arguments])
        return builder._source_stream(self.source).flat_map(keyed_input).name("Calc") \
            .key_by(_group_key, self._key_type()) \
            .process(aggregates.TableAggregate(function, column_types, final_only=_batch(builder))) \
            .name("GroupTableAggregate")

    def _retracting_changes(self, builder: "JobBuilder", condition, key_functions, argument_functions, names,
                            key_type, column_types):
        """A GROUP BY over a changelog: each change of the input, filtered, added to or taken back from its key's
        aggregates."""
        from pyflink_compat.table.sql import retracting
        if self.window is not None:
            _refuse("A group window over a changelog (an outer join, a GROUP BY view, an 'upsert-kafka' table)",
                    "a GROUP BY without a window over it runs")
        if isinstance(self.source.query, RankRelation):
            _refuse("GROUP BY of a Top-N", "projections and filters of it run")
        retracting.check_retractable(names, SECTION)

        def keyed_change(change):
            kind, values = change
            values = tuple(values)
            if condition is not None and condition(values) is not True:
                return
            yield (tuple(function(values) for function in key_functions),
                   (kind, tuple(None if argument is None else argument(values) for argument in argument_functions)))
        return builder._relation_changes(self.source).flat_map(keyed_change).name("Calc") \
            .key_by(_group_key, key_type) \
            .process(retracting.RetractingGroupAggregate(names, self.output(column_types))).name("GroupAggregate")

    def _slice_of(self, names):
        """For an event-time HOP or CUMULATE window with floating-point sums: the function giving a row's slice
        (Flink adds up a window's rows per slice, of the greatest common divisor of its intervals, and then the
        slices in their order; an order-free aggregate needs none of it). None otherwise."""
        import math
        from pyflink_compat.table.sql import aggregates
        if self.window.kind not in ("HOP", "CUMULATE") or self.window.processing \
                or not aggregates.order_sensitive(names):
            return None
        table = self.source.query.base if isinstance(self.source.query, WindowTableRelation) else self.source
        if self.window.column not in table.column_names:
            return None
        slice_ms = math.gcd(*self.window.intervals)
        return _SliceOf(table.column_names.index(self.window.column), slice_ms, self.window.offset_ms % slice_ms)

    def _batch_form(self, builder: "JobBuilder", names):
        """The batch form of the window's input (window_input.BatchForm) for a window over a Kafka JSON table,
        or None."""
        table = self.source.query.base if isinstance(self.source.query, WindowTableRelation) else self.source
        if table.query is not None or table.option("connector") != "kafka":
            return None
        layout = kafka_table.layout_of(table, kafka_table.SOURCE)
        option = functools.partial(kafka_table.format_option, table, "value")
        where = self.select.args.get("where")
        arguments = [None if not isinstance(node, exp.AggFunc) or node.this is None or isinstance(node.this, exp.Star)
                     else node.this for node in self.call_nodes]
        computed = any(column.computed is not None for column in table.columns)
        form = window_input.batch_form_of(
            table, layout.value_format, layout.key_format, option("ignore-parse-errors", "false") == "true",
            option("fail-on-missing-field", "false") == "true", self.window, None if where is None else where.this,
            self.key_nodes, list(zip(names, arguments)), chain_length=3 + computed)
        if form is not None:
            log.info("The %s window over %s sums up its input a batch at a time", self.window.kind, table.name)
        return form


class EnforcerError(JavaStyleError):
    """A sink constraint's failure, on one line so that the job's failure message (its first line) names it."""

    def __str__(self):
        return self._thrown()


class _NotNullEnforcer:
    """Checks the NOT NULL columns of the rows (or of the changes' values) going into a sink."""

    def __init__(self, positions, drop: bool, changelog: bool):
        self.positions, self.drop, self.changelog = positions, drop, changelog

    def __call__(self, element):
        values = element[1] if self.changelog else tuple(element)
        for position, name in self.positions:
            if values[position] is None:
                if self.drop:
                    return
                raise EnforcerError(
                    "org.apache.flink.table.runtime.operators.sink.constraint.EnforcerException",
                    "Column '%s' is NOT NULL, however, a null value is being written into it. You can set job "
                    "configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception and drop "
                    "such records silently." % name, "process")
        yield element


def _length_enforcer(table: CatalogTable, changelog: bool):
    """Flink's sink constraint enforcer of the table's CHAR(n) and VARCHAR(n) columns: a longer string is cut to
    n characters, a shorter one of a CHAR(n) padded with spaces (also a CHAR(3) value in a CHAR(5) column);
    None: the table has no such column."""
    columns = [(i, column.type) for i, column in enumerate(table.columns)
               if column.type.name == "STRING" and column.type.length is not None]
    return _LengthEnforcer(columns, changelog) if columns else None


class _LengthEnforcer:
    """Fits the strings of the CHAR(n) / VARCHAR(n) columns of the rows (or of the changes' values) going into a
    sink to their lengths."""

    def __init__(self, columns, changelog: bool):
        self.columns, self.changelog = columns, changelog

    def __call__(self, element):
        from pyflink_compat.common.types import Row
        values = list(element[1] if self.changelog else element)
        for position, column_type in self.columns:
            values[position] = expressions.fitted(values[position], column_type)
        if self.changelog:
            return (element[0], tuple(values)) + tuple(element[2:])
        fitted = Row(*values)
        if isinstance(element, Row):
            fitted.set_row_kind(element.get_row_kind())
        return fitted


def _refuse_window_table_without_aggregation(source: CatalogTable):
    if isinstance(source.query, WindowTableRelation):
        _refuse("A window table function without GROUP BY window_start, window_end",
                "window table functions run with their window aggregation")


def _types_text(column_types) -> tuple:
    return tuple(t.text() for t in column_types)


def _check_columns(query, target: CatalogTable):
    """Flink's check of an INSERT: as many columns as the sink has, each of a type that casts implicitly to the
    sink column's. ``query``: (name, type) of the query's columns."""
    cause = None
    if len(query) != len(target.columns):
        cause = "Different number of columns."
    else:
        for position, ((_, query_type), column) in enumerate(zip(query, target.columns), start=1):
            if not expressions.assignable(query_type, column.type):
                cause = "Incompatible types for sink column '%s' at position %d." % (column.name, position)
                break
    if cause is not None:
        raise expressions.validation_error(
            "Column types of query result and sink for '%s.%s' do not match.\nCause: %s\n\nQuery schema: [%s]\n"
            "Sink schema:  [%s]" % (CATALOG_PATH, target.name, cause,
                                    ", ".join("%s: %s" % (name, t.text()) for name, t in query),
                                    ", ".join("%s: %s" % (c.name, attrs.evolve(c.type, nullable=True).text())
                                              for c in target.columns)))


def _projected_columns(projections):
    return [(name, compiled[1]) for name, compiled in projections]


def _insertion(row):
    return "+I", tuple(row)


class _MetadataTimestamp(TimestampAssigner):
    """A row's 'timestamp' metadata column as epoch milliseconds (a TIMESTAMP in the session time zone); a NULL
    one keeps the element's own."""

    def __init__(self, position: int, local: bool):
        self.position, self.local = position, local

    def extract_timestamp(self, value, record_timestamp) -> int:
        from pyflink_compat.table.sql.values import utc_of_local
        moment = tuple(value)[self.position]
        if moment is None:
            return record_timestamp
        if self.local:
            moment = utc_of_local(moment)
        return epoch_ms_of(moment)


class _SliceOf:
    """The slice of ``slice_ms`` a row's rowtime (at ``position``) falls in; a row without one is at the epoch."""

    def __init__(self, position: int, slice_ms: int, offset_ms: int = 0):
        self.position, self.slice_ms, self.offset_ms = position, slice_ms, offset_ms

    def __call__(self, values) -> int:
        rowtime = values[self.position]
        return 0 if rowtime is None else (epoch_ms_of(rowtime) - self.offset_ms) // self.slice_ms


_NO_RECORD_TIMESTAMP = -2 ** 63          # what a process function's ctx.timestamp() gives a record without one


class _WithRecordTimestamp(ProcessFunction):
    """A DataStream element as a row, followed by its record timestamp (a 'rowtime' metadata column,
    TIMESTAMP_LTZ(3); NULL without one)."""

    def __init__(self, to_row, required: bool = False):
        self.to_row = to_row
        self.required = required          # from_data_stream(..., col('t').rowtime): Flink fails without one

    def process_element(self, value, ctx):
        from pyflink_compat.common.types import Row
        from pyflink_compat.table.sql.values import utc_of_epoch_ms
        timestamp = ctx.timestamp()
        if timestamp == _NO_RECORD_TIMESTAMP:
            timestamp = None
        if timestamp is None and self.required:
            from pyflink_compat.table.sql.bridge import ROWTIME_NOT_DEFINED
            raise RuntimeError(ROWTIME_NOT_DEFINED)
        yield Row(*self.to_row(value), None if timestamp is None else utc_of_epoch_ms(timestamp))


class _RowtimeAssigner(TimestampAssigner):
    """The record timestamp of a row: its rowtime TIMESTAMP column as UTC epoch milliseconds."""

    def __init__(self, position: int):
        self.position = position

    def extract_timestamp(self, value, record_timestamp) -> int:
        rowtime = tuple(value)[self.position]
        if rowtime is None:             # Flink SQL's group windows put a row without rowtime at the epoch
            return 0
        return epoch_ms_of(rowtime)


def epoch_ms_of(moment) -> int:
    """A UTC date-time as epoch milliseconds."""
    import calendar
    return calendar.timegm(moment.timetuple()) * 1000 + moment.microsecond // 1000


def _column_at(position: int):
    return lambda values: values[position]


def _keyed_change(keys, outer: bool = False):
    """(join key, (row kind, values)) of a change of a changelog side of a join (a NULL key as _keyed_side)."""
    def keyed(change):
        kind, values = change
        values = tuple(values)
        key = tuple(function(values) for function in keys)
        if outer or None not in key:
            yield key, (kind, values)
    return keyed


def _keyed_side(keys, outer: bool = False):
    """(join key, values) of a row of one side of a join; a row with a NULL key joins nothing (SQL's =): an inner
    side drops it, an outer side's join pads it."""
    def keyed(row):
        if row is None:
            return
        values = tuple(row)
        key = tuple(function(values) for function in keys)
        if outer or None not in key:
            yield key, values
    return keyed


def _expand(relation: "UnnestRelation"):
    """A row once per row its expression gives (with that row's values added), none when it gives none (one
    with NULLs when the relation keeps empty ones)."""
    rows_of, keep_empty, empty = relation.rows_of, relation.keep_empty, (None,) * relation.width

    def expand(row):
        from pyflink_compat.common.types import Row
        if row is None:
            return
        values = tuple(row)
        added = rows_of(values)
        if not added and keep_empty:
            added = (empty,)
        for each in added:
            yield Row(*values, *each)
    return expand


def _calc(condition, converters):
    """The WHERE condition and the projections of one statement as one function (a Row in, none or one out)."""
    def calc(row):
        from pyflink_compat.common.types import Row
        if row is None:               # a record the format skipped (json.ignore-parse-errors)
            return
        values = tuple(row)
        if condition is not None and condition(values) is not True:
            return
        yield Row(*[convert(values) for convert in converters])
    return calc


def _change_line(sql_types):
    """The print connector's line of a (row kind, values) change."""
    def line(change) -> str:
        from pyflink_compat.table.sql.values import row_text
        kind, values = change
        return row_text(kind, values, sql_types)
    return line


# operators that keep their input's subtasks: Flink's planner runs them, and a sink after them, at the parallelism
# of their input unless an exchange comes between
_FORWARDING = (graph.MAP, graph.FLAT_MAP, graph.FILTER, graph.PROCESS, graph.ASSIGN_TIMESTAMPS)


def _single_subtask_input(rows) -> Optional[int]:
    """1 when ``rows`` come, through forwarding operators only, from a source of one subtask (VALUES, a constant
    SELECT) or a keyed operator of one (a sort in time): Flink's planner runs that chain and its print sink as one
    subtask, whose lines have no subtask number. The chain's operators (the planner's own) are set to one subtask
    with it; None otherwise."""
    chain, node = [], rows._node
    while node.kind in _FORWARDING and node.input is not None and node.parallelism in (None, 1):
        chain.append(node)
        node = node.input
    if node.kind not in (graph.COLLECTION_SOURCE, graph.KEYED_PROCESS) or node.parallelism != 1:
        return None
    for each in chain:
        each.parallelism = 1
    return 1


def _inserted_line(sql_types):
    """The print connector's line of an inserted row: ``+I[1, abc, 2.0]``."""
    def line(row) -> str:
        from pyflink_compat.table.sql.values import row_text
        return row_text("+I", list(row), sql_types)
    return line


def _records_of(record):
    """Row(key bytes, value bytes) of a Row of a Kafka table's columns."""
    def records(row):
        from pyflink_compat.common.types import Row
        return Row(*record(list(row)))
    return records


def _upsert_records(record):
    def records(change):
        from pyflink_compat.common.types import Row
        written = record(change)
        if written is not None:
            yield Row(*written)
    return records

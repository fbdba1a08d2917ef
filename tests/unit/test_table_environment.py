"""Table environments are created and configured as PyFlink's (DataStream jobs often create one they never
use); what they would run raises UnsupportedFeatureError naming the porting guide's table-api section."""

import pytest

from pyflink_compat import aliasing
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError


@pytest.fixture(autouse=True)
def pyflink_alias():
    aliasing.install()


def test_environment_settings_as_pyflink_builds_them():
    from pyflink.common import Configuration
    from pyflink.table import EnvironmentSettings
    streaming = EnvironmentSettings.in_streaming_mode()
    assert streaming.get_configuration().to_dict() == {"execution.runtime-mode": "STREAMING"}
    assert (streaming.is_streaming_mode(), streaming.get_built_in_catalog_name(),
            streaming.get_built_in_database_name()) == (True, "default_catalog", "default_database")
    assert EnvironmentSettings.in_batch_mode().is_streaming_mode() is False
    configuration = Configuration()
    configuration.set_string("a.b", "1")
    built = (EnvironmentSettings.new_instance().with_configuration(configuration).in_batch_mode()
             .with_built_in_catalog_name("cat").build())
    assert built.get_configuration().to_dict() == {
        "a.b": "1", "execution.runtime-mode": "BATCH", "table.builtin-catalog-name": "cat"}
    assert built.get_built_in_catalog_name() == "cat"
    # Flink 1.13 jobs choose the Blink planner, the only one there is since
    legacy = EnvironmentSettings.new_instance().in_streaming_mode().use_blink_planner().build()
    assert legacy.get_configuration().to_dict() == {"execution.runtime-mode": "STREAMING"}
    assert EnvironmentSettings.new_instance().use_any_planner().in_batch_mode().build().is_streaming_mode() is False


def test_a_table_environment_is_created_from_settings_or_a_configuration():
    from pyflink.common import Configuration
    from pyflink.table import EnvironmentSettings, TableEnvironment
    configuration = Configuration()
    configuration.set_string("a.b", "1")
    assert TableEnvironment.create(configuration).get_config().get("a.b", "default") == "1"
    environment = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    assert type(environment).__name__ == "TableEnvironment"
    assert environment.get_config().get("a.b", "default") == "default"
    with pytest.raises(TypeError, match="^argument should be EnvironmentSettings or Configuration$"):
        TableEnvironment.create(1)


def test_a_stream_table_environment_reads_the_stream_environments_configuration():
    from pyflink.common import Configuration
    from pyflink.datastream import StreamExecutionEnvironment
    from pyflink.table import StreamTableEnvironment
    configuration = Configuration()
    configuration.set_string("pipeline.name", "from the environment")
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    t_env = StreamTableEnvironment.create(env)
    assert t_env.get_config().get_configuration().to_dict() == {}
    assert t_env.get_config().get("pipeline.name", "-") == "from the environment"
    assert t_env.get_config().set("pipeline.name", "own") is t_env.get_config()
    assert t_env.get_config().get("pipeline.name", "-") == "own"
    assert t_env.get_config().to_map()["pipeline.name"] == "own"
    with pytest.raises(ValueError, match="^No argument found, the param 'stream_execution_environment' or "
                                         "'environment_settings' is required.$"):
        StreamTableEnvironment.create()


def test_what_a_table_environment_would_run_raises_naming_the_section():
    from pyflink.datastream import StreamExecutionEnvironment
    from pyflink.table import StreamTableEnvironment
    t_env = StreamTableEnvironment.create(StreamExecutionEnvironment.get_execution_environment())
    t_env.execute_sql("CREATE TABLE t (x INT) WITH ('connector' = 'filesystem')")      # DDL is accepted
    with pytest.raises(UnsupportedFeatureError, match=r"The 'filesystem' connector as a source .*#table-api"):
        t_env.execute_sql("SELECT x FROM t")
    t_env.execute_sql("CREATE TABLE g (x INT) WITH ('connector' = 'datagen')")
    with pytest.raises(JavaStyleError, match=r"(?s)Unable to create a sink for writing table "
                                             r"'default_catalog.default_database.g'.*Caused by: org.apache.flink.table."
                                             r"api.ValidationException: Connector 'datagen' can only be used as a "
                                             r"source. It cannot be used as a sink."):
        t_env.execute_sql("INSERT INTO g SELECT x FROM g")
    with pytest.raises(UnsupportedFeatureError, match=r"The SQL statement 'SHOW FUNCTIONS' .*#table-api"):
        t_env.execute_sql("SHOW FUNCTIONS")
    from pyflink.common import Types
    from pyflink.table.changelog_mode import ChangelogMode
    rows = StreamExecutionEnvironment.get_execution_environment().from_collection(
        [("a", 1)], type_info=Types.ROW([Types.STRING(), Types.INT()]))
    from pyflink.table import DataTypes, Schema
    schema = Schema.new_builder().column("f0", DataTypes.STRING()).column("f1", DataTypes.INT()).build()
    upserts = t_env.from_changelog_stream(rows, Schema.new_builder().primary_key("f0").build(), ChangelogMode.upsert())
    assert upserts._schema_text().endswith("CONSTRAINT `PK_f0` PRIMARY KEY (`f0`) NOT ENFORCED\n)")
    t_env.from_changelog_stream(rows, changelog_mode=ChangelogMode.upsert())   # without a schema: not passed on
    with pytest.raises(UnsupportedFeatureError, match=r"from_changelog_stream with a schema showing some of the "
                                                      r"stream's columns .*#table-api"):
        t_env.from_changelog_stream(rows, Schema.new_builder().column("f1", DataTypes.INT()).build(),
                                    ChangelogMode.insert_only())
    strings = StreamExecutionEnvironment.get_execution_environment().from_collection(["a"], type_info=Types.STRING())
    with pytest.raises(UnsupportedFeatureError, match=r"from_changelog_stream of a stream of .*#table-api"):
        t_env.from_changelog_stream(strings)


def test_from_elements_names_and_types_its_columns_as_pyflink_infers_them():
    import datetime
    from pyflink.common import Row
    from pyflink.table import DataTypes
    from pyflink_compat.table.sql.bridge import table_of_elements

    def columns(elements, schema=None):
        table = table_of_elements("t", elements, schema)
        return [(c.name, c.type.text()) for c in table.columns], list(table.query.rows)

    assert columns([(1, "a", 2.5, True)]) == ([("_1", "BIGINT"), ("_2", "STRING"), ("_3", "DOUBLE"),
                                               ("_4", "BOOLEAN")], [(1, "a", 2.5, True)])
    assert columns([(None, "a"), (3, None)], ["n"])[0] == [("n", "BIGINT"), ("_2", "STRING")]
    assert columns([Row(b=1, a="x")])[0] == [("b", "BIGINT"), ("a", "STRING")]
    assert columns([{"b": 1, "a": "x"}]) == ([("a", "STRING"), ("b", "BIGINT")], [("x", 1)])
    assert columns([(datetime.datetime(2024, 1, 2, 3, 4, 5),)])[0] == [("_1", "TIMESTAMP_LTZ(6)")]
    row_type = DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING())])
    assert columns([(1, "x")], row_type) == ([("a", "INT"), ("b", "STRING")], [(1, "x")])
    with pytest.raises(ValueError, match="Some of types cannot be determined after inferring"):
        columns([(None,)])
    with pytest.raises(UnsupportedFeatureError, match="from_elements of a bytes value"):
        columns([(b"x",)])


def test_session_time_zones_flink_knows_become_the_tz_of_the_jobs_work(monkeypatch):
    import datetime
    import time
    from pyflink.table import EnvironmentSettings, TableEnvironment
    from pyflink_compat.table.sql.values import local_of_utc
    from pyflink_compat.util import session_zone
    from pyflink_compat.util.exceptions import JavaStyleError
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    try:
        assert session_zone.tz_of("default") is None and session_zone.tz_of(None) is None
        assert [session_zone.tz_of(zone) for zone in ("Asia/Kolkata", "UTC", "GMT+8", "GMT-03:30")] == [
            "Asia/Kolkata", "UTC", "<+0800>-08:00", "<-0330>+03:30"]
        for unknown in ("PST", "EST", "+08:00", "UTC+08:00", "Mars/Olympus", "GMT+19"):
            with pytest.raises(JavaStyleError, match="ValidationException: Invalid time zone. The value should be"):
                session_zone.tz_of(unknown)
        # the machine's zone, by any of its names, changes nothing; another is set while the job's work runs
        assert session_zone.job_tz({"table.local-time-zone": "GMT+08:00"}) is None
        assert session_zone.job_tz({"table.local-time-zone": "Asia/Kolkata"}) == "Asia/Kolkata"
        noon = datetime.datetime(2024, 1, 2, 12, 0)
        with session_zone.applied("Asia/Kolkata"):
            assert local_of_utc(noon) == datetime.datetime(2024, 1, 2, 17, 30)
        assert local_of_utc(noon) == datetime.datetime(2024, 1, 2, 20, 0)      # put back
        task = session_zone.zoned(lambda batches: (local_of_utc(b) for b in batches), session_zone.tz_of("GMT-03:30"))
        assert list(task([noon])) == [datetime.datetime(2024, 1, 2, 8, 30)]
        config = TableEnvironment.create(EnvironmentSettings.in_streaming_mode()).get_config()
        assert config.get_local_timezone() == "Asia/Shanghai"
        config.set_local_timezone("GMT+08:00")
        assert config.get_local_timezone() == "GMT+08:00"
        assert config.get("table.local-time-zone", None) == "GMT+08:00"
        with pytest.raises(Exception, match="TableConfig.timezone should be a string!"):
            config.set_local_timezone(8)
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()

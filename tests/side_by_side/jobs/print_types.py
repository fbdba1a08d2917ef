"""print() of typed and untyped streams built with from_collection (no Kafka), in a job that also creates
table environments it only configures (as many DataStream jobs do).

Usage: print_types.py
"""
from pyflink.common import Row, Types
from pyflink.common import Configuration
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment, TableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t_env.get_config().set("pipeline.name", "side-by-side print types")
configuration = Configuration()
configuration.set_string("table.exec.source.idle-timeout", "5 s")
settings = EnvironmentSettings.new_instance().in_batch_mode().with_configuration(configuration) \
    .with_built_in_database_name("db").build()
batch_env = TableEnvironment.create(settings)
print("table environments:", type(t_env).__name__, t_env.get_config().get("pipeline.name", "-"),
      settings.is_streaming_mode(), settings.get_built_in_catalog_name(), settings.get_built_in_database_name(),
      batch_env.get_config().get("table.exec.source.idle-timeout", "-"),
      EnvironmentSettings.in_streaming_mode().is_streaming_mode())
env.from_collection(["plain", "with space", ""], type_info=Types.STRING()).print()
env.from_collection([7, -3], type_info=Types.INT()).print("int")
env.from_collection([1.5, 1e20, 0.0001, -2.0], type_info=Types.DOUBLE()).print("double")
env.from_collection([True, False], type_info=Types.BOOLEAN()).print("bool")
env.from_collection([Row(1, 2.5, True, None), Row(2, 1e20, False, "s")],
                    type_info=Types.ROW([Types.INT(), Types.DOUBLE(), Types.BOOLEAN(), Types.STRING()])) \
    .print("row")
env.from_collection([Row(name="ann", n=3), Row(name="bob", n=None)],
                    type_info=Types.ROW_NAMED(["name", "n"], [Types.STRING(), Types.LONG()])) \
    .map(lambda r: Row(name=r.name.upper(), n=r.n),
         output_type=Types.ROW_NAMED(["name", "n"], [Types.STRING(), Types.LONG()])) \
    .print("named")
env.from_collection([(1, "x"), {"k": [1, 2]}, None, 2.5, Row(a=1), "text"]).print("pickled")
env.execute("side-by-side print types")

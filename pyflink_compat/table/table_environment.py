"""TableEnvironment and StreamTableEnvironment, as PyFlink's as far as creating and configuring one: jobs of
the DataStream API often create a table environment they never use. Everything else a table environment
does (SQL, tables, functions, catalogs) raises ``UnsupportedFeatureError`` (porting guide, table-api)."""
from typing import Union

from pyflink_compat import missing
from pyflink_compat.common.configuration import Configuration
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
        return StreamTableEnvironment._made(environment_settings, root)

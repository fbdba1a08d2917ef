"""EnvironmentSettings, as PyFlink's: the settings a table environment is created with."""
from pyflink_compat.common.configuration import Configuration

__all__ = ["EnvironmentSettings"]

RUNTIME_MODE = "execution.runtime-mode"
CATALOG_NAME = "table.builtin-catalog-name"
DATABASE_NAME = "table.builtin-database-name"
DEFAULT_CATALOG, DEFAULT_DATABASE = "default_catalog", "default_database"


class EnvironmentSettings(object):
    """Defines all parameters that initialize a table environment; they cannot be changed afterwards."""

    class Builder(object):
        """A builder for :class:`~EnvironmentSettings`."""

        def __init__(self):
            self._configuration = Configuration()
            self._configuration.set_string(RUNTIME_MODE, "STREAMING")

        def with_configuration(self, config: Configuration) -> 'EnvironmentSettings.Builder':
            self._configuration.add_all(config)
            return self

        def in_batch_mode(self) -> 'EnvironmentSettings.Builder':
            self._configuration.set_string(RUNTIME_MODE, "BATCH")
            return self

        def in_streaming_mode(self) -> 'EnvironmentSettings.Builder':
            self._configuration.set_string(RUNTIME_MODE, "STREAMING")
            return self

        def with_built_in_catalog_name(self, built_in_catalog_name: str) -> 'EnvironmentSettings.Builder':
            self._configuration.set_string(CATALOG_NAME, built_in_catalog_name)
            return self

        def with_built_in_database_name(self, built_in_database_name: str) -> 'EnvironmentSettings.Builder':
            self._configuration.set_string(DATABASE_NAME, built_in_database_name)
            return self

        # Flink 1.13 and earlier chose a planner; since 1.14 the Blink planner is the only one, so these
        # are kept for jobs of that time and change nothing.
        def use_blink_planner(self) -> 'EnvironmentSettings.Builder':
            return self

        def use_any_planner(self) -> 'EnvironmentSettings.Builder':
            return self

        def use_old_planner(self) -> 'EnvironmentSettings.Builder':
            import logging
            logging.getLogger("pyflink_compat").warning(
                "use_old_planner(): Flink's legacy planner is gone since Flink 1.14; the job runs with the one "
                "planner there is (as use_blink_planner())")
            return self

        def build(self) -> 'EnvironmentSettings':
            return EnvironmentSettings(Configuration(self._configuration))

    def __init__(self, j_environment_settings):
        # pyflink-compat: the settings' Configuration
        self._configuration = j_environment_settings

    def get_built_in_catalog_name(self) -> str:
        return self._configuration.get_string(CATALOG_NAME, DEFAULT_CATALOG)

    def get_built_in_database_name(self) -> str:
        return self._configuration.get_string(DATABASE_NAME, DEFAULT_DATABASE)

    def is_streaming_mode(self) -> bool:
        return self._configuration.get_string(RUNTIME_MODE, "STREAMING").upper() != "BATCH"

    def get_configuration(self) -> Configuration:
        return self._configuration

    @staticmethod
    def new_instance() -> 'EnvironmentSettings.Builder':
        return EnvironmentSettings.Builder()

    @staticmethod
    def in_streaming_mode() -> 'EnvironmentSettings':
        return EnvironmentSettings.new_instance().in_streaming_mode().build()

    @staticmethod
    def in_batch_mode() -> 'EnvironmentSettings':
        return EnvironmentSettings.new_instance().in_batch_mode().build()

"""TableConfig, as PyFlink's: the configuration of a table environment over its root configuration (the
StreamExecutionEnvironment's, for a StreamTableEnvironment)."""
from pyflink_compat import missing
from pyflink_compat.common.configuration import Configuration

__all__ = ["TableConfig"]

_StandIns = missing.stand_ins(__name__)


class TableConfig(_StandIns.TableConfig):
    """The table environment's own settings; what it has not set is read from the root configuration."""

    def __init__(self, j_table_config=None):
        # pyflink-compat: (own Configuration, root Configuration or None)
        own, root = j_table_config if j_table_config is not None else (Configuration(), None)
        self._configuration, self._root = own, root

    def get(self, key: str, default_value: str) -> str:
        if self._configuration.contains_key(key):
            return self._configuration.get_string(key, default_value)
        if self._root is not None:
            return self._root.get_string(key, default_value)
        return default_value

    def set(self, key: str, value: str) -> 'TableConfig':
        self._configuration.set_string(key, value)
        return self

    def set_local_timezone(self, timezone_id: str):
        """The session time zone ('table.local-time-zone'): TIMESTAMP_LTZ values are read, cast and shown in it
        (util/session_zone.py)."""
        if timezone_id is not None and isinstance(timezone_id, str):
            self.set("table.local-time-zone", timezone_id)
        else:
            raise Exception("TableConfig.timezone should be a string!")

    def get_local_timezone(self) -> str:
        zone = self.get("table.local-time-zone", "default")
        from pyflink_compat.table.sql.values import machine_zone_id
        return machine_zone_id() if zone.strip().lower() == "default" else zone

    def get_configuration(self) -> Configuration:
        return self._configuration

    def add_configuration(self, configuration: Configuration):
        self._configuration.add_all(configuration)

    def to_map(self) -> dict:
        merged = dict(self._root.to_dict()) if self._root is not None else {}
        merged.update(self._configuration.to_dict())
        return merged

    @staticmethod
    def get_default() -> 'TableConfig':
        return TableConfig()


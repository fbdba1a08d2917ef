"""PyFlink modules pyflink-compat does not implement still import, with every name (pyflink_compat/missing)."""
import importlib

import pytest

from pyflink_compat import aliasing, missing
from pyflink_compat.util.exceptions import UnsupportedFeatureError



@pytest.fixture(autouse=True)
def pyflink_alias():
    aliasing.install()


@pytest.mark.parametrize("name", sorted(missing.inventory()))
def test_every_module_imports_with_every_public_name(name):
    module = importlib.import_module(name)
    for qualified, _kind, _origin, _value in missing.inventory()[name]["names"]:
        target = module
        for part in qualified.split("."):
            target = getattr(target, part)


def test_using_a_name_raises_naming_the_porting_guide_section():
    from pyflink.table import EnvironmentSettings, TableEnvironment
    from pyflink.table.expressions import col
    with pytest.raises(UnsupportedFeatureError, match=r"TableEnvironment.explain_sql is not supported .*#table-api"):
        TableEnvironment.create(EnvironmentSettings.in_streaming_mode()).explain_sql("SELECT 1")
    with pytest.raises(UnsupportedFeatureError, match=r"Expression.bitmap_cardinality is not supported .*#table-api"):
        col("x").bitmap_cardinality()
    from pyflink.datastream.connectors.file_system import FileSource
    with pytest.raises(UnsupportedFeatureError, match="#connectors"):
        FileSource.for_record_stream_format(None, "/tmp")


def test_a_package_re_exports_the_same_objects_as_its_modules():
    import pyflink.table
    import pyflink.table.table_environment
    assert pyflink.table.TableEnvironment is pyflink.table.table_environment.TableEnvironment
    assert importlib.import_module("pyflink_compat.table") is pyflink.table


def test_a_job_may_subclass_a_stand_in_class_at_import_time():
    from pyflink.table.udf import AsyncScalarFunction

    class Lookup(AsyncScalarFunction):
        def __init__(self):
            self.start = 0

        def first(self, values):
            return values[0]

    assert Lookup().first([6]) == 6
    with pytest.raises(UnsupportedFeatureError):
        AsyncScalarFunction()


def test_the_interactive_shell_is_refused_and_the_version_is_the_mirrored_one():
    with pytest.raises(UnsupportedFeatureError, match="pyflink.shell .the interactive PyFlink shell."):
        importlib.import_module("pyflink.shell")
    from pyflink.version import __version__
    assert __version__ == "2.3.0"

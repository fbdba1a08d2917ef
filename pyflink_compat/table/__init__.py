"""pyflink.table: the table environments can be created (jobs written for the DataStream API often create one
they never use, or only configure); queries, DDL, connectors and functions of the Table API and SQL are not
supported yet and raise ``UnsupportedFeatureError`` naming the porting guide's table-api section."""
import sys

from pyflink_compat import missing

# Every public name of PyFlink's package: the implemented classes from their modules, the others stand-ins.
missing.populate(sys.modules[__name__])

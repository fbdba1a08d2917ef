"""pyflink.table: the Table API and SQL (table environments, tables, expressions, windows, types, descriptors,
Python functions); what does not run raises ``UnsupportedFeatureError`` naming the porting guide's section."""
import sys

from pyflink_compat import missing

# Every public name of PyFlink's package: the implemented classes from their modules, the others stand-ins, each
# when first asked for (Python workers import modules of this package without needing these names).
missing.populate_lazily(sys.modules[__name__])

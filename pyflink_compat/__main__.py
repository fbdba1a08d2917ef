import sys

from pyflink_compat.cli import main

sys.exit(main())

"""Declares its Python dependencies in code, as PyFlink jobs do, and uses them in a keyed function that Spark's
Python workers run: a module from ``add_python_file`` (which imports pyflink), a package from
``set_python_requirements``, and the Python of an archive (``add_python_archive`` + ``set_python_executable``).

    python_dependencies_job.py LIB_DIR REQUIREMENTS_FILE PACKAGES_DIR PYTHON_ARCHIVE
"""
import sys

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

lib_dir, requirements, packages, archive = sys.argv[1:5]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
env.add_python_file(lib_dir)
env.set_python_requirements(requirements, packages)
env.add_python_archive(archive, "py_env")
env.set_python_executable("py_env/bin/python")

import keyed_lib  # noqa: E402 - importable once add_python_file put it on the path

env.from_collection([("a", 1), ("b", 2), ("a", 3), ("b", 4)],
                    type_info=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda e: e[0], key_type=Types.STRING()) \
    .process(keyed_lib.Describe(), output_type=Types.STRING()) \
    .print()
env.execute("python dependencies job")

"""Make ``import pyflink...`` resolve to ``pyflink_compat...``, for unchanged job files.

A meta-path finder placed first in ``sys.meta_path`` answers every
``pyflink`` / ``pyflink.*`` import with the very module object of the matching
``pyflink_compat`` module, so classes are identical under both names
(``pyflink.common.Row is pyflink_compat.common.Row``). Installed first, it wins
even over a real PyFlink installed in the same environment.
"""
import importlib
import importlib.abc
import importlib.util
import sys

ALIAS = "pyflink"
TARGET = "pyflink_compat"


class PyFlinkAliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):

    def find_spec(self, fullname, path, target=None):
        if fullname != ALIAS and not fullname.startswith(ALIAS + "."):
            return None
        target_name = TARGET + fullname[len(ALIAS):]
        if importlib.util.find_spec(target_name) is None:
            return None                     # let the import fail as ModuleNotFoundError
        spec = importlib.util.spec_from_loader(fullname, self)
        spec.loader_state = target_name
        return spec

    def create_module(self, spec):
        return importlib.import_module(spec.loader_state)

    def exec_module(self, module):
        pass                                # the real module is already executed


def install_finder():
    if not any(isinstance(f, PyFlinkAliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, PyFlinkAliasFinder())


def install():
    install_finder()
    for name in [n for n in sys.modules if n == ALIAS or n.startswith(ALIAS + ".")]:
        del sys.modules[name]               # a real pyflink imported earlier must not shadow us

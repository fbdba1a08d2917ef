"""Stand-ins for the PyFlink modules pyflink-compat does not implement, so that every module of apache-flink
imports and every one of its public names exists, as in pyspark.pandas' ``missing`` package.

``inventory.json`` lists, per module, the public names of apache-flink 2.3.0 (generated from it by
tests/parity/generate_missing_inventory.py). A stand-in module has each of them: a class whose construction,
methods and properties raise ``UnsupportedFeatureError``, a function that raises it, an enum whose members
exist (using them anywhere raises), a constant with PyFlink's value. The error names the porting guide's
section for the module (``SECTIONS``). A job that only imports such a module (a shared ``utils.py`` that
imports ``pyflink.table`` too) runs; one that uses it fails at that line, saying what is not supported.

``MissingModuleFinder`` (installed by ``pyflink_compat/__init__.py``, after Python's own finders) answers
imports of ``pyflink_compat.<module>`` for the modules of the inventory; the ``pyflink`` alias
(aliasing.py) maps ``pyflink.<module>`` there.
"""
import importlib
import importlib.abc
import importlib.util
import json
import os
import sys
import types

from pyflink_compat.util.exceptions import UnsupportedFeatureError

TARGET = "pyflink_compat"
ALIAS = "pyflink"

# Porting-guide section per module prefix (the longest match wins).
SECTIONS = {
    "pyflink.table": "table-api",
    "pyflink.datastream.connectors": "connectors",
    "pyflink.datastream.formats": "formats",
}
# Modules that cannot be stood in for: importing them raises (pyflink.shell starts an interactive JVM).
REFUSED = {"pyflink.shell": "the interactive PyFlink shell"}

MARK = "_pyflink_compat_unsupported"
_inventory = None


def _document() -> dict:
    global _inventory
    if _inventory is None:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "inventory.json")) as f:
            _inventory = json.load(f)
    return _inventory


def inventory() -> dict:
    return _document()["modules"]


def pyflink_name(name: str) -> str:
    return ALIAS + name[len(TARGET):] if name.startswith(TARGET) else name


def section_for(module: str) -> str:
    matches = [prefix for prefix in SECTIONS if module == prefix or module.startswith(prefix + ".")]
    return SECTIONS[max(matches, key=len)] if matches else "unsupported-apis"


def _raiser(qualified: str, section: str):
    def stand_in(*args, **kwargs):
        raise UnsupportedFeatureError(qualified, section)
    stand_in.__name__ = qualified.rsplit(".", 1)[-1]
    stand_in.__qualname__ = qualified
    stand_in.__doc__ = "Not supported by pyflink-compat yet: raises UnsupportedFeatureError."
    setattr(stand_in, MARK, True)
    return stand_in


class _EnumMember:
    """A member of a stand-in enum: it exists (jobs may name it at import time) and has PyFlink's name and
    value; what it is passed to raises."""

    def __init__(self, owner: str, name: str, value):
        self.name, self.value, self._owner = name, value, owner

    def __repr__(self):
        return "<%s.%s: %r>" % (self._owner, self.name, self.value)


def _stand_in_class(module: str, qualified: str, members: dict, section: str):
    """A class whose constructor, methods and properties raise. ``members``: name -> (kind, value, nested
    members). A job may subclass it (a user-defined function class): constructing the subclass raises only if
    it calls the stand-in's constructor."""
    short = qualified.rsplit(".", 1)[-1]
    full = "%s.%s" % (pyflink_name(module), qualified)
    namespace = {"__module__": module, "__doc__": "Not supported by pyflink-compat yet: using it raises "
                                                   "UnsupportedFeatureError.", MARK: True,
                 "__init__": _raiser(full, section)}
    enum_members = []
    for name, (kind, value, nested) in members.items():
        member = "%s.%s" % (full, name)
        if kind in ("class", "enum"):
            namespace[name] = _stand_in_class(module, "%s.%s" % (qualified, name), nested, section)
        elif kind == "staticmethod":
            namespace[name] = staticmethod(_raiser(member, section))
        elif kind == "classmethod":
            namespace[name] = classmethod(_raiser(member, section))
        elif kind == "property":
            namespace[name] = property(_raiser(member, section))
        elif kind == "method":
            if name != "__init__":
                namespace[name] = _raiser(member, section)
        elif kind == "enum_member":
            enum_members.append((name, value))
        else:
            namespace[name] = value
    cls = type(short, (object,), namespace)
    cls.__qualname__ = qualified
    for name, value in enum_members:
        setattr(cls, name, _EnumMember(full, name, value))
    return cls


def _tree(names):
    """``[qualified name, kind, origin, value]`` rows -> {top name: (kind, value, origin, {member: ...})}."""
    root = {}
    for qualified, kind, origin, value in names:
        parts = qualified.split(".")
        level = root
        for part in parts[:-1]:
            level = level.setdefault(part, [None, None, None, {}])[3]
        entry = level.setdefault(parts[-1], [None, None, None, {}])
        entry[0], entry[1], entry[2] = kind, value, origin
    return root


def _members(tree):
    return {name: (kind, value, _members(nested)) for name, (kind, value, _origin, nested) in tree.items()}


_ABSENT = object()


def populate(module: types.ModuleType):
    """Give a stand-in module every public name of its PyFlink module."""
    name = pyflink_name(module.__name__)
    section = section_for(name)
    tree = _tree(inventory()[name]["names"])
    for top, entry in tree.items():
        value = _public_value(module, name, section, top, entry)
        if value is not _ABSENT:
            setattr(module, top, value)
    module.__all__ = list(tree)


def populate_lazily(module: types.ModuleType):
    """``populate``, each name when it is first asked for: a process importing one of the package's modules (a
    Python worker unpickling a function) does not import all the modules the package re-exports names of."""
    name = pyflink_name(module.__name__)
    section = section_for(name)
    tree = _tree(inventory()[name]["names"])

    def __getattr__(attribute):
        entry = tree.get(attribute)
        value = _ABSENT if entry is None else _public_value(module, name, section, attribute, entry)
        if value is _ABSENT:
            raise AttributeError("module %r has no attribute %r" % (module.__name__, attribute))
        setattr(module, attribute, value)
        return value

    def __dir__():
        return sorted(set(module.__dict__) | set(tree))

    module.__getattr__ = __getattr__
    module.__dir__ = __dir__
    module.__all__ = list(tree)


def _public_value(module: types.ModuleType, name: str, section: str, top: str, entry):
    """The value of a public name of a stand-in module (_ABSENT: none)."""
    kind, value, origin, nested = entry
    if origin and origin != name:
        # Re-exported from its defining module: the same object, as in PyFlink.
        defined = _defined_in(origin, top)
        if defined is not None:
            return defined
    if kind in ("class", "enum"):
        return _stand_in_class(module.__name__, top, _members(nested), section)
    if kind == "function":
        return _raiser("%s.%s" % (name, top), section)
    if kind == "module":
        return importlib.import_module("%s.%s" % (module.__name__, top))
    if kind == "absent_from_module":
        return _ABSENT
    return value


def stand_ins(module_name: str) -> types.ModuleType:
    """A fresh module holding the stand-ins of every public name of ``module_name`` (a ``pyflink_compat``
    module): a module implementing part of a PyFlink module subclasses them, so that what it does not
    implement still raises ``UnsupportedFeatureError``."""
    module = types.ModuleType(module_name)
    populate(module)
    return module


def complete(module: types.ModuleType):
    """Give a module implementing part of a PyFlink module the stand-ins of the public names it does not
    define (its ``__all__`` stays as it declares it)."""
    declared = getattr(module, "__all__", None)
    made = stand_ins(module.__name__)
    for name in made.__all__:
        if not hasattr(module, name):
            setattr(module, name, getattr(made, name))
    if declared is not None:
        module.__all__ = declared


def _defined_in(origin: str, name: str):
    try:
        source = importlib.import_module(TARGET + origin[len(ALIAS):])
    except ImportError:
        return None
    return getattr(source, name, None)


class MissingModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers ``pyflink_compat.<module>`` for the inventory's modules that have no source of their own."""

    def find_spec(self, fullname, path, target=None):
        if not fullname.startswith(TARGET + "."):
            return None
        name = pyflink_name(fullname)
        if name not in REFUSED and name not in inventory():
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=self._is_package(name))

    @staticmethod
    def _is_package(name):
        entry = inventory().get(name)
        return bool(entry and entry["package"])

    def create_module(self, spec):
        name = pyflink_name(spec.name)
        if name in REFUSED:
            raise UnsupportedFeatureError("%s (%s)" % (name, REFUSED[name]), "unsupported-apis")
        return None                          # a plain module

    def exec_module(self, module):
        module.__doc__ = ("Stand-in for PyFlink's %s, which pyflink-compat does not implement: every name "
                          "exists, using one raises UnsupportedFeatureError." % pyflink_name(module.__name__))
        populate(module)
        if pyflink_name(module.__name__) == "pyflink.version":
            module.__version__ = _apache_flink_version()


def _apache_flink_version() -> str:
    """The apache-flink release whose API pyflink-compat mirrors."""
    return _document()["apache_flink"]


def install():
    if not any(isinstance(f, MissingModuleFinder) for f in sys.meta_path):
        sys.meta_path.append(MissingModuleFinder())

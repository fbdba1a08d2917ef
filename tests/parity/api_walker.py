"""Dump the public API of PyFlink's modules as JSON: run it under any interpreter.

    python api_walker.py            # walks the installed pyflink (apache-flink, the oracle)
    python api_walker.py --alias    # walks pyflink-compat under the pyflink names (aliasing.install())

It imports each module of ``MODULES`` by its ``pyflink...`` name and records, per module and per qualified
name (``Class``, ``Class.method``, ``Class.Nested.method``, ``Enum.MEMBER``):

- ``kind``: module-level ``class`` / ``enum`` / ``function`` / ``attribute``; members ``method`` /
  ``staticmethod`` / ``classmethod`` / ``property`` / ``class`` / ``enum`` / ``enum_member`` / ``attribute``;
- ``params`` for callables: ``[name, kind, default repr]`` (the default left out when there is none);
- ``value``: the repr of an enum member's value and of a constant (``None``, bool, number, str, bytes);
- per package, under ``package_attributes``: its other public classes and functions (not in ``__all__``);
- ``unsupported: true`` for pyflink-compat names made by ``unsupported(...)`` / ``unsupported_class(...)``
  (they carry ``_pyflink_compat_unsupported``); ``no_effect: true`` for those marked ``no_effect(...)``;
- ``body`` for functions whose source does nothing: ``raises`` (one ``raise`` statement) or ``noop`` (``pass``,
  ``...``, ``return``, ``return None``, ``return self``), docstrings aside. A stub counts as what it is.

Public names of a module: its ``__all__`` when it defines one, else the names its own source binds at top
level (``def``, ``class``, assignments; not imports), without a leading ``_``. Public members of a class: every
name bound in a class of ``cls``'s MRO, not starting with ``_`` (plus ``__init__``), whose defining class comes
from a ``pyflink...`` module (so ``object``'s, ``Enum``'s and ``ABC``'s own members are left out; inherited
PyFlink members count). The same rules apply to both sides. The script imports nothing from the test suite.
"""
import ast
import enum
import importlib
import inspect
import json
import re
import sys
import textwrap
import traceback

MODULES = [
    "pyflink.common",
    "pyflink.common.completable_future",
    "pyflink.common.config_options",
    "pyflink.common.configuration",
    "pyflink.common.constants",
    "pyflink.common.execution_config",
    "pyflink.common.input_dependency_constraint",
    "pyflink.common.io",
    "pyflink.common.job_client",
    "pyflink.common.job_execution_result",
    "pyflink.common.job_id",
    "pyflink.common.job_status",
    "pyflink.common.restart_strategy",
    "pyflink.common.serialization",
    "pyflink.common.serializer",
    "pyflink.common.time",
    "pyflink.common.typeinfo",
    "pyflink.common.types",
    "pyflink.common.utils",
    "pyflink.common.watermark_strategy",
    "pyflink.datastream",
    "pyflink.datastream.async_data_stream",
    "pyflink.datastream.async_retry_predicates",
    "pyflink.datastream.async_retry_strategies",
    "pyflink.datastream.checkpoint_config",
    "pyflink.datastream.checkpoint_storage",
    "pyflink.datastream.checkpointing_mode",
    "pyflink.datastream.data_stream",
    "pyflink.datastream.execution_mode",
    "pyflink.datastream.externalized_checkpoint_retention",
    "pyflink.datastream.functions",
    "pyflink.datastream.output_tag",
    "pyflink.datastream.slot_sharing_group",
    "pyflink.datastream.state",
    "pyflink.datastream.state_backend",
    "pyflink.datastream.stream_execution_environment",
    "pyflink.datastream.time_domain",
    "pyflink.datastream.timerservice",
    "pyflink.datastream.window",
    "pyflink.datastream.connectors",
    "pyflink.datastream.connectors.base",
    "pyflink.datastream.connectors.kafka",
    "pyflink.datastream.connectors.dynamic_kafka",
    "pyflink.datastream.formats.json",
    "pyflink.datastream.formats.csv",
    "pyflink.datastream.formats.avro",
    # Modules pyflink-compat stands in for (pyflink_compat/missing): every name present, each unsupported.
    "pyflink.datastream.connectors.cassandra",
    "pyflink.datastream.connectors.elasticsearch",
    "pyflink.datastream.connectors.file_system",
    "pyflink.datastream.connectors.hybrid_source",
    "pyflink.datastream.connectors.jdbc",
    "pyflink.datastream.connectors.kinesis",
    "pyflink.datastream.connectors.number_seq",
    "pyflink.datastream.connectors.pulsar",
    "pyflink.datastream.connectors.rabbitmq",
    "pyflink.datastream.formats.orc",
    "pyflink.datastream.formats.parquet",
    "pyflink.datastream.utils",
    "pyflink.java_gateway",
    "pyflink.metrics",
    "pyflink.metrics.metricbase",
    "pyflink.serializers",
    "pyflink.table",
    "pyflink.table.catalog",
    "pyflink.table.changelog_mode",
    "pyflink.table.compiled_plan",
    "pyflink.table.data_view",
    "pyflink.table.descriptors",
    "pyflink.table.environment_settings",
    "pyflink.table.explain_detail",
    "pyflink.table.expression",
    "pyflink.table.expressions",
    "pyflink.table.functions",
    "pyflink.table.model_descriptor",
    "pyflink.table.module",
    "pyflink.table.plan_reference",
    "pyflink.table.resolved_expression",
    "pyflink.table.result_kind",
    "pyflink.table.schema",
    "pyflink.table.serializers",
    "pyflink.table.sql_dialect",
    "pyflink.table.statement_set",
    "pyflink.table.table",
    "pyflink.table.table_config",
    "pyflink.table.table_descriptor",
    "pyflink.table.table_environment",
    "pyflink.table.table_pipeline",
    "pyflink.table.table_result",
    "pyflink.table.table_schema",
    "pyflink.table.types",
    "pyflink.table.udf",
    "pyflink.table.utils",
    "pyflink.table.window",
    "pyflink.testing",
    "pyflink.testing.source_sink_utils",
    "pyflink.testing.test_case_utils",
    "pyflink.util.api_stability_decorators",
    "pyflink.util.java_utils",
    "pyflink.version",
]

MARK = "_pyflink_compat_unsupported"
NO_EFFECT_MARK = "_pyflink_compat_no_effect"
MAX_DEPTH = 4
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _library(module_name) -> bool:
    return isinstance(module_name, str) and module_name.startswith("pyflink")   # pyflink.*, pyflink_compat.*


def _default_repr(value) -> str:
    if inspect.isclass(value) or inspect.isfunction(value) or inspect.ismethod(value):
        text = "<%s %s>" % ("class" if inspect.isclass(value) else "function", value.__qualname__)
    else:
        try:
            text = repr(value)
        except Exception as e:  # noqa: BLE001 - a broken __repr__ must not stop the walk
            text = "<unrepresentable %s: %s>" % (type(value).__name__, e)
    return _ADDRESS.sub("", text).replace("pyflink_compat", "pyflink")


def _params(function):
    try:
        signature = inspect.signature(function, follow_wrapped=False)
    except (TypeError, ValueError):
        return None
    params = []
    for p in signature.parameters.values():
        entry = [p.name, p.kind.name]
        if p.default is not inspect.Parameter.empty:
            entry.append(_default_repr(p.default))
        params.append(entry)
    return params


def _attribute(value):
    entry = {"kind": "attribute", "type": type(value).__name__}
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        entry["value"] = repr(value)              # constants must match
    return entry


def _unsupported(obj) -> bool:
    if inspect.isclass(obj):
        return bool(obj.__dict__.get(MARK, False))
    return bool(getattr(obj, MARK, False))


def _body(function):
    """``raises`` / ``noop`` when ``function``'s own statements (docstring aside) are one ``raise``, or do nothing;
    else None (also when its source cannot be read)."""
    function = inspect.unwrap(function)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    if not tree.body or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    statements = [s for s in tree.body[0].body
                  if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]   # docstring, ...
    if not statements:
        return "noop"
    if len(statements) > 1:
        return None
    only = statements[0]
    if isinstance(only, ast.Raise):
        return "raises"
    if isinstance(only, ast.Pass):
        return "noop"
    if isinstance(only, ast.Return) and (
            only.value is None or isinstance(only.value, ast.Constant) and only.value.value is None
            or isinstance(only.value, ast.Name) and only.value.id == "self"):
        return "noop"
    return None


def _describe_callable(entry, target):
    """Marks and body of a walked callable, added to its entry."""
    if _unsupported(target):
        entry["unsupported"] = True
    if getattr(target, NO_EFFECT_MARK, False):
        entry["no_effect"] = True
    if inspect.isfunction(target):
        body = _body(target)
        if body:
            entry["body"] = body
    return entry


def _module_names(module):
    explicit = getattr(module, "__all__", None)
    if explicit is not None:
        return list(explicit)
    names = []
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return [n for n in vars(module) if not n.startswith("_")]

    def bind(target):
        if isinstance(target, ast.Name):
            names.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                bind(element)

    def visit(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.append(node.name)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    bind(target)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                bind(node.target)
            elif isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                visit(node.orelse)
                visit(node.finalbody)
                for handler in node.handlers:
                    visit(handler.body)
            elif isinstance(node, ast.With):
                visit(node.body)

    visit(ast.parse(source).body)
    seen = set()
    return [n for n in names if not n.startswith("_") and not (n in seen or seen.add(n))]


def _defining_entry(cls, name):
    for klass in inspect.getmro(cls):
        if name in klass.__dict__:
            return klass, klass.__dict__[name]
    return None, None


def _walk_class(cls, qualname, out, depth, path):
    is_enum = isinstance(cls, enum.EnumMeta)
    out[qualname] = {"kind": "enum" if is_enum else "class"}
    if _unsupported(cls):
        out[qualname]["unsupported"] = True
    if depth > MAX_DEPTH or id(cls) in path:
        return
    path = path | {id(cls)}
    if is_enum:
        for member, value in cls.__members__.items():
            out["%s.%s" % (qualname, member)] = {"kind": "enum_member", "value": _default_repr(value.value)}
    names = set()
    for klass in inspect.getmro(cls):             # not dir(): EnumType.__dir__ hides an enum's methods
        names.update(klass.__dict__)
    for name in sorted(names):
        if name.startswith("_") and name != "__init__":
            continue
        if is_enum and name in cls.__members__:
            continue
        owner, raw = _defining_entry(cls, name)
        if owner is None or not _library(getattr(owner, "__module__", None)):
            continue
        member = "%s.%s" % (qualname, name)
        if isinstance(raw, staticmethod):
            entry = {"kind": "staticmethod", "params": _params(raw.__func__)}
            target = raw.__func__
        elif isinstance(raw, classmethod):
            entry = {"kind": "classmethod", "params": _params(raw.__func__)}
            target = raw.__func__
        elif isinstance(raw, property):
            entry = {"kind": "property"}
            target = raw.fget
        elif inspect.isclass(raw):
            _walk_class(raw, member, out, depth + 1, path)
            continue
        elif inspect.isfunction(raw) or inspect.isbuiltin(raw) or callable(raw) and hasattr(raw, "__code__"):
            entry = {"kind": "method", "params": _params(raw)}
            target = raw
        else:
            entry = _attribute(raw)
            target = None
        if target is not None:
            _describe_callable(entry, target)
        out[member] = entry


def walk_module(name):
    module = importlib.import_module(name)
    out = {}
    for public in _module_names(module):
        if not hasattr(module, public):
            out[public] = {"kind": "absent_from_module"}   # listed in __all__ but not there
            continue
        obj = getattr(module, public)
        if inspect.isclass(obj):
            _walk_class(obj, public, out, 0, frozenset())
        elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
            out[public] = _describe_callable({"kind": "function", "params": _params(obj)}, obj)
        elif inspect.ismodule(obj):
            out[public] = {"kind": "module"}
        else:
            out[public] = _attribute(obj)
    return out


def package_attributes(name):
    """A package's public attributes beyond ``__all__`` (classes, functions, enums; not submodules): PyFlink
    installs some on its packages for backward compatibility (``pyflink.datastream.connectors.KafkaSource``)."""
    module = importlib.import_module(name)
    if not hasattr(module, "__path__"):
        return None
    listed = set(getattr(module, "__all__", ()))
    return sorted(n for n in dir(module) if not n.startswith("_") and n not in listed
                  and (inspect.isclass(getattr(module, n)) or inspect.isfunction(getattr(module, n))))


def main(argv):
    if "--alias" in argv:
        from pyflink_compat import aliasing
        aliasing.install()
    modules = [a for a in argv if not a.startswith("--")] or MODULES
    import pyflink
    result = {"python": sys.version.split()[0], "pyflink": getattr(pyflink, "__file__", None),
              "modules": {}, "errors": {}}
    for name in modules:
        try:
            result["modules"][name] = walk_module(name)
            attributes = package_attributes(name)
            if attributes is not None:
                result.setdefault("package_attributes", {})[name] = attributes
        except BaseException as e:  # noqa: BLE001 - an import failure is data for the comparison
            result["errors"][name] = "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc()[-2000:])
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])

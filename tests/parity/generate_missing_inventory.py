"""Write pyflink_compat/missing/inventory.json: the public names of apache-flink's modules that pyflink-compat
does not implement, for the stand-in modules that make every PyFlink module importable
(pyflink_compat/missing/__init__.py).

Run it under the oracle interpreter (apache-flink, see tests/oracle_env.py) with the modules to cover:

    ORACLE=$(python tests/oracle_env.py)
    $ORACLE tests/parity/generate_missing_inventory.py pyflink.table pyflink.table.types ... \
        > pyflink_compat/missing/inventory.json

Per module: ``package`` (whether it has submodules) and ``names``, each ``[qualified name, kind, origin,
value]``: ``kind`` as api_walker.py records it; ``origin`` the module that defines a class or function (a
name re-exported by a package is the same object as in its defining module); ``value`` the literal of a
constant (``None`` when it is not a plain literal).
"""
import ast
import importlib
import inspect
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import api_walker  # noqa: E402


def inventory(name):
    module = importlib.import_module(name)
    walked = api_walker.walk_module(name)
    names = []
    for qualname, entry in sorted(walked.items()):
        kind = entry["kind"]
        top = qualname.split(".")[0]
        obj = getattr(module, top, None)
        origin = getattr(obj, "__module__", None) if (inspect.isclass(obj) or inspect.isfunction(obj)) else None
        if origin is not None and not origin.startswith("pyflink"):
            origin = None
        value = None
        for text in (entry.get("value"),):
            if text is not None:
                try:
                    value = ast.literal_eval(text)
                except (ValueError, SyntaxError):
                    value = None
        if isinstance(value, bytes):
            value = None
        names.append([qualname, kind, origin if "." not in qualname else None, value])
    return {"package": hasattr(module, "__path__"), "names": names}


def main(modules):
    import pyflink.version
    result = {"apache_flink": pyflink.version.__version__, "modules": {m: inventory(m) for m in modules}}
    json.dump(result, sys.stdout, indent=0, sort_keys=True, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])

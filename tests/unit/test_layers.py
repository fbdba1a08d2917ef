"""The layers import one way: kafka_io, the plan and pyflink_compat.common never import the runtime."""
import ast
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "pyflink_compat")


def _imports(directory):
    for root, _, files in os.walk(os.path.join(PACKAGE, directory)):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(root, name)
                with open(path) as f:
                    tree = ast.parse(f.read(), path)
                for node in ast.walk(tree):
                    if isinstance(node, ast.ImportFrom) and node.module:
                        names = [node.module] + ["%s.%s" % (node.module, a.name) for a in node.names]
                    elif isinstance(node, ast.Import):
                        names = [a.name for a in node.names]
                    else:
                        continue
                    for imported in names:
                        yield os.path.relpath(path, PACKAGE), imported


@pytest.mark.parametrize("layer", ["kafka_io", "plan", "common"])
def test_lower_layers_do_not_import_the_runtime(layer):
    offending = sorted({"%s imports %s" % (path, name) for path, name in _imports(layer)
                        if name == "pyflink_compat.runtime" or name.startswith("pyflink_compat.runtime.")})
    assert offending == []

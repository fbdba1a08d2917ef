"""API parity with apache-flink 1.20.5: Flink 1.x jobs' names (porting_guide/README.md#flink-1-names).

The reference is committed (reference_apache_flink_1_20.json, written by generate_reference_1_20.py), so this
test needs no 1.20 environment. ``api_walker.py --alias`` walks pyflink-compat over the same modules, and the
test fails on

- any name of apache-flink 1.20.5 missing from ours (also the classes a package carries beyond its
  ``__all__``), in every module of its ``pyflink.common`` and ``pyflink.datastream``;
- for a name that exists only in 1.20 (not in apache-flink 2.3.0: no ``in_2_3_0`` mark), any difference of
  kind, signature, enum value or constant. Names that also exist in 2.3.0 keep 2.3.0's signature
  (test_api_parity.py checks it); names we mark unsupported only need to be present.

    pytest -s tests/parity/test_flink1_api_parity.py
"""
import json
import os
import subprocess
import sys

import pytest

from test_api_parity import _describe, _marked, _our_package_root, _unsupported_owner

pytestmark = pytest.mark.parity

HERE = os.path.dirname(os.path.abspath(__file__))
WALKER = os.path.join(HERE, "api_walker.py")
REFERENCE = os.path.join(HERE, "reference_apache_flink_1_20.json")
WALK_TIMEOUT_S = 300


def reference_api():
    with open(REFERENCE) as f:
        return json.load(f)


def our_api(modules):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_our_package_root(), env.get("PYTHONPATH")) if p)
    command = [sys.executable, WALKER, "--alias"] + list(modules)
    result = subprocess.run(command, capture_output=True, text=True, timeout=WALK_TIMEOUT_S, env=env, cwd=HERE)
    assert result.returncode == 0, "%s failed:\n%s" % (" ".join(command), result.stderr[-4000:])
    api = json.loads(result.stdout)
    assert "pyflink_compat" in (api["pyflink"] or ""), "--alias walked %s, not pyflink-compat" % api["pyflink"]
    return api


def compare(reference, ours):
    """(missing names, mismatches of names only in 1.20), as lists of descriptions."""
    missing, mismatches = [], []
    for module in sorted(reference["modules"]):
        theirs = reference["modules"][module]
        mine = ours["modules"].get(module)
        if mine is None:
            error = ours.get("errors", {}).get(module, "not walked").splitlines()[0]
            missing.append("%s: module cannot be imported (%s)" % (module, error))
            continue
        on_package = set(ours.get("package_attributes", {}).get(module, ())) | set(mine)
        for name in reference.get("package_attributes", {}).get(module, ()):
            if name not in on_package:
                missing.append("%s.%s (attribute of the package)" % (module, name))
        for name in sorted(theirs):
            expected, actual = theirs[name], mine.get(name)
            if actual is None:
                missing.append("%s.%s" % (module, name))
                continue
            if expected.get("in_2_3_0") or _marked(name, actual, mine) or _unsupported_owner(name, mine):
                continue
            where = "%s.%s" % (module, name)
            if actual["kind"] != expected["kind"]:
                mismatches.append("%s: kind %s in apache-flink 1.20, %s in pyflink-compat"
                                  % (where, expected["kind"], actual["kind"]))
            elif "params" in expected and actual.get("params") != expected.get("params"):
                mismatches.append("%s: signature %s in apache-flink 1.20, %s in pyflink-compat"
                                  % (where, _describe(expected.get("params")), _describe(actual.get("params"))))
            elif "value" in expected and actual.get("value") != expected["value"]:
                mismatches.append("%s: value %s in apache-flink 1.20, %s in pyflink-compat"
                                  % (where, expected["value"], actual.get("value", "<not a constant>")))
    return missing, mismatches


def test_every_flink_1_20_name_is_present():
    reference = reference_api()
    assert reference["apache_flink"] == "1.20.5" and not reference["errors"]
    ours = our_api(sorted(reference["modules"]))
    missing, mismatches = compare(reference, ours)
    only_1_20 = sum(1 for names in reference["modules"].values() for e in names.values() if not e.get("in_2_3_0"))
    print("\napache-flink 1.20.5: %d modules, %d names only in 1.20; missing from pyflink-compat: %d, "
          "mismatches: %d" % (len(reference["modules"]), only_1_20, len(missing), len(mismatches)))
    assert not missing and not mismatches, "missing from pyflink-compat (%d):\n  %s\nmismatches (%d):\n  %s" % (
        len(missing), "\n  ".join(missing), len(mismatches), "\n  ".join(mismatches))


def test_compare_reports_missing_names_and_mismatches_of_1_20_only_names():
    method = {"kind": "method", "params": [["self", "POSITIONAL_OR_KEYWORD"]]}
    reference = {"modules": {
        "m": {"A": {"kind": "class", "in_2_3_0": True}, "A.f": dict(method, in_2_3_0=True), "A.old": method,
              "A.gone": method, "E.X": {"kind": "enum_member", "value": "1"}},
        "only_1": {"T": {"kind": "enum"}}},
        "package_attributes": {"m": ["Extra"]}}
    other = {"kind": "method", "params": [["self", "POSITIONAL_OR_KEYWORD"], ["x", "POSITIONAL_OR_KEYWORD"]]}
    ours = {"modules": {"m": {"A": {"kind": "class"}, "A.f": other, "A.old": other,
                              "E.X": {"kind": "enum_member", "value": "2"}}},
            "errors": {"only_1": "ModuleNotFoundError: No module named 'only_1'"}}
    missing, mismatches = compare(reference, ours)
    assert missing == ["m.Extra (attribute of the package)", "m.A.gone",
                       "only_1: module cannot be imported (ModuleNotFoundError: No module named 'only_1')"]
    # A.f exists in 2.3.0 too: its signature is 2.3.0's business; A.old and E.X exist only in 1.20
    assert [m.split(":")[0] for m in mismatches] == ["m.A.old", "m.E.X"]

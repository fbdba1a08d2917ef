"""API parity: pyflink-compat's mirror against real PyFlink (apache-flink 2.3.0).

``api_walker.py`` dumps the public API of the same list of ``pyflink...`` modules twice: under the oracle
interpreter (apache-flink 2.3.0, ``oracle_env.oracle_python()``; its Python modules import without a JVM) and
under this interpreter with ``--alias`` (``pyflink`` = ``pyflink_compat``). The test prints a coverage table
per module (implemented / raises a clear unsupported error / missing), writes it to a file, and fails on

- any name of apache-flink missing from ours, in every walked module (a class we do not provide still has
  every method, each raising the error), and any class or function PyFlink installs on a package beyond its
  ``__all__`` (``pyflink.datastream.connectors.KafkaSource``, ``pyflink.common.JsonRowSerializationSchema``);
- any difference of kind or signature (parameter names, order, kinds, defaults), of an enum member's value or
  of a constant's value, for a name we implement. Names
  we mark unsupported (``unsupported(...)`` / ``unsupported_class(...)``), and the members of a class whose
  constructor raises the error, only need to be present: our stubs take ``*args, **kwargs``.

    pytest -s tests/parity          # or: tox -e parity
"""
import json
import os
import subprocess
import sys

import pytest

from oracle_env import OracleUnavailable, oracle_python

pytestmark = pytest.mark.parity

HERE = os.path.dirname(os.path.abspath(__file__))
WALKER = os.path.join(HERE, "api_walker.py")
WALK_TIMEOUT_S = 300               # per walk; building the oracle has its own deadlines (oracle_env)

IMPLEMENTED, NO_EFFECT, UNSUPPORTED, MISSING, EXTRA = "implemented", "no effect", "unsupported", "missing", "extra"
STUB = "stub"


def _our_package_root():
    """The directory holding the pyflink_compat this test session imports (source tree or installed)."""
    import pyflink_compat
    return os.path.dirname(os.path.dirname(os.path.abspath(pyflink_compat.__file__)))


def run_walker(python, alias):
    env = dict(os.environ)
    if alias:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_our_package_root(), env.get("PYTHONPATH")) if p)
    else:
        env.pop("PYTHONPATH", None)          # the oracle sees its own site-packages only
    command = [python, WALKER] + (["--alias"] if alias else [])
    result = subprocess.run(command, capture_output=True, text=True, timeout=WALK_TIMEOUT_S, env=env,
                            cwd=HERE)
    if result.returncode != 0:
        raise AssertionError("%s failed (exit %s):\n%s" % (" ".join(command), result.returncode,
                                                            result.stderr[-4000:]))
    return json.loads(result.stdout)


def _marked(name, entry, ours):
    """Unsupported here: marked so, or a class whose constructor is marked or only raises."""
    if entry.get("unsupported"):
        return True
    constructor = ours.get(name + ".__init__", {})
    return entry["kind"] in ("class", "enum") and (constructor.get("unsupported", False)
                                                   or constructor.get("body") == "raises")


def _unsupported_owner(name, ours):
    """The nearest enclosing class of ``name`` that we mark unsupported (its constructor raises), or None."""
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        owner_name = ".".join(parts[:i])
        owner = ours.get(owner_name)
        if owner is not None and _marked(owner_name, owner, ours):
            return owner
    return None


def _describe(params):
    if params is None:
        return "<no signature>"
    shown = []
    for p in params:
        text = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}.get(p[1], "") + p[0]
        if p[1] == "KEYWORD_ONLY":
            text = "kw:" + text
        if len(p) > 2:
            text += "=" + p[2]
        shown.append(text)
    return "(%s)" % ", ".join(shown)


def compare(oracle, ours):
    """Per module: {status: [names]}, and the list of mismatch descriptions."""
    coverage, mismatches = {}, []
    for module in sorted(oracle["modules"]):
        theirs = oracle["modules"][module]
        mine = ours["modules"].get(module)
        table = {IMPLEMENTED: [], NO_EFFECT: [], UNSUPPORTED: [], MISSING: [], EXTRA: [], STUB: []}
        coverage[module] = table
        if mine is not None:
            table[EXTRA] = sorted(set(mine) - set(theirs))
        if mine is None:
            error = ours["errors"].get(module, "not walked").splitlines()[0]
            mismatches.append("%s: module cannot be imported from pyflink-compat (%s)" % (module, error))
            table[MISSING].extend(sorted(theirs))
            continue
        package_attributes = set(ours.get("package_attributes", {}).get(module, ())) | set(mine)
        for name in oracle.get("package_attributes", {}).get(module, ()):
            if name not in package_attributes:                 # e.g. pyflink.common.JsonRowSerializationSchema
                table[MISSING].append("%s (attribute of the package)" % name)
        for name in sorted(theirs):
            expected, actual = theirs[name], mine.get(name)
            if actual is None:
                table[MISSING].append(name)
                continue
            stub = actual.get("body") if actual.get("body") != expected.get("body") else None
            if _marked(name, actual, mine) or _unsupported_owner(name, mine) or stub == "raises":
                table[UNSUPPORTED].append(name)       # a body that only raises, where PyFlink's does not
                continue
            if actual.get("no_effect"):
                table[NO_EFFECT].append(name)
            elif stub == "noop":                      # does nothing where PyFlink does something, unmarked
                table[STUB].append(name)
            else:
                table[IMPLEMENTED].append(name)
            if actual["kind"] != expected["kind"]:
                mismatches.append("%s.%s: kind %s in apache-flink, %s in pyflink-compat"
                                  % (module, name, expected["kind"], actual["kind"]))
            elif "params" in expected and actual.get("params") != expected.get("params"):
                mismatches.append("%s.%s: signature %s in apache-flink, %s in pyflink-compat"
                                  % (module, name, _describe(expected.get("params")),
                                     _describe(actual.get("params"))))
            elif "value" in expected and actual.get("value") != expected["value"]:
                mismatches.append("%s.%s: value %s in apache-flink, %s in pyflink-compat"
                                  % (module, name, expected["value"], actual.get("value", "<not a constant>")))
    return coverage, mismatches


def render(coverage, mismatches, oracle, ours):
    lines = ["API parity: pyflink-compat (Python %s) against apache-flink 2.3.0 (Python %s)"
             % (ours.get("python"), oracle.get("python")), ""]
    width = max(len(m) for m in coverage)
    row = "%-*s  %11s  %9s  %11s  %4s  %7s  %5s   %s"
    header = row % (width, "module", IMPLEMENTED, NO_EFFECT, UNSUPPORTED, STUB, MISSING, "total",
                    "(only in pyflink-compat)")
    lines += [header, "-" * len(header)]
    columns = (IMPLEMENTED, NO_EFFECT, UNSUPPORTED, STUB, MISSING)
    totals = [0] * (len(columns) + 1)
    for module, table in coverage.items():
        counts = [len(table[c]) for c in columns]
        totals = [a + b for a, b in zip(totals, counts + [len(table[EXTRA])])]
        lines.append(row % ((width, module) + tuple(counts) + (sum(counts), len(table[EXTRA]) or "")))
    lines.append("-" * len(header))
    lines.append(row % ((width, "all modules") + tuple(totals[:-1]) + (sum(totals[:-1]), totals[-1])))
    lines += ["", "implemented: present with PyFlink's kind and signature; no effect: accepted, does nothing a job "
              "can observe on Spark (marked no_effect, with the reason); unsupported: present, raises "
              "UnsupportedFeatureError (or only raises where PyFlink does not); stub: does nothing where PyFlink "
              "does something, unmarked (fails the test); missing: absent (fails the test)."]
    missing = [(m, t[MISSING]) for m, t in coverage.items() if t[MISSING]]
    if missing:
        lines += ["", "Missing from pyflink-compat:"]
        for module, names in missing:
            lines.append("  %s (%d): %s" % (module, len(names), ", ".join(names)))
    if mismatches:
        lines += ["", "Kind / signature mismatches (%d):" % len(mismatches)]
        lines += ["  " + m for m in mismatches]
    for title, column in (("Stubs: no effect, not marked (fix or mark no_effect)", STUB),
                          ("Accepted with no effect on Spark", NO_EFFECT)):
        listed = [(m, t[column]) for m, t in coverage.items() if t[column]]
        if listed:
            lines += ["", title + ":"]
            for module, names in listed:
                lines.append("  %s (%d): %s" % (module, len(names), ", ".join(names)))
    unsupported = [(m, t[UNSUPPORTED]) for m, t in coverage.items() if t[UNSUPPORTED]]
    if unsupported:
        lines += ["", "Present, raising UnsupportedFeatureError:"]
        for module, names in unsupported:
            lines.append("  %s (%d): %s" % (module, len(names), ", ".join(names)))
    extra = [(m, t[EXTRA]) for m, t in coverage.items() if t[EXTRA]]
    if extra:
        lines += ["", "Only in pyflink-compat (not checked):"]
        for module, names in extra:
            lines.append("  %s (%d): %s" % (module, len(names), ", ".join(names)))
    return "\n".join(lines) + "\n"


def oracle_api():
    """apache-flink's API; a failure to build or run the oracle fails the test (never a skip)."""
    try:
        python = oracle_python()
    except OracleUnavailable as e:
        pytest.fail("the apache-flink 2.3.0 oracle environment is unavailable: %s" % e, pytrace=False)
    if not os.path.isfile(python):
        pytest.fail("the oracle interpreter %s does not exist (PYFLINK_ORACLE_PYTHON / PYFLINK_COMPAT_ORACLE_DIR)"
                    % python, pytrace=False)
    api = run_walker(python, alias=False)
    assert not api["errors"], "apache-flink modules failed to import in the oracle:\n%s" % "\n".join(
        "%s: %s" % item for item in api["errors"].items())
    assert "pyflink_compat" not in (api["pyflink"] or ""), "the oracle imported pyflink-compat: %s" % api["pyflink"]
    return api


def our_api():
    api = run_walker(sys.executable, alias=True)
    assert "pyflink_compat" in (api["pyflink"] or ""), "--alias walked %s, not pyflink-compat" % api["pyflink"]
    return api


def test_api_parity(tmp_path_factory, request):
    theirs, ours = oracle_api(), our_api()
    coverage, mismatches = compare(theirs, ours)
    report = render(coverage, mismatches, theirs, ours)
    path = tmp_path_factory.mktemp("parity") / "api_parity.txt"
    path.write_text(report)
    request.config.pyflink_compat_parity_report = str(path)    # shown in the summary (parity/conftest.py)
    print("\n" + report)
    print("API parity report written to %s" % path)
    missing = sum(len(t[MISSING]) for t in coverage.values())
    stubs = sum(len(t[STUB]) for t in coverage.values())
    assert not missing and not mismatches and not stubs, (
        "%d names of apache-flink 2.3.0 missing from pyflink-compat, %d kind/signature mismatches, %d unmarked "
        "stubs; full report: %s\n%s" % (missing, len(mismatches), stubs, path, report))


def _dump(**modules):
    return {"python": "3.11", "pyflink": None, "modules": modules, "errors": {}}


def test_compare_reports_missing_names_and_signature_differences():
    method = {"kind": "method", "params": [["self", "POSITIONAL_OR_KEYWORD"], ["x", "POSITIONAL_OR_KEYWORD", "1"]]}
    oracle = _dump(m={"A": {"kind": "class"}, "A.f": method, "A.g": method, "B": {"kind": "class"},
                      "B.h": method, "E.X": {"kind": "enum_member", "value": "0"}},
                   gone={"C": {"kind": "class"}})
    changed = dict(method, params=[["self", "POSITIONAL_OR_KEYWORD"], ["x", "POSITIONAL_OR_KEYWORD", "2"]])
    stub = {"kind": "method", "params": [["args", "VAR_POSITIONAL"]], "unsupported": True}
    ours = _dump(m={"A": {"kind": "class"}, "A.f": changed, "B": {"kind": "class"}, "B.__init__": stub,
                    "B.h": {"kind": "method", "params": []}, "E.X": {"kind": "enum_member", "value": "1"},
                    "Z": {"kind": "class"}})
    ours["errors"]["gone"] = "ModuleNotFoundError: No module named 'gone'"
    coverage, mismatches = compare(oracle, ours)
    assert coverage["m"][MISSING] == ["A.g"]
    assert coverage["m"][UNSUPPORTED] == ["B", "B.h"]          # B's constructor raises: B.h's signature is moot
    assert coverage["m"][EXTRA] == ["B.__init__", "Z"]
    assert coverage["gone"][MISSING] == ["C"]
    assert [m.split(":")[0] for m in mismatches] == ["gone", "m.A.f", "m.E.X"]
    assert "(self, x=1) in apache-flink, (self, x=2) in pyflink-compat" in mismatches[1]
    assert "A.g" in render(coverage, mismatches, oracle, ours)


def test_compare_counts_stubs_as_what_they_are():
    method = {"kind": "method", "params": [["self", "POSITIONAL_OR_KEYWORD"]]}
    oracle = _dump(m={"A": {"kind": "class"}, "A.raises": method, "A.noop": method, "A.hint": method,
                      "A.hook": dict(method, body="noop"), "B": {"kind": "class"}, "B.f": method})
    ours = _dump(m={"A": {"kind": "class"}, "A.raises": dict(method, body="raises"),
                    "A.noop": dict(method, body="noop"), "A.hint": dict(method, body="noop", no_effect=True),
                    "A.hook": dict(method, body="noop"), "B": {"kind": "class"},
                    "B.__init__": {"kind": "method", "params": [], "body": "raises"}, "B.f": method})
    coverage, mismatches = compare(oracle, ours)
    assert coverage["m"][IMPLEMENTED] == ["A", "A.hook"]        # PyFlink's hook does nothing either
    assert coverage["m"][UNSUPPORTED] == ["A.raises", "B", "B.f"]   # B's constructor only raises
    assert coverage["m"][NO_EFFECT] == ["A.hint"]
    assert coverage["m"][STUB] == ["A.noop"]
    assert "Stubs: no effect, not marked" in render(coverage, mismatches, oracle, ours)


if __name__ == "__main__":                 # quick look: python tests/parity/test_api_parity.py
    sys.path.insert(0, os.path.dirname(HERE))
    oracle, mine = run_walker(oracle_python(), False), run_walker(sys.executable, True)
    cov, mis = compare(oracle, mine)
    sys.stdout.write(render(cov, mis, oracle, mine))

"""Write tests/parity/reference_apache_flink_1_20.json: apache-flink 1.20.5's API over the modules of its
``pyflink.common`` and ``pyflink.datastream``, for test_flink1_api_parity.py (which then needs no 1.20
environment: CI has none).

Run it with any Python, naming the interpreter of a virtualenv holding apache-flink 1.20.5 (its Python
modules import without a JVM) and, optionally, the apache-flink 2.3.0 oracle's (default: tests/oracle_env.py's):

    python tests/parity/generate_reference_1_20.py ~/.cache/pyflink-compat/reference-apache-flink-1.20.5/bin/python

It runs api_walker.py under the 1.20 interpreter over ``MODULES`` and under the 2.3.0 oracle over the same
modules, then marks every 1.20 entry whose module and name also exist in 2.3.0 with ``"in_2_3_0": true``: for
those, the 2.3.0 parity test decides the signature (2.3.0's wins); the 1.20 test checks only their presence.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WALKER = os.path.join(HERE, "api_walker.py")
OUTPUT = os.path.join(HERE, "reference_apache_flink_1_20.json")
FLINK_VERSION = "1.20.5"

# Every module of apache-flink 1.20.5's pyflink.common and pyflink.datastream packages.
MODULES = [
    "pyflink.common", "pyflink.common.completable_future", "pyflink.common.config_options",
    "pyflink.common.configuration", "pyflink.common.constants", "pyflink.common.execution_config",
    "pyflink.common.execution_mode", "pyflink.common.input_dependency_constraint", "pyflink.common.io",
    "pyflink.common.job_client", "pyflink.common.job_execution_result", "pyflink.common.job_id",
    "pyflink.common.job_status", "pyflink.common.restart_strategy", "pyflink.common.serialization",
    "pyflink.common.serializer", "pyflink.common.time", "pyflink.common.typeinfo", "pyflink.common.types",
    "pyflink.common.utils", "pyflink.common.watermark_strategy",
    "pyflink.datastream", "pyflink.datastream.checkpoint_config", "pyflink.datastream.checkpoint_storage",
    "pyflink.datastream.checkpointing_mode", "pyflink.datastream.connectors", "pyflink.datastream.connectors.base",
    "pyflink.datastream.connectors.cassandra", "pyflink.datastream.connectors.elasticsearch",
    "pyflink.datastream.connectors.file_system", "pyflink.datastream.connectors.hybrid_source",
    "pyflink.datastream.connectors.jdbc", "pyflink.datastream.connectors.kafka",
    "pyflink.datastream.connectors.kinesis", "pyflink.datastream.connectors.number_seq",
    "pyflink.datastream.connectors.pulsar", "pyflink.datastream.connectors.rabbitmq",
    "pyflink.datastream.data_stream", "pyflink.datastream.execution_mode",
    "pyflink.datastream.externalized_checkpoint_retention", "pyflink.datastream.formats",
    "pyflink.datastream.formats.avro", "pyflink.datastream.formats.csv", "pyflink.datastream.formats.json",
    "pyflink.datastream.formats.orc", "pyflink.datastream.formats.parquet", "pyflink.datastream.functions",
    "pyflink.datastream.output_tag", "pyflink.datastream.slot_sharing_group", "pyflink.datastream.state",
    "pyflink.datastream.state_backend", "pyflink.datastream.stream_execution_environment",
    "pyflink.datastream.time_characteristic", "pyflink.datastream.time_domain", "pyflink.datastream.timerservice",
    "pyflink.datastream.utils", "pyflink.datastream.window",
]


def walk(python):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)                    # the interpreter's own site-packages only
    result = subprocess.run([python, WALKER] + MODULES, capture_output=True, text=True, env=env, cwd=HERE,
                            timeout=600)
    if result.returncode != 0:
        raise SystemExit("%s failed:\n%s" % (python, result.stderr[-4000:]))
    return json.loads(result.stdout)


def dumps(reference) -> str:
    """JSON with one line per name (readable diffs when the reference is regenerated)."""
    lines = ["{"]
    for key in sorted(reference):
        if key != "modules":
            lines.append(" %s: %s," % (json.dumps(key), json.dumps(reference[key], sort_keys=True)))
    lines.append(' "modules": {')
    modules = sorted(reference["modules"])
    for i, module in enumerate(modules):
        names = reference["modules"][module]
        lines.append("  %s: {" % json.dumps(module))
        for j, name in enumerate(sorted(names)):
            lines.append("   %s: %s%s" % (json.dumps(name), json.dumps(names[name], sort_keys=True),
                                          "," if j < len(names) - 1 else ""))
        lines.append("  }%s" % ("," if i < len(modules) - 1 else ""))
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def main(argv):
    if not argv:
        raise SystemExit(__doc__)
    reference = walk(argv[0])
    if reference["errors"]:
        raise SystemExit("apache-flink %s modules failed to import: %s" % (FLINK_VERSION, reference["errors"]))
    if len(argv) > 1:
        oracle_python = argv[1]
    else:
        sys.path.insert(0, os.path.dirname(HERE))
        from oracle_env import oracle_python as built_oracle
        oracle_python = built_oracle()
    current = walk(oracle_python)
    for module, names in reference["modules"].items():
        also = current["modules"].get(module, {})
        for name, entry in names.items():
            if name in also:
                entry["in_2_3_0"] = True
    reference["apache_flink"] = FLINK_VERSION
    reference["pyflink"] = None                    # the walked path is machine-specific
    reference["generated_by"] = "tests/parity/generate_reference_1_20.py"
    with open(OUTPUT, "w") as f:
        f.write(dumps(reference))
    only = sum(1 for names in reference["modules"].values() for e in names.values() if not e.get("in_2_3_0"))
    print("wrote %s: %d modules, %d names only in %s" % (OUTPUT, len(MODULES), only, FLINK_VERSION))


if __name__ == "__main__":
    main(sys.argv[1:])

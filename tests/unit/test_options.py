"""The options registry (pyflink_compat/options.py) owns every ``pyflink-compat.*`` key."""
import os
import re

import pytest

from pyflink_compat import options

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_every_key_is_declared_in_the_registry_only():
    declared = {option.key for option in options.ALL}
    found = {}
    for folder, _, files in os.walk(os.path.join(REPO, "pyflink_compat")):
        for name in files:
            if name.endswith(".py") and name != "options.py":
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for key in re.findall(r"[\"']pyflink-compat\.[a-z0-9.-]+[\"']", f.read()):
                        found.setdefault(key.strip("\"'"), []).append(os.path.relpath(path, REPO))
    assert not found, "pyflink-compat.* keys spelled outside options.py: %s" % found
    assert len(declared) == len(options.ALL)


def test_the_porting_guide_shows_the_generated_table():
    with open(os.path.join(REPO, "porting_guide", "README.md"), encoding="utf-8") as f:
        guide = f.read()
    table = guide.split("<!-- options table: begin -->\n", 1)[1].split("<!-- options table: end -->", 1)[0]
    assert table == options.guide_table(), "regenerate it: python -m pyflink_compat.options"


def test_values_are_parsed_with_defaults():
    assert options.DIRECT_KAFKA_SINK.get({}) is True
    assert options.DIRECT_KAFKA_SINK.get({"pyflink-compat.sink.direct": "FALSE"}) is False
    assert options.TICK_INTERVAL_MS.get({}) == 500
    assert options.TICK_INTERVAL_MS.get({"pyflink-compat.processing-time.tick-interval-ms": "250"}) == 250
    assert options.TRIGGER_INTERVAL.get({}) is None
    assert options.TRIGGER_INTERVAL.get({"pyflink-compat.trigger.interval": "5 seconds"}) == "5 seconds"


@pytest.mark.parametrize("option, value", [
    (options.DIRECT_KAFKA_SINK, "ture"),
    (options.MAX_RECORDS_PER_BATCH, "many"),
    (options.MAX_RECORDS_PER_BATCH, "0"),
])
def test_a_value_that_does_not_parse_names_the_key(option, value):
    with pytest.raises(ValueError, match="Invalid value %r for %s" % (value, re.escape(option.key))):
        option.get({option.key: value})

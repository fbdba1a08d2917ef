"""When the Kafka source commits its offsets to the consumer group (Flink's rules)."""
import pytest

from pyflink_compat.kafka_io.offset_commits import commits_enabled


class Spec:
    def __init__(self, **properties):
        self.properties = properties

    @property
    def group_id(self):
        return self.properties.get("group.id")


@pytest.mark.parametrize("properties, checkpointing, expected", [
    ({"group.id": "g"}, True, True),                                       # commit.offsets.on.checkpoint default
    ({"group.id": "g", "commit.offsets.on.checkpoint": "false"}, True, False),
    ({"group.id": "g"}, False, False),                                     # no checkpoints: only with auto-commit
    ({"group.id": "g", "enable.auto.commit": "true"}, False, True),
    ({"group.id": "g", "enable.auto.commit": "TRUE"}, False, True),
    ({"commit.offsets.on.checkpoint": "true"}, True, False),                # no group: nothing to commit to
])
def test_commits_follow_the_group_checkpointing_and_the_properties(properties, checkpointing, expected):
    assert commits_enabled(Spec(**properties), checkpointing) == expected

"""Changes to third-party objects' internals, kept in one place.

Each patch checks the version it was written for and what it touches; where either differs it does nothing,
logs a warning once saying what is lost, and the caller goes on without it.
"""
import logging

log = logging.getLogger("pyflink_compat")

_warned = set()


def _warn_once(key: str, message: str, *args):
    if key not in _warned:
        _warned.add(key)
        log.warning(message, *args)


# kafka-python versions the client patches below were checked against.
KAFKA_PYTHON_TESTED = ("3.0.",)


def forbid_topic_creation(client) -> bool:
    """Make a kafka-python client's metadata requests never ask the broker to create a topic.

    kafka-python 3.0 accepts ``allow_auto_create_topics=False`` but never hands it to the cluster metadata
    that builds the requests, so a consumer polling a topic that vanished re-creates it on a broker that
    auto-creates topics. Flink's source sends allow.auto.create.topics=false. Returns whether it applied.
    """
    import kafka
    version = getattr(kafka, "__version__", "unknown")
    cluster = getattr(client, "_cluster", None)
    if cluster is None:
        cluster = getattr(getattr(client, "_manager", None), "cluster", None)
    config = getattr(cluster, "config", None)
    if not version.startswith(KAFKA_PYTHON_TESTED) or not isinstance(config, dict) \
            or "allow_auto_create_topics" not in config:
        _warn_once("forbid_topic_creation",
                   "kafka-python %s: cannot turn off topic auto-creation in its metadata requests; a source "
                   "reading a topic that vanished may re-create it on a broker that creates topics on demand",
                   version)
        return False
    config["allow_auto_create_topics"] = False
    return True


# pyspark versions whose transformWithState driver worker was checked to print only progress to stdout.
PYSPARK_DRIVER_WORKER_TESTED = ("4.",)


def quiet_driver_worker_stdout():
    """In Spark's transformWithState driver worker (started once per keyed query to plan it): it prints its
    progress ("Starting Streaming TransformWithStateInPandas Python worker." and four more blocks of text) to
    its stdout, which Spark passes on to the job's stderr. It talks to the JVM over a socket, never stdout, so
    stdout goes to /dev/null. Another pyspark version keeps printing, with a warning."""
    import os
    import sys
    import pyspark
    version = getattr(pyspark, "__version__", "unknown")
    if not version.startswith(PYSPARK_DRIVER_WORKER_TESTED):
        _warn_once("driver-worker-stdout", "pyspark %s was not checked: its transformWithState driver worker "
                   "keeps printing to the job's stdout", version)
        return
    sys.stdout = open(os.devnull, "w")

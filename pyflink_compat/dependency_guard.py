"""Keep kafka-python importable when a job has a package of its own named ``kafka``.

Jobs written for PyFlink often keep their Kafka helpers in a package called ``kafka`` (``kafka/consumer.py``,
``kafka/publish_data.py``): under PyFlink nothing else in the job's Python is called that, since Flink's Kafka
client is Java. pyflink-compat reads and writes Kafka with kafka-python, whose package is ``kafka`` too, and the
job's directory comes first on the path. When the first ``kafka`` on the path is not kafka-python, the ``kafka``
package becomes kafka-python's, searched in kafka-python's directory and then in the job's: ``kafka.consumer``
is kafka-python's, ``kafka.publish_data`` the job's; the job's ``kafka/__init__.py`` runs after
kafka-python's, in the same package.

Called when pyflink_compat is imported (so in every worker before any Kafka code runs) and again by the
runner once the job's directories are on the path.
"""
import importlib.machinery
import importlib.metadata
import importlib.util
import logging
import os
import sys

log = logging.getLogger("pyflink_compat")


def _kafka_python_init():
    try:
        path = str(importlib.metadata.distribution("kafka-python").locate_file("kafka/__init__.py"))
    except importlib.metadata.PackageNotFoundError:
        return None
    return path if os.path.isfile(path) else None


def _looks_like_kafka_python(spec) -> bool:
    """Whether the ``kafka`` package found first is kafka-python's own (its client modules beside it): then
    there is nothing to do, and no installed-package metadata to search (slow, and done in every worker)."""
    if spec is None or not spec.origin:
        return False
    directory = os.path.dirname(spec.origin)
    return all(os.path.isfile(os.path.join(directory, *part)) for part in (
        ("producer", "kafka.py"), ("consumer", "group.py"), ("admin", "client.py")))


def keep_kafka_python_importable():
    loaded = sys.modules.get("kafka")
    found = getattr(loaded, "__spec__", None) if loaded is not None \
        else importlib.machinery.PathFinder.find_spec("kafka", sys.path)
    if _looks_like_kafka_python(found):
        return
    real_init = _kafka_python_init()
    if real_init is None:
        return
    real_dir = os.path.dirname(real_init)
    loaded = sys.modules.get("kafka")
    if loaded is not None:
        if real_dir in list(getattr(loaded, "__path__", ()) or ()):
            return                                    # kafka-python (merged or not) already
        spec = getattr(loaded, "__spec__", None)
    else:
        spec = importlib.machinery.PathFinder.find_spec("kafka", sys.path)
    if spec is None or spec.origin == real_init:
        return
    job_dirs = list(spec.submodule_search_locations or [])
    if not job_dirs:
        log.warning("The job's module %s shadows kafka-python, which pyflink-compat needs: rename it",
                    spec.origin)
        return
    merged_spec = importlib.util.spec_from_file_location("kafka", real_init,
                                                         submodule_search_locations=[real_dir] + job_dirs)
    merged = importlib.util.module_from_spec(merged_spec)
    sys.modules["kafka"] = merged
    try:
        merged_spec.loader.exec_module(merged)
    except BaseException:
        if loaded is not None:
            sys.modules["kafka"] = loaded
        else:
            sys.modules.pop("kafka", None)
        raise
    for name, module in list(sys.modules.items()):       # the job's kafka.* modules imported already
        if name.startswith("kafka.") and name.count(".") == 1 and getattr(loaded, name[6:], None) is module:
            setattr(merged, name[6:], module)
    job_init = spec.origin
    if job_init and os.path.isfile(job_init):
        with open(job_init) as f:
            source = f.read()
        if source.strip():
            exec(compile(source, job_init, "exec"), merged.__dict__)    # noqa: S102 - the job's own package
    log.info("The job's package 'kafka' (%s) shares its name with kafka-python: both are served as one "
             "package", ", ".join(job_dirs))

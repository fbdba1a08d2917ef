"""Keeping secret property values out of kafka-python's log records.

kafka-python logs its whole configuration at DEBUG level, passwords included.
Every secret value our property translation hands to kafka-python is
registered here, and a log-record factory masks those values in records of the
``kafka`` loggers before any handler sees them.
"""
import logging
import threading

MASK = "******"
_secrets = set()
_lock = threading.Lock()
_installed = False


def register_secret(value) -> None:
    text = value if isinstance(value, str) else None
    if not text:
        return
    with _lock:
        _secrets.add(text)
    _install()


def scrub(text: str) -> str:
    for secret in sorted(_secrets, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def _install() -> None:
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
        previous = logging.getLogRecordFactory()

        def factory(*args, **kwargs):
            record = previous(*args, **kwargs)
            if record.name.startswith("kafka") and _secrets:
                try:
                    message = record.getMessage()
                except Exception:          # a malformed record is left for logging to report
                    return record
                record.msg, record.args = scrub(message), None
            return record

        logging.setLogRecordFactory(factory)

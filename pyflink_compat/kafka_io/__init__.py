"""Kafka I/O for the Spark side: Python streaming data sources on kafka-python.

Nothing here knows PyFlink's API; the mirror (``datastream.connectors.kafka``)
builds the plain specs of ``spec.py`` and the translation hands them to us.
"""

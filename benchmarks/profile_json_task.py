"""Profile one read task of the formats benchmark in-process: read 100k JSON rows from Kafka, filter, write
JSON to Kafka, under cProfile (a Tansu broker is started and stopped).

    /work/venv/bin/python benchmarks/profile_json_task.py
"""
import cProfile
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
for path in (REPO, os.path.join(REPO, "tests"), HERE):
    sys.path.insert(0, path)
from broker import TansuBroker
import kafka_helpers as kh
from bench_json import order_json
from pyflink_compat.datastream.connectors.kafka import KafkaSource, KafkaSink, KafkaRecordSerializationSchema
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema
from pyflink_compat.kafka_io.source import read_split, KafkaSplit
from pyflink_compat.kafka_io.sink import send_batches
from pyflink_compat.runtime import translate, graph
from pyflink_compat.datastream.functions import FilterFunction
from pyflink_compat import aliasing; aliasing.install()
from json_job import ORDER
N = 100000
b = TansuBroker().start(); bs = b.bootstrap_servers
try:
    tin = kh.create_topic(bs, kh.unique_topic("in"), 1); tout = kh.create_topic(bs, kh.unique_topic("out"), 1)
    from kafka import KafkaProducer
    p = KafkaProducer(bootstrap_servers=bs, linger_ms=5, batch_size=256*1024)
    for i in range(N - 1): p.send(tin, order_json(i), partition=0)
    p.flush(); p.send(tin, order_json(N-1), partition=0).get(); p.close()
    de = JsonRowDeserializationSchema.builder().type_info(ORDER).build()
    se = JsonRowSerializationSchema.builder().with_type_info(ORDER).build()
    src = (KafkaSource.builder().set_bootstrap_servers(bs).set_topics(tin).set_value_only_deserializer(de).build())._spec
    sink = (KafkaSink.builder().set_bootstrap_servers(bs).set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(tout).set_value_serialization_schema(se).build()).set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())._spec
    class Active(FilterFunction):
        def filter(self, r): return r.active
    n = graph.Node(kind=graph.FILTER, name="Filter", payload=Active(), output_type=ORDER)
    transform = translate.fused_functions([n], ORDER, ORDER, "j", 1)
    pr = cProfile.Profile(); t = time.time(); pr.enable()
    sent = send_batches(sink, ORDER, transform(read_split(src, ORDER, KafkaSplit(tin, 0, 0, N))))
    pr.disable(); el = time.time() - t
    print("sent", sent, "%.2f s (profiled)" % el)
    pstats.Stats(pr).sort_stats("tottime").print_stats(25)
finally:
    b.stop()

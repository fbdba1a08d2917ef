"""``pyflink-compat demo``: a PyFlink job on embedded defaults, nothing to set up.

Starts a throw-away broker on a free loopback port, seeds an input topic, runs
``upper_job.py`` (a PyFlink job file, unchanged) on Spark local mode exactly as
``pyflink-compat run`` would, and prints what the job wrote to the output topic.
"""
import os
import time

INPUT = ["hello", "", "pyflink on spark", "kafka in, kafka out"]


def run_demo() -> int:
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.admin import NewTopic

    from pyflink_compat.cli import RunOptions, run_job
    from pyflink_compat.demo.broker import TansuBroker

    broker = TansuBroker().start()
    try:
        servers = broker.bootstrap_servers
        print("Broker (Tansu) listening on %s" % servers)
        admin = KafkaAdminClient(bootstrap_servers=servers)
        admin.create_topics([NewTopic("demo-input", 1, 1), NewTopic("demo-output", 1, 1)])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=servers)
        for value in INPUT:
            producer.send("demo-input", value.encode("utf-8")).get(timeout=30)
        producer.close()
        print("Input topic 'demo-input': %s" % INPUT)

        job = os.path.join(os.path.dirname(__file__), "upper_job.py")
        print("Running %s on Spark local mode ..." % job)
        started = time.monotonic()
        # Flink's Prometheus reporter, as `-D` options of `pyflink-compat run` would set it
        reporter = {"metrics.reporter.prom.factory.class":
                    "org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
                    "metrics.reporter.prom.port": "9249-9260"}
        run_job(RunOptions(job_file=job, job_args=[servers, "demo-input", "demo-output"], configuration=reporter))
        print("Job finished in %.1f s" % (time.monotonic() - started))

        consumer = KafkaConsumer(bootstrap_servers=servers, enable_auto_commit=False, fetch_max_wait_ms=10)
        tp = TopicPartition("demo-output", 0)
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        expected = len([v for v in INPUT if v])
        output, deadline = [], time.monotonic() + 30
        while len(output) < expected and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=200).values():
                output.extend(r.value.decode("utf-8") for r in records)
        consumer.close()
        print("Output topic 'demo-output':")
        for value in output:
            print("  " + value)
        return 0 if len(output) == expected else 1
    finally:
        broker.stop()

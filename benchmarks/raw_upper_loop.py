"""The baseline: kafka-python consume -> upper -> produce in one process, no engine around it.

    python benchmarks/raw_upper_loop.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC [DEADLINE_S]

Reads every partition of INPUT_TOPIC from the beginning up to the end offsets
found at start (bounded, like the job's set_bounded(latest)), upper-cases each
value as the job does (decode UTF-8, str.upper, encode) and sends it to
OUTPUT_TOPIC with the producer settings pyflink-compat's sink uses (linger 5 ms,
256 KiB batches, kafka-python's defaults otherwise), then flushes and checks
every send (at least once). Prints one JSON line with its own timings.
"""
import json
import sys
import time


def main(bootstrap, input_topic, output_topic, deadline_s=600.0):
    started = time.monotonic()
    deadline = started + float(deadline_s)
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition

    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, fetch_max_wait_ms=10)
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, batch_size=256 * 1024)
    failures = []
    try:
        partitions = consumer.partitions_for_topic(input_topic)
        if not partitions:
            raise RuntimeError("topic %s not found" % input_topic)
        tps = [TopicPartition(input_topic, p) for p in sorted(partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        end = consumer.end_offsets(tps)
        remaining = {tp for tp in tps if end[tp] > 0}
        loop_started = time.monotonic()
        sent = 0
        on_error = failures.append
        while remaining:
            if time.monotonic() > deadline:
                raise TimeoutError("raw loop passed its deadline with %d records sent" % sent)
            for tp, records in consumer.poll(timeout_ms=500).items():
                stop = end[tp]
                for record in records:
                    if record.offset >= stop:
                        break
                    producer.send(output_topic, value=record.value.decode("utf-8").upper().encode("utf-8")
                                  ).add_errback(on_error)
                    sent += 1
                if consumer.position(tp) >= stop:
                    remaining.discard(tp)
        producer.flush(timeout=max(1.0, deadline - time.monotonic()))
        loop_s = time.monotonic() - loop_started
        if failures:
            raise RuntimeError("%d sends failed, first: %r" % (len(failures), failures[0]))
        print(json.dumps({"records": sent, "loop_s": loop_s, "setup_s": loop_started - started}))
    finally:
        producer.close(timeout=10)
        consumer.close()


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.stderr.write("usage: raw_upper_loop.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC [DEADLINE_S]\n")
        sys.exit(2)
    main(*sys.argv[1:])

"""Speed benchmarks, not shipped in the wheel.

``python -m benchmarks.throughput`` and ``python -m benchmarks.kafka_stream``.
"""

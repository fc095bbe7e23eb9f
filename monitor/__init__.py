"""Cargo Monitor: retrieval-gated, context-grounded evaluation of agentic AI traffic.

The evaluation core (models, gate, judges, scoring) lives here and imports no
Kafka or Prometheus code; adapters at the edge (``monitor.metrics``,
``pipelines``) do.
"""

__version__ = "0.1.0"

"""Bundled data, shipped inside the package and found with :mod:`importlib.resources`.

- ``techsupport.yaml``: the default golden set;
- ``samples/traffic.jsonl``: the sample traffic ``cargo-monitor run`` reads by default;
- ``samples/otlp_traffic.jsonl``: agent turns as OpenTelemetry spans (OTLP/JSON lines,
  recorded from a real instrumented agent through a real Collector), what
  ``run --input-format otlp-json`` reads by default;
- ``bench/``: the public Cargo-Bench seeds and their generated instances.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def data_path(*parts: str) -> Path:
    """The filesystem path of a bundled data file (the package is never zipped)."""
    return Path(str(files(__name__).joinpath(*parts)))


DEFAULT_GOLDEN = data_path("techsupport.yaml")
DEFAULT_SAMPLES = data_path("samples", "traffic.jsonl")
DEFAULT_OTLP_SAMPLES = data_path("samples", "otlp_traffic.jsonl")
BENCH_DIR = data_path("bench")
BENCH_INSTANCES = BENCH_DIR / "instances.jsonl"

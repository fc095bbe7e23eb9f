from __future__ import annotations

from monitor.settings import DEFAULT_GOLDEN, DEFAULT_SAMPLES
from pipelines.samples import generate


def test_bundled_sample_traffic_is_reproducible() -> None:
    committed = DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines()
    assert generate(DEFAULT_GOLDEN, 7) == committed
    assert 200 <= len(committed) <= 600


def test_other_seeds_differ() -> None:
    assert generate(DEFAULT_GOLDEN, 8) != generate(DEFAULT_GOLDEN, 7)

"""The Kafka benchmark's arithmetic (the benchmark itself needs a broker and minutes)."""

from __future__ import annotations

import pytest

from benchmarks.kafka_stream import round_ratio


def test_round_ratio_is_against_the_embedded_passes_around_the_round() -> None:
    # A machine that slowed down during the round: both neighbours count equally.
    assert round_ratio(300.0, 400.0, 350.0) == pytest.approx(0.8)
    assert round_ratio(300.0, 300.0, 300.0) == pytest.approx(1.0)


def test_round_ratio_refuses_an_empty_embedded_figure() -> None:
    with pytest.raises(ValueError, match="embedded rate must be positive"):
        round_ratio(300.0, 0.0, 0.0)


def test_window_p99_follows_send_time() -> None:
    from benchmarks.kafka_stream import window_p99

    # 100 traces per second for 3 s; the second second is slow.
    lat = [(t / 100, (0.9 if 100 <= t < 200 else 0.1) + (t % 100) / 1000) for t in range(300)]
    out = window_p99(lat, 1.0)
    assert len(out) == 3
    assert out[0] == pytest.approx(0.199) and out[2] == pytest.approx(0.199)
    assert out[1] == pytest.approx(0.999)
    assert window_p99([], 1.0) == []

"""The committed Collector manifest and config agree (no Collector needed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from tests.support.paths import REPO

OTEL = Path(REPO) / "deploy" / "otel"


def _load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((OTEL / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_every_module_is_pinned_to_one_release() -> None:
    manifest = _load("builder-config.yaml")
    mods = [
        m["gomod"]
        for kind in ("receivers", "processors", "exporters", "providers")
        for m in manifest[kind]
    ]
    for mod in mods:
        path, version = mod.split()
        if "opentelemetry-collector-contrib" in path:
            assert version == "v0.165.1", mod
        elif "/confmap/provider/" in path:
            assert version == "v1.71.0", mod
        else:
            assert version == "v0.165.0", mod
    assert not any("fileexporter" in m for m in mods)  # not resolvable at v0.165.1 here


def test_config_uses_only_built_components_on_loopback() -> None:
    manifest = _load("builder-config.yaml")
    config = _load("collector.yaml")
    built = {
        kind: {
            re.sub(r"(receiver|processor|exporter)$", "", m["gomod"].split()[0].rsplit("/", 1)[1])
            for m in manifest[kind]
        }
        for kind in ("receivers", "processors", "exporters")
    }
    for kind in ("receivers", "processors", "exporters"):
        assert set(config[kind]) <= built[kind], kind
    for pipeline in config["service"]["pipelines"].values():
        for kind in ("receivers", "processors", "exporters"):
            assert set(pipeline.get(kind, [])) <= set(config[kind])
    protocols = config["receivers"]["otlp"]["protocols"]
    assert all("127.0.0.1" in p["endpoint"] for p in protocols.values())
    kafka = config["exporters"]["kafka"]
    assert kafka["partition_traces_by_id"] is True  # the ingest requires it
    assert "otlp_spans" in kafka["traces"]["topic"]
    assert "otlp_logs" in config["receivers"]["kafka"]["logs"]["topics"][0]


def test_logs_http_overlay_uses_built_components_and_keeps_debug() -> None:
    """logs-http.yaml, merged over collector.yaml when CARGO_OTEL_LOGS_HTTP_ENDPOINT is
    set: the evaluation events go to the core otlphttp exporter as well as to debug."""
    manifest = _load("builder-config.yaml")
    config = _load("collector.yaml")
    overlay = _load("logs-http.yaml")
    mods = {m["gomod"].split()[0] for m in manifest["exporters"]}
    assert "go.opentelemetry.io/collector/exporter/otlphttpexporter" in mods
    assert overlay["exporters"]["otlphttp"]["endpoint"] == "${env:CARGO_OTEL_LOGS_HTTP_ENDPOINT}"
    logs = overlay["service"]["pipelines"]["logs"]
    # A list is replaced by the merge, so the overlay must name every exporter it keeps.
    assert logs["exporters"] == ["debug", "otlphttp"]
    assert logs["receivers"] == config["service"]["pipelines"]["logs"]["receivers"]
    assert set(logs["exporters"]) <= set(config["exporters"]) | set(overlay["exporters"])

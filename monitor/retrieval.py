"""Top-K cosine retrieval against a cached golden matrix (s*, s2 and the top-K ids).

Each row of the matrix is one phrasing of a golden item's question (its ``question``,
then its ``question_paraphrases``); an item's similarity is the best of its rows, and
the top K, s*, s2 and the margin are over distinct items. A set without paraphrases
has one row per item and takes the same path as before paraphrases existed.

The nearest items are found by a *search*: :class:`ExactSearch` scores every golden
row (one matrix product; the default), :class:`HnswSearch` asks an approximate
HNSW graph (FAISS, the optional ``ann`` extra) for the candidates and scores those
exactly. Either way a returned similarity is the exact cosine of that item; only
which items are candidates may differ from the exact search.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from monitor.cachefile import atomic_write
from monitor.embeddings import Embedder, Matrix
from monitor.errors import ConfigError
from monitor.schemas import GoldenItem, GoldenSet
from monitor.values import NamedValues, content_words, mask_entities

TOP_K = 5
SEARCHES = ("exact", "hnsw")
# HNSW graph: links per node, and the candidate lists while building and searching
# (recall@1 and the sizes from which it pays: docs/performance.md, "Gate scale curve").
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 200
HNSW_EF_SEARCH = 128

Ids = npt.NDArray[np.intp]


def single_threaded_blas() -> None:
    """numpy's BLAS (OpenBLAS) single-threaded for the rest of the process.

    The retrieval's matrix product is small (a batch of 32 questions against the golden
    rows); with BLAS's own threads beside the model threads on a busy machine it waited
    for them: 489 µs per question at 100 golden items against 11 µs single-threaded,
    848 against 343 µs at 10k (``benchmarks.gate_scale``, docs/performance.md). The
    model's threads (torch, OpenMP) are not touched.
    """
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


@dataclass(frozen=True, slots=True, eq=False)
class Phrasings:
    """Which rows of the golden matrix are one item's phrasings: item ``i`` owns rows
    ``starts[i]`` to ``starts[i] + counts[i]``, its question first."""

    starts: Ids
    counts: Ids

    @classmethod
    def of(cls, counts: list[int]) -> Phrasings:
        c = np.asarray(counts, dtype=np.intp)
        return cls(np.concatenate(([0], np.cumsum(c)[:-1])).astype(np.intp), c)

    @property
    def rows(self) -> int:
        return int(self.counts.sum())

    @property
    def width(self) -> int:
        """The most phrasings of one item."""
        return int(self.counts.max())

    def row_items(self) -> Ids:
        """The item of every row."""
        return np.repeat(np.arange(len(self.counts), dtype=np.intp), self.counts)

    def padded(self) -> Ids:
        """``(items, width)``: each item's rows, padded with its last row (the padding
        repeats a cosine the item has, so a maximum over it is the item's own)."""
        offsets = np.minimum(np.arange(self.width), (self.counts - 1)[:, None])
        out: Ids = self.starts[:, None] + offsets
        return out

    def item_similarities(self, row_sims: Matrix) -> Matrix:
        """``(n, items)``: the best of each item's rows."""
        out: Matrix = np.maximum.reduceat(row_sims, self.starts, axis=1)
        return out


class ExactSearch:
    """Every golden row scored: one matrix product, then the top K of each row
    (with ``phrasings``: the best row of each item, then the top K items)."""

    name = "exact"

    def __init__(self, matrix: Matrix, phrasings: Phrasings | None = None) -> None:
        self.matrix = matrix
        self.phrasings = phrasings

    def similarities(self, vectors: Matrix) -> Matrix:
        """``(n, items)``: every item's cosine (the best of its phrasings)."""
        sims = vectors @ self.matrix.T
        return sims if self.phrasings is None else self.phrasings.item_similarities(sims)

    def top_k(self, vectors: Matrix, k: int) -> tuple[Ids, Matrix]:
        """The ``k`` best items for each vector and their cosines, best first."""
        sims = self.similarities(vectors)
        n = sims.shape[1]
        if k < n:
            top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        else:
            top = np.broadcast_to(np.arange(n), sims.shape)
        vals = np.take_along_axis(sims, top, axis=1)
        order = np.argsort(-vals, axis=1, kind="stable")
        return np.take_along_axis(top, order, axis=1), np.take_along_axis(vals, order, axis=1)


class HnswSearch:
    """Approximate: an HNSW graph over the golden rows (FAISS, inner product) proposes
    candidates, which are then scored exactly against the matrix.

    The graph may miss the true nearest row (recall@1 below 1); a row it cannot fill
    (fewer than ``k`` candidates) is searched exactly instead. With ``phrasings`` the
    graph holds every phrasing: it is asked for enough rows to hold ``k`` distinct
    items (``(k - 1) × width + 1``), and each candidate item is scored exactly as the
    best of its phrasings. Building the graph
    takes long (minutes at 100k items): with ``path`` it is saved there once and read
    back by the next start; a file that cannot be read, or that holds another number
    of rows or another dimension, is rebuilt.
    """

    name = "hnsw"

    def __init__(
        self,
        matrix: Matrix,
        *,
        m: int = HNSW_M,
        ef_construction: int = HNSW_EF_CONSTRUCTION,
        ef_search: int = HNSW_EF_SEARCH,
        path: Path | None = None,
        phrasings: Phrasings | None = None,
    ) -> None:
        try:
            import faiss
        except ImportError as exc:
            raise ConfigError(
                "the hnsw golden search needs FAISS: pip install 'cargo-monitor[ann]' "
                "(faiss-cpu), or use --golden-search exact"
            ) from exc
        self.matrix = matrix
        self.phrasings = phrasings
        self._exact = ExactSearch(matrix, phrasings)
        self._width = 1 if phrasings is None else phrasings.width
        self._row_items = None if phrasings is None else phrasings.row_items()
        self._padded = None if phrasings is None else phrasings.padded()
        self.cache_hit = False
        index: Any = None
        if path is not None and path.exists():
            try:
                index = faiss.read_index(str(path))
                if index.ntotal != len(matrix) or index.d != matrix.shape[1]:
                    index = None
            except Exception:  # unreadable: rebuild below
                index = None
            self.cache_hit = index is not None
        if index is None:
            index = faiss.IndexHNSWFlat(matrix.shape[1], m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = ef_construction
            index.add(np.ascontiguousarray(matrix, dtype=np.float32))
            if path is not None:
                atomic_write(path, lambda tmp: faiss.write_index(index, str(tmp)))
        index.hnsw.efSearch = max(ef_search, (TOP_K - 1) * self._width + 1)
        self._index = index
        # A batch's search in the calling thread: FAISS's OpenMP threads beside the model
        # threads waited for each other on a busy machine, as numpy's BLAS did.
        faiss.omp_set_num_threads(1)

    def top_k(self, vectors: Matrix, k: int) -> tuple[Ids, Matrix]:
        if self.phrasings is not None:
            return self._top_k_items(vectors, k)
        _, found = self._index.search(np.ascontiguousarray(vectors, dtype=np.float32), k)
        ids: Ids = found.astype(np.intp)
        short: npt.NDArray[np.bool_] = np.asarray((ids < 0).any(axis=1))
        ids[short] = 0  # placeholder, replaced by the exact search below
        sims = np.einsum("nd,nkd->nk", vectors, self.matrix[ids]).astype(np.float32)
        return self._ranked(vectors, ids, sims, short, k)

    def _ranked(
        self, vectors: Matrix, ids: Ids, sims: Matrix, short: npt.NDArray[np.bool_], k: int
    ) -> tuple[Ids, Matrix]:
        """The graph's candidates best first, the rows it could not fill (``short``)
        searched exactly instead."""
        order = np.argsort(-sims, axis=1, kind="stable")
        ids = np.take_along_axis(ids, order, axis=1)
        sims = np.take_along_axis(sims, order, axis=1)
        if short.any():
            ids[short], sims[short] = self._exact.top_k(vectors[short], k)
        return ids, sims

    def _top_k_items(self, vectors: Matrix, k: int) -> tuple[Ids, Matrix]:
        assert self._row_items is not None and self._padded is not None
        want = min((k - 1) * self._width + 1, len(self.matrix))
        _, found = self._index.search(np.ascontiguousarray(vectors, dtype=np.float32), want)
        ids = np.zeros((len(vectors), k), dtype=np.intp)
        short = np.zeros(len(vectors), dtype=bool)
        for n, rows in enumerate(found.tolist()):
            # The items in the order of their best row the graph found, each once.
            items = list(dict.fromkeys(int(self._row_items[r]) for r in rows if r >= 0))
            if len(items) < k:
                short[n] = True
            else:
                ids[n] = items[:k]
        per_row = np.einsum("nd,nkpd->nkp", vectors, self.matrix[self._padded[ids]])
        sims = per_row.max(axis=2).astype(np.float32)
        return self._ranked(vectors, ids, sims, short, k)


def make_search(
    name: str, matrix: Matrix, cache: Path | None = None, phrasings: Phrasings | None = None
) -> ExactSearch | HnswSearch:
    """``cache``: where the hnsw graph is kept between starts (``None``: rebuilt);
    ``phrasings``: which rows are one item's (``None``: one row per item)."""
    if name == "exact":
        return ExactSearch(matrix, phrasings)
    if name == "hnsw":
        return HnswSearch(matrix, path=cache, phrasings=phrasings)
    raise ConfigError(f"unknown golden search {name!r}; choose one of: {', '.join(SEARCHES)}")


@dataclass(frozen=True, slots=True)
class Retrieval:
    """The nearest golden item ``i*`` with ``s* = s1``, ``s2`` and ``Δ = s1 − s2``."""

    item: GoldenItem
    similarity: float
    second_similarity: float | None
    candidates: tuple[tuple[str, float], ...] = ()
    """The top-K golden ids with their similarities, best first (K = TOP_K)."""
    phrasings: tuple[int | None, ...] = ()
    """Per candidate, which of its phrasings scored best: 0 its ``question``, ``k`` its
    ``question_paraphrases[k - 1]``; ``None`` for an item without paraphrases. Empty
    when the golden set has none."""

    @property
    def margin(self) -> float | None:
        if self.second_similarity is None:
            return None
        return self.similarity - self.second_similarity


def _values_of(item: GoldenItem) -> list[str]:
    """The values ``item`` names: every value of its ``enum`` parameters, its own
    ``text`` values."""
    out: list[str] = []
    for spec in item.parameters.values():
        if spec.type == "enum":
            out += [spec.value, *(spec.values or ())]
        elif spec.type == "text":
            out.append(spec.value)
    return out


def _stems(text: str) -> frozenset[str]:
    return frozenset(w[:5] for w in content_words(text))


def _own_values(golden: GoldenSet, kept: set[str]) -> list[NamedValues]:
    """Each item's own values as a :class:`NamedValues` (``kept`` left out), one object
    per distinct list of values."""
    made: dict[tuple[str, ...], NamedValues] = {}
    out = []
    for item in golden.items:
        values = tuple(_values_of(item))
        if values not in made:
            made[values] = NamedValues(values, kept)
        out.append(made[values])
    return out


def _kept_values(golden: GoldenSet) -> set[str]:
    """Values that may name a procedure, not an instance, kept in every question:

    - where two items declare the same enum with different values of their own (one
      item per plan: "What does the Basic package include?" / "Which channels come with
      Sports Plus?"), that enum's values;
    - any value whose removal leaves two items' phrasings with the same content words (a
      ``text`` value, enums whose lists differ): asked with that value, one item's own
      question would meet the other's row as well as its own."""
    own: dict[frozenset[str], set[str]] = {}
    for item in golden.items:
        for spec in item.parameters.values():
            if spec.type == "enum" and spec.values:
                own.setdefault(frozenset(spec.values), set()).add(spec.value)
    kept = {v for values, mine in own.items() if len(mine) > 1 for v in values}
    shape: dict[str, frozenset[str]] = {}  # phrasing -> its content words, shape-masked
    for _ in range(3):
        mine = _own_values(golden, kept)
        stripped: dict[tuple[int, int], str] = {}
        for n, item in enumerate(golden.items):
            if mine[n]:
                for p, q in enumerate(item.phrasings):
                    if (removed := mine[n].remove(q)) != q:
                        stripped[n, p] = removed
        if not stripped:
            break
        seen: dict[frozenset[str], list[tuple[int, int]]] = {}
        more: set[str] = set()
        for n, item in enumerate(golden.items):
            for p, q in enumerate(item.phrasings):
                if (n, p) in stripped:
                    key = _stems(mask_entities(stripped[n, p]))
                else:
                    if q not in shape:
                        shape[q] = _stems(mask_entities(q))
                    key = shape[q]
                for m, r in seen.setdefault(key, []):
                    if m != n and ((n, p) in stripped or (m, r) in stripped):
                        more.update(mine[n].found(q), mine[m].found(golden.items[m].phrasings[r]))
                seen[key].append((n, p))
        if not more - kept:
            break
        kept |= more
    return kept


def named_values(golden: GoldenSet, kept: set[str] | None = None) -> NamedValues:
    """The entity values the golden set names (see :class:`NamedValues`), as removed
    from a live question: every value of its ``enum`` parameters and each reference's
    own ``text`` values, but those that name a procedure (:func:`_kept_values`, or
    ``kept`` when it is known)."""
    if kept is None:
        kept = _kept_values(golden)
    return NamedValues([v for item in golden.items for v in _values_of(item)], kept)


def _merged(ids: Ids, sims: Matrix, ids2: Ids, sims2: Matrix) -> tuple[Ids, Matrix]:
    """Two top-K lists of items per row as one: each item at the better of its two
    scores, best first (the first list's order on a tie), K kept."""
    k = ids.shape[1]
    out_ids = np.empty_like(ids)
    out_sims = np.empty_like(sims)
    for r in range(len(ids)):
        best: dict[int, float] = {}
        for i, v in zip(
            [*ids[r].tolist(), *ids2[r].tolist()],
            [*sims[r].tolist(), *sims2[r].tolist()],
            strict=True,
        ):
            if i not in best or v > best[i]:
                best[i] = v
        top = sorted(best.items(), key=lambda kv: -kv[1])[:k]
        out_ids[r] = [i for i, _ in top]
        out_sims[r] = [v for _, v in top]
    return out_ids, out_sims


class GoldenIndex:
    """The golden set's question embeddings, cached on disk: one row per phrasing
    (each item's question, then its paraphrases).

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
        search: str = "exact",
    ) -> None:
        self.golden = golden
        self.embedder = embedder
        self.mask = mask
        self._kept = _kept_values(golden) if mask else set()
        self.named = named_values(golden, self._kept)
        self.cache_hit = False
        self._rows, self._row_phrasing = self._golden_rows()
        self._paraphrased = any(i.question_paraphrases for i in golden.items)
        # None when every item has one row: one row per item, the path of old.
        self.phrasings: Phrasings | None = None
        if any(len(p) > 1 for p in self._row_phrasing):
            self.phrasings = Phrasings.of([len(p) for p in self._row_phrasing])
        self._padded = None if self.phrasings is None else self.phrasings.padded()
        self.matrix: Matrix = self._load_or_build(cache_dir)
        graph = None
        if cache_dir is not None:
            graph = self.cache_path(cache_dir).with_suffix(
                f".hnsw-m{HNSW_M}-ef{HNSW_EF_CONSTRUCTION}.faiss"
            )
            if not self.cache_hit:
                # The vectors were embedded again (the questions are masked otherwise
                # than when the file was written): a graph kept under the same name
                # holds the old ones, and the same number of rows does not tell it.
                graph.unlink(missing_ok=True)
        self.search = (
            make_search(search, self.matrix, graph, self.phrasings) if golden.items else None
        )
        # Live questions repeat once entity values are masked ("status of case <id>"):
        # an LRU of masked question -> vector saves the model call for repeats.
        self.query_cache_size = query_cache_size
        self.query_hits = 0
        self.query_misses = 0
        self._qcache: OrderedDict[str, Matrix] = OrderedDict()
        self._qlock = threading.Lock()
        self._answers: Matrix | None = None  # the reference answers (nearest_by_answer)

    def cache_path(self, cache_dir: Path) -> Path:
        slug = re.sub(r"[^A-Za-z0-9]+", "_", self.embedder.model_id).strip("_")
        masked = "masked" if self.mask else "raw"
        return cache_dir / f"golden-{slug}-{masked}-{self.golden.content_hash()}.npy"

    def prepare(self, questions: list[str]) -> list[str]:
        """The text that is embedded for each live question (entity-masked by default:
        the values the golden set names, then those known by their shape)."""
        return self._readings(questions)[0]

    def _readings(self, questions: list[str]) -> tuple[list[str], list[str]]:
        """Each question as embedded (:meth:`prepare`) and as the shape mask alone
        leaves it (the same text where it names no value; each masked once)."""
        if not self.mask:
            return list(questions), list(questions)
        masked, plain = [], []
        for q in questions:
            shape = mask_entities(q)
            removed = self.named.remove(q)
            plain.append(shape)
            masked.append(shape if removed == q else mask_entities(removed))
        return masked, plain

    def _golden_rows(self) -> tuple[list[str], list[list[int]]]:
        """The golden matrix's texts, and for each item which phrasing each of its rows
        is (0 its question, ``k`` its ``k``-th paraphrase). Masked, each phrasing is
        embedded without the values its own item names, and, where that differs, also
        as the shape mask alone leaves it: a question about another instance meets the
        first ("the booked for"), one that names the item's own value in passing ("my
        appointment is still pending") the second, as it did before values were
        named. Another item's values stay in a golden phrasing ("out of hours" is the
        emergency item's own words, though a status elsewhere is called so)."""
        if not self.mask:
            return list(self.phrasing_texts()), [
                list(range(len(i.phrasings))) for i in self.golden.items
            ]
        texts: list[str] = []
        which: list[list[int]] = []
        for item, own in zip(self.golden.items, _own_values(self.golden, self._kept), strict=True):
            nums: list[int] = []
            for p, q in enumerate(item.phrasings):
                shape = mask_entities(q)
                removed = own.remove(q)
                named = shape if removed == q else mask_entities(removed)
                texts.append(named)
                nums.append(p)
                if named != shape:
                    texts.append(shape)
                    nums.append(p)
            which.append(nums)
        return texts, which

    def row_texts(self) -> list[str]:
        """The texts of the golden matrix's rows, as embedded (see :meth:`_golden_rows`)."""
        return list(self._rows)

    def embed_questions(self, questions: list[str]) -> Matrix:
        """The masked questions' vectors (see :meth:`embed_queries` for both readings)."""
        return self._embed_texts(self.prepare(questions))

    def embed_queries(self, questions: list[str]) -> tuple[Matrix, Matrix | None]:
        """Each question's vector with the named values removed, and as the shape mask
        alone leaves it (``None`` when no question held a named value; a row whose
        question held none repeats the first). :meth:`retrieve` and
        :meth:`item_similarities` score an item by the better of the two, so a question
        that names a value in passing ("I'd rather pay by direct debit") still meets the
        golden phrasing that says it."""
        masked, plain = self._readings(questions)
        vectors = self._embed_texts(masked)
        differ = [k for k, (a, b) in enumerate(zip(masked, plain, strict=True)) if a != b]
        if not differ:
            return vectors, None
        asked = vectors.copy()
        asked[differ] = self._embed_texts([plain[k] for k in differ])
        return vectors, asked

    def _embed_texts(self, texts: list[str]) -> Matrix:
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

    def phrasing_texts(self) -> list[str]:
        """Every row's text before masking: each item's question, then its paraphrases."""
        return [q for i in self.golden.items for q in i.phrasings]

    def item_similarities(self, vectors: Matrix, asked: Matrix | None = None) -> Matrix:
        """``(n, items)``: the cosine of every question with every golden item (the
        best of its rows, and of the question's two readings with ``asked``, from
        :meth:`embed_queries`), unclipped; the exact search's scores."""
        if not self.golden.items:
            return np.zeros((len(vectors), 0), np.float32)
        exact = ExactSearch(self.matrix, self.phrasings)
        sims = exact.similarities(vectors)
        if asked is not None:
            sims = np.maximum(sims, exact.similarities(asked))
        return sims

    def _load_or_build(self, cache_dir: Path | None) -> Matrix:
        questions = self._rows
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
            try:
                cache_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # a file where the folder should be, no permission
                raise ConfigError(
                    f"cannot write the cache folder {cache_dir}: {exc.strerror or exc}"
                ) from exc
            path = self.cache_path(cache_dir)
            info_text = json.dumps(
                {
                    "model_id": self.embedder.model_id,
                    "golden_version": self.golden.version,
                    "golden_hash": self.golden.content_hash(),
                    "questions": questions,
                }
            )

            def save(tmp: Path) -> None:
                with tmp.open("wb") as fh:  # a file object: np.save would add ".npy"
                    np.save(fh, m, allow_pickle=False)

            # Atomic, each writer its own temporary file: workers sharing a cache
            # directory build it at once (two workers' starts raced on one .tmp.npy).
            atomic_write(path, save)
            atomic_write(path.with_suffix(".json"), lambda tmp: tmp.write_text(info_text))
        return m

    def retrieve(self, vectors: Matrix, asked: Matrix | None = None) -> list[Retrieval | None]:
        """Top-2 for each row of ``vectors`` (each item scored by the better of the
        question's two readings with ``asked``, from :meth:`embed_queries`); ``None``
        when the golden set is empty."""
        n = len(self.golden.items)
        if n == 0:
            return [None] * len(vectors)
        assert self.search is not None  # built for every non-empty set
        ids, sims = self.search.top_k(vectors, min(TOP_K, n))
        if asked is not None:
            ids, sims = _merged(ids, sims, *self.search.top_k(asked, min(TOP_K, n)))
        # Unit vectors in float32: clip the rounding error that can push cosine past 1.
        sims = np.clip(sims, -1.0, 1.0)
        out: list[Retrieval | None] = []
        items = self.golden.items
        best = self._best_phrasings(vectors, ids, asked)
        for k, (row_ids, row) in enumerate(zip(ids.tolist(), sims.tolist(), strict=True)):
            cands = tuple((items[i].id, round(s, 6)) for i, s in zip(row_ids, row, strict=True))
            second = row[1] if n > 1 else None
            said: tuple[int | None, ...] = ()
            if best is not None and self._paraphrased:
                said = tuple(
                    self._row_phrasing[i][p] if items[i].question_paraphrases else None
                    for i, p in zip(row_ids, best[k].tolist(), strict=True)
                )
            out.append(Retrieval(items[row_ids[0]], row[0], second, cands, said))
        return out

    def nearest_by_answer(self, answers: Sequence[str]) -> list[tuple[GoldenItem, float]]:
        """For each live answer, the golden item whose reference answer is nearest
        (cosine of the embedded texts) and that cosine: the answer check of
        ``--answer-check``. The reference answers are embedded on first use and kept
        (one model call per golden item, once)."""
        items = self.golden.items
        if not items or not answers:
            return []
        with self._qlock:
            if self._answers is None:
                self._answers = self.embedder.embed([i.answer for i in items])
            golden = self._answers
        sims = self.embedder.embed(list(answers)) @ golden.T
        best = sims.argmax(axis=1)
        return [(items[int(b)], float(sims[k, b])) for k, b in enumerate(best)]

    def _best_phrasings(self, vectors: Matrix, ids: Ids, asked: Matrix | None = None) -> Ids | None:
        """Which row of each candidate item scored best (``None`` when every item has
        one row). The first on a tie, so the question wins over a copy of it."""
        if self._padded is None:
            return None
        rows = self._padded[ids]
        per_row = np.einsum("nd,nkpd->nkp", vectors, self.matrix[rows])
        if asked is not None:
            per_row = np.maximum(per_row, np.einsum("nd,nkpd->nkp", asked, self.matrix[rows]))
        best: Ids = per_row.argmax(axis=2)
        return best

"""Per-step procedure verification against the exemplar.

The reference is the authority for *procedure* (the context is the authority for
entity facts). Each reference step is aligned with the answer and gets one
verdict, with the evidence it rests on:

``covered``  an answer segment carries the step with the same polarity and terms;
``missing``  no answer segment covers it;
``negated``  the best segment flips its polarity (negators, modal flips such as
             must / need not, eligibility antonyms, "cannot", "no longer", ...);
``altered``  the best segment replaces a policy term of the step (a number, or a
             content word of the reference) with a different one.

Steps are the golden item's ``steps`` when given (required), plus the rest of its
sentences (checked for negation and alteration, but not required); without
``steps`` every sentence is a required step. Entity values are masked into typed
slots on both sides, so a different case number or date never counts as a
procedural difference. The word lists (:mod:`monitor.text.lexicon`) are general
English, independent of any golden set; policy terms come from the reference itself.
"""

from __future__ import annotations

import asyncio
import bisect
import difflib
import functools
import itertools
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

import numpy as np

from monitor.claims import field_label_words, policy_occurrences, whole_value
from monitor.embeddings import EmbedBatcher, Embedder
from monitor.schemas import GoldenItem, StepVerdict
from monitor.text import (
    canon,
    contains_run,
    content,
    polarity,
    polarity_flip,
    policy_terms,
    same_word,
    singular,
    split_clauses,
    split_sentences,
    tokens,
)
from monitor.text.lexicon import (
    ANTONYM_PAIRS,
    ANTONYM_WORDS,
    BOUND_PHRASES,
    COMMON_VERBS,
    COST_FREE_WORDS,
    COST_WORDS,
    DOWN_WORDS,
    NEGATIVE_VERBS,
    NEGATORS,
    NUMBER_WORDS,
    ORIGINAL_PAYMENT,
    POLARITY_NEGATORS,
    PREFIXED_ANTONYMS,
    SAME_CLASS_WORDS,
    STOPWORDS,
    TERM_CLASS_WORDS,
    UP_WORDS,
    VERB_NEGATORS,
    paid_with,
)
from monitor.text.polarity import (
    HAS_EXCEPTION,
    ZERO_AMOUNT,
    anaphoric_after,
    denial_affirmed,
    denial_granted,
    denied_word,
    free_of,
    negation_count,
    plain_bounds,
)
from monitor.text.quantities import (
    conflict,
    counted_nouns,
    main_readings,
    quantities,
    say,
    stated,
)
from monitor.text.sentences import SPACE_RUN
from monitor.text.tokens import AUX_HALVES
from monitor.values import MONEY, find_typed_values

StepStatusT = Literal["covered", "missing", "negated", "altered"]


def _changed(old: Collection[str], new: Collection[str]) -> str:
    """What a quantity cue says changed, as people write quantities ("1 day -> 3
    days"): of the lost and the new quantities, those in conflict with one of the
    other side (:func:`conflict`), which are what the verdict rests on; all of a side
    where none is."""
    was = [a for a in old if any(conflict(a, b) for b in new)] or list(old)
    now = [b for b in new if any(conflict(a, b) for a in old)] or list(new)
    return f"{_listed(was)} -> {_listed(now)}"


def _listed(qs: list[str]) -> str:
    """Quantities said, by kind and then by size ("2 days, 10 days"), each once."""

    def size(q: str) -> float:
        try:
            return _value(q)
        except ValueError:  # (a form :func:`say` returns as it is)
            return 0.0

    ordered = sorted(qs, key=lambda q: (q.rsplit(":", 1)[0], size(q), q))
    return ", ".join(dict.fromkeys(say(q) for q in ordered))


@dataclass(frozen=True, slots=True)
class ProcedureConfig:
    """Thresholds of the step verifier (``CARGO_STEP_*`` settings).

    * ``cover_threshold`` 0.35: a step is covered when its best segment's score
      (mean of embedding cosine and term recall, or term recall alone without an
      embedder) reaches it. Measured with MiniLM on the public Cargo-Bench seeds
      and three development domains outside them: after segment ownership (below)
      a deleted step never scored above 0.21, and a correct paraphrase of a step
      never below 0.38 (0.51 on the public seeds; invented answers that say a step
      in words of their own reach 0.27-0.33, hence the band under the threshold in
      which a missing step stays ``uncertain``); 0.35 sits in that gap, closer
      to the paraphrases because a missed deletion is also caught by the
      term-presence rule while a false "missing" penalises a correct answer.
    * ``lexical_sure`` 0.8: recall at or above which the embedder is not asked
      (the step is plainly there), which keeps the verifier cheap.
    * ``min_term_presence`` 0.5: at least half of the step's key words (its
      content words other than light words and common verbs) must occur somewhere
      in the answer; a paraphrase keeps what a step is about, a deleted step
      takes its terms with it even when another sentence resembles it.
    * ``ownership_margin`` 0.25: a segment counts for a step only if its score for
      that step is within this margin of its best score for any step.
    * ``tie_margin`` 0.2: among segments within this margin of the best score,
      the tightest (clause, then sentence, then two-sentence window) is used. A
      window always scores higher by pooling two sentences' words, so it must
      be clearly better to be preferred.
    * ``stem_prefix`` 4: two words match when equal after a plural strip, or when
      they share a prefix of at least this many letters (escalate/escalations,
      back/backup, reschedule/rescheduling).
    * ``uncertain_band`` 0.1: a required step is marked ``uncertain`` when it is
      covered with a score under ``cover_threshold`` plus this band (a neighbouring
      sentence may stand in for a step the answer left out), or missing with a score
      within this band under the threshold (a step said in other words scores there),
      see :func:`StepVerifier._verdicts`. Missing is settled below the band, unless a
      segment another step took had fitted the step (two steps said in one sentence).
    * ``share_penalty`` 0.25: in the one-to-one assignment of steps to answer
      sentences (:func:`_anchors`), a second (third, ...) step placed in a sentence
      that another step already holds pays this much of its score, so that a
      sentence of its own wins over a clause of a neighbour's sentence unless the
      clause fits clearly better. The ownership margin's value: a segment within it
      of another step's score is one that step could claim.
    * ``weak_match`` 0.5 and ``stand_in_margin`` 0.2: a step whose best score is
      under ``weak_match`` is not read from the part of the answer that carries
      another step scoring at least ``stand_in_margin`` more (that step's segment,
      or the clause of it that shares most words with that step): such a segment is
      a neighbour standing in for a step the answer left out. The step is read from
      its best segment elsewhere, or is missing. Chosen on the read held-out sets'
      recorded verdicts, before the rule was built: the pattern marked 187 missed
      deletions of a step from a paraphrase and 15 correct paraphrases (of about
      2,400), and no correct transplant (P1) or answer with extra fields (P3). Built
      and run on all 21 sets with MiniLM (docs/bench-results.md): 261 more deletions
      caught, 15 lost, no correct paraphrase flagged.
    """

    cover_threshold: float = 0.35
    lexical_sure: float = 0.8
    stem_prefix: int = 4
    min_term_presence: float = 0.5
    ownership_margin: float = 0.25
    tie_margin: float = 0.2
    uncertain_band: float = 0.1
    share_penalty: float = 0.25
    weak_match: float = 0.5
    stand_in_margin: float = 0.2


def mask_known(text: str, values: Sequence[str]) -> str:
    """The known entity values of ``text`` -> ``<value>``; everything else as written
    (an amount the procedure states, "a $40 fee", stays). Longer values first, each
    where it stands as a whole token, case aside; a value next to one already masked
    sees the slot's "<" or ">", no word character."""
    if len(values) <= _FEW_VALUES:
        # One substitution per value: the quickest for the few values of most answers.
        out = text
        for v in _longest_first(values):
            out = _whole_value(v).sub("<value>", out)
        return out
    return _known_values(tuple(values)).mask(text)


# Up to this many values, one substitution each; more go through a word index (the
# same result, in time linear in the text whatever the number of values).
_FEW_VALUES = 8


def _longest_first(values: Sequence[str]) -> list[str]:
    """The values to mask, longest first; values of one length in text order, so
    that two of them side by side ("7" and "." in "7.") mask the same way on every
    run (a set's order changes with the hash seed)."""
    return sorted({v for v in values if v and v.strip()}, key=lambda v: (-len(v), v))


@functools.lru_cache(maxsize=4096)
def _whole_value(value: str) -> re.Pattern[str]:
    """``value`` as a whole token, case aside: not a part of a longer number ("2" is
    not in "£2,000" nor in "1.2")."""
    return re.compile(
        r"(?<![\w])(?<!\d[.,])" + re.escape(value) + r"(?![\w])(?![.,]\d)", re.IGNORECASE
    )


def _inside_number(text: str, a: int, b: int, covered: bytearray) -> bool:
    """Whether ``text[a:b]`` is part of a longer number ("2" of "2,000", "5" of "1.5"),
    its neighbours not masked already (as :func:`_whole_value` sees the text after
    the longer values' substitutions)."""

    def plain(i: int, chars: str) -> bool:
        if not 0 <= i < len(text) or covered[i]:
            return False
        return text[i] in chars if chars else text[i].isdecimal()

    return (plain(b, ".,") and plain(b + 1, "")) or (plain(a - 1, ".,") and plain(a - 2, ""))


class _KnownValues:
    """Values to mask, indexed by their words: each text is read once for its words,
    and a value is tried only where its words stand in order. Scanning the text once
    per value made masking quadratic, as an answer states as many values as it has
    numbers and codes (10,000 characters of "Position: {n}" lines took 30 s; 60,000
    of "KX71QD at position {n};" 164 s)."""

    def __init__(self, values: tuple[str, ...]) -> None:
        ordered = _longest_first(values)
        self.patterns = [re.compile(re.escape(v), re.IGNORECASE) for v in ordered]
        # The words of a value, in order -> (rank, offset of its first word).
        self.by_words: dict[tuple[str, ...], list[tuple[int, int]]] = {}
        self.wordless: list[int] = []  # ranks of values without a word character
        for rank, v in enumerate(ordered):
            runs = list(_WORD_RUN.finditer(v))
            if not runs:
                self.wordless.append(rank)
                continue
            key = tuple(r.group().lower() for r in runs)
            self.by_words.setdefault(key, []).append((rank, runs[0].start()))
        self.lengths = sorted({len(k) for k in self.by_words})

    def mask(self, text: str) -> str:
        if not self.patterns:
            return text
        # Where the words of a value stand in the text, in order: a lookup per word
        # and value length, whatever the number of values.
        starts: dict[int, list[int]] = {rank: [] for rank in self.wordless}
        runs = list(_WORD_RUN.finditer(text))
        words_ = [r.group().lower() for r in runs]
        for i, r in enumerate(runs):
            for length in self.lengths:
                if i + length > len(runs):
                    break
                for rank, offset in self.by_words.get(tuple(words_[i : i + length]), ()):
                    starts.setdefault(rank, []).append(r.start() - offset)
        n = len(text)
        # 1 where a masked value starts, 2 where it goes on; 0 elsewhere.
        covered = bytearray(n)

        def free_edge(i: int) -> bool:
            # Outside the text, a masked slot's "<" or ">", or no word character.
            return i < 0 or i >= n or covered[i] != 0 or _WORD_CHAR.match(text[i]) is None

        for rank in sorted(starts):
            pattern = self.patterns[rank]
            where = starts[rank] if rank not in self.wordless else _every_start(pattern, text)
            # One value's matches do not overlap and see the text as it was before it
            # (as one regular-expression substitution would), the longer values'
            # slots included.
            found: list[tuple[int, int]] = []
            last_end = 0
            for start in where:
                m = pattern.match(text, start) if start >= last_end else None
                if m is None or any(covered[m.start() : m.end()]):
                    continue
                if (
                    free_edge(m.start() - 1)
                    and free_edge(m.end())
                    and not _inside_number(text, m.start(), m.end(), covered)
                ):
                    found.append((m.start(), m.end()))
                    last_end = m.end()
            for a, b in found:
                covered[a:b] = b"\x02" * (b - a)
                covered[a] = 1
        if not any(covered):
            return text
        pieces, pos, k = [], 0, 0
        while k < n:
            if covered[k] == 1:
                pieces += [text[pos:k], "<value>"]
                k += 1
                while k < n and covered[k] == 2:
                    k += 1
                pos = k
            else:
                k += 1
        pieces.append(text[pos:])
        return "".join(pieces)


@functools.lru_cache(maxsize=32)
def _known_values(values: tuple[str, ...]) -> _KnownValues:
    # An answer's segments are masked with one value list; a few lists are live at
    # a time (the answer's, the reference's). A small cache: a list may hold
    # thousands of values, and a worker runs for weeks.
    return _KnownValues(values)


def _every_start(pattern: re.Pattern[str], text: str) -> Iterator[int]:
    """Every position where ``pattern`` matches, overlapping ones included."""
    m = pattern.search(text)
    while m is not None:
        yield m.start()
        m = pattern.search(text, m.start() + 1)


_WORD_RUN = re.compile(r"\w+")


def mask(text: str, values: Sequence[str]) -> str:
    """Entity values -> typed slots. Known values first, then typed detection
    (identifiers, dates, amounts); small numbers stay, they can be procedure."""
    out = mask_known(text, values)
    pieces, pos = [], 0
    for f in find_typed_values(out):
        if f.type in ("integer", "time") or (
            f.type == "money" and ZERO_AMOUNT.fullmatch(f.text.strip())
        ):
            # A zero amount says "free", which the polarity rules read; a time of day
            # not known as an entity value is a policy's ("before 17:00"), which the
            # quantity rule reads.
            continue
        pieces += [out[pos : f.start], f"<{f.type}>"]
        pos = f.end
    pieces.append(out[pos:])
    return "".join(pieces)


@dataclass(frozen=True, slots=True)
class Segment:
    text: str  # original answer text
    masked: str
    kind: Literal["clause", "sentence", "window"]
    sentence: str = ""  # the enclosing sentence (masked), for term comparison
    at: tuple[int, ...] = ()  # the answer sentences it spans (by index)


def answer_segments(answer: str, values: Sequence[str]) -> list[Segment]:
    """Clauses, sentences and two-sentence windows: a paraphrase may split a step
    over two sentences or fold two steps into one."""
    sents = [s.text for s in split_sentences(answer)] or [answer]
    segs: list[Segment] = []
    for i, s in enumerate(sents):
        ms = mask(s, values)
        segs.append(Segment(s, ms, "sentence", ms, (i,)))
        parts = [p for p in split_clauses(s) if len(content(tokens(p))) >= 1]
        if len(parts) > 1:
            segs += [Segment(p, mask(p, values), "clause", ms, (i,)) for p in parts]
    for i, (a, b) in enumerate(itertools.pairwise(sents)):
        mw = mask(f"{a} {b}", values)
        segs.append(Segment(f"{a} {b}", mw, "window", mw, (i, i + 1)))
    return segs


def _anchors(
    score: np.ndarray,
    segs: list[Segment],
    share_penalty: float,
    first: Sequence[bool],
    threshold: float,
) -> list[int | None]:
    """One answer sentence per step, by a global assignment (Hungarian, maximum total
    score) instead of each step's own best match: a step is not read from a sentence
    that merely shares a word with it when another step states that sentence and a
    sentence of its own is left over ("Follow the parcel in the app, which also shows
    the delivery day. Have someone there to sign for it.").

    A sentence offers one place per clause (steps folded into one sentence, "...; it
    lasts at most 3 months, and the fee is paused"); every place after its first costs
    ``share_penalty``. A step's score for a sentence is its best over the sentence and
    its clauses (windows belong to two sentences). ``None``: more steps than places."""
    # Imported here: scipy.optimize costs 0.3 s at start-up, and most answers never
    # get this far (verbatim answers, empty answers).
    from scipy.optimize import linear_sum_assignment

    n_sent = 1 + max((i for g in segs for i in g.at), default=-1)
    per_sent = np.zeros((score.shape[0], n_sent))
    clauses = [0] * n_sent
    for j, g in enumerate(segs):
        if g.kind == "window":
            continue
        i = g.at[0]
        per_sent[:, i] = np.maximum(per_sent[:, i], score[:, j])
        clauses[i] += g.kind == "clause"
    cols = [(i, extra) for i in range(n_sent) for extra in range(max(1, clauses[i]))]
    gain = np.stack([per_sent[:, i] - (share_penalty if extra else 0.0) for i, extra in cols], 1)
    out: list[int | None] = [None] * score.shape[0]
    # The steps marked ``first`` are placed together, then the others in the places
    # left: an exemplar sentence that states only the instance's facts ("Account
    # 7731042 ends on 2026-04-30"), which the claims check and the procedure does not
    # require, does not take from a declared step the one sentence that also states
    # it ("For account 6650291 (ending 10 July 2026) you've got 30 days from the
    # contract end date to get the router back to us"). (A step placed first where it
    # stays under the cover threshold holds that place only until a later one scores
    # more there.)
    need = [k for k in range(score.shape[0]) if first[k]]
    rest = [k for k in range(score.shape[0]) if not first[k]]
    holder: dict[int, int] = {}  # (place -> the step placed there)
    free = list(range(len(cols)))
    for ks in (need, rest):
        if not ks or not free:
            continue
        rows, picked = linear_sum_assignment(gain[np.ix_(ks, free)], maximize=True)
        for r, c in zip(rows, picked, strict=True):
            k, place = ks[int(r)], free[int(c)]
            if place in holder:
                if gain[k, place] <= gain[holder[place], place]:
                    continue
                out[holder[place]] = None
            out[k] = cols[place][0]
        holder = {free[int(c)]: ks[int(r)] for r, c in zip(rows, picked, strict=True)}
        free = [
            c for c in range(len(cols)) if holder.get(c) is None or gain[holder[c], c] < threshold
        ]
    return out


def _facts_only(masked: str) -> bool:
    """Whether an exemplar sentence, its values masked, states little but the instance's
    facts: two content words or fewer ("Account <value> ends on <date>")."""
    return len(content(tokens(masked))) <= 2


@dataclass(frozen=True, slots=True)
class RefStep:
    index: int
    text: str
    masked: str
    required: bool
    known: str = ""  # only the reference's own values masked (amounts kept)
    quantities: frozenset[str] = frozenset()  # of ``known``, canonical


def _around_a_step(sentence: str, item: GoldenItem, values: Sequence[str]) -> bool:
    """Whether a sentence of the answer holds a declared step and, beside it, no more
    than two content words of its own, entity values aside ("Booking RM60251 can be
    moved ... free of charge once, if you ask at least 10 days before the move." for
    the step "can be moved ... before the move."): it is that step, not another one to
    check again."""
    low = sentence.casefold()
    rest = low
    for st in item.steps:
        rest = rest.replace(st.casefold().strip(), " ")
    if rest == low:
        return False
    return len(content(tokens(mask(rest, values)))) <= 2


def reference_steps(item: GoldenItem) -> list[RefStep]:
    all_values = [p.value for p in item.parameters.values()]

    def step(k: int, text: str, required: bool) -> RefStep:
        # (A value the step states only as a policy's quantity stays: "every 12
        # months" beside an application at position 12, claims.policy_occurrences.)
        values = all_values
        at = re.search(re.escape(text), item.answer, re.IGNORECASE)
        if at is not None:
            values = [v for v in all_values if not _policy_only(item, v, at.start(), at.end())]
        known = mask_known(text, values)
        return RefStep(
            k, text, mask(text, values), required, known, quantities(known or mask(text, values))
        )

    if item.steps:
        steps = [step(k, s, True) for k, s in enumerate(item.steps)]
        declared = " ".join(item.steps)
        extra = [
            s.text
            for s in split_sentences(item.answer)
            if s.text not in declared
            and s.text.strip()
            and not _around_a_step(s.text, item, all_values)
        ]
        steps += [step(len(steps) + k, s, False) for k, s in enumerate(extra)]
        return steps
    return [step(k, s.text, True) for k, s in enumerate(split_sentences(item.answer))]


_NONE_WORDS = frozenset({"no", "nothing", "none"})


def _zero_said_as_none(step: str, sentence: str, values: Sequence[str]) -> bool:
    """Whether the sentence says an instance's zero amount as "no" or "nothing" where
    the step (masked, no negator of its own) states the instance's amount: "no late
    fees are outstanding on booking 71835 (£0.00)" for "booking 55190 has £20.00 in
    late fees outstanding" states the instance's balance, not a denied rule. (The zero
    is an entity value: the context holds it and the answer states it.)"""
    if "<value>" not in step or any(w in NEGATORS or w == "n't" for w in tokens(step)):
        return False
    said = set(tokens(sentence))
    if not said & _NONE_WORDS or any(w in NEGATORS and w not in _NONE_WORDS for w in said):
        return False
    # (Each distinct zero once: a hostile answer may state thousands of values.)
    zeros = {v.strip() for v in values if ZERO_AMOUNT.fullmatch(v.strip())}
    return any(_whole_value(v).search(sentence) for v in zeros)


def _policy_only(item: GoldenItem, value: str, start: int, end: int) -> bool:
    """Whether every occurrence of ``value`` in ``item.answer[start:end]`` (one there
    at least) stands as a policy's quantity (:func:`monitor.claims.policy_occurrences`)."""
    policy = policy_occurrences(item, value)
    if not policy:
        return False
    here = [m.start() + start for m in whole_value(value).finditer(item.answer[start:end])]
    return bool(here) and all(x in policy for x in here)


def _count(w: str, ws: list[str], prefix: int) -> int:
    return sum(same_word(w, x, prefix) for x in ws)


# A sentence's words with its text.
_Words = tuple[list[str], str]


def _stated_elsewhere(part: list[str], here: list[str], others: list[_Words], prefix: int) -> bool:
    """Whether another sentence (``others``) states a part of a step better than this
    one (``here``) does, with at least half of its words ("We take no bookings on the
    day itself" states "no booking is taken on the day" better than "Please book the
    court at least 2 days ahead" does)."""
    there = _best_home(part, others, prefix)[0]
    return there >= 0.5 and there > _recall(part, here, prefix)


def _best_home(part: list[str], others: list[_Words], prefix: int) -> tuple[float, str]:
    """The sentence of ``others`` that states ``part`` best, with its term recall."""
    return max(((_recall(part, ws, prefix), text) for ws, text in others), default=(0.0, ""))


def _negator(word: str) -> bool:
    return word in POLARITY_NEGATORS or word == "n't"


def _negation_in_place(step_words: list[str], sentence_words: list[str]) -> bool:
    """Whether the negation the sentence adds to or drops from the step is an edit in
    place: in the word alignment of the step with the sentence, a changed run of at
    most two words whose negators differ ("are [not] refunded", "can" -> "cannot",
    "[do not] open the casing"). Elsewhere -- in a longer run the sentence rewrites or
    adds ("...; we can't take responsibility for ..."), a step said through a
    prohibition ("don't open up the casing yourself - that voids the warranty" for
    "opening the casing yourself voids the warranty") -- what the negation governs is
    open, and so is the verdict.

    Measured on the read held-out sets (docs/bench-results.md): of the settled
    polarity flips on correct paraphrases, 3 of 32 are in place; of those on negated
    golden wordings 1,732 of 1,942."""
    ops = difflib.SequenceMatcher(None, step_words, sentence_words, autojunk=False).get_opcodes()
    return any(
        tag != "equal"
        and max(i2 - i1, j2 - j1) <= 2
        and sum(map(_negator, step_words[i1:i2])) != sum(map(_negator, sentence_words[j1:j2]))
        for tag, i1, i2, j1, j2 in ops
    )


def _recall(step_words: list[str], seg_words: list[str], prefix: int) -> float:
    need = content(step_words)
    if not need:
        return 1.0
    have = content(seg_words)  # "not" must not match "notify"
    exact = {singular(w) for w in have}
    return sum(
        singular(w) in exact or any(same_word(w, s, prefix) for s in have) for w in need
    ) / len(need)


@dataclass(frozen=True, slots=True)
class _Reference:
    steps: list[RefStep]
    answer_tokens: list[str]  # the exemplar's answer, masked, as tokens
    answer_words: list[str]  # its content words
    declared: tuple[str, ...] = ()  # the item's declared policy terms
    quantities: frozenset[str] = frozenset()  # the exemplar's own amounts, canonical


# Embedded step and segment texts kept (the reference steps recur with every
# trace; live answers' segments rarely do): new texts are not cached beyond it.
STEP_CACHE_SIZE = 50_000


@dataclass(frozen=True, slots=True)
class _Alignment:
    """One answer against one reference, before the embedding (see ``_align``)."""

    ref: _Reference
    segs: list[Segment]
    seg_words: list[list[str]]
    step_words: list[list[str]]
    lex: np.ndarray  # term recall, steps x segments
    answer_known: str  # the whole answer, known entity values masked
    values: list[str]  # the entity values masked
    embed: list[str]  # steps then segments, to embed; empty: term recall settles it
    answer_q: frozenset[str] = frozenset()  # quantities of ``answer_known``
    # The answer's sentences as written (unmasked): where each stands, its words, its
    # text. A part of a step may be stated in one other than the step's own.
    sentences: tuple[tuple[tuple[int, ...], list[str], str], ...] = ()
    # The words of the context fields' names that the answer says as the field's value
    # (see :func:`named_fields`).
    named: frozenset[str] = frozenset()


def named_fields(observed: Mapping[str, str], answer: str) -> frozenset[str]:
    """The content words of the names of the context fields whose value the answer
    states, for a value that is a name (it has a lower-case letter and no digit:
    "Maersk", "Halcyon Invest SIPP"; not a code, a date or an amount): "Please don't
    ring the port or Maersk" says the step's "shipping line" as the entity's own,
    ``shippingLine: Maersk``."""
    out: set[str] = set()
    for name, value in observed.items():
        said = content(tokens(field_label_words(name)))
        if not said or said[-1] not in _PARTY_NOUNS:
            continue  # ("payment method: Visa Debit" names no party)
        v = str(value).strip()
        if len(v) < 3 or any(ch.isdigit() for ch in v) or not any(ch.islower() for ch in v):
            continue
        if whole_value(v).search(answer):
            out.update(said)
    return frozenset(out)


# The last word of a context field's name that makes its value a party's name (an
# organisation, a person in a role): "shipping line", "receiving scheme", "landlord".
_PARTY_NOUNS = frozenset(
    """line scheme provider supplier carrier company insurer bank lender agent agency
    landlord employer firm partner courier airline operator broker club school clinic
    practice surgery hospital council office team shop store seller merchant vendor
    contractor builder installer manufacturer retailer dealer garage hotel venue
    organiser organizer charity fund trust network""".split()
)


class StepVerifier:
    """Aligns exemplar steps with an answer and gives each one a verdict."""

    def __init__(
        self, embedder: Embedder | None = None, config: ProcedureConfig | None = None
    ) -> None:
        self.embedder = embedder
        self.config = config or ProcedureConfig()
        self._step_cache: dict[str, np.ndarray] = {}
        self._ref_cache: dict[tuple[str, str, tuple[str, ...], tuple[str, ...]], _Reference] = {}
        self._batcher: EmbedBatcher | None = None

    def _reference(self, item: GoldenItem) -> _Reference:
        """The reference side of the comparison (steps, masked answer), computed once
        per golden item: it is the same for every trace that retrieves the item."""
        ref_values = tuple(p.value for p in item.parameters.values())
        key = (item.id, item.answer, tuple(item.steps), ref_values)
        ref = self._ref_cache.get(key)
        if ref is None:
            answer_tokens = tokens(mask(item.answer, ref_values))
            ref = _Reference(
                reference_steps(item),
                answer_tokens,
                content(answer_tokens),
                tuple(item.policy_terms),
                quantities(mask_known(item.answer, ref_values)),
            )
            if len(self._ref_cache) < 10_000:
                self._ref_cache[key] = ref
        return ref

    def _cached(self, texts: list[str]) -> tuple[dict[str, np.ndarray], list[str]]:
        """The vectors the cache has, and the other texts (once each) to embed."""
        known = {t: v for t in texts if (v := self._step_cache.get(t)) is not None}
        return known, [t for t in dict.fromkeys(texts) if t not in known]

    def _embed(self, texts: list[str]) -> np.ndarray:
        assert self.embedder is not None
        known, todo = self._cached(texts)
        if todo:
            vecs = self.embedder.embed(todo)
            self._remember(todo, vecs)
            known.update(zip(todo, vecs, strict=True))
        return np.stack([known[t] for t in texts])

    async def _embed_async(self, texts: list[str]) -> np.ndarray:
        assert self.embedder is not None
        known, todo = self._cached(texts)
        if todo:
            if self._batcher is None or self._batcher.loop is not asyncio.get_running_loop():
                # One per event loop (``asyncio.run`` callers each bring their own).
                self._batcher = EmbedBatcher(self.embedder, self._remember)
            known.update(zip(todo, await self._batcher.embed(todo), strict=True))
        return np.stack([known[t] for t in texts])

    def _remember(self, texts: Sequence[str], vecs: np.ndarray) -> None:
        for t, v in zip(texts, vecs, strict=True):
            if len(self._step_cache) < STEP_CACHE_SIZE:
                self._step_cache[t] = v

    def verify(
        self,
        item: GoldenItem,
        answer: str,
        observed_values: Sequence[str],
        entity_values: Sequence[str] = (),
        observed: Mapping[str, str] | None = None,
    ) -> list[StepVerdict]:
        """Step verdicts; embeds (in the calling thread, blocking it) what the words
        alone leave open. ``observed``: the context's fields by name, whose names the
        answer may say as their values (see :func:`named_fields`)."""
        al = self._align(item, answer, observed_values, entity_values, observed)
        if isinstance(al, list):
            return al
        return self._verdicts(al, self._embed(al.embed) if al.embed else None)

    async def verify_async(
        self,
        item: GoldenItem,
        answer: str,
        observed_values: Sequence[str],
        entity_values: Sequence[str] = (),
        observed: Mapping[str, str] | None = None,
    ) -> list[StepVerdict]:
        """:meth:`verify` for an event loop: the embedding runs in a worker thread, in
        one call together with that of the other verifications waiting at the same
        time (the judge calls of a batch), so that the loop is never blocked on the
        model and the model sees batches, not single answers."""
        al = self._align(item, answer, observed_values, entity_values, observed)
        if isinstance(al, list):
            return al
        return self._verdicts(al, await self._embed_async(al.embed) if al.embed else None)

    def _align(
        self,
        item: GoldenItem,
        answer: str,
        observed_values: Sequence[str],
        entity_values: Sequence[str],
        observed: Mapping[str, str] | None = None,
    ) -> _Alignment | list[StepVerdict]:
        """Everything before the embedding: the segments, the term-recall matrix and
        the texts to embed (none when term recall settles every step), or the final
        verdicts when no alignment is needed."""
        ref = self._reference(item)
        steps = ref.steps
        if not steps:
            return []
        masked_values = [*observed_values, *entity_values]
        answer_known = mask_known(answer, masked_values)
        answer_q = quantities(answer_known)
        if tokens(mask(answer, masked_values)) == ref.answer_tokens and ref.quantities == answer_q:
            # The exemplar's own wording with this instance's values: nothing to align.
            return [
                StepVerdict(
                    index=s.index,
                    step=s.text,
                    status="covered",
                    required=s.required,
                    matched_sentence=None,
                    similarity=1.0,
                    cue="the answer is the exemplar verbatim (entity values aside)",
                )
                for s in steps
            ]
        segs = answer_segments(answer, masked_values)
        if not segs:
            return [
                StepVerdict(
                    index=s.index,
                    step=s.text,
                    status="missing",
                    required=s.required,
                    cue="empty answer",
                )
                for s in steps
            ]
        cfg = self.config
        seg_words = [tokens(s.masked) for s in segs]
        step_words = [tokens(s.masked) for s in steps]
        lex = np.array(
            [[_recall(sw, gw, cfg.stem_prefix) for gw in seg_words] for sw in step_words]
        )
        embed: list[str] = []
        if self.embedder is not None and (lex.max(axis=1) < cfg.lexical_sure).any():
            # Embedding only where the words alone are not conclusive.
            embed = [
                re.sub(r"<[a-z]+>", " ", t).strip()
                for t in [s.masked for s in steps] + [g.masked for g in segs]
            ]
        return _Alignment(
            ref,
            segs,
            seg_words,
            step_words,
            lex,
            answer_known,
            list(masked_values),
            embed,
            answer_q,
            tuple((g.at, tokens(g.text), g.text) for g in segs if g.kind == "sentence"),
            named_fields(observed or {}, answer),
        )

    def _verdicts(self, al: _Alignment, vecs: np.ndarray | None) -> list[StepVerdict]:
        cfg = self.config
        ref, steps, segs = al.ref, al.ref.steps, al.segs
        seg_words, step_words = al.seg_words, al.step_words
        score = al.lex.copy()
        used_embedding = vecs is not None
        if vecs is not None:
            cos = np.clip(vecs[: len(steps)] @ vecs[len(steps) :].T, 0.0, 1.0)
            score = (al.lex + cos) / 2.0
        # A heading that introduces a list ("To reschedule 8944419:") names the topic
        # the steps are about; it states none of them.
        # A window that opens with one is its second sentence, which is scored alone.
        head_at = {g.at for g in segs if g.kind == "sentence" and _is_heading(g.text)}
        heads = [
            j
            for j, g in enumerate(segs)
            if (g.kind != "window" and _is_heading(g.text)) or g.at[:1] in head_at
        ]
        if heads:
            score = score.copy()
            score[:, heads] = 0.0

        # A sentence that is a step word for word (entity values aside) states that
        # step and no other: its clauses cannot stand in for a step the answer left
        # out ("While paused you pay no fee, but ..." for "Set up the pause ...").
        # The steps it contains keep it too: a declared step cut from a longer
        # sentence of the reference is stated by that sentence, word for word.
        def words_of(ws: list[str]) -> tuple[str, ...]:
            return tuple(w for w in ws if w[:1].isalnum() or w == "n't")

        exact = {words_of(sw): k for k, sw in enumerate(step_words) if content(sw)}
        by_sentence: dict[tuple[int, ...], list[int]] = {}
        for j, h in enumerate(segs):
            by_sentence.setdefault(h.at, []).append(j)
        for g, gw in zip(segs, seg_words, strict=True):
            k_own = exact.get(words_of(gw)) if g.kind == "sentence" else None
            if k_own is None:
                continue
            said = list(words_of(gw))
            others = [
                k
                for k in range(len(steps))
                if k != k_own and not contains_run(said, words_of(step_words[k]))
            ]
            score[np.ix_(others, by_sentence[g.at])] = 0.0
        # The answer's words, sentence by sentence (all of them; and its content words).
        sentence_words = [
            w for g, ws in zip(segs, seg_words, strict=True) if g.kind == "sentence" for w in ws
        ]
        answer_words = content(sentence_words)
        says_paid_with = paid_with(" ".join(sentence_words))
        ref_words = ref.answer_words
        # A segment that plainly realises another step does not also cover this
        # one unless it fits this one about as well (a deleted step must not be
        # "found" in its neighbour).
        owner_score = score.max(axis=0)
        eligible = score >= owner_score[None, :] - cfg.ownership_margin
        score_for_step = np.where(eligible, score, 0.0)
        anchors = _anchors(
            score_for_step,
            segs,
            cfg.share_penalty,
            [s.required or not _facts_only(s.masked) for s in steps],
            cfg.cover_threshold,
        )
        out: list[StepVerdict] = []
        lo, hi = cfg.cover_threshold - cfg.uncertain_band, cfg.cover_threshold + cfg.uncertain_band
        picks = self._without_stand_ins(
            [self._anchored(k, score_for_step[k], segs, anchors) for k in range(len(steps))],
            score_for_step,
            segs,
            anchors,
            step_words,
        )
        # The answer's sentences, each with the step part it is about (:meth:`_apart`),
        # read once and only when a step needs them.
        apart_memo: list[list[tuple[tuple[int, ...], str, int, str]]] = []

        def said_apart() -> list[tuple[tuple[int, ...], str, int, str]]:
            if not apart_memo:
                apart_memo.append(self._apart(al))
            return apart_memo[0]

        # Where the steps the answer states stand (a missing step's nearest sentence
        # may say it the other way: it is no other step's).
        stated_at = [
            x if b >= cfg.cover_threshold else None
            for x, (_, b) in zip(anchors, picks, strict=True)
        ]

        for k, step in enumerate(steps):
            j, best = picks[k]
            # The best score any segment has for this step, before ownership took
            # segments away: how close the answer came to stating it.
            raw = float(score[k].max())
            seg = segs[j]
            how = "mean(embedding cosine, term recall)" if used_embedding else "term recall"
            terms = policy_terms(step_words[k])
            # The words that write the step's quantities ("twice a year") are present
            # when the answer states those quantities in any form ("every 6 months").
            q_stated = bool(step.quantities) and all(
                stated(q, al.answer_q) for q in main_readings(step.quantities)
            )
            # A fee's noun is present when its amount is, with a cost word anywhere
            # ("a $25 late fee applies" -> "applying late costs $25").
            priced = (
                q_stated
                and any(q.startswith("money:") for q in step.quantities)
                and any(w in COST_WORDS for w in answer_words)
            )
            # "At no extra cost" is present as "free of charge", "complimentary", in
            # the segment that states the step (not "parking is free" elsewhere).
            no_cost = _nothing_charged(step_words[k]) and _nothing_charged(
                [w for at, ws, _ in al.sentences if set(at) & set(segs[j].at) for w in ws]
            )
            # "The original payment method" present as "the card you paid with".
            paid = says_paid_with and bool(ORIGINAL_PAYMENT.search(step.text.casefold()))
            present = (
                sum(
                    (paid and w in _ORIGINAL_PAYMENT_WORDS)
                    or (q_stated and _quantity_word(w))
                    or (priced and w in COST_WORDS)
                    or (no_cost and (w in COST_WORDS or w in COST_FREE_WORDS or w == "extra"))
                    or any(same_word(w, a, cfg.stem_prefix) for a in answer_words)
                    # ("the shipping line" said as the entity's own: "Maersk"; for a
                    # required step only, whose absence penalises: another sentence
                    # of the exemplar kept from "missing" is only exposed to misreads)
                    or (step.required and w in al.named)
                    for w in terms
                )
                / len(terms)
                if terms
                else 1.0
            )
            if best < cfg.cover_threshold or present < cfg.min_term_presence:
                why = (
                    f"best {how} {best:.2f} < {cfg.cover_threshold}"
                    if best < cfg.cover_threshold
                    else f"only {present:.0%} of the step's key words occur in the answer "
                    f"(< {cfg.min_term_presence:.0%})"
                )
                # A part of the step the answer says the other way, in a sentence of
                # its own that no step is matched to ("- Cash-out and transfers
                # allowed" for "... and points cannot be exchanged for cash or
                # transferred"): not left out, denied.
                apart = self._said_apart(
                    k, step, al, said_apart(), [*stated_at[:k], None, *stated_at[k + 1 :]]
                )
                out.append(
                    StepVerdict(
                        index=step.index,
                        step=step.text,
                        status="negated" if apart else "missing",
                        required=step.required,
                        matched_sentence=apart[0] if apart else None,
                        similarity=round(best, 4),
                        cue=apart[1] if apart else why,
                        # Missing is settled when what is left of the answer for the
                        # step, once the other steps took their segments, is far from
                        # it (under the band below the threshold) and no segment
                        # fitted it before they did. Open: a near miss (a step said in
                        # other words scores there), a segment another step took that
                        # fitted this one (two steps said in one sentence), the
                        # term-presence rule alone, a denial read across sentences.
                        uncertain=bool(apart)
                        or (step.required and (best >= lo or raw >= cfg.cover_threshold)),
                    )
                )
                continue
            # The sentences the other steps are assigned to: a part of this step is
            # not read in them (:meth:`_moved_part`).
            held = frozenset(x for i, x in enumerate(anchors) if i != k and x is not None)
            # The clauses of this step's sentence that other steps are matched to
            # (:meth:`_compare` does not read their negations against this step).
            taken = frozenset(
                segs[i_j].masked.strip()
                for i, (i_j, i_best) in enumerate(picks)
                if i != k
                and i_j != j
                and i_best >= cfg.cover_threshold
                and segs[i_j].kind == "clause"
                and segs[i_j].at == seg.at
            )
            status, cue, settled = self._compare(
                step,
                seg,
                step_words[k],
                sentence_words,
                answer_words,
                ref_words,
                ref.declared,
                al,
                held,
                taken,
            )
            if status == "covered":
                # (A part of the step said the other way in a sentence no step is
                # matched to, as for a missing step above.)
                apart = self._said_apart(k, step, al, said_apart(), stated_at)
                if apart:
                    status, cue, settled = "negated", apart[1], False
            if status == "covered" and not settled:
                # Covered by a borderline score: perhaps a neighbour standing in for
                # a step the answer left out.
                settled = not step.required or best >= hi
            # (Read in the whole sentence, or both of a window's: a clause of it may say
            # the rule the other way.)
            whole = (
                " ".join(text for at, _, text in al.sentences if set(at) <= set(seg.at)) or seg.text
            )
            governed = (
                _modal_object_turned(step.text, whole, self.config.stem_prefix)
                if status == "covered"
                else None
            )
            turned = _modal_turned(step.text, seg.text) if status == "covered" else None
            granted = (
                _denial_granted(step.text, whole, self.config.stem_prefix)
                if status == "covered" and not governed
                else None
            )
            if granted:
                # What the step denies, said in a clause with no negation and a word
                # that grants it ("... (VHF radio accepted too)" for "cancellations
                # cannot be made over the VHF radio"): the denial is gone. Not settled
                # (the grant is in other words), so a hybrid judge asks its LLM.
                status, settled = "negated", False
                cue = f"polarity flipped (what the step denies said as granted: '{granted}')"
            elif governed:
                # The modal governs the same words on both sides, in clauses that
                # neither restrict nor negate anything else: its polarity is the step's
                # turned ("we can take forms signed on the day" / "we cannot accept
                # consent forms signed on the day"). Not settled: what a modal governs
                # in a reworded sentence is open, so a hybrid judge asks its LLM.
                status, settled = "negated", False
                cue = f"polarity flipped (modal '{governed}' turned, what it governs kept)"
            elif turned and settled:
                # A modal the step affirms and the sentence denies (or the other way),
                # with an odd number of negations between them, where the polarity
                # rules found no flip because the denied verb is not the step's ("can
                # be transferred" / "can't be passed on"). As often a rewording ("you
                # can cancel until Friday" / "you can't cancel after Friday"): covered,
                # but not settled, so a hybrid judge asks its LLM.
                settled = False
                cue = (
                    f"{how} {best:.2f} >= {cfg.cover_threshold}; "
                    f"{turned} affirmed on one side, denied on the other"
                )
            out.append(
                StepVerdict(
                    index=step.index,
                    step=step.text,
                    status=status,
                    required=step.required,
                    matched_sentence=seg.text,
                    similarity=round(best, 4),
                    cue=cue or f"{how} {best:.2f} >= {cfg.cover_threshold}",
                    uncertain=not settled,
                )
            )
        return out

    def _apart(self, al: _Alignment) -> list[tuple[tuple[int, ...], str, int, str]]:
        """The answer's sentences, each with the part of a step it is about: (where
        it stands, its text, the step's position, the part).

        A paraphrase states a step's parts in sentences of their own ("- Reported after
        72h: still reviewed" for "Disputes raised after 72 hours cannot be reviewed,
        and a chargeback ... suspends your account"); the step is matched to one of
        them and the others go unread where no step is matched to them
        (:meth:`_said_apart`). A sentence is about the step part that fits it best, by
        the harmonic mean of the share of the part's content words the sentence has
        and the share of the sentence's that the part has (a quantity stated in any
        form, "72h", counts as one word), better than any part of another step fits it,
        where the sentence has a third of the part's words and two at least. Not a
        question ("- Code not working?"), and not a part that is the step's condition
        ("if your code stops working"): a condition restated, often as its negation, is
        no statement of the rule. At most :data:`_MAX_APART` sentences are read
        (hostile inputs stay linear)."""
        free = [(at, ws, text) for at, ws, text in al.sentences if not text.rstrip().endswith("?")]
        free = free[:_MAX_APART]
        if not free:
            return []
        p = self.config.stem_prefix
        parts = [(k, *part) for k, st in enumerate(al.ref.steps) for part in _step_parts(st.masked)]
        with_q = any(part_q for *_, part_q, _ in parts)
        vocabulary = {w for *_, need, _, _ in parts for w in need}
        out = []
        for at, ws, text in free:
            have = [w for w in content(ws) if not _quantity_word(w)]
            said_q = quantities(text) if with_q else frozenset()
            # (Which of the steps' words the sentence has, and which of them each of
            # its words is: read once for all parts.)
            found = {w for w in vocabulary if any(_same(w, h, p) for h in have)}
            is_of = [{w for w in vocabulary if _same(h, w, p)} for h in have]
            scored = []
            for k, u, need, part_q, condition in parts:
                q_found = any(stated(q, said_q) for q in part_q)
                hit = sum(w in found for w in need) + q_found
                size = len(need) + bool(part_q)
                # (How much of the sentence the part says: a short part that shares
                # two words with a sentence about another part, "Each refill visit
                # costs £38.50" / "All stations are removed at no cost at the final
                # visit", is not what it is about.)
                told = sum(not of.isdisjoint(need) for of in is_of) + q_found
                whole = len(have) + bool(said_q)
                r = hit / size if size else 0.0
                told_share = told / whole if whole else 0.0
                fit = 2 * r * told_share / (r + told_share) if r + told_share else 0.0
                scored.append((fit, r, hit, k, u, condition))
            fit, r, hit, k, u, condition = max(scored, key=lambda x: x[0])
            rival = max((x[0] for x in scored if x[3] != k), default=0.0)
            if condition or hit < 2 or r < 1 / 3 or rival >= fit:
                continue
            out.append((at, text, k, u))
        return out

    def _said_apart(
        self,
        k: int,
        step: RefStep,
        al: _Alignment,
        apart: list[tuple[tuple[int, ...], str, int, str]],
        stated_at: Sequence[int | None],
    ) -> tuple[str, str] | None:
        """(The sentence, the cue) where a sentence about a part of step ``k`` (see
        :meth:`_apart`) that no step is stated in (``stated_at``: where each step
        stands, None where it is missing) says it with a negation lost or added
        (:func:`polarity_flip`, or what the part denies said as granted,
        :func:`denial_granted`, where no other sentence says the part's "not"), or
        None. Never settled: the part is read across sentences, so a hybrid judge asks
        its LLM."""
        held = {x for x in stated_at if x is not None}
        for at, text, kk, part in apart:
            if kk != k or set(at) & held:
                continue
            part_words = tokens(part)
            if (
                not NEGATORS & set(part_words)
                and NEGATORS & set(tokens(text))
                and negation_count(step.masked) > negation_count(part)
            ):
                # A negation added where the step has one outside this part: the
                # sentence may say that one ("No answer = payment kept as credit" for
                # "...; if we hear nothing, we keep your payment as credit").
                continue
            rest = tuple(t for w, _, t in al.sentences if w != at)
            flip = polarity_flip(part, text, elsewhere=rest)
            if (
                flip is None
                and denial_granted(part, text)
                and not _denied_elsewhere(tokens(part), rest, self.config.stem_prefix)
            ):
                flip = "negation"
            if (
                flip
                and "negation" in flip.split(" + ")
                and _governed_kept(part, text, self.config.stem_prefix)
            ):
                return text, f"polarity flipped in a part said in a sentence of its own ({flip})"
        return None

    def _without_stand_ins(
        self,
        picks: list[tuple[int, float]],
        score: np.ndarray,
        segs: list[Segment],
        anchors: list[int | None],
        step_words: list[list[str]],
    ) -> list[tuple[int, float]]:
        """``picks`` (each step's segment and score) where a weakly matched step
        (under ``weak_match``) is read from the part of the answer that carries another
        step scoring ``stand_in_margin`` more: that step's segment, a segment inside
        it, or the clause of it that shares most words with that step (its words the
        weak step only borrows: "Keep the confirmation email until the final payment
        has been taken" read from "... only one final monthly payment will be taken",
        which states another step). Such a step is read from its best segment outside
        that part instead, or left under the cover threshold (missing). A clause of the
        other step's sentence that does not carry it is the weak step's own ("It never
        covers bedding plants ..." read from the clause "..., houseplants or items from
        the reduced-to-clear area" of a sentence that states the exclusions and the
        guarantee's conditions)."""
        cfg = self.config
        if len(picks) < 2:
            return picks
        out = list(picks)
        carried: dict[int, str] = {}  # (each strong step's clause, read once)
        for k, (j, best) in enumerate(picks):
            if best < cfg.cover_threshold or best >= cfg.weak_match:
                continue
            mine = segs[j].text
            taken: set[int] = set()
            for m, (jm, bm) in enumerate(picks):
                if m == k or bm < best + cfg.stand_in_margin:
                    continue
                theirs = segs[jm].text
                if m not in carried:
                    carried[m] = _carrying(step_words[m], theirs, cfg.stem_prefix)
                carrying = carried[m]
                if not (theirs in mine or (mine in theirs and _overlap(mine, carrying))):
                    continue
                # (In the other step's sentences only: the same words elsewhere in the
                # answer are another place.)
                where = set(segs[jm].at)
                taken |= {
                    i
                    for i, g in enumerate(segs)
                    if where & set(g.at) and (_overlap(g.text, carrying) or theirs in g.text)
                }
            if taken:
                row = score[k].copy()
                row[list(taken)] = 0.0
                out[k] = self._anchored(k, row, segs, anchors)
        return out

    def _anchored(
        self, k: int, row: np.ndarray, segs: list[Segment], anchors: list[int | None]
    ) -> tuple[int, float]:
        """The segment step ``k`` is read from, and its score.

        Within the step's assigned sentence (:func:`_anchors`) when that reaches the
        cover threshold: the sentence and its clauses, and the windows it forms with a
        sentence no other step holds; the score may also come from a window shared with
        another step's sentence (a step spread over both), but the step is then read
        from its own sentence. Otherwise the step's best segment anywhere, as before
        the assignment: whether a step is covered is never decided by it, only which
        words it is compared with."""
        threshold = self.config.cover_threshold
        a = anchors[k]
        if a is not None:
            held = {x for i, x in enumerate(anchors) if i != k and x is not None and x != a}
            near = [j for j, g in enumerate(segs) if a in g.at]
            own = [j for j in near if not held.intersection(segs[j].at)]
            top = max(float(row[j]) for j in near)
            if own and top >= threshold:
                mine = np.full(len(segs), -1.0)
                mine[own] = row[own]
                j = self._best(mine, segs, min(threshold, float(mine.max())))
                # The chosen segment's score, as without the assignment; the shared
                # window's where the step's own sentence alone falls short.
                return j, float(row[j]) if row[j] >= threshold else top
        j = self._best(row, segs, threshold)
        return j, float(row[j])

    def _best(self, row: np.ndarray, segs: list[Segment], threshold: float) -> int:
        # Prefer the tightest segment (clause < sentence < window) that still covers
        # the step, so that polarity is read from the clause that carries it.
        top = float(row.max())
        rank = {"clause": 0, "sentence": 1, "window": 2}
        margin = self.config.tie_margin
        cands = [j for j in range(len(segs)) if row[j] >= max(threshold, top - margin)]
        if not cands:
            return int(row.argmax())
        return min(cands, key=lambda j: (rank[segs[j].kind], -row[j]))

    def _unit_flip(
        self, step: str, sw: list[str], full: str, kind: str, others: list[_Words]
    ) -> bool:
        """Whether the flip is also there at the level of the parts: each clause of
        a multi-clause step against the answer clause that states it (a step "pay
        before approval and it is not refundable" is two rules, each with its own
        polarity), else the whole step against the part of the answer that carries
        it. Negation scopes are looked up in the whole sentence."""
        p = self.config.stem_prefix
        parts = _parts(step)
        units = _clauses(full)
        if len(parts) > 1 and len(units) > 1:
            # (Which clause states a part is read past a negative prefix: the clause
            # that turned "non-refundable" into "can be refunded" states that part.)
            unit_words = [_unprefixed(tokens(u)) for u in units]
            recall = [
                [_recall(pw, uw, p) for uw in unit_words]
                for pw in (_unprefixed(tokens(part)) for part in parts)
            ]
            best = [max(zip(r, units, strict=True)) for r in recall]
            taken = {u for _, u in best}
            # As many parts as clauses, each clause the best of its own part but one,
            # left to the part no clause fits well: that part is read from it when
            # they share a word ("..., and you cannot choose a delivery date" ->
            # "..., and you can pick the delivery day").
            pairs = _one_each(recall, units) if len(parts) == len(units) else None
            weak = False
            for k, (part, (rec, own)) in enumerate(zip(parts, best, strict=True)):
                unit = own
                if rec < 0.5 and pairs is not None and pairs[k][0] > 0:
                    unit = pairs[k][1]
                elif rec < 0.5:
                    # A negated part whose words the sentence still states, split
                    # from its clause.
                    weak = weak or (
                        polarity(part) == 1 and _recall(tokens(part), tokens(full), p) >= 0.5
                    )
                    continue
                if polarity_flip(part, unit, context=full):
                    return True
                # The part's condition and its outcome split into two clauses ("cancel
                # 14 days ahead and nothing is refunded"): the clause's siblings that
                # share a word with this part and state no other part.
                pc = content(tokens(part))
                more = [
                    u
                    for u in units
                    if u not in taken
                    and any(same_word(w, x, p) for w in pc for x in content(tokens(u)))
                ]
                more = [u for u in more if u != unit]  # the clause left over, once
                if more and polarity_flip(part, " ".join([unit, *more]), context=full):
                    return True
            # A negated part no clause states well, though the sentence has its words:
            # the clause split cut it (a list after the negated verb, "does not cover
            # misuse, power surges or repairs" -> "Also covered: misuse, power-surge
            # damage, repairs"). Read the step against the part of the sentence that
            # carries it.
            if weak:
                unit = self._polarity_unit(sw, full, kind)
                return polarity_flip(step, unit, context=full) is not None
            return False
        if len(parts) > 1 and kind != "window":
            # A step of several parts against a sentence of one clause, where another
            # sentence of the answer states a part this one does not: that part is
            # read there, not flipped here ("Refunds go to your card within 14 days;
            # the collection fee is not refunded" -> "Refunds reach your card within
            # 14 days. The collection fee stays with us."). The parts this sentence
            # states are each read against it.
            here = tokens(full)
            elsewhere = [part for part in parts if _stated_elsewhere(tokens(part), here, others, p)]
            if elsewhere:
                said = [
                    part
                    for part in parts
                    if part not in elsewhere and _recall(tokens(part), here, p) > 0.5
                ]
                return any(polarity_flip(part, full) for part in said) or any(
                    polarity_flip(part, _best_home(tokens(part), others, p)[1])
                    for part in elsewhere
                )
        return polarity_flip(step, self._polarity_unit(sw, full, kind), context=full) is not None

    def _part_flip(self, step: str, full: str) -> str | None:
        """The negation one part of a multi-clause step has and the clause of the
        sentence that states it lost, when the sentence read whole shows no flip: each
        part paired with the one clause it shares most words with, no two parts the
        same, and exactly one such part; or, where the sentence has another number of
        clauses, the one part it states (:meth:`_stated_part`) against all of it."""
        p = self.config.stem_prefix
        parts = _parts(step)
        if len(parts) < 2:
            return None  # most steps: the sentence is not split again
        units = _clauses(full)
        if len(units) == len(parts):
            recall = [[_recall(tokens(part), tokens(u), p) for u in units] for part in parts]
            own = [max(range(len(units)), key=r.__getitem__) for r in recall]
            if len(set(own)) != len(own) or any(
                sorted(r)[-1] == 0 or sorted(r)[-1] == sorted(r)[-2] for r in recall
            ):
                return None  # no part has a clause of its own
            pairs = [(part, units[j]) for part, j in zip(parts, own, strict=True)]
        else:
            one = self._stated_part(step, full)
            if one is None:
                return None
            pairs = [(one, full)]
        # A negation word only: a modal or an antonym read on a clause cut from its
        # sentence ("can only return with a note" / "a note is needed before they may
        # return") is too often the other clause's. And a negation the step's part has
        # and its clause lost ("cannot be changed" -> "can still change it"), in one part
        # only: a negation a clause adds is as often a rewording ("any lock left on" ->
        # "a lock that is not removed").
        lost = []
        head = _HEAD.match(full)
        for part, unit in pairs:
            flip = polarity_flip(part, unit, context=full)
            # (What the part denies, granted in other words, where the clause states
            # the part, three fifths of its words there.)
            if (
                flip is None
                and _recall(tokens(part), tokens(unit), p) >= 0.6
                and denial_granted(part, unit)
            ):
                flip = "negation"
            if not (flip and "negation" in flip.split(" + ")):
                continue
            # (Each side's negations counted once: their parity is its polarity.)
            n_part, n_unit = negation_count(part), negation_count(unit)
            if (
                (
                    (n_part % 2 == 1 and n_unit % 2 == 0)
                    # One negation of several lost, the others kept ("we cannot
                    # settle your claim without one" -> "we can settle your claim
                    # without one").
                    or n_part == n_unit + 1 >= 2
                )
                # A negator or "free", not only "waive" said another way ("we can
                # waive it once a year" / "we can let it go once a year").
                and any(w in NEGATORS or w == "free" for w in tokens(part))
                # Not a negation another clause of the sentence says, one whose own
                # part does not ("move it free of charge up to 24 hours before, using
                # the link" / "it may be moved free of charge via the link, provided
                # this is done no later than 24 hours before": "free" went to the
                # clause with the link).
                and not _negation_moved(part, unit, pairs)
                # A heading the sentence's list stands under says it for every item
                # ("What we don't cover: wear and tear, ..., damage from ...";
                # "Excluded: ...").
                and not (head and polarity_flip(part, f"{head.group(1)} {unit}") is None)
            ):
                lost.append(flip)
        return lost[0] if len(lost) == 1 else None

    def _in_place(self, step: str, gone: set[str], replaced: set[str], full: str) -> bool:
        """Whether the clause of ``full`` with a ``replaced`` quantity states the part of
        the step whose quantity is ``gone``, half of its words beside the quantities:
        "report the fault within 48 hours of the session" for "report the fault within
        14 days of the session"; not a detail added beside another part ("we inspect
        returns within 24 hours" for "refunds are issued within 5 days")."""
        p = self.config.stem_prefix
        parts = [pt for pt in _parts(step) if any(stated(g, quantities(pt)) for g in gone)]
        need = [
            w
            for pt in parts or [step]
            for w in content(tokens(pt))
            if not _quantity_word(w) and w not in ("<value>", "value")
        ]
        if not need:
            return False
        units = [u for u in _parts(full) if any(stated(r, quantities(u)) for r in replaced)]
        return any(_recall(need, tokens(u), p) >= 0.5 for u in units or [full])

    def _stated_part(self, step: str, full: str, alone: bool = False) -> str | None:
        """The one part of a multi-part step a sentence states, clearly: half of that
        part's words, twice as many as of any other part ("- 10 pm to 7 am: idle fees
        still apply" for "Idle fees are not charged between 10 pm and 7 am, and they
        cannot be waived ..."). Parts of three content words or more: "between 10 pm
        and 7 am" is cut into "... between 10 pm" and "7 am". ``alone``: and no word
        of the other parts that this part lacks (not "..., and please feel free to
        throw out the misprinted shirts" for "upload 3 photos ..., and keep every
        misprinted item ...")."""
        whole = [part for part in _parts(step) if len(content(tokens(part))) >= 3]
        if len(whole) < 2:
            return None
        p = self.config.stem_prefix
        r = [_recall(tokens(part), tokens(full), p) for part in whole]
        best = max(range(len(whole)), key=r.__getitem__)
        if r[best] < 0.5 or any(2 * x > r[best] for k, x in enumerate(r) if k != best):
            return None
        if alone:
            own = content(tokens(whole[best]))
            rest = {
                w
                for k, part in enumerate(whole)
                if k != best
                for w in content(tokens(part))
                if not w[:1].isdigit() and not any(same_word(w, x, p) for x in own)
            }
            said = content(tokens(full))
            if any(same_word(w, x, p) for w in rest for x in said):
                return None
        return whole[best]

    def _term_elsewhere(self, step: str, term: str, gw: list[str], others: list[_Words]) -> bool:
        """Whether the part of a multi-clause ``step`` that holds the declared
        ``term`` is stated by another sentence of the answer (``others``) and not by
        this one (``gw``): this sentence states another part of the step ("we'll pay
        up to ten times the cleaning price" for "... up to 10 times the cleaning price,
        capped at $250", the cap in a bullet of its own), so it does not judge the
        term. A part no other sentence states is judged here: a term replaced with
        the whole of its clause ("call a vet straight away" -> "wait a day") leaves
        none of that clause's words."""
        parts = _parts(step)
        if len(parts) < 2:
            return False
        own = [tokens(c) for c in parts if term.casefold() in c.casefold()]
        p = self.config.stem_prefix
        return bool(own) and all(_stated_elsewhere(c, gw, others, p) for c in own)

    def _polarity_unit(self, sw: list[str], full: str, kind: str) -> str:
        """The part of a sentence/window that carries the step: its best-matching
        sentence (window) or clause (sentence)."""
        units = [s.text for s in split_sentences(full)] if kind == "window" else _clauses(full)
        if len(units) < 2:
            return full
        p = self.config.stem_prefix
        need = content(sw)
        # Clauses that share no content word with the step belong to another step
        # ("..., but not on domestic flights"): leave them out.
        related = [u for u in units if not _negates_apart(u, need, p)]
        whole = full
        if kind != "window" and related and len(related) < len(units):
            apart = [u for u in units if u not in related]
            units = [" ".join(related), *related]
            # (Read whole, only clauses that state something of their own stay out: a
            # bare refusal, "As for bike boxes on the ferry, I'm afraid we can't", says
            # its "no" to this step.)
            if all(len(set(content(tokens(u))) - _HEDGES) >= 2 for u in apart):
                whole = units[0]
        scored = [(_recall(sw, tokens(u), p), -len(u), u) for u in units]
        best = max(scored)
        # A step spread over several clauses is read whole: all of its clauses, not
        # the ones left out above ("If the skip goes on the street you'll need a
        # permit; if it sits on your own driveway you won't" for "A permit is
        # required for skips placed on the road": the "won't" is the other step's).
        if best[0] < 0.5:
            return whole
        return best[2]

    def _with_related(self, sw: list[str], seg: Segment, segs: list[Segment]) -> str:
        """A clause's text with the other clauses of its sentence that share a content
        word with the step: a step of two parts ("urgent repairs within 24 hours and
        routine ones within 28 days") is often read from the clause of one part, and
        the quantities of the other part sit in a sibling clause ("... and within six
        months for routine ones")."""
        if seg.kind != "clause":
            return seg.text
        sentence = next((g.text for g in segs if g.kind == "sentence" and g.at == seg.at), None)
        if sentence is None:
            return seg.text
        p = self.config.stem_prefix
        need = content(sw)
        parts = [
            u
            for u in split_clauses(sentence)
            if u.strip() == seg.text.strip()
            or any(same_word(w, x, p) for w in need for x in content(tokens(u)))
        ]
        return " ".join(parts) if parts else seg.text

    def _compare(
        self,
        step: RefStep,
        seg: Segment,
        sw: list[str],
        sentence_words: list[str],
        answer_words: list[str],
        ref_words: list[str],
        declared: tuple[str, ...],
        al: _Alignment,
        held: frozenset[int] = frozenset(),
        taken: frozenset[str] = frozenset(),
    ) -> tuple[StepStatusT, str, bool]:
        """``covered`` unless there is positive evidence of a changed meaning: a
        flipped polarity, a changed quantity, a declared policy term replaced, or a
        local substitution of a policy noun (see :func:`_substitution`). A reworded
        step without such evidence is a paraphrase.

        The third value says whether the verdict is settled by what it rests on:
        a negation word in a sentence that keeps the step's words, a changed
        quantity or count, a verbatim step. A negation in a reworded sentence, a
        modal or antonym flip, a declared term whose words are gone, a noun swap,
        and a covered step without a verbatim match are not settled (``uncertain``):
        the words changed, whether the meaning did is open."""
        p = self.config.stem_prefix
        full = seg.sentence or seg.masked
        # A clause of this sentence that another step stands on is that step's: its
        # negation is not read against this one ("alterations after sign-off are charged
        # at £38 an hour; those before sign-off are free of charge" states two steps,
        # and the "free" is the second's). Only a clause that negates is left out: the
        # rest of the sentence still says what the step's negation bears on. (Read for
        # polarity only; quantities and terms are read in the whole sentence.)
        polar = full  # (the sentence as its polarity is read)
        if taken and seg.kind != "window":
            polar = _without_taken(al.sentences, seg.at, al.values, taken, seg.masked) or full
        # Polarity is read on the whole sentence (or window) and on the part of
        # it that carries the step; both must disagree with the step, so that a
        # negation elsewhere in the sentence, or a clause cut off from its
        # negation, is not taken for a flipped step.
        # The answer's other sentences, where a part of the step may be stated.
        # (Unmasked: a declared term's amount is compared as written, "capped at $150"
        # / "Payout limit: $150".)
        others = [(ws, text) for at, ws, text in al.sentences if at[0] not in seg.at]
        # A negation of the step this sentence lacks may be stated in another one ("No
        # cancellation fee applies. However, ..."): that is no flip here.
        # (A condition that negates what the clause before it said, "..., and if we
        # can't, ...", negates no statement of its own: read without it, so that it
        # neither flips the step nor cancels a negation the clause before has.)
        # (Not where the step's own condition is an "unless": "if you don't" is that
        # condition, "if you give permission, they come straight in; if you don't,
        # they'll give you 24 hours' notice" for "Unless you give permission, ...".)
        if (
            _ELLIPTIC_IF_NOT.search(polar)
            and not _ELLIPTIC_IF_NOT.search(step.masked)
            and not HAS_EXCEPTION.search(step.masked)
        ):
            polar = _ELLIPTIC_IF_NOT.sub(" ", polar)
        flip = polarity_flip(step.masked, polar, elsewhere=tuple(text for _, text in others))
        if flip is not None and _zero_said_as_none(step.masked, seg.text, al.values):
            flip = None
        if flip is not None and seg.kind != "window":
            # A sentence that states one part of the step is read against that part
            # alone: the negations of the parts it leaves out count for nothing ("- 6
            # pm to 8 am: no parking fees" for "Parking fees are not charged between 6
            # pm and 8 am, and they cannot be refunded ...").
            one = self._stated_part(step.masked, polar, alone=True)
            if one is not None and polarity_flip(one, polar) is None:
                flip = None
        if flip is None and seg.kind != "window":
            # A negation in another clause of the sentence that says nothing of the step
            # does not cancel the step's own ("socks and bare feet are permitted on the
            # trampolines, and late arrivals get neither extra time nor a refund" for
            # "... are not allowed on the trampolines"): the sentence is read again
            # without its clauses that negate and share no content word with the step.
            # (A clause of its own: four content words or more, not a cost, not one that
            # goes on from the one before, "nor workshop time booked", "then at no cost",
            # nor a condition, "if you'd rather not go ahead" for "if you decline".)
            need = [w for w in content(sw) if not _quantity_word(w)]
            units = _clauses(polar)

            def apart(u: str) -> bool:
                ws = tokens(u)
                said = content(ws)
                has = set(ws)
                return (
                    bool(NEGATORS & has)
                    and len(said) >= 4
                    and not (has & (COST_WORDS | COST_FREE_WORDS | {"cost"}))
                    and not (set(ws[:1]) & _NOT_APART)
                    # (Nor a prohibition, as likely the step's own in other words:
                    # "animals can't go in shared sleeping areas" for "pets are not
                    # allowed in the dorms".)
                    and not (has & _PROHIBITING)
                    and _negates_apart(u, need, p)
                )

            related = [u for u in units if not apart(u)]
            if related and len(related) < len(units):
                # (The clause that states the step shows the flip too.)
                alone = polarity_flip(step.masked, " ".join(related))
                own = polarity_flip(step.masked, seg.masked) if seg.masked != polar else alone
                if (
                    alone
                    and own
                    and "negation" in alone.split(" + ")
                    and "negation" in own.split(" + ")
                ):
                    return "negated", f"polarity flipped beside another clause ({alone})", False
        if flip is None and seg.kind != "window":
            # Two flips in one sentence cancel when read whole ("the booking cannot
            # be changed, and no-shows lose the deposit" -> "you can still change
            # it, and no-shows lose the deposit"): each part against its own clause.
            part = self._part_flip(step.masked, polar)
            if part:
                return "negated", f"polarity flipped in a part ({part})", False
        if flip and self._unit_flip(step.masked, sw, polar, seg.kind, others):
            # A negation word settles the flip where the sentence keeps the step's
            # words ("are not refunded" for "are refunded"): the negation governs the
            # step. In a sentence that rewords the step ("no reply = removed" for
            # "confirm ... or the application is removed") what the negation governs
            # is open, as it is for a modal or an antonym.
            fw = tokens(polar)  # (``sw`` is the step's: tokens(step.masked))
            settled = (
                "negation" in flip.split(" + ")
                and _recall(sw, fw, p) >= self.config.lexical_sure
                and _negation_in_place(sw, fw)
            )
            return "negated", f"polarity flipped ({flip})", settled
        # Quantities compare in canonical form ("14 days" = "two weeks"): one the
        # step states that the answer states nowhere, replaced by another here.
        # Evidence needs a lost and a new quantity in conflict (see conflict(): two of
        # one kind, or a bare number that is no reading of the lost one): a duration
        # lost and a percentage new is more likely a way of writing the duration this
        # module does not read than a changed policy.
        step_q, answer_q = step.quantities, al.answer_q
        near = self._with_related(sw, seg, al.segs)
        seg_q = quantities(mask_known(near, al.values))
        step_main = main_readings(step_q)
        # (A count both write as "once" or "twice" is not lost: "only once in any 12
        # months" reads a count of 1 that "max once per 12 months" does not.)
        written = _times_written(al.answer_known) & _times_written(step.masked)
        lost_q = {
            q
            for q in step_main
            if not _said(q, step_q, answer_q) and not (q.startswith("n:") and _value(q) in written)
        }

        # (A time the step writes without am or pm is either, "at 2:30" is no new time
        # against "by 2:30 pm", nor the other way; a fraction states its rounding.)
        step_any = step_main | _other_readings(step_q)

        def new_in(qs: frozenset[str]) -> set[str]:
            return {q for q in main_readings(qs) if not stated(q, step_any)}

        # A bare number that is a reading of one of the step's quantities writes that
        # quantity in a way not read here ("24+ hours", "Day 30: lien notice"); it is
        # no new quantity against the step's others ("in full").
        def fresh(qs: frozenset[str], of: set[str] | frozenset[str]) -> set[str]:
            return {
                q
                for q in new_in(qs)
                if not (q.startswith("n:") and any(not conflict(a, q) for a in of))
            }

        new_q = fresh(seg_q, step_main)
        if (
            lost_q
            and seg.kind == "clause"
            and not any(conflict(a, b) for a in lost_q for b in new_q)
        ):
            # A step of two parts read from the clause of one: the other part's
            # quantity may sit in a sibling clause that shares no word with the step
            # ("Guests must be 18 or older, and ... twice a month" -> "They have to be
            # 14 or over, and one person can come twice a month").
            # (A bare number there that reads a lost quantity is that quantity: "8 till
            # 12" for "8 am to 12 pm".)
            new_q |= fresh(quantities(mask_known(full, al.values)), lost_q)
        # A bare number the exemplar states itself, in another step, is that step's
        # where it is not in the clause that states this one ("pushed by up to three
        # stops, at £10 per roll for each stop" for "£10 per roll for each stop, so two
        # stops add £20"), no new count here ("you can book up to 10 make-up lessons"
        # for "up to 2", the exemplar's course being "10 weekly lessons", is one).
        if any(q.startswith("n:") for q in new_q):
            own_q = quantities(mask_known(seg.masked, al.values))
            new_q = {
                q
                for q in new_q
                if not (
                    q.startswith("n:") and stated(q, al.ref.quantities) and not stated(q, own_q)
                )
            }
        # "Children under 8" said as "children aged 7 or under": no quantity is lost.
        shifted = bool(lost_q) and _same_bound(
            step.known or step.masked, mask_known(full, al.values)
        )
        if not shifted and any(conflict(a, b) for a in lost_q for b in new_q):
            return (
                "altered",
                f"quantity changed: {_changed(lost_q, new_q)}",
                True,
            )
        if lost_q and not shifted:
            # The part of the step with the quantity stated in a sentence of its own
            # ("... choose Cancel plan, or telephone us." + "Plans may be cancelled
            # subject to 90 days' notice." for "..., or call us, giving 30 days'
            # notice"): a quantity new to the whole exemplar, in conflict with the lost
            # one, in a sentence that shares a policy word with the step.
            step_terms = policy_terms(sw)
            for ws, text in others:
                if not any(same_word(w, x, p) for w in step_terms for x in content(ws)):
                    continue
                # Spans, periods, percentages and times only: not a bare number (an
                # identifier is no quantity) nor money (an entity's own price or balance
                # the context does not hold is as likely there).
                moved = {
                    q
                    for q in fresh(quantities(mask_known(text, al.values)), lost_q)
                    if _movable(q) and not _span_stated(q, al.ref.quantities)
                }
                if any(conflict(a, b) for a in lost_q if _movable(a) for b in moved):
                    return (
                        "altered",
                        f"quantity changed: {_changed(lost_q, moved)} (in another sentence)",
                        True,
                    )
        # A step quantity replaced here by one new to the whole exemplar, though the
        # answer states the old one in another sentence about another step ("report
        # it within 48 hours of the session" for "within 14 days of the session", the
        # answer's last sentence on late claims saying "more than fourteen days").
        # Spans, periods, percentages and times only (see _movable).
        here_q = seg_q | quantities(mask_known(full, al.values))
        gone = {q for q in step_main - lost_q if _movable(q) and not stated(q, here_q)}
        if shifted:
            gone = set()
        if gone:
            # (Not where the step holds an instance value of that kind, "your delay of
            # {delayMinutes} minutes": the new quantity may be this instance's.)
            slots = {q for q in _slot_quantities(step.known, step_main) if _movable(q)}
            replaced = {
                q
                for q in fresh(seg_q, gone)
                if _movable(q) and not _span_stated(q, al.ref.quantities)
            }
            if (
                any(conflict(a, b) for a in gone for b in replaced)
                and not any(conflict(v, b) for v in slots for b in replaced)
                and self._in_place(step.known, gone, replaced, mask_known(full, al.values))
            ):
                return (
                    "altered",
                    f"quantity changed: {_changed(gone, replaced)}",
                    True,
                )
        # The step word for word but for the number of one quantity ("the minimum age
        # is 12" -> "is 10", "cancel with 1 month's notice" -> "3 months' notice"): a
        # quantity changed in place, even where the exemplar states the new one
        # elsewhere, which the rules above leave open because a paraphrase may move
        # quantities between its sentences. One that keeps every other word moved none.
        # (The one span the sentence replaces in the step, read once for the rules
        # below that ask for it.)
        gw = tokens(full)
        span = _replaced_span(sw, gw)
        if not shifted and _number_span(span):
            # (Read on the whole texts, where each quantity is written in full: "10pm"
            # / "22:00" is one time.)
            mine_q = quantities(step.known or step.masked)
            theirs_q = quantities(mask_known(full, al.values))
            mine, theirs = main_readings(mine_q), main_readings(theirs_q)
            lost_here = {
                q for q in mine if not _said(q, mine_q, theirs | _other_readings(theirs_q))
            }
            new_here = {q for q in theirs if not stated(q, mine | _other_readings(mine_q))}
            # (A bare number that is a reading of a lost quantity writes it: "8.30-5"
            # for "08:30 to 17:00".)
            new_here = {
                q
                for q in new_here
                if not (q.startswith("n:") and any(not conflict(a, q) for a in lost_here))
            }
            if lost_here and new_here and any(conflict(a, b) for a in lost_here for b in new_here):
                return (
                    "altered",
                    f"quantity changed in place: {_changed(lost_here, new_here)}",
                    True,
                )
            # The new number is one the step states elsewhere ("... in 12 months, ...
            # for the next 3 months" -> "for the next 12 months"; "under 16 ... aged
            # 18 or over" -> "aged 16 or over"): read on the replaced span itself.
            said = _span_quantities(span)
            if lost_here and said is not None:
                old_q, new_q_here = said
                if any(conflict(a, b) for a in old_q for b in new_q_here) and not any(
                    stated(a, new_q_here) for a in old_q
                ):
                    return (
                        "altered",
                        f"quantity changed in place: {_changed(old_q, new_q_here)}",
                        True,
                    )
        # A quantity replaced where the step had it, what it measures kept around it.
        if not shifted:
            slots_q = _slot_quantities(step.known, step_main)
            as_said = step.known or step.masked
            moved_q = _anchored_change(as_said, mask_known(full, al.values), p, slots_q, answer_q)
            if moved_q is not None:
                return (
                    "altered",
                    f"quantity changed at its place: {_changed({moved_q[0]}, {moved_q[1]})}",
                    True,
                )
            # ... or in a sentence no step is aligned with, where a paraphrase put that
            # part of the step ("- Injections (e.g. insulin): £10/dose" for "..., and
            # injections such as insulin at £3 per dose", the step aligned with the
            # line before): the step's quantity stated nowhere in the answer.
            for at, _, text in al.sentences:
                if set(at) & (held | set(seg.at)) or not _NUMBER_MENTION.search(text):
                    continue
                moved_q = _anchored_change(as_said, mask_known(text, al.values), p, slots_q)
                if moved_q is not None and not _said(moved_q[0], step_q, answer_q):
                    return (
                        "altered",
                        "quantity changed at its place in another sentence: "
                        f"{_changed({moved_q[0]}, {moved_q[1]})}",
                        True,
                    )
        turned = _bound_reversed(step.masked, full)
        if (
            not turned
            and _AGED_N.search(full)
            and (aged := frozenset(_AGED_N.findall(step.masked)))
        ):
            # An age bounds a bare number ("an adult aged 18 or over" -> "someone aged
            # 18 or under"), read where both texts say "aged".
            turned = _bound_reversed(step.masked, full, units=False, only=aged)
        if turned:
            # A bound turned with the polarity is the rule said from the other side of
            # its threshold ("more than 30 minutes late are charged" / "up to 30
            # minutes late: no charge"); a bound turned alone is a changed rule.
            one = self._stated_part(step.masked, full, alone=True) or step.masked
            if not (
                polarity_flip(one, full, sides=False) is not None
                and polarity_flip(one, full) is None
            ):
                return "altered", f"bound reversed: {turned}", False
        if contains_run(gw, sw):
            return "covered", "the step is stated verbatim (entity values aside)", True
        # The step word for word but for one comparison or order word turned the
        # other way ("whichever is lower" -> "whichever is higher", "before the
        # visit" -> "after the visit", "the first payment" -> "the last payment").
        turned_word = _opposite_span(span)
        if turned_word and not (
            # ("lasts 12 months before it is renewed" / ", after which it is renewed")
            set(turned_word.split(" -> ")) == {"before", "after"} and anaphoric_after(sw, gw)
        ):
            return "altered", f"comparison or order turned: {turned_word}", True
        # The step word for word but for one span, where a quantity the answer states
        # nowhere stood ("a freeze fee of $5 per month" -> "of your full monthly
        # fee", "closes 24 hours before doors open" -> "closes when the event
        # starts"): the rest held fixed, the span was changed on purpose.
        # A zero amount said in words ("$0" -> "nothing", "no fee") is no swap.
        priced_q = {
            q for q in lost_q if not shifted and not (q.startswith("money:") and _ZERO.search(q))
        }
        swapped = _one_span(span) if priced_q else None
        if swapped:
            return (
                "altered",
                f"quantity replaced: {', '.join(sorted(priced_q))} -> {swapped}",
                False,
            )
        # The same noun counted differently here ("one guest" -> "three guests").
        seg_n = counted_nouns(mask_known(seg.text, al.values))
        # (Counts the step and the sentence both state, each counting the noun in one
        # of them, are counts moved by a coordination: "at least 10 skaters and no more
        # than 60" / "a minimum of 10 and a maximum of 60 skaters".)
        # (Not a count another noun has in either text: "10 books and 4 DVDs" -> "4
        # books and 10 DVDs" swaps them.)
        step_n = counted_nouns(step.known or step.masked)
        step_written = {_number_value(w) for w in tokens(step.known or step.masked)}
        seg_written = {_number_value(w) for w in tokens(mask_known(seg.text, al.values))}
        for noun, counts in step_n.items():
            free_step = step_written - {v for k, vs in step_n.items() if k != noun for v in vs}
            free_seg = seg_written - {v for k, vs in seg_n.items() if k != noun for v in vs}
            if (
                seg_n.get(noun)
                and not seg_n[noun] & counts
                and not (seg_n[noun] <= free_step and counts <= free_seg)
                and not _same_bound(step.known or step.masked, mask_known(seg.text, al.values))
            ):
                was, now = sorted(counts), sorted(seg_n[noun])
                return "altered", f"count changed: {noun} {was} -> {now}", True
        # A declared policy term of this step whose words the answer has lost, with
        # new policy words in their place.
        # "Free" and "waived" are kept when the sentence says that nothing is charged
        # in other words ("it costs nothing", "pay no fee", "$0"), keeps the step's
        # polarity (the polarity rule judges those words) and states no other amount
        # ("pay a fee of $5; nothing else is needed" is no rewording of "waived").
        zero = {q for q in seg_q if q.startswith("money:") and _ZERO.search(q)}
        no_cost = (
            bool(declared)
            and flip is None
            and (bool(_NO_COST.search(" ".join(gw))) or bool(zero))
            and not any(q.startswith("money:") and q not in zero for q in seg_q)
        )
        if declared and flip is None and not no_cost and seg.kind != "window":
            # Said in a clause of its own that states no amount, beside a clause on
            # another fee ("move it at no cost in the app, as long as it's 48 hours
            # before - after that a £30 late change fee applies").
            no_cost = any(
                _NO_COST.search(" ".join(tokens(u)))
                # (Masked: an amount is a "<money>" slot here.)
                and "<money>" not in u
                and not any(q.startswith("money:") for q in quantities(u))
                for u in _clauses(seg.sentence or seg.masked)
            )
        plain_words = next((ws for at, ws, _ in al.sentences if at == seg.at), None)
        if plain_words is None:
            plain_words = tokens(seg.text)  # a window: both its sentences
        step_numbers: set[float] | None = None
        for term in declared:
            if term.casefold() not in step.text.casefold():
                continue
            term_words = tokens(term)
            # (Not a letter glued to a number: "under-16s" is "under", "16", "s".)
            keys = [w for w in content(term_words) if not w[:1].isdigit() and len(w) > 1]
            term_numbers = frozenset(w for w in term_words if w[:1].isdigit())
            if self._term_elsewhere(step.text, term, plain_words, others):
                continue
            # A declared bound turned the other way on its own number ("no more than 20
            # kg" -> "at least 20 kg"; an age group without a unit, "under-12s" -> "over
            # 12"; not a count, which is as often said from its other side: "at most 5
            # seats" / "remove seats above 5"). Read in the step, where a negator before
            # the term turns it: "cannot be longer than 8 weeks" is a maximum.
            turned = (
                _bound_reversed(
                    step.text, full, units=not _AGE_GROUP.search(term), only=term_numbers
                )
                if term_numbers
                else None
            )
            if turned:
                return "altered", f"declared policy term bound reversed: {term}: {turned}", False
            if not keys:
                continue
            if flip is None and len(keys) <= 2 and any(w in NEGATORS for w in term_words):
                # A negated term ("not accepted", "not presented") is a rule. Kept when
                # the sentence negates too, in its own words ("we can't waive it",
                # "they won't come back"); lost when nothing in it negates or restricts
                # ("we happily take cash"): the polarity rule did not see that, as the
                # words the negation governed were reworded. (Read in the sentence: a
                # paraphrase often puts the negation in a clause of its own, "..., and
                # there's nowhere to leave it".)
                if any(w in NEGATORS or w in _RESTRICTING for w in gw):
                    continue
                # A term that says nothing is charged, said as "free" ("at no extra
                # charge" -> "free of charge").
                # (Read in the clause that says it, when a cost of something else
                # stands beside it: "towels are free of charge, but the robe costs
                # extra"; not "towels cost extra, but the sauna is free".)
                if any(w in COST_WORDS for w in term_words) and _said_free(
                    gw, content(tokens(step.masked))
                ):
                    continue
                if _bound_kept(term, full, seg_q, step.text):
                    continue
                if _said_free_of(term_words, gw, step.text):
                    continue
                # (The answer's sentences no step holds, where the term's clause may
                # be said in few words: "- Week two onwards: nothing".)
                free = [ws for at, ws, _ in al.sentences if not set(at) & (held | set(seg.at))]
                if _about_term(step.masked, term, gw, p, free):
                    return "negated", f"declared negated term lost its negation: {term}", False
            if ORIGINAL_PAYMENT.search(term.casefold()) and paid_with(" ".join(gw)):
                continue  # "original payment method" = "the card you paid with"
            if _idiom_kept(term, gw):
                continue  # "whichever comes first" = "if that's sooner"
            term_q = quantities(term)
            # The term's quantity stated in canonical form ("within 14 days" = "in the
            # next two weeks"): its unit, number and bound words are kept, however
            # written (the quantity rule compares them).
            stated_q = bool(term_q) and all(stated(q, answer_q) for q in main_readings(term_q))
            # The words around the term's number in the sentence that states its
            # quantity (of a window's two, the one that does; as written, not masked),
            # and the bounds they say, as they point: "at least £300 and won't exceed
            # £600" bounds £300 from below.
            by_number = (
                _near_number(
                    next(
                        (
                            ws
                            for at, ws, text in al.sentences
                            if set(at) <= set(seg.at)
                            and all(stated(q, quantities(text)) for q in main_readings(term_q))
                        ),
                        gw,
                    ),
                    term_numbers,
                )
                if stated_q
                else gw
            )
            said_bounds, phrased = (
                _bounds_said(by_number) if stated_q else (frozenset(), frozenset())
            )
            ways = {way for k in term_words for way, ws in _TERM_WAYS.items() if k in ws}
            # The term's own quantity with its price change turned the other way ("a
            # 20% surcharge" -> "20% less"): however its other words are kept, the
            # term is not. (Read beside the term's number; and not a term's bound word,
            # "15% more", "less than a day".)
            if stated_q and _opposite_way(
                [w for w in term_words if w not in _BOUND_WORDS], by_number
            ):
                return "altered", f"declared policy term turned: {term}", False
            # A verb around a quantity this sentence states is reworded freely ("the
            # charge is reduced by 50%" -> "50% off", "a fifty per cent reduction").
            verb_free = (
                bool(term_q)
                and all(stated(q, seg_q) for q in main_readings(term_q))
                and not _opposite_way(term_words, gw)
            )
            # A fee whose amount the answer states, with a cost word in the sentence
            # ("a $40 late fee" -> "it costs $40", "you pay $40").
            priced = (
                stated_q
                and any(q.startswith("money:") for q in term_q)
                and any(w in COST_WORDS or w == "extra" for w in gw)
            )
            # A declared term's words are kept as written or in their own family
            # ("refund" / "refundable"), not by a shared stem alone: "applicant portal"
            # is not kept by "your application".
            kept = sum(
                (stated_q and _quantity_word(w))
                # (A bound word said in another of its way: "capped" / "maximum".)
                or (stated_q and any(w in ws and said_bounds & ws for ws in _BOUND_WAYS.values()))
                or (verb_free and w in COMMON_VERBS)
                or (no_cost and w in COST_FREE_WORDS)
                # ("free of charge once" / "one date change is free": a term that says
                # nothing is charged keeps its cost word, and "once" is one.)
                or (no_cost and w in COST_WORDS and bool(set(term_words) & COST_FREE_WORDS))
                or (w == "once" and bool({"one", "1", "single"} & set(gw)))
                or (priced and w in COST_WORDS)
                or _kept_in_other_words(w, keys, gw, sentence_words, term_numbers)
                or any(same_word(w, a, _NO_STEM) for a in answer_words)
                or w in al.named  # "the receiving scheme" said as its name
                for w in keys
            )
            if kept * 2 >= len(keys):
                swapped = _modifier_swap(keys, gw, answer_words, ref_words, p)
                if swapped:
                    return "altered", f"declared policy term replaced: {term} -> {swapped}", False
                continue
            # Number, unit, bound and rounding words write a quantity; where the answer
            # states the term's quantity and the sentence none the step lacks, they
            # write the term's own ("50% concession" -> "half off", "costs £25" ->
            # "twenty-five pounds"; not "at least 48 hours before" -> "on the day").
            # (A bare number the step writes too is no new quantity: "under-16s" /
            # "under 16".)
            # (A bound word only the way the term's own points: "capped at $250" ->
            # "a maximum of $250"; not "at least $250", nor "50% discount" -> "50%
            # more".)
            # (A denied comparison by the way its plain form points: "capped at $300"
            # -> "no more than $300", "will not exceed $300"; not "no less than".)
            # (A price cut or rise by another word of its direction: "a 50% discount"
            # -> "50% less"; not "50% more".)
            if stated_q and step_numbers is None:
                step_numbers = {v for w in tokens(step.text) if (v := _number_value(w)) is not None}
            same_numbers = (
                stated_q
                and step_numbers is not None
                and all(q.startswith("n:") and _value(q) in step_numbers for q in new_in(seg_q))
            )
            new = [
                w
                for w in policy_terms(gw)
                if _count(w, ref_words, p) == 0
                and not w[:1].isdigit()
                and not (
                    same_numbers
                    and (
                        w in _APPROXIMATE
                        or (_quantity_word(w) and w not in _BOUND_WORDS and w not in phrased)
                        or _said_the_way(w, ways, phrased, said_bounds)
                    )
                )
                and not any(_abbreviates(w, x) for x in ref_words)  # "std" / "standard"
                and not any(x in _SAME_AS.get(w, ()) for x in keys)  # "new" / "fresh"
                and w.split("'")[0] != "else"  # "another person's" -> "someone else's"
            ]
            if new:
                return (
                    "altered",
                    f"declared policy term replaced: {term} -> {' '.join(new)}",
                    False,
                )
        same_q = bool(step_q) and (
            all(_said(q, step_q, seg_q) for q in step_main)
            or _same_bound(step.known or step.masked, mask_known(near, al.values))
        )
        sub = _substitution(sw, gw, answer_words, ref_words, p, same_q)
        if sub:
            return "altered", f"policy term replaced: {sub}", False
        channel = _channel_swap(step.text, full)
        if channel:
            return "altered", f"channel changed: {channel}", False
        split = self._moved_part(step, full, al, seg.at, held)
        if split:
            return split
        if self._affirmed_part(step, seg, al, held):
            return (
                "negated",
                "polarity flipped in a part stated in another clause (negation)",
                False,
            )
        return "covered", "", False

    def _affirmed_part(
        self, step: RefStep, seg: Segment, al: _Alignment, held: frozenset[int]
    ) -> bool:
        """A part of the step that denies one thing (a verb negation, "we cannot load
        your belongings while any amount is outstanding"), where the segment the step
        is aligned with lacks the denied word and the one clause of the answer that has
        it (the word itself or its family with the same first letters: not "download"
        for "load") says it with no "not" (:func:`denial_affirmed`): "It has to be
        cleared three days before; if anything is still owing, the crew will still
        load your things". That clause states the part where it is a sibling of the
        segment in one sentence and shares another word with the part or says the
        denied thing holds all the same ("still"; and one that names a time, "we load
        once it is cleared", "after payment", only so); or where it stands in a
        sentence no other step is aligned with (``held``) and has half of the part's
        other words, two at least. A word the answer uses in two clauses, or not at
        all, says nothing here. (The segment lacks the denied word where no word of
        it is of the word's family at all, "unload" included: a segment that may
        state the part is left to the other rules.)"""
        p = self.config.stem_prefix
        here = tokens(seg.text)
        # (Each clause of the answer with its words, read once for all parts.)
        clauses = [
            (at, u, tokens(u)) for at, _, text in al.sentences for u in _parts(text) or [text]
        ]
        for part in _parts(step.masked):
            pw = tokens(part)
            d = denied_word(pw)
            if d is None or any(same_word(d, x, p) for x in here):
                continue
            homes = [
                (at, u, uw)
                for at, u, uw in clauses
                if any(same_word(d, x, p) and x[:3] == d[:3] for x in uw)
            ]
            if len(homes) != 1:
                continue
            at, u, uw = homes[0]
            said = content(uw)
            rest = [w for w in content(pw) if w != d]
            shared = sum(any(same_word(w, x, p) for x in said) for w in rest)
            # (``u`` is not the segment itself: the segment lacks the denied word.)
            if seg.kind == "clause" and at == seg.at:
                if not ("still" in uw or (shared and not _TIMED & set(uw))):
                    continue
            elif set(at) & held or shared < max(2, len(rest) / 2):
                continue
            if denial_affirmed(part, u):
                return True
        return False

    def _moved_part(
        self,
        step: RefStep,
        full: str,
        al: _Alignment,
        own: tuple[int, ...],
        held: frozenset[int],
    ) -> tuple[StepStatusT, str, bool] | None:
        """A changed part of a multi-clause step that this sentence does not state and
        another sentence of the answer does: a paraphrase splits a step's parts over its
        sentences ("Cancel 48 hours ahead, and texts to your instructor are not accepted
        as notice" -> "Cancel two days ahead. ... Texting your instructor counts as
        notice."), and the sentence the step was aligned with never sees the other
        part. That part is read against a sentence no other step is assigned to
        (``held``: where the other steps' sentences stand; ``own``: where this one
        stands) that states it (half of its words beside its quantities, or more):
        a negation word lost or added, where this sentence does not state the part and
        the part has four content words or more, three fifths of them there, or two or
        three, all of them there (not a modal or an antonym, read across sentences too
        often another step's, but for a negative prefix, "non-refundable" / "fully
        refundable"; nor where a third sentence states the part's negation); or, in a
        part of three content words or more, a quantity of the part
        that neither sentence states, replaced in the clause that carries the part by
        one of its kind that the exemplar states nowhere ("If the same fault returns
        within 90 days, ..." -> "Same fault within 12 months: ...", the answer's "90
        days" in a sentence about the cover)."""
        parts = _parts(step.masked)
        if len(parts) < 2:
            return None
        taken = held | set(own)
        others = [(at, ws, text) for at, ws, text in al.sentences if not set(at) & taken]
        if not others:
            return None
        p = self.config.stem_prefix
        here = tokens(full)
        step_main = main_readings(step.quantities)
        here_q = quantities(mask_known(full, al.values))
        for part in parts:
            # (Its words beside its quantities, which may be what changed.)
            part_words = tokens(part)
            pw = [w for w in part_words if not _quantity_word(w)]
            size = len(content(pw))
            if size < 2:
                continue
            rec, home, at = max((_recall(pw, ws, p), text, at) for at, ws, text in others)
            if rec < 0.5:
                continue
            part_qs = quantities(part)
            home_words = tokens(home)
            # (A part of four words or more, three fifths of them there: "if the dock
            # failed to lock" is not read in "we check the dock's lock log"; a shorter
            # one, all of its words there: "the deposit is non-refundable" in "Heads up
            # that the deposit is fully refundable".)
            # (Where this sentence states it less well: under half of a long part, or
            # two fifths of it fewer than the other sentence ("Errors on a proof you
            # approved: we can fix them" for "..., and we cannot fix errors on a proof
            # you approved", the step matched to "Printing only starts once you've
            # approved the proof"), and not all of a short one, whose subject it often
            # shares, "deposit".)
            if size >= 4:
                here_rec = _recall(pw, here, p)
                moved = rec >= 0.6 and (here_rec < 0.5 or rec - here_rec >= 0.4)
            else:
                # (Its words together there, as a clause: not "The cake itself is not
                # recyclable, obviously, but the box is" for "the cake box is
                # recyclable". A part that says something on its own, with a verb of
                # being or a modal, and no quantity: not a list's item cut from its
                # negation, "..., a code or a wax impression", nor a bound the quantity
                # rules read, "cannot be moved more than twice". And a sentence that
                # states it unconditionally: "the deposit is refundable only if we
                # cancel" restates the exception.)
                moved = (
                    rec == 1.0
                    and _recall(pw, here, p) < 1.0
                    and bool(_STATING & set(part_words))
                    and not part_qs
                    and not _CONDITIONAL & set(home_words)
                    and _close_together(content(pw), home_words, p)
                )
            if moved:
                # The answer's sentences but this one and the part's (told apart by
                # where they stand: the step's sentence is masked here, and two may
                # read alike). Read on the whole sentence, not on the clause that
                # carries the part: a part's two negations are often split over two
                # clauses there ("Without one, your claim cannot be settled" for "we
                # cannot settle your claim without one").
                rest = tuple(text for w, _, text in al.sentences if not set(w) & {*at, *own})
                flip = polarity_flip(part, home, elsewhere=rest)
                if (
                    flip is None
                    and denial_granted(part, home)
                    # (Not where another sentence says the part's "not": "Texts reach
                    # the instructor as a courtesy. They are not accepted as official
                    # notice, though.")
                    and not _denied_elsewhere(part_words, rest, p)
                ):
                    flip = "negation"
                reasons = flip.split(" + ") if flip else []
                if "negation" in reasons or (
                    reasons == ["antonym"] and _prefix_turned(part_words, home_words)
                ):
                    return (
                        "negated",
                        f"polarity flipped in a part stated in another sentence ({flip})",
                        False,
                    )
            part_q = {q for q in main_readings(part_qs) if _movable(q)}
            if size < 3 or not part_q:
                continue
            unit = self._polarity_unit(pw, home, "sentence")
            unit_q = quantities(mask_known(unit, al.values))
            lost = {q for q in part_q if not stated(q, unit_q) and not stated(q, here_q)}
            new = {
                q
                for q in main_readings(unit_q)
                if _movable(q)
                and not stated(q, step_main | _other_readings(step.quantities))
                and not _span_stated(q, al.ref.quantities)
            }
            if any(conflict(a, b) for a in lost for b in new):
                return (
                    "altered",
                    f"quantity changed in a part stated in another sentence: {_changed(lost, new)}",
                    True,
                )
        return None


# A stem length no word pair reaches: same_word() then matches only the same word,
# an abbreviation or one word family (a prefix or a compound).
_NO_STEM = 10_000
# A short line ending in a colon (at most five words): "Book it online, then bring
# these at pick-up:" states a step before its list.
_HEADING_RUN = re.compile(r"[\w'-]+")
_WORD_CHAR = re.compile(r"\w")


# A modal (or the copula) denied and affirmed: (name, denied, affirmed).
_MODAL_WAYS = (
    ("can", re.compile(r"\b(?:can't|cannot|can not)\b"), re.compile(r"\bcan\b(?!'t|\s?not\b)")),
    ("will", re.compile(r"\b(?:won't|will not)\b"), re.compile(r"\bwill\b(?! not\b)")),
    ("must", re.compile(r"\b(?:mustn't|must not)\b"), re.compile(r"\bmust\b(?! not\b)")),
    ("may", re.compile(r"\bmay not\b"), re.compile(r"\bmay\b(?! not\b)")),
    (
        "is",
        re.compile(r"\b(?:isn't|is not|aren't|are not)\b"),
        re.compile(r"\b(?:is|are)\b(?! not\b)"),
    ),
)
# The negation words (:data:`NEGATORS`) and the prefix "non", counted in raw text.
_NEGATIONS = re.compile(r"\b(?:" + "|".join(sorted(NEGATORS - {"n't"})) + r"|non)\b|n't\b")


# Words that make a short part of a step a statement of its own: a verb of being, an
# auxiliary or a modal ("the deposit is non-refundable", "parking cannot be booked").
_STATING = frozenset(
    """is are was were be been isn't aren't can cannot ca could may might must will wo
    would shall should need needs do does don't doesn't has have""".split()
)
# Words that make a sentence's statement conditional or an exception.
_CONDITIONAL = frozenset("if only unless except when whenever provided once".split())
# The words that open a step's condition ("if your code stops working"), not its rule.
_CONDITION_OPENERS = _CONDITIONAL - {"only"}
# How many of the answer's sentences are read for the step part each is about (_apart).
_MAX_APART = 32
# Words that tie a statement to a time ("we load once it is cleared", "as soon as",
# "after payment"): the other side of a denial's condition, said as a grant. (A
# condition or restriction, "if", "when", "until", "only", "even", is refused by
# denial_affirmed itself.)
_TIMED = frozenset("once after before soon again".split())
# How many words a short part's words may have between them in another sentence.
_PART_SLACK = 3


# Where what a negation governs ends: a clause break or a word that opens a reason,
# a contrast or a condition.
_GOVERNED_END = re.compile(
    r"[,;:.()!?]|\s(?:because|since|as|so|but|while|which|unless|if|when|whereas)\s",
    re.IGNORECASE,
)


# A negation word (:data:`NEGATORS`) as written: "not", "no", "never", "cannot", "n't".
_NEGATION_WORD = re.compile(
    r"\b(?:" + "|".join(sorted(NEGATORS - {"n't"})) + r")\b|n't\b", re.IGNORECASE
)


@functools.lru_cache(maxsize=65536)
def _same(w: str, h: str, p: int) -> bool:
    """One word, in its singular or its family (:func:`same_word`)."""
    return singular(w) == singular(h) or same_word(w, h, p)


@functools.lru_cache(maxsize=4096)
def _step_parts(masked: str) -> tuple[tuple[str, tuple[str, ...], frozenset[str], bool], ...]:
    """A step's parts (:func:`_parts`), each with its content words beside its
    quantities, its quantities' main readings and whether it opens as a condition
    (read once per step text: the reference steps recur with every trace)."""
    out = []
    for u in _parts(masked):
        ws = tokens(u)
        out.append(
            (
                u,
                tuple(w for w in content(ws) if not _quantity_word(w)),
                frozenset(q for q in main_readings(quantities(u)) if _movable(q)),
                not ws or ws[0] in _CONDITION_OPENERS,
            )
        )
    return tuple(out)


def _governed(text: str) -> list[str] | None:
    """The content words a text's first negation governs, up to the end of its clause
    ("cannot be taken beyond the harbour wall" -> "taken", "harbour", "wall"), or None
    where it has no negation."""
    m = _NEGATION_WORD.search(text)
    if m is None:
        return None
    end = _GOVERNED_END.search(text, m.end())
    return content(tokens(text[m.end() : end.start() if end else len(text)]))


def _governed_kept(part: str, sentence: str, p: int) -> bool:
    """Whether the sentence keeps what the negation of the side that has one governs:
    its verb (the first content word after the negation) where it governs nothing
    more ("cannot be reviewed" / "still reviewed"), else more than half of the words
    after the verb, which a rewording keeps where it says the thing the other way
    ("cannot be taken beyond the harbour wall" / "going past the harbour wall is
    fine") and a sentence that says something else does not ("the charge cannot be paid in
    instalments" / "that charge has to be paid in one go"). Read from the part where it
    negates, else from the sentence (a negation added)."""
    governed, other = _governed(part), sentence
    if governed is None:
        governed, other = _governed(sentence), part
    if not governed:
        return False
    have = content(tokens(other))

    def said(w: str) -> bool:
        return any(_same(w, h, p) for h in have)

    verb, rest = governed[0], governed[1:]
    if not rest:
        return said(verb)
    return 2 * sum(said(w) for w in rest) > len(rest)


def _denied_elsewhere(part: list[str], texts: Sequence[str], p: int) -> bool:
    """Whether one of ``texts`` negates and has the word the part's denial governs,
    the first content word after its "not" ("... are not accepted as a booking" /
    "They are not accepted as a booking, though.")."""
    denied = denied_word(part)
    return denied is not None and any(
        _count(denied, tokens(t), p) > 0 and negation_count(t) > 0 for t in texts
    )


def _close_together(words: list[str], ws: list[str], p: int) -> bool:
    """Whether ``ws`` holds every word of ``words`` within a run of their number plus
    :data:`_PART_SLACK` words ("the deposit is fully refundable" for "deposit",
    "non-refundable")."""
    at = [[k for k, x in enumerate(ws) if same_word(w, x, p)] for w in words]
    if not at or any(not ks for ks in at):
        return False
    reach = len(words) + _PART_SLACK

    def within(ks: list[int], k: int) -> bool:
        i = bisect.bisect_left(ks, k)
        return i < len(ks) and ks[i] < k + reach

    # (Each run starts at a word of the part; positions are sorted, so a long hostile
    # sentence is read in n log n.)
    return any(all(within(ks, k) for ks in at) for k in at[0] + [x for ks in at[1:] for x in ks])


def _prefix_turned(one: list[str], other: list[str]) -> bool:
    """Whether a word of one text is a word of the other with a negative prefix
    ("non-refundable" / "refundable", "unavailable" / "available"), both words of an
    antonym pair (:data:`PREFIXED_ANTONYMS`; not "improving" / "proving"): the antonym
    is the negation written into the word, as sure across sentences as a "not"."""

    def turned(a: list[str], b: list[str]) -> bool:
        bare = set(b)
        return any(PREFIXED_ANTONYMS.get(w, frozenset()) & bare for w in a)

    return turned(one, other) or turned(other, one)


def _modal_turned(step: str, sentence: str) -> str | None:
    """The modal that one text only affirms and the other only denies, with an odd
    number of negations between the two texts ("can be moved" / "can't be moved";
    not "are non-refundable" / "are not refundable"), quoted; or None."""
    a = step.lower().replace("\u2019", "'")
    b = sentence.lower().replace("\u2019", "'")
    if len(_NEGATIONS.findall(a)) % 2 == len(_NEGATIONS.findall(b)) % 2:
        return None
    for name, denied, affirmed in _MODAL_WAYS:
        a_neg, a_pos = bool(denied.search(a)), bool(affirmed.search(a))
        b_neg, b_pos = bool(denied.search(b)), bool(affirmed.search(b))
        if (a_pos and not a_neg and b_neg and not b_pos) or (
            a_neg and not a_pos and b_pos and not b_neg
        ):
            return f"'{name}'"
    return None


# Words that restrict or condition what a modal says, so that its turned polarity may
# be the same rule in other words ("can only be moved twice" / "cannot be moved more
# than twice", "if it is impossible to secure, we can board it up").
_MODAL_BALANCE = frozenset(
    """only unless until except without impossible unable too instead rather once
    if when whenever neither nor never nobody nothing none no longer more less than""".split()
)
# How many words after a modal say what it governs.
_MODAL_REACH = 8
# Words that deny in other words, beyond the antonym pairs: a clause that has one says
# the rule its own way ("are banned on the beach" / "are not allowed on the beach",
# "is out of order" / "is not working", "the pool still stays shut"), so a modal turned
# or a grant beside it is no flip.
_DENYING_PHRASE = re.compile(
    r"\b(?:out of (?:order|bounds|use|service|action|stock)|off[- ]limits|kept out|turned "
    r"away|final sale|have to|has to|had to|but not|rather than|instead of)\b"
)
_ALSO_DENYING = frozenset(
    """banned barred blocked shut locked void voided removed outlawed skipped refused
    rejected suspended restricted closed stopped unavailable invalid impossible unable
    forbidden prohibited excluded optional different stays stay remains remain left""".split()
)
# Verbs of going on, which "still" makes no grant of ("the membership still runs").
_GOING_ON = frozenset("run runs running continue continues continuing carry carries".split())
_PERSONS = frozenset("i you we they he she".split())
# The modal words that end what a modal governs ("members who can't attend the class
# can get a refund": "can't" governs "attend the class").
_MODAL_WORDS = frozenset(
    "can ca cannot could will wo would may might must shall should is are was were".split()
)


@functools.lru_cache(maxsize=1024)
def _text_clauses(text: str) -> tuple[tuple[str, bool], ...]:
    """Every clause of ``text``, curly apostrophes made plain, with whether its
    sentence is a question (read once per text: the step's text comes back for every
    segment, and every modal reads the same clauses)."""
    return tuple(
        (raw, sentence.text.rstrip().endswith("?"))
        for sentence in split_sentences(text)
        for raw in split_clauses(sentence.text.replace("\u2019", "'"))
    )


_Scope = tuple[tuple[str, ...], tuple[str, ...]]


@functools.lru_cache(maxsize=1024)
def _modal_scopes(text: str, pattern: re.Pattern[str]) -> tuple[_Scope, ...]:
    """For each clause where ``pattern`` (a modal, affirmed or denied) matches, whose
    only negation is the modal's own (or that has none, for an affirmed modal), that
    has no restricting word (:data:`_MODAL_BALANCE`) and no word that denies in other
    words (:data:`_ALSO_DENYING`, :data:`_DENYING`, :data:`_DENYING_PHRASE`), outside a
    question: the content words of the clause before the modal (what it is said of,
    with the person right before it) and after it, to the next modal or the end of the
    clause and at most :data:`_MODAL_REACH` tokens (what it governs)."""
    out: list[_Scope] = []
    for raw, asks in _text_clauses(text):
        if asks:
            continue  # (a question grants or denies nothing)
        clause = raw.lower()
        m = pattern.search(clause)
        if m is None:
            continue
        own = int(bool(_NEGATIONS.search(m.group(0))))
        ws = set(tokens(clause))
        if (
            ws & (_MODAL_BALANCE | _ALSO_DENYING | _DENYING)
            or _DENYING_PHRASE.search(clause)
            or negation_count(clause) > own
        ):
            continue
        lead = tokens(clause[: m.start()])
        # (Who is said to: "you can pay at the post office" / "we can't take
        # payments at the town hall" are two rules.)
        before = [w for w in content(lead) if w not in _STATING] + [
            w for w in lead[-1:] if w in _PERSONS
        ]
        governs = tokens(clause[m.end() :])[:_MODAL_REACH]
        # (What it governs ends at the next modal.)
        end = next((i for i, w in enumerate(governs) if i and w in _MODAL_WORDS), None)
        after = [w for w in content(governs[:end]) if w not in _STATING]
        if after:
            out.append((tuple(before), tuple(after)))
    return tuple(out)


def _modal_object_turned(step: str, sentence: str, p: int) -> str | None:
    """The modal that a clause of one text affirms and a clause of the other denies
    where it governs the same thing on both sides, or None: in clauses with no other
    negation and no restricting word, what it is said of is the same and at least two
    content words after it are ("We can take forms signed on the day, I'm afraid, so
    anyone without one sits out" / "We cannot accept consent forms signed on the day,
    and a player without one will not be allowed on"; not "our emergency line can
    arrange boarding" / "if a door cannot be secured"). Read clause by clause, so
    that negations in other clauses neither hide nor make the turn."""

    def alike(x: Sequence[str], y: Sequence[str], least: int = 2) -> bool:
        # (Words of a quantity, "up to £100", say how much, not what.)
        said = {w for w in x if not _quantity_word(w) and any(same_word(w, v, p) for v in y)}
        return len(said) >= least

    def opposed(x: Sequence[str], y: Sequence[str]) -> bool:
        # Antonyms on the two sides turn it back: "is not excluded" / "is included".
        a, b = set(x), set(y)
        return any((a & one and b & two) or (a & two and b & one) for one, two in ANTONYM_PAIRS)

    for own, denied, affirmed in _MODAL_WAYS:
        for one, other in ((step, sentence), (sentence, step)):
            # (A text that says it both ways, "you can't renew online, but you can
            # renew at the desk", turns nothing.)
            one_grants = [a for _, a in _modal_scopes(one, affirmed)]
            other_denies = [a for _, a in _modal_scopes(other, denied)]
            for xb, xa in _modal_scopes(one, denied):
                if any(alike(xa, g, 1) for g in one_grants):
                    continue
                for yb, ya in _modal_scopes(other, affirmed):
                    if any(alike(ya, d, 1) for d in other_denies):
                        continue
                    # (What the modal is said of is the same on both sides: each
                    # content word before it is said on the other side too; not
                    # "rolls that have entered the developer cannot be pushed" for
                    # "we can push the rolls".)
                    if any(not any(same_word(w, v, p) for v in yb + ya) for w in xb) or any(
                        not any(same_word(w, v, p) for v in xb + xa) for w in yb
                    ):
                        continue
                    if alike(xa, ya) and not opposed(xa, ya):
                        return own
    return None


# Words that grant something as well as the rest ("VHF radio accepted too", "you can
# still take reports after that", "phone is fine too"): "too" ending its clause (not
# "too late"), "still" before what is granted (not "any car still in a bay", "still
# outstanding"), "fine", "OK" or "welcome" said of something (not "the fine print", "a
# fine of £50"); a word of acceptance said of something ("texts are accepted",
# "pets are allowed"); and the verdict a list line gives its label after a colon, as
# the last word of its clause ("- Requests on collection day: accepted", "- Onward
# travel: covered", "- Refund: yes"; not "- Accepted cards: Visa").
_GRANTING = re.compile(
    r"\b(too)\b(?=\s*(?:[).!;,]|$))|\b(also)\b"
    r"|\b(still)\b(?!\s+(?:in|at|on|within|inside|under|over|the|a|an|your|their|its|his"
    r"|her|our|my|there|here|outstanding|due|pending|unpaid|owed|waiting)\b)"
    r"|\b(?:is|are|'s|be|was|were)\s+(fine|ok|okay|welcome)\b"
    r"|\b(?:is|are|be|was|were)\s+(accepted|allowed|permitted|covered)\b"
    r"|:\s*(accepted|allowed|permitted|covered|fine|ok|okay|welcome|yes|possible|available)"
    r"(?=\s*(?:[).!;,(]|$))"
)
_NO_NEGATOR = frozenset({"no", "none", "nobody", "nothing", "neither", "nor", "never"})
# The denying side of the antonym pairs, and verbs of missing out: a clause that grants
# with one of them still denies ("swimwear ... is also excluded from returns").
_DENYING = (
    frozenset(w for _, side in ANTONYM_PAIRS for w in side if " " not in w) - {"after", "different"}
) | NEGATIVE_VERBS


def _denial_granted(step: str, sentence: str, p: int) -> str | None:
    """The granting word of a clause of ``sentence`` that says, with no negation, what
    a clause of the step denies, or None: the step's clause denies a verb ("are not
    accepted", "cannot be made") once and has no restricting word, the sentence's
    clause has no negation and a granting word (:data:`_GRANTING`) the step does not
    use, and it says, with the label of its list line where it is that label's value
    (:func:`_with_labels`: "- By text, or by telling the crew on the day: accepted"),
    at least two of the denied clause's content words, and at least half of them; one
    of them, in the clause itself, a word the step's other clauses do not say
    ("cancellations cannot be made over the VHF radio" / "email the harbour office (VHF
    radio accepted too)"). A denial said with "no" ("at no charge") is not read: it is
    as often a cost or a bound. Nor is a grant in a clause that denies in other words or
    restricts, or beside a clause of the answer that states the denial."""
    step_words = set(tokens(step.replace("\u2019", "'")))
    clauses = [clause for clause, _ in _text_clauses(step)]
    # (Each denial with its own words: those the step's other clauses do not say. "Give
    # notice in the app; notice given by phone is not accepted" denies "phone", not
    # "give notice".)
    denials: list[tuple[list[str], list[str]]] = []
    for i, clause in enumerate(clauses):
        ws = tokens(clause)
        if negation_count(clause) != 1 or not set(ws) & VERB_NEGATORS:
            continue
        if set(ws) & (_MODAL_BALANCE - _NO_NEGATOR):
            continue
        said = [w for w in content(ws) if w not in _STATING and not _quantity_word(w)]
        rest = [v for j, c in enumerate(clauses) if j != i for v in content(tokens(c))]
        own = [w for w in said if not any(same_word(w, v, p) for v in rest)]
        if said and own:
            denials.append((said, own))
    if not denials:
        return None
    # The answer's clauses that negate or deny, by their content words: an answer that
    # also says the denial ("can't be ordered by phone, but can also be ordered at the
    # desk", "flowers are welcome, but not food") grants something beside it.
    answer = [
        SPACE_RUN.sub(" ", one.text.replace("\u2019", "'")) for one in split_sentences(sentence)
    ]
    split = [split_clauses(text) for text in answer]
    denying = [content(tokens(c)) for clauses_ in split for c in clauses_ if _denies(c)]
    # (Read once per denial, not once per granting clause: a hostile answer has
    # thousands of both.)
    denied_too = [
        any(any(same_word(w, v, p) for w in d for v in ws) for ws in denying) for d, _ in denials
    ]
    # (Per label, the denied words it says, read once for all the clauses after it:
    # the last label read and its words, held by reference, not by id.)
    last: tuple[frozenset[str] | None, list[set[str]]] = (None, [])
    for text, clauses_ in zip(answer, split, strict=True):
        for clause, label in _with_labels(text, clauses_):
            ws = tokens(clause)
            grant = [w for m in _GRANTING.finditer(clause.lower()) for w in m.groups() if w]
            grant = [w for w in grant if w not in step_words]
            if (
                not grant
                or negation_count(clause)
                or set(ws) & _NOT_GRANTING
                or _DENYING_PHRASE.search(clause.lower())
            ):
                continue
            here = [w for w in content(ws) if w not in _STATING]
            if label is not None and last[0] is not label:
                last = (
                    label,
                    [
                        {w for w in d if w in label or any(same_word(w, v, p) for v in label)}
                        for d, _ in denials
                    ],
                )
            for k, (d, own) in enumerate(denials):
                kept = {w for w in d if any(same_word(w, v, p) for v in here)}
                if label is not None:
                    kept |= last[1][k]
                mine = any(same_word(w, v, p) for w in own for v in here)
                if len(kept) >= 2 and 2 * len(kept) >= len(d) and mine and not denied_too[k]:
                    return grant[0]
    return None


# A label's colon: not one inside a time or a ratio ("10:30", "1:1").
_LABEL_COLON = re.compile(r":(?!\d)")
# How far past the last clause the next one is looked for (its separator: ", and
# then", "; or", a bullet).
_SEPARATOR_REACH = 32


_DENYING_WORDS = _DENYING | _ALSO_DENYING
# What keeps a clause from granting: it denies in other words, goes on, or restricts.
_NOT_GRANTING = _DENYING_WORDS | _GOING_ON | {"only"}


def _denies(clause: str) -> bool:
    """Whether a clause negates, or denies in a word of its own ("refused", "void")."""
    return bool(negation_count(clause) or set(tokens(clause)) & _DENYING_WORDS)


def _with_labels(text: str, clauses: list[str]) -> Iterator[tuple[str, frozenset[str] | None]]:
    """Each clause of ``text`` (its :func:`split_clauses`, spaces collapsed as there),
    with the content words of the label it is the value of, or None. A clause with a
    colon is its own label's value: the text before the colon, back to the last clause
    with a colon, a ";" or the start ("- By text, or by telling the crew on the day:
    accepted" -> "- By text, or by telling the crew on the day"; in "- Jobs: portal,
    support: available" the label of "support: available" is "support"). A clause after
    it without one goes on with that value ("- Give notice: app (phone is fine too)" ->
    "- Give notice"), up to a ";". A clause before any colon has none ("email is fine
    for questions" after "Print jobs go through the portal,"). Not a colon in a time
    ("10:30"), nor the label's clauses that negate or deny. Read in one pass: each
    stretch of text in one label at most."""
    cursor, after = 0, 0  # (after: where the next label's text starts)
    label: frozenset[str] | None = None
    for clause in clauses:
        # (A clause starts right after its separator: looked for near the cursor only.)
        at = text.find(clause, cursor, cursor + len(clause) + _SEPARATOR_REACH)
        at = cursor if at < 0 else at
        end = at + len(clause)
        semi = text.rfind(";", cursor, at)
        if semi >= 0:
            after, label = semi + 1, None
        m = _LABEL_COLON.search(text, at, end)
        if m is not None:
            label = frozenset(
                w
                for c in split_clauses(text[after : m.start()])
                if not _denies(c)
                for w in content(tokens(c))
                if w not in _STATING
            )
            after = end
        cursor = end
        yield clause, label


def _is_heading(text: str) -> bool:
    """A short line ending in a colon: at most five words, the last right before the
    colon. Read without backtracking: a line of "- - - ..." is no heading, found in
    linear time (the pattern it replaces tried every split of the dashes)."""
    body = text.rstrip()
    if not body.endswith(":"):
        return False
    body = body[:-1].rstrip()
    if not body or not _HEADING_RUN.fullmatch(body[-1]):
        return False
    # Each word is a run of letters, digits, "'" and "-"; a run of dashes or quotes
    # alone is punctuation between words, but for the last run, which is the word
    # before the colon.
    runs = 1
    for run in _HEADING_RUN.findall(body)[:-1]:
        if _WORD_CHAR.search(run):
            runs += 1
            if runs > 5:
                return False
    return True


# Nothing is charged, in other words (on tokens: "doesn't" is "does n't").
_NO_COST = re.compile(
    r"\b(?:costs? (?:[a-z]+ )?nothing|(?:pay|charge|charged) nothing|nothing to pay"
    r"|(?:no|without (?:a|any)?) ?(?:fee|fees|charge|charges|cost)"
    r"|free of charge|(?:not|n't) (?:be )?(?:charged|cost)|(?:not|n't) pay|without paying)\b"
)
# Where a sentence turns to another thing ("..., but", "whereas"; on tokens, which have
# no punctuation).
_CLAUSE_TURN = re.compile(r"\s(?:but|while|whereas|although|though|however)\s")


def _nothing_charged(ws: list[str]) -> bool:
    """Whether words say that something is not charged for ("at no extra cost", "free of
    charge", "complimentary", "no fee")."""
    padded = plain_bounds(" " + " ".join(ws) + " ")
    return any(w in COST_FREE_WORDS for w in padded.split()) or bool(_NO_COST.search(padded))


def _says_no_cost(ws: list[str]) -> bool:
    """Whether words say that nothing is charged and name no cost beside it ("free of
    charge", "no fee"; not "free of charge, but the robe costs extra")."""
    if not (_NO_COST.search(" ".join(ws)) or any(w in COST_FREE_WORDS for w in ws)):
        return False
    return not _names_cost(ws)


def _names_cost(ws: list[str]) -> bool:
    """Whether words name a cost outside their ways of saying nothing is charged ("the
    robe costs extra"; not "no fee", "free of charge")."""
    return any(w in COST_WORDS or w == "extra" for w in _NO_COST.sub(" ", " ".join(ws)).split())


def _said_free(gw: list[str], step_words: list[str]) -> bool:
    """Whether the sentence says that nothing is charged for what the step is about:
    the whole sentence, with no cost beside it; or, in a sentence of clauses, the first
    clause that names the step's subject and says "free" or states a cost says "free",
    and no later clause names the subject more fully with a cost ("towels are free of
    charge, but the robe costs extra", "loans are free, but overdue loans cost 20p a
    day"; not "helmets cost £5, but goggles are provided free", nor "interlibrary loans
    cost £2, but renewals of loans are free")."""
    if _says_no_cost(gw):
        return True
    about = [
        w
        for w in policy_terms(step_words)
        if w not in COST_WORDS and w not in COST_FREE_WORDS and w != "extra"
    ]

    def names(cw: list[str]) -> int:
        return sum(any(same_word(w, x, 4) for x in content(cw)) for w in about)

    first: tuple[bool, int] | None = None
    for c in _CLAUSE_TURN.split(" " + " ".join(gw) + " "):
        cw = c.split()
        free = _says_no_cost(cw)
        cost = not free and _names_cost(cw)
        n = names(cw) if free or cost else 0
        if not n:
            continue
        if first is None:
            first = (free, n)
        elif cost and n > first[1]:
            return False
    return first is not None and first[0]


# Words that say "not" without a negator: the negative side of an antonym pair
# ("refused", "prohibited", "unavailable", "optional") and restrictions ("card only",
# "except", "rather than"); not the pairs of order, state or time (after, close, stop), which say
# when, not whether.
_RESTRICTING = frozenset(
    {
        w
        for _, right in ANTONYM_PAIRS
        for phrase in right
        for w in phrase.split()
        if w not in {"after", "close", "closed", "stop", "stopped", "disable", "disabled"}
    }
    | {"only", "except", "unless", "refuse", "refuses", "refused", "nowhere", "unable"}
    # ("Rather than texting your handler" / "instead of texting" for "do not text".)
    | {"rather", "instead"}
)
_QUANTITY_WORDS = frozenset(
    {"single", "quarter", "half", "once", "twice", "thrice", "every", "aged", "old", "older"}
) | frozenset(
    # Units of measure, written out or short ("6 metres" / "6 m"): the number is
    # compared, the unit is how it is written.
    """m metre metres meter meters cm mm km kg kilo kilos kilogram kilograms g gram grams
    l litre litres liter liters ml ft foot feet inch inches mile miles cubic square sq""".split()
)


# A short parenthetical closing a sentence or list item qualifies all of it: "-
# Deductions: itemised, with evidence from the inventory (optional)".
_TAIL = re.compile(r"\(([^()]{1,40})\)\s*[.;!]?\s*$")


# A short heading before a colon that a list stands under ("What we don't cover: ...",
# "- Excluded: ...").
_HEAD = re.compile(r"\s*(?:[-*\u2022]\s*)?([^:;,.]{1,40}):\s")


def _with_tail(units: list[str], full: str) -> list[str]:
    """``units`` (the clauses of ``full``), each with ``full``'s closing parenthetical
    ("(optional)", "(not required)") when it has one and the clause lacks it."""
    m = _TAIL.search(full)
    if m is None or len(m.group(1).split()) > 3:
        return units
    tail = m.group(0).strip()
    return [u if tail in u else f"{u} {tail}" for u in units]


def _said(q: str, own: frozenset[str], qs: set[str] | frozenset[str]) -> bool:
    """Whether quantity ``q`` of a text whose quantities are ``own`` is stated in
    ``qs``: itself, or one of its other readings in that text (see :func:`_alternatives`:
    "at 7:30" is stated by "7:30 pm", "a third" by "33%")."""
    return stated(q, qs) or any(stated(alt, qs) for alt in _alternatives(q, own))


def _alternatives(q: str, own: frozenset[str]) -> list[str]:
    """The other readings a text gives its quantity ``q``: the afternoon's of a time
    written without am or pm, the whole percentage a fraction rounds to."""
    if q.startswith("clock:"):
        pm = f"clock:{int(_value(q)) + 720}"
        return [pm] if "~" + pm in own else []
    if q.startswith("pct:"):
        return [x[1:] for x in own if x.startswith("~pct:") and abs(_value(x) - _value(q)) < 1]
    return []


def _other_readings(qs: frozenset[str]) -> set[str]:
    """The other readings of times and fractions as main readings ("~clock:870" of "at
    2:30", "~pct:33" of "a third")."""
    return {q[1:] for q in qs if q.startswith(("~clock:", "~pct:"))}


def _parts(text: str) -> list[str]:
    """The clauses of a step or sentence that have a content word."""
    return [u for u in split_clauses(text) if content(tokens(u))]


def _clauses(full: str) -> list[str]:
    """The clauses of a sentence that have a content word, each with the sentence's
    closing parenthetical (:func:`_with_tail`)."""
    return _with_tail(_parts(full), full)


def _carrying(step_words: list[str], text: str, prefix: int) -> str:
    """The clause of ``text`` that shares most words with a step (``text`` itself
    when it has one clause)."""
    units = _clauses(text)
    if len(units) < 2:
        return text
    return max(units, key=lambda u: _recall(step_words, tokens(u), prefix))


def _without_taken(
    sentences: Sequence[tuple[tuple[int, ...], list[str], str]],
    at: tuple[int, ...],
    values: Sequence[str],
    taken: frozenset[str],
    own: str = "",
) -> str | None:
    """The sentence at ``at`` (masked) without its clauses in ``taken`` that negate, or
    None when none is left out (:func:`_clause_units`). The clauses are cut finer than
    the segments: a clause that goes on from another step's segment, before this
    step's (``own``) begins, is that step's too ("Sessions ended by the vehicle's own
    charge limit" is another step's segment, and so are "or by the driver disconnecting
    the cable" and "do not qualify for a refund" after it, whose negation is that
    step's, not this one's, "a claim will still be accepted if ...")."""
    raw = next((text for a, _, text in sentences if a == at), None)
    if raw is None:
        return None
    units = _clause_units(raw, tuple(values))
    mine = own.strip()
    rest = []
    other = False  # (whether the clauses read now go on from another step's segment)
    for u, negates in units:
        t = u.strip()
        if t in taken or (any(len(x) >= 12 and x in t for x in taken) and not (mine and mine in t)):
            other = True
            if negates:
                continue
        elif mine and (t in mine or mine in t):
            other = False
        elif other and negates and mine:
            continue
        rest.append(u)
    if not rest or len(rest) == len(units):
        return None
    return "; ".join(u.strip().rstrip(".;,") for u in rest) + "."


@functools.lru_cache(maxsize=64)  # (a few sentences per answer; bounded for long ones)
def _clause_units(raw: str, values: tuple[str, ...]) -> tuple[tuple[str, bool], ...]:
    """Each clause of a sentence, masked, and whether it may be left out for its
    negation: it negates (odd parity) and is not joined to the next clause by "or" /
    "nor", which may share its negator ("children cannot use the sauna, or the steam
    room"). Clauses are cut from the sentence as written and masked one by one, as the
    segments are (so that a clause that starts with an amount, "... - £5 per day is
    charged", is found). Read once per sentence and answer, whatever the number of
    steps."""
    units = split_clauses(raw)
    out = []
    pos = 0
    for k, u in enumerate(units):
        start = raw.find(u, pos)
        pos = start + len(u) if start >= 0 else pos
        after = units[k + 1] if k + 1 < len(units) else None
        nxt = raw.find(after, pos) if after is not None and start >= 0 else -1
        # (The text between this clause and the next, as written, or the next clause's
        # own first word.)
        shared = after is not None and (
            (nxt >= 0 and _OR_JOIN.search(raw[pos:nxt]) is not None)
            or _OR_JOIN.match(after) is not None
        )
        masked = mask(u, values)
        out.append((masked, bool(polarity(masked)) and not shared))
    return tuple(out)


_OR_JOIN = re.compile(r"\s*\b(?:or|nor)\b", re.IGNORECASE)


def _overlap(a: str, b: str) -> bool:
    """Whether one text is part of the other."""
    return a in b or b in a


def _unprefixed(ws: list[str]) -> list[str]:
    """``ws`` with a negative prefix taken off an "-able" / "-ible" word
    ("non-refundable", "unavailable" -> "refundable", "available")."""
    return [_bare_able(w) for w in ws]


def _bare_able(w: str) -> str:
    """``w`` without a "non-" / "non" / "un" prefix on an "-able" / "-ible" word."""
    if w.endswith(("able", "ible")):
        for pre in ("non-", "non", "un"):
            if w.startswith(pre) and len(w) - len(pre) >= 6:
                return w[len(pre) :]
    return w


def _one_each(rec: list[list[float]], units: list[str]) -> list[tuple[float, str]] | None:
    """Each part's clause, given each part's term recall on each clause (``rec``), when
    every part but one has its own best clause (recall at least 0.5, no two parts the
    same clause): the one left over goes to the part left over, with its recall. None
    otherwise."""
    own = [max(range(len(units)), key=r.__getitem__) for r in rec]
    sure = [k for k, r in enumerate(rec) if r[own[k]] >= 0.5]
    if len(sure) != len(rec) - 1 or len({own[k] for k in sure}) != len(sure):
        return None
    (left,) = [k for k in range(len(rec)) if k not in sure]
    (free,) = [j for j in range(len(units)) if j not in {own[k] for k in sure}]
    out = [(rec[k][own[k]], units[own[k]]) for k in range(len(rec))]
    out[left] = (rec[left][free], units[free])
    return out


# A bound written with a negator ("no more than 12", from the lexicon's bound phrases)
# and the words that state the same bound without one, before its number ("max 12",
# "within 3 days", "up to 6") or after it ("12 max", "12 or fewer", "14+").
_SAME_BOUND: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "at most": (
        frozenset("max maximum most limit cap capped under within".split()),
        frozenset("max maximum fewer less".split()),
    ),
    "by": (frozenset("by within before latest".split()), frozenset()),
    "at least": (
        frozenset("min minimum least".split()),
        frozenset("min minimum more".split()),
    ),
    "at earliest": (frozenset("earliest after from".split()), frozenset({"onwards"})),
}
_NEGATED_BOUNDS: tuple[tuple[str, tuple[frozenset[str], frozenset[str]]], ...] = tuple(
    (phrase, _SAME_BOUND[plain])
    for phrase, plain in BOUND_PHRASES
    if plain in _SAME_BOUND and any(w in NEGATORS for w in phrase.split())
)
# A bound's own phrase after its number or noun, as words ("min", not "minutes").
_AFTER_PHRASES: dict[tuple[frozenset[str], frozenset[str]], tuple[list[str], ...]] = {
    _SAME_BOUND[k]: tuple(p.split() for p in phrases)
    for k, phrases in (
        ("at most", ("at most", "at the most", "max", "maximum")),
        ("at least", ("at least", "at the least", "min", "minimum")),
        ("by", ("at the latest", "at latest")),
        ("at earliest", ("at the earliest", "at earliest")),
    )
}
_GLUED_PLUS = re.compile(r"(\d|<money>|<value>)\+")  # "14+", "<money>+" (a masked "$20+")
# Right before a number: a comparison of its own ("more than 6", "over 6"), whatever
# bound word stands further back ("Most bands have more than 6 members").
_COMPARED = frozenset("than over under above below after before".split())
_MASKED_AMOUNTS = frozenset({"<money>", "<value>"})


def _said_free_of(term_words: list[str], gw: list[str], step: str) -> bool:
    """Whether a declared term that denies a thing ("no interest", "without gluten")
    is said by ``gw`` as free of it: "interest-free", "free of interest"; not where
    ``gw`` names the thing again on its own ("salt-free herbs, then add salt to
    taste"). (Not a cost word: "free of charge" is read in its own clause, as every
    "free" is.)"""
    at = next((i for i, w in enumerate(term_words) if w in ("no", "without")), None)
    if at is None:
        return False
    things = [w for w in content(term_words[at + 1 :]) if len(w) > 1 and w not in COST_WORDS]
    return bool(things) and free_of(things, gw, content(tokens(step)))


def _bound_kept(term: str, sentence: str, seg_q: frozenset[str], step: str = "") -> bool:
    """Whether a declared term that is a bound written with a negator ("no more than
    12 students", "no later than 10 days") is stated by ``sentence`` as the same
    bound without one ("Max 12 students", "within 10 days", "14+ days"): the term's
    quantities, and a word of the bound's direction next to the term's number (up to
    four words before it, "up" only as "up to"; or "max", "or fewer", "+" right after
    it or its noun), with no comparison of its own right before the number. "More
    than 12 students", or "most" elsewhere in the sentence ("Most bands have more
    than 6 members"), keeps no bound."""
    low = " " + " ".join(tokens(term)) + " "
    found = [(phrase, same) for phrase, same in _NEGATED_BOUNDS if f" {phrase} " in low]
    if not found:
        return False
    term_q = main_readings(quantities(term))
    numbers = {_times_value(w) for w in tokens(term)} - {None}
    # A bound on no quantity ("no later than Friday", "no later than check-out") is
    # read at the first word after its phrase, stated in the sentence.
    anchor = None
    if not term_q and not numbers:
        rest = content(tokens(low.split(f" {found[0][0]} ", 1)[1]))
        if not rest or any(w[:1].isdigit() for w in rest):
            return False
        anchor = rest[0]
    elif not all(stated(q, seg_q) for q in term_q):
        return False
    before_words, after_words = found[0][1]
    upper = "most" in before_words
    step_words: list[str] | None = None  # (read once, for an allowance per unit)
    ws = tokens(_GLUED_PLUS.sub(r"\1 or more", sentence))
    for i, w in enumerate(ws):
        # The number as written, or an amount masked as a value ("$20" -> "<money>");
        # the term's quantities are stated here either way (seg_q).
        if anchor is not None:
            if not same_word(w, anchor, 4):
                continue
        elif _times_value(w) not in numbers and w not in _MASKED_AMOUNTS:
            continue
        before = ws[max(0, i - 4) : i]
        # Its own phrase right after the number or its noun ("two children at most",
        # "3 nights at least", "by Friday at the latest"), or after a rate on it ("once
        # a year at most"), whatever word comes before ("look after two children at
        # most"; not "more than 2 children at most", nor "6 players, with at most 2
        # children").
        reach = (1, 2, 3) if ws[i + 1 : i + 2] and ws[i + 1] in _RATE_WORDS else (1, 2)
        if before[-1:] != ["than"] and any(
            ws[i + k : i + k + len(p)] == p for k in reach for p in _AFTER_PHRASES[found[0][1]]
        ):
            return True
        # An upper bound said as an allowance per unit the step names ("two exchanges
        # per ticket" for "each ticket can be exchanged no more than twice"; not "twice
        # per day"), with no comparison of its own before the number and no word of a
        # floor or an open top in the sentence ("at least one night per week", "twice
        # per season or more", "two guests per visit is the minimum", "unlimited").
        per = next((k for k in (i + 1, i + 2) if k < len(ws) and ws[k] == "per"), None)
        if upper and per is not None and content(ws[per + 1 : per + 2]):
            if step_words is None:
                step_words = content(tokens(step))
            if (
                any(same_word(ws[per + 1], x, 4) for x in step_words)
                and not (set(before) & _COMPARED)
                and not (set(ws) & _FLOOR_WORDS)
            ):
                return True
        if before[-1:] and before[-1] in _COMPARED and before[-1] not in before_words:
            continue
        if anchor is not None:
            # (A bound on a word: right before it, "by Friday", "before the check-out".)
            near = before[-2:] if before[-1:] == ["the"] else before[-1:]
            if any(b in before_words for b in near):
                return True
            continue
        if any(b in before_words for b in before) or before[-2:] == ["up", "to"]:
            return True
        after = ws[i + 1 : i + 4]
        if any(
            a in after_words and (a not in ("fewer", "less", "more") or "or" in after)
            for a in after
        ):
            return True
    return False


# A condition that negates what the clause before it said, with nothing after its verb,
# inside a sentence: "..., and if we can't,", "...; if not,". (Not one that opens a
# sentence, "If not, do not launch it.", which may turn the step's own "If it does".)
_ELLIPTIC_IF_NOT = re.compile(
    r"(?:[,;]\s*|\b(?:and|or|but)\s+)(?:if|unless)\s+(?:(?:we|you|they|it|he|she|i|that)\s+"
    r"(?:can't|can’t|cannot|can not|don't|don’t|do not|doesn't|does not|won't|will not|"
    r"isn't|is not|aren't|are not|didn't|did not)|not)\s*(?=[,;.:)!?]|$)",
    re.IGNORECASE,
)
# Which way a bound on a number points: written before it ("at most 20 kg", "over 60")
# or after it ("18 or over", "14 days or more"; "14+" reads "14 or more").
_UPPER_BEFORE = tuple(
    "at most|max|maximum|up to|under|below|less than|fewer than|smaller than|shorter than|"
    "lighter than|younger than|lower than|within".split("|")
)
_LOWER_BEFORE = tuple(
    "at least|min|minimum|more than|over|above|larger than|bigger than|greater than|"
    "heavier than|longer than|older than|higher than|wider than|taller than|exceed|exceeds|"
    "exceeding".split("|")
)
# A number said as an age ("aged 18 or over", "ages 5 and under").
_AGED_N = re.compile(r"\b(?:aged?|ages)\s+(\d+)\b", re.IGNORECASE)
# An age group: "under-12s", "over 65s".
_AGE_GROUP = re.compile(r"(?<!\d)\d+s\b")  # (from a number's first digit: linear)
# Verbs whose "over" is a particle, not a bound ("carry over 3 days", "spread it over 12
# months").
_OVER_VERBS = frozenset(
    """carry carries carried roll rolls rolled spread spreads hand hands handed take takes
    taken turn turns turned move moves moved switch cross paid pay split it them times
    instalments installments payments retries attempts""".split()
)
_UPPER_AFTER = tuple(
    "or less|or fewer|or under|or younger|or below|and under|and below|at most|max|maximum".split(
        "|"
    )
)
_TIME_RELATION = frozenset(
    "before ahead advance prior beforehand notice after later earlier".split()
)
_LOWER_AFTER = tuple(
    "or more|or over|or older|or above|and over|and above|and up|at least|min|minimum".split("|")
)


_UNIT_QUALIFIERS = frozenset("working business calendar clear full school banking".split())


def _after(ws: list[str], i: int, phrases: tuple[str, ...]) -> bool:
    """Whether one of ``phrases`` follows the number at ``ws[i]`` (right after it or
    its unit: "14 days or more"), and is not the lead of the next number ("under 12 and
    over 65" bounds 12 from one side only)."""
    # (Only the phrases whose first word is one of the two next: a long run of numbers
    # is read in one pass.)
    # (A unit of two words moves it one on: "5 working days minimum".)
    reach = 3 if ws[i + 1 : i + 2] and ws[i + 1] in _UNIT_QUALIFIERS else 2
    heads = {w for w in ws[i + 1 : i + 1 + reach]}
    for phrase, pw in _SPLIT_PHRASES[phrases]:
        if pw[0] not in heads:
            continue
        for k in range(i + 1, i + 1 + reach):
            if k == i + 1 and phrase == "min":
                continue  # "15 min" is minutes; "1 hour min" a minimum
            if ws[k : k + len(pw)] == pw:
                nxt = ws[k + len(pw)] if k + len(pw) < len(ws) else ""
                # (Not "and up to": "two adults and up to three children".)
                if _number_value(nxt) is None and not (pw[-1] == "up" and nxt == "to"):
                    return True
    return False


# A deadline's span before something (see _bounds): said as its last days ("within the
# last 10 days before") or as what it must be done by ("by" / "no later than" 10 days
# before).
_AHEAD_WORDS = frozenset("before ahead advance prior beforehand notice".split())
_LATER_WORDS = frozenset("after later".split())
_LAST_SPAN = re.compile(r"(?:^|\s)(?:within|in|during) the (?:last|final)$")
# A span back from now: how old something may be ("a statement dated within the last 90
# days" is at most 90 days old, against "at least 90 days old"). Not "over / during the
# past 3 years", which says how long a state lasted ("resident over the past 3 years" is
# "for at least 3 years").
_RECENT_SPAN = re.compile(r"(?:^|\s)(?:within|in) the (?:last|past)$")
# Bounds that point one way whatever follows (plain_bounds has written "no more than"
# as "at most"): right before the number.
_FIRM_BEFORE = re.compile(r"(?:^|\s)(?:at least|at most|no less than|no fewer than)$")


@functools.lru_cache(maxsize=1024)
def _bounds(text: str, units: bool = True) -> Mapping[float, frozenset[str]]:
    """Each number of ``text`` with the ways a bound next to it points ("max" / "min"),
    read after bound phrases with a negator are written plain ("no larger than" = "at
    most"). Cached: the exemplar's steps are read again for every answer."""
    low = plain_bounds(" " + " ".join(tokens(_GLUED_PLUS.sub(r"\1 or more", text))) + " ")
    ws = low.split()
    # The numbers of a "within" in a condition's own clause (see below).
    in_condition = {_number_value(m.group(1).casefold()) for m in _CONDITION_WITHIN.finditer(text)}
    out: dict[float, set[str]] = {}
    # Where each number's size ends ("60 x 40 x 40" -> the word after the last 40),
    # found in one pass from the right: a long run of numbers is read once, not once
    # per number.
    ends = [len(ws)] * len(ws)
    nxt = len(ws)
    for k in range(len(ws) - 1, -1, -1):
        ends[k] = nxt
        if ws[k] != "x" and _number_value(ws[k]) is None:
            nxt = k
    for i, w in enumerate(ws):
        v = _number_value(w)
        if v is None:
            continue
        # (Not a relative clause's: "for up to 90 days, after which you renew it" is
        # no span after anything.)
        relation = {
            w
            for k, w in enumerate(ws[i + 1 : i + 4], start=i + 1)
            if w in _TIME_RELATION and ws[k + 1 : k + 2] != ["which"]
        }
        said_before = " ".join(ws[max(0, i - 3) : i])
        if relation and not _FIRM_BEFORE.search(said_before):
            # A span before or after something is a deadline, whose bound reads
            # either way: "up to 24 hours before" = "at least 24 hours before". (Not
            # one that says which way in so many words: "at least 3 days before" is
            # not "no more than 3 days before"; nor a span before something said
            # as its last days, "within the last 10 days before the exam", against
            # one it must be done by, "no later than 10 days before the exam".)
            if relation & _AHEAD_WORDS and not relation & _LATER_WORDS:
                way = (
                    "max"
                    if _LAST_SPAN.search(said_before) or said_before.endswith("at earliest")
                    else "min"
                    if said_before.split()[-1:] == ["by"]
                    else ""
                )
                if way:
                    out.setdefault(v, set()).add(way)
            elif relation & _LATER_WORDS and said_before.endswith("at earliest"):
                # "No earlier than 30 days after" is at least 30 days after (against
                # "within 30 days"); "no earlier than 2 days before" at most 2 days
                # ahead (above).
                out.setdefault(v, set()).add("min")
            continue
        counted = False
        if units and not _has_unit(ws, i, ends[i]):
            # A number without a unit is as often the other side of the bound: "remove
            # seats above 5" says "at most 5 seats". (A number right before a noun
            # counts it: "up to six players" is "at most 6 players".)
            if not _counts_a_noun(ws, i + 1) or _CONDITION & set(ws[max(0, i - 8) : i]):
                # (Nor a count in a condition, which as often states the other side:
                # "if you want to skip more than six deliveries, pause instead" for
                # "you can skip up to 6 deliveries".)
                continue
            counted = True
        before = " " + " ".join(ws[max(0, i - 2) : i])
        # A bound word before the noun the number measures: "a minimum stay of five
        # nights", "the maximum load of 20 kg".
        lead = ws[max(0, i - 4) : i]
        named = _BOUND_OF.search(" ".join(lead) + " ") if _NAMED_BOUNDS & set(lead) else None
        if named:
            before = " " + named.group(1)
        ways = out.setdefault(v, set())
        upper_after, lower_after = _after(ws, i, _UPPER_AFTER), _after(ws, i, _LOWER_AFTER)
        after = upper_after or lower_after
        if (
            before.endswith(_UPPER_ENDS)
            or upper_after
            # "dated within the last 90 days": at most 90 days old
            or _RECENT_SPAN.search(" ".join(ws[max(0, i - 3) : i]))
        ):
            ways.add("max")
        if (
            before.endswith(_LOWER_ENDS)
            and not (ws[i - 1] == "over" and i > 1 and ws[i - 2] in _OVER_VERBS)
        ) or lower_after:
            ways.add("min")
        denied = (
            len(ways) == 1
            and not after
            and bool(
                NEGATORS & set(ws[max(0, i - 5) : i - 1])
                # (Or a verb negation right after the bounded noun it measures, the
                # bound being the clause's subject: "boats over 12 tonnes cannot be
                # lifted" says what "the hoist cannot lift boats over 12 tonnes" and
                # "it lifts boats of at most 12 tonnes" say. Only a bound right after
                # its noun: a verb's, "a membership that has lapsed for more than 30
                # days cannot be renewed", is as often said again as what happens
                # past it, "if it has lapsed for more than 30 days, join again".)
                or (
                    not counted
                    and ends[i] < len(ws)
                    and _after_its_noun(ws, i)
                    and _VERB_NEGATED_AFTER.match(" ".join(ws[ends[i] + 1 : ends[i] + 4]))
                )
            )
        )
        if before.endswith(" within") and (
            denied or _FAIL_WORDS & set(ws[max(0, i - 7) : i - 1]) or v in in_condition
        ):
            # A denied "within" is read either way: "claims not made within 28 days
            # are not paid" says what "must be made within 28 days" says, and
            # "not collected within 14 days" what "left for more than 14 days" says;
            # so is one in a condition's own clause, which as often states the other
            # side: "not seen unless they arrive within 10 minutes" for "more than 10
            # minutes late cannot be seen" (not "if you cancel, refunds are paid
            # within 5 days", nor the "once" of "once a week").
            ways.clear()
        elif denied and not (counted and before.endswith(_KEPT_DENIED)):
            # A denied bound points the other way: "cannot be longer than 8 weeks" is
            # "at most 8 weeks". (Not one written after the number, which no negator
            # before it governs: "no driving for 1 hour minimum"; nor "up to" or
            # "under" on a counted noun, where the negator denies the verb: "you don't
            # pay for up to two bags", "do not leave children under 8 alone".)
            (way,) = ways
            ways.clear()
            ways.add("max" if way == "min" else "min")
    return MappingProxyType({v: frozenset(ways) for v, ways in out.items()})


# Units of size and weight the quantity rule does not read ("40 cm", "2 GB").
_SIZE_UNITS = frozenset(
    """mm cm m km in inch inches ft foot feet metre metres meter meters kg g lb lbs tonne tonnes
    ml l litre litres liter liters kb mb gb tb""".split()
)


_SPLIT_PHRASES = {ps: [(p, p.split()) for p in ps] for ps in (_UPPER_AFTER, _LOWER_AFTER)}
_UPPER_ENDS = tuple(" " + b for b in _UPPER_BEFORE)
_LOWER_ENDS = tuple(" " + b for b in _LOWER_BEFORE)
_NAMED_BOUNDS = frozenset("min minimum max maximum".split())
_CONDITION = frozenset("if unless when whenever once".split())
_FAIL_WORDS = frozenset("fail fails failed failure".split())
# A "within" and its number in the clause a condition word opens.
_CONDITION_WITHIN = re.compile(
    r"\b(?:if|unless|when|whenever|once)\b(?!\s+(?:a|an|per|every|each|more)\b)"
    r"[^,;:.!?]{0,80}?\bwithin\s+(\w+)",
    re.IGNORECASE,
)


# The ways a customer reaches a business, a closed class that carries policy ("call the
# front desk" is not "email the front desk"): each by the words that use it as a way of
# contact ("call us", "by email", "text the desk"), not by a noun that names a thing
# ("the link in your confirmation text", "your phone", "a call-out fee", a "ring").
_OBJ = r"(?:us|me|them|the|your|our|him|her|it|reception|back)"
_CHANNELS = {
    "phone": re.compile(
        r"\b(?:(?:phone|telephone|call|ring)(?:s|d|ed)? " + _OBJ + r"|(?:phoning|calling|ringing)"
        r"|by (?:phone|telephone)|over the phone|give (?:[a-z]+ ){1,3}a (?:call|ring))\b",
        re.IGNORECASE,
    ),
    "email": re.compile(
        r"\b(?:e-?mail(?:s|ed)? " + _OBJ + r"|e-?mailing|(?:by|via) e-?mail"
        r"|send (?:us |them )?an e-?mail)\b",
        re.IGNORECASE,
    ),
    "text message": re.compile(
        r"\b(?:text(?:s|ed)? " + _OBJ + r"|texting|(?:by|via) (?:text|sms|whatsapp)"
        r"|send (?:us |them )?a text)\b",
        re.IGNORECASE,
    ),
    "post": re.compile(
        r"\b(?:by post|in the post|by mail|by letter|in writing|posted to us|post it to"
        # (Posting to the business, not "post a review": "by posting us the form",
        # "post them back to us".)
        r"|post(?:s|ed|ing)? us|post(?:s|ed|ing)?(?: [a-z-]+){1,4} to us)\b",
        re.IGNORECASE,
    ),
    "online": re.compile(
        r"\b(?:online|website|web site|portal|(?:the|our|your) app|mobile app)\b", re.IGNORECASE
    ),
    "in person": re.compile(r"\bin[- ]person\b", re.IGNORECASE),
}


# Any word of each way of contact, however used.
_CHANNEL_WORDS = {
    "phone": re.compile(r"\b(?:phon|telephon|call|ring)\w*", re.IGNORECASE),
    "email": re.compile(r"\be-?mail\w*", re.IGNORECASE),
    "text message": re.compile(r"\b(?:text\w*|sms|whatsapp)\b", re.IGNORECASE),
    "post": re.compile(r"\b(?:post|posted|mail|letter|writing)\b", re.IGNORECASE),
    "online": _CHANNELS["online"],
    "in person": _CHANNELS["in person"],
}
# A way of contact named as the one not to use: "do not text your handler", "rather than
# texting", "not by email" (a negator a few words before it, in its clause).
_DENIED_BEFORE = re.compile(
    r"(?:\b(?:not|never|no|rather than|instead of|without)\b|n['’]t\b)[^,;:.!?]{0,20}$",
    re.IGNORECASE,
)


# A way of contact the business uses to reach the customer ("we'll call you", "our
# team will text you"): which one is as often said loosely ("we'll be in touch by
# text" for "we'll call you") and is not read as the customer's way of contact.
_BUSINESS_DOES = re.compile(
    r"\b(?:we|we'll|we’ll|we will|we can|they|they'll|they will|our [a-z]+(?: will)?"
    r"|someone(?: will)?)\b[^,;:.!?]{0,20}$",
    re.IGNORECASE,
)


def _channels(text: str) -> list[str]:
    """The ways of contact ``text`` names as the customer's to use (not those it
    denies, nor the business's own way of reaching the customer)."""

    def used(p: re.Pattern[str]) -> bool:
        for m in itertools.islice(p.finditer(text), 8):
            before = text[max(0, m.start() - 30) : m.start()]
            if not _DENIED_BEFORE.search(before) and not _BUSINESS_DOES.search(before):
                return True
        return False

    return [name for name, p in _CHANNELS.items() if used(p)]


def _channel_swap(step: str, sentence: str) -> str | None:
    """The way of contact the step names and the other one the sentence names instead,
    as "was -> now" ("phone -> email" for "call the front desk" / "email the front
    desk"), or None: where the sentence names a way of contact and none of the step's.
    A way named as the one not to use counts on neither side ("...; do not text your
    handler")."""
    mine = _channels(step)
    if not mine:
        return None
    theirs = _channels(sentence)
    if any(_CHANNEL_WORDS[c].search(sentence) for c in mine) or any(
        _CHANNEL_WORDS[c].search(step) for c in theirs
    ):
        # A way of contact the other text names at all, if not as one used on its own:
        # "by phone or email" / "phone or email us" name both.
        return None
    if not theirs or set(mine) & set(theirs):
        return None
    return f"{', '.join(mine)} -> {', '.join(theirs)}"


def _after_its_noun(ws: list[str], i: int) -> bool:
    """Whether the bound before the number at ``ws[i]`` ("over", "longer than", "at
    least") stands right after a noun ("boats over 12 tonnes"), not after a verb or a
    preposition ("lapsed for more than 30 days")."""
    k = i - 1
    if (k >= 0 and ws[k] == "than") or (
        k >= 1 and f"{ws[k - 1]} {ws[k]}" in ("at least", "at most", "up to")
    ):
        k -= 1  # (the bound's first word)
    k -= 1
    if k < 0:
        return False
    w = ws[k]
    return bool(content([w])) and not w.endswith(("ed", "ing")) and w not in COMMON_VERBS


# A verb negated right after a bounded quantity (see _bounds): "cannot", "are not",
# "won't" ("wo n't" as tokens), "are never".
_VERB_NEGATED_AFTER = re.compile(
    r"(?:cannot|never|(?:can|ca|could|will|wo|would|may|must|should|shall|are|is|were|was|"
    r"do|does|did)\s+(?:not|n't|never))\b"
)
# Bound words a negator before a counted noun does not turn (see _bounds).
_KEPT_DENIED = tuple(
    " " + b for b in "up to|under|below|at most|at least|max|maximum|min|minimum".split("|")
)
# "minimum|maximum [<noun>] of|is" right before a number ("a maximum stay of 4 hours",
# "the minimum age is 16").
_BOUND_OF = re.compile(r"\b(min|minimum|max|maximum)(?: [a-z-]+){0,2} (?:of|is|are) $")


def _counts_a_noun(ws: list[str], j: int) -> bool:
    """Whether the word at ``ws[j]`` (right after a number) is a noun the number counts
    ("six players", "3 guests"): a content word, not a number, a bound word or a time
    relation ("5 or more" is read by the bound phrases; "16 and over" too)."""
    if j >= len(ws):
        return False
    w = ws[j]
    return (
        w.isalpha()
        and len(w) > 2
        and bool(content([w]))
        and _number_value(w) is None
        and w not in _TIME_RELATION
        and w not in _NOT_COUNTED
    )


# Words after a number that are no noun it counts.
_NOT_COUNTED = frozenset(
    """max maximum min minimum more less fewer over under above below plus only each
    per apiece""".split()
)


def _has_unit(ws: list[str], i: int, j: int) -> bool:
    """Whether the number at ``ws[i]`` has a unit after it (past the other numbers of a
    size, "60 x 40 x 40 cm", which end at ``ws[j]``): one of :data:`_SIZE_UNITS` or one
    the quantity rule reads ("15 kg", "3 days")."""
    if j >= len(ws):
        return False
    return ws[j] in _SIZE_UNITS or any(
        not q.startswith("n:") for q in quantities(f"{ws[i]} {ws[j]}")
    )


def _bound_reversed(
    step: str, sentence: str, units: bool = True, only: frozenset[str] = frozenset()
) -> str | None:
    """A bound the sentence turns the other way on the step's own number ("no larger
    than 60 cm" -> "at least 60 cm", "under 16" -> "16 and over"), as "was -> now", or
    None. Only a number bounded one way in each text (and, given ``only``, one of those
    numbers as written)."""
    ours, theirs = _bounds(step, units), _bounds(sentence, units)
    keep = {_number_value(n) for n in only}
    for v, ways in ours.items():
        if only and v not in keep:
            continue
        now = theirs.get(v, frozenset())
        if len(ways) == 1 and len(now) == 1 and ways != now:
            n = f"{v:g}"
            return f"{next(iter(ways))} {n} -> {next(iter(now))} {n}"
    return None


_TIMES_WORDS = {"once": 1.0, "twice": 2.0, "thrice": 3.0}


def _span_stated(q: str, qs: frozenset[str]) -> bool:
    """Whether ``qs`` states ``q``, a span and a period of one length counting as one
    ("a twelve-month period" / "once in any 12 months")."""

    def span(x: str) -> str:
        return x.lstrip("~").removeprefix("every:")

    return stated(q, qs) or stated(span(q), frozenset(span(x) for x in qs))


def _slot_quantities(known: str, step_main: Collection[str]) -> set[str]:
    """The quantities the step's instance values stand in, read with a number in each
    slot ("your delay of {delayMinutes} minutes" -> minutes), beside the step's own
    (``step_main``): of those kinds, a new quantity in the answer may be this trace's."""
    return main_readings(quantities(known.replace("<value>", "7919"))) - set(step_main)


def _movable(q: str) -> bool:
    """A quantity whose change is read in another sentence: not a bare number or an
    amount of money."""
    return not q.lstrip("~").startswith(("n:", "money:"))


# How many content words each side of a quantity's number make its anchor (the words
# around it that say what it measures: "within 28 days of the journey").
_ANCHOR_WORDS = 2


@functools.lru_cache(maxsize=512)  # (the same sentence is read for every step)
def _mentions(text: str) -> tuple[tuple[frozenset[str], tuple[str, ...], tuple[str, ...]], ...]:
    """Each number a text writes, as its quantity (main readings, read on the text as
    written from the word before the number to the two after it: "at least 7 days",
    "£3 per dose") and its anchor: the nearest content words before it and after it
    (not number, bound or unit words), at most :data:`_ANCHOR_WORDS` each, within six
    words. A number that goes on from the one before ("2 to 8") is read with it. At
    most :data:`_MAX_MENTIONS` numbers are read (a text of thousands is no answer a
    person reads, and is judged without this rule's help)."""
    out: list[tuple[frozenset[str], tuple[str, ...], tuple[str, ...]]] = []
    last = -1
    for m in _NUMBER_MENTION.finditer(text):
        if len(out) >= _MAX_MENTIONS:
            break
        if m.start() < last:
            continue
        # (Read in a window: the words it takes are near the number.)
        before_raw = text[max(0, m.start() - _ANCHOR_REACH) : m.start()]
        after_raw = text[m.end() : m.end() + _ANCHOR_REACH]
        head = _LAST_WORD.search(before_raw)
        tail = _NEXT_WORDS.match(after_raw)
        # (A number word read as its digits, as :func:`tokens` writes it: "one final
        # monthly payment" counts one payment.)
        number = NUMBER_WORDS.get(m.group(0).lower(), m.group(0))
        span = (head.group(0) if head else "") + number + (tail.group(0) if tail else "")
        last = m.end() + (tail.end() if tail else 0)
        every = quantities(span)
        qs = main_readings(every)
        if not qs:
            continue
        # (A time written without am or pm is either: "at 7:30" / "at 7:30 pm".)
        qs |= {q.lstrip("~") for q in every if q.startswith("~clock:")}
        cut = list(_ANCHOR_BREAK.finditer(before_raw))
        bw = tokens(before_raw[cut[-1].end() :] if cut else before_raw)[-5:]
        stop = _ANCHOR_BREAK.search(after_raw)
        aw = tokens(after_raw[: stop.start()] if stop else after_raw)[:6]
        before = [x for x in content(bw) if not _quantity_word(x) and x not in _DAY_KINDS]
        after = [x for x in content(aw) if not _quantity_word(x) and x not in _DAY_KINDS]
        out.append((frozenset(qs), tuple(before[-_ANCHOR_WORDS:]), tuple(after[:_ANCHOR_WORDS])))
    return tuple(out)


_MAX_MENTIONS = 48
# Words that say which days a span counts ("10 working days"): the quantity's, no anchor.
_DAY_KINDS = frozenset("working business calendar clear consecutive".split())
_ANCHOR_REACH = 120  # characters each side of a number (six words and more)


# A number as written: digits (with a currency sign or code before them) or a number
# word; the word before it and the two after it, which its reading takes in.
_NUMBER_MENTION = re.compile(
    r"(?:[£$€]\s?)?(?<![\w.,:])\d(?:[\d,.:]*\d)?|(?<![\w-])(?:"
    + "|".join(sorted((w for w in NUMBER_WORDS if w.isalpha()), key=len, reverse=True))
    + r")(?![\w-])",
    re.IGNORECASE,
)
_LAST_WORD = re.compile(r"[\w'-]+\s+$")
_NEXT_WORDS = re.compile(r"%?(?:[\s/+%-]*[\w'-]+){0,2}")
# Where the words around a number stop: a clause or sentence break.
_ANCHOR_BREAK = re.compile(r"[;:()\[\]!?\n]|\.(?:\s|$)")


def _one_kind(a: str, b: str) -> bool:
    """Two quantities of one kind in conflict (:func:`conflict`): not a bare number
    against a quantity with a unit."""
    return a.startswith("n:") == b.startswith("n:") and conflict(a, b)


def _anchored_change(
    step: str,
    sentence: str,
    prefix: int,
    slots: Collection[str] = (),
    answer: frozenset[str] | None = None,
) -> tuple[str, str] | None:
    """A quantity of the step replaced, in the sentence, by another of its kind at the
    same anchor ("within 28 days of the journey" -> "within 3 months of the journey";
    "an adult aged 18 or over, and children under 10" -> "an adult aged 16 or over,
    and no child under 10"): the step's quantity stated nowhere in the sentence, and a
    quantity there that conflicts with it (:func:`conflict`), that the step does not
    state at that place, with a word after the number in common, or the two before it
    (a bare number, a word on each side: "adult aged 18 or over" is a count, and so
    are the two ends of "2 to 8 players"). Two of one kind only: a bare number against
    a duration is as often a quantity written in a way not read here. ``slots``: the
    kinds of the instance values the step holds ("your delay of {delayMinutes}
    minutes"): a quantity of that kind may be this instance's. ``answer``: the
    quantities of the whole answer; where the new quantity is one the step states at
    another place, the old one must be stated nowhere in it ("Withdrawals 8 to 27 days
    before the start ..., and withdrawals within 7 days ..." against "Withdrawals within
    7 days of the start date ...": the answer says "27 days" in another sentence).
    A paraphrase moves quantities about and rewrites what is around them, but the
    number that stands where the step's stood, with what it measures kept, is the
    policy's number. (Both texts masked: an instance's values are no quantity here.)
    Returns the lost and the new quantity as written canonically."""
    said = quantities(sentence)
    own = quantities(step)
    theirs = _mentions(sentence)
    if not theirs:
        return None
    for qs, before, after in _mentions(step):
        # (Only readings the whole step gives: "forty-eight hours" is not "8 hours",
        # nor "3 to 5 working days" a bare 3.)
        lost = [g for g in qs if stated(g, own) and not stated(g, said)]
        if not lost or (len(lost) < len(qs) and all(g.startswith("clock:") for g in qs)):
            continue
        for rs, b2, a2 in theirs:
            shared_after = sum(any(same_word(x, y, prefix) for y in a2) for x in after)
            shared_before = sum(any(same_word(x, y, prefix) for y in b2) for x in before)
            near = shared_after >= 1 or shared_before >= 2
            both = shared_after >= 1 and shared_before >= 1
            if not near:
                continue
            for r in rs:
                if stated(r, qs) or not stated(r, said) or any(_one_kind(v, r) for v in slots):
                    continue
                for g in lost:
                    if not (_one_kind(g, r) and (both or not g.startswith("n:"))):
                        continue
                    if answer is not None and stated(r, own) and stated(g, answer):
                        continue
                    return g, r
    return None


@functools.lru_cache(maxsize=1024)
def _times_written(text: str) -> frozenset[float]:
    """The counts a text writes as "once", "twice" or "thrice"."""
    return frozenset(_TIMES_WORDS[w] for w in tokens(text) if w in _TIMES_WORDS)


# A strict bound on a whole count is the inclusive one a step further: "children under 8"
# = "children aged 7 or under", "more than 10 people" = "11 or more people", "guests over
# 17" = "guests aged 18 or over". A count: a count noun after the number ("people",
# "nights", "seats"), or "years old", or a bare number after a person or an animal
# ("children under 8 must ..."). Not what is measured ("more than 2 hours", "over 20
# knots", "less than 50 per cent", "longer than 2 years": "3 hours or more" is another
# bound), nor a denied comparison ("no more than 12" is "at most 12").
_STRICT_BOUND = re.compile(
    r"(?<!\bno )(?<!\bnot )\b(?:(under|below|younger than|less than|fewer than)|(over|above"
    r"|more than|older than|longer than))\s+(\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\b"
    r"(?![.,:]\d|%|-)",
    re.IGNORECASE,
)
_COUNT_NOUNS = frozenset(
    """people persons guests adults children kids passengers players riders members pupils
    students visitors patients nights rooms seats items bags boxes tickets stops visits
    sessions lessons classes cars vehicles pets dogs cats animals attempts books places
    tables bikes pieces parcels orders covers units participants""".split()
)
_AGED = frozenset(
    """children child kids adults patients members guests customers visitors riders players
    pupils students passengers residents users juniors seniors infants babies toddlers
    teenagers teens dogs cats puppies kittens pets animals anyone everyone people persons
    aged age ages""".split()
)
_MEASURES = (
    frozenset(
        """hour hours hr hrs h minute minutes min mins second seconds secs day days week weeks
    month months year years yr yrs lb lbs stone kg kilos g km mile miles m metres meters cm
    mm litres liters knots degrees per percent tonnes tons pounds dollars euros""".split()
    )
    | (_SIZE_UNITS - {"in", "l"})  # (not "children under 5 in the pool")
    | frozenset(
        """kilogram kilograms kilo gram grams grammes ounce ounces oz tonne ton mph kph kmh
    metre meter kilometre kilometres kilometer kilometers mile yard yards litre liter
    gallon gallons pint pints cup cups celsius fahrenheit bpm pence cents pound dollar
    euro percentage""".split()
    )
)
# A strict comparison before a number that ``_inclusive`` left as it is ("larger than 11
# people", "below the age of 4", "older than 8 years"): the same number is not the same
# bound there.
_STRICT_LEFT = re.compile(
    r"(?<!\bno )(?<!\bnot )\b(?:under|below|younger than|less than|fewer than|over|above"
    r"|more than|older than|longer than|larger than|greater than|bigger than|higher than"
    r"|lower than|smaller than|shorter than|exceeding|exceeds?|beyond)\s+"
    r"(?:(?:the )?age of\s+|aged\s+)?(?:\d+(?:\.\d+)?|" + "|".join(NUMBER_WORDS) + r")\b",
    re.IGNORECASE,
)


def _strict_left(text: str) -> frozenset[str]:
    """The strict comparisons ``_inclusive`` left in ``text``, as written (one both texts
    make, "tours under 3 hours", is no change of bound)."""
    return frozenset(" ".join(m.group(0).casefold().split()) for m in _STRICT_LEFT.finditer(text))


def _inclusive(text: str) -> str:
    """``text`` with its strict bounds on whole counts written inclusive ("children
    under 8" -> "children at most 7")."""

    def one(m: re.Match[str]) -> str:
        after = [w.strip(".,;:!?()") for w in m.string[m.end() : m.end() + 24].casefold().split()]
        before = [
            w.strip(".,;:!?()")
            for w in m.string[max(0, m.start() - 40) : m.start()].casefold().split()
        ]
        after, before = [w for w in after if w][:2], [w for w in before if w][-2:]
        counted = bool(after) and after[0] in _COUNT_NOUNS
        old = after[:2] == ["years", "old"] or after[:1] == ["year-olds"]
        bare = not after or after[0] not in _MEASURES
        if not (counted or old or (bare and _AGED & set(before))):
            return m.group(0)
        w = m.group(3).casefold()
        n = int(NUMBER_WORDS.get(w, w))
        if m.group(1):
            return f"at most {n - 1}" if n > 0 else m.group(0)
        return f"at least {n + 1}"

    return _STRICT_BOUND.sub(one, text)


def _same_bound(step: str, sentence: str) -> bool:
    """Whether a step's quantities lost from a sentence are there once strict bounds on
    whole counts are written inclusive in both ("Children under 8" / "children aged 7 or
    under"), and the sentence states no other quantity: the same bound, written the other
    way (not the same number bounded the other way, "children aged 7 or older")."""
    a, b = _inclusive(step), _inclusive(sentence)
    if (a, b) == (step, sentence) or _bound_reversed(a, b) or _bound_reversed(a, b, units=False):
        return False  # (the same number bounded the other way: "7 or older")
    if _strict_left(a) != _strict_left(b):
        return False  # (a strict bound left strict: "larger than 11" is "at least 12")
    # Amounts the sentence writes as a slot count as quantities it states: no more of
    # them than the step has ("sail free" / "sail for <money>" is a new price).
    if sentence.count("<money>") > len(MONEY.findall(step)) + step.count("<money>"):
        return False
    want, have = main_readings(quantities(a)), main_readings(quantities(b))
    return bool(want) and all(stated(q, have) for q in want) and all(stated(q, want) for q in have)


def _value(q: str) -> float:
    """The number of a canonical quantity ("n:3" -> 3.0)."""
    return float(q.rsplit(":", 1)[-1])


# Words of a floor or an open top, which no allowance per unit is said with.
_FLOOR_WORDS = frozenset(
    """least minimum min more over above exceed exceeds often plus extra again beyond
    any unlimited additional further""".split()
)
# Rates after a count ("once a year", "twice per booking").
_RATE_WORDS = frozenset("a an per each every".split())


def _times_value(w: str) -> float | None:
    """The number a token writes (:func:`_number_value`), or the count a multiplicative
    word says ("twice" is 2)."""
    v = _number_value(w)
    return _TIMES_WORDS.get(w) if v is None else v


def _number_value(w: str) -> float | None:
    """The number a token writes ("12", "twelve", "12.5"; :func:`tokens` has already
    dropped a currency symbol), else None."""
    if w in NUMBER_WORDS:
        w = NUMBER_WORDS[w]
    try:
        return float(w)
    except ValueError:
        return None


def _about_term(
    step: str, term: str, gw: list[str], p: int, others: Sequence[list[str]] = ()
) -> bool:
    """Whether the sentence ``gw`` talks about what the step's clause with ``term``
    talks about: it shares a content word of that clause ("cash" of "Cash is not
    accepted at the kiosk", "refunded" of "no partial refunds are given"). A sentence
    that states another part of the step ("show the ticket at the gate" for "...;
    screenshots are not accepted") says nothing of the term; nor does one that states
    another clause of the step in that clause's own words and shares with the term's
    clause only words both clauses have, where another sentence (``others``: those no
    step holds) has a word of the term's clause's own and a negator ("- Until end of
    week one: 50%" for "until the end of the first week you get 50% back; from the
    second week onwards no refund is given", beside "- Week two onwards: nothing":
    "week" is both clauses', "onwards" the term's)."""
    low = term.casefold()
    clauses = split_clauses(step)
    clause = next((c for c in clauses if low in c.casefold()), step)
    about = content(tokens(clause))

    def shares(words: list[str], ws: list[str]) -> bool:
        have = content(ws)
        return any(same_word(w, x, p) for w in words for x in have)

    rest = [w for c in clauses if c != clause for w in content(tokens(c))]
    own = [w for w in about if not any(same_word(w, x, p) for x in rest)]
    theirs = [w for w in rest if not any(same_word(w, x, p) for x in about)]
    elsewhere = (
        bool(own)
        and shares(theirs, gw)
        and any(shares(own, ws) and any(w in NEGATORS for w in ws) for ws in others)
    )
    return shares(own if elsewhere else about, gw)


def _kept_in_other_words(
    w: str,
    keys: list[str],
    gw: list[str],
    all_words: list[str],
    keys_numbers: frozenset[str] = frozenset(),
) -> bool:
    """Whether the sentence ``gw`` keeps the declared term's word ``w`` in other
    closed-class words: a comparison or an age by another word of its class
    ("larger than A4" -> "over A4 size", "aged 18 or over" -> "18 or older"), a
    cost noun by another cost word when the term is not about being free ("original
    purchase price" -> "what you originally paid"), a word with a negative prefix
    by a negation of its stem ("non-refundable" -> "can't be refunded", "no
    refunds"). Comparisons and ages are looked up in the whole answer, like the
    term's other words; costs and negations in the sentence."""
    for group in TERM_CLASS_WORDS:
        if w in group and any(x in group for x in all_words):
            return True
    if w in _PRICE_CUT and _cut_off(keys_numbers, gw):
        return True  # "a 5% discount" -> "5% off"
    if w in ("before", "by") and _DEADLINE.search(" ".join(gw)):
        return True  # "before 8 am" -> "no later than 8 am"
    if w == "before" and _AHEAD.search(" ".join(gw)):
        return True  # "before the goods arrive" -> "ahead of the goods' arrival"
    if w in _CONTACTING and any(x in _CONTACTING for x in gw):
        return True  # "do not contact the port" -> "please don't ring the port"
    if any(_nominal(w, x) or _nominal(x, w) for x in all_words):
        return True  # "before the goods arrive" -> "before their arrival"
    if w in _ORDINALS and _ORDINALS[w] in _written_ordinals(gw):
        return True  # "the first $50" -> "the 1st $50"
    if any(_abbreviates(x, w) for x in gw):
        return True  # "account credit" -> "acct credit"
    if any(_shortens(x, w) for t in gw for x in t.split("-")):
        return True  # "Monday to Saturday" -> "Mon-Sat"
    if (
        w in COST_WORDS
        and not any(k in COST_FREE_WORDS for k in keys)
        and any(x in COST_WORDS for x in gw)
    ):
        return True
    for prefix in ("non-", "non", "un"):
        stem = w[len(prefix) :]
        if w.startswith(prefix) and len(stem) >= 4:
            return any(x in NEGATORS or x == "n't" for x in gw) and any(
                same_word(stem, x, 4) or same_word(x, stem, 4) or _one_class(stem, x) for x in gw
            )
    return False


# "Ahead of", "prior to", "in advance of": "before" in other words.
_AHEAD = re.compile(r"\b(?:ahead of|prior to|in advance of)\b")
# Getting in touch, said by any of its ways: a declared "contact" is kept by "ring",
# "email", "approach" (which way, where a step names one, is the channel rule's).
_CONTACTING = frozenset(
    "contact contacting contacted call calling ring ringing phone phoning email emailing "
    "approach approaching message messaging chase chasing".split()
)
_CONTACT_ANY_WAY = frozenset("contact contacting contacted".split())
_ORIGINAL_PAYMENT_WORDS = frozenset("original payment method card form means".split())
# The nouns made from a verb by a suffix: "arrive" / "arrival", "renew" / "renewal",
# "deliver" / "delivery", "pay" / "payment", "confirm" / "confirmation", "cancel" /
# "cancellation". ("-al" only after a final "e" dropped or a "w", "-y" only after
# "-er": not "person" / "personal", "part" / "party".)


def _nominal(verb: str, noun: str) -> bool:
    """Whether ``noun`` is ``verb`` made a noun by a suffix (see above)."""
    if len(verb) < 3 or not noun.startswith(verb[:2]):
        return False
    if verb.endswith("e") and noun in (verb[:-1] + "al", verb + "ment", verb[:-1] + "ation"):
        return True
    if verb.endswith("w") and noun == verb + "al":
        return True
    if verb.endswith("er") and noun == verb + "y":
        return True
    return noun in (verb + "ment", verb + "ation", verb + "lation") and len(verb) >= 3


_ZERO = re.compile(r":0(?:\.0+)?$")
# Day and month names, which a sentence may shorten to their first letters ("Mon-Sat",
# "Sept").
_CALENDAR_NAMES = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday january february march
    april june july august september october november december""".split()
)


def _near_number(ws: list[str], numbers: frozenset[str]) -> list[str]:
    """The words around each of ``numbers`` in ``ws`` (four before, two after): what
    bounds it or moves it; all of ``ws`` where none of them is written in digits
    ("three hundred dollars")."""
    values = {_number_value(n) for n in numbers} - {None}
    at = [i for i, w in enumerate(ws) if w in numbers or _number_value(w) in values]
    if not at:
        return ws
    return [w for i in at for w in ws[max(0, i - 4) : i + 3]]


def _bounds_said(ws: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The words of a sentence with its denied comparisons in their plain form ("no
    more than $300", "will not exceed $300" -> "at most"; "no less than" -> "at
    least"), and the words those phrases wrote."""
    padded = " " + " ".join(ws) + " "
    phrased = frozenset(
        t
        for phrase, _ in (*BOUND_PHRASES, *_CAP_PHRASES)
        if f" {phrase} " in padded
        for t in phrase.split()
    )
    plain = plain_bounds(padded)
    for phrase, way in _CAP_PHRASES:
        plain = plain.replace(f" {phrase} ", f" {way} ")
    return frozenset(tokens(plain)), phrased


# A cap said with a negator that the polarity rule must still read as one ("cannot
# exceed £300" against "can exceed £300"): read as a bound beside a declared term only.
_CAP_PHRASES = (
    ("cannot exceed", "at most"),
    ("never exceed", "at most"),
    ("never exceeds", "at most"),
)


def _said_the_way(
    w: str, ways: set[str], phrased: frozenset[str], said_bounds: frozenset[str]
) -> bool:
    """Whether the word ``w`` writes a bound or a price change the way ``ways`` point;
    a word of a denied comparison by its plain form ("more" in "no more than" is "at
    most")."""
    if w in phrased:
        return any(said_bounds & _TERM_WAYS[way] for way in ways)
    return any(w in _TERM_WAYS[way] for way in ways)


def _shortens(short: str, name: str) -> bool:
    """Whether ``short`` is a day or month name shortened to its first letters ("Mon"
    for "Monday", "Sept" for "September")."""
    return name in _CALENDAR_NAMES and len(short) >= 3 and name.startswith(short)


# Words that round a quantity ("roughly half an hour", "approx 30 mins"): how it is
# written, not a policy of its own.
_APPROXIMATE = frozenset("about around roughly approx approximately circa".split())
_PRICE_CUT = next(g for g in TERM_CLASS_WORDS if "discount" in g)
# "5% off", "£10 off" (tokens: the symbols are gone).
_PERCENT_OFF = re.compile(r"(?:^|\s)(\d+(?:[.,]\d+)?) (?:percent |per cent )?off(?=\s|$)")


def _cut_off(numbers: frozenset[str], gw: list[str]) -> bool:
    """Whether the sentence says a price cut as "N off" with the term's own number
    ("a 5% discount" -> "5% off"; not "5% extra, or 20% off lessons")."""
    return any(m.group(1) in numbers for m in _PERCENT_OFF.finditer(" ".join(gw)))


# A deadline at a time or date ("no later than 8 am", "by 8 am"; tokens).
_DEADLINE = re.compile(r"(?:^|\s)(?:(?:no|not) later than|by|before|prior to|ahead of) \d")
_ORDINALS = {
    w: str(i)
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1
    )
}
_ORDINAL_ENDS = frozenset("st nd rd th".split())
_VOWELS = frozenset("aeiou")


def _said_again(word: str, other: str) -> bool:
    """Whether ``other`` says what ``word`` says: both say that nothing is charged
    ("free" / "complimentary"), both a price cut ("discount" / "reduction"), or
    ``other`` contracts ``word`` ("acct" / "account"). (Narrower than
    TERM_CLASS_WORDS: "returned" is not "refunded" in a swap.)"""
    if word in COST_FREE_WORDS and other in COST_FREE_WORDS:
        return True
    if word in _PRICE_CUT and other in _PRICE_CUT:
        return True
    if other in _SAME_AS.get(word, ()):
        return True  # "a new declaration" -> "a fresh declaration"
    return _abbreviates(other, word)


# Words that say the same as another in any sentence ("new" / "fresh").
_SAME_AS = {"new": frozenset({"fresh"}), "fresh": frozenset({"new"})}


def _written_ordinals(ws: list[str]) -> set[str]:
    """The ordinals written in digits ("1st": tokens "1", "st")."""
    return {w for w, nxt in itertools.pairwise(ws) if w.isdigit() and nxt in _ORDINAL_ENDS}


def _abbreviates(short: str, word: str) -> bool:
    """Whether ``short`` is a contraction of ``word`` that keeps its first and last
    letters and drops its vowels ("acct" / "account", "std" / "standard", "mgmt" /
    "management"); prefix abbreviations ("approx") are :func:`same_word`'s."""
    if len(short) < 3 or len(word) < len(short) + 3 or not short.isalpha():
        return False
    if short[0] != word[0] or short[-1] != word[-1]:
        return False
    if any(c in _VOWELS for c in short[1:]):
        return False
    rest = iter(word)
    return all(c in rest for c in short)


def _opposite_way(term: list[str], gw: list[str]) -> bool:
    """Whether the sentence moves an amount the other way from the term ("reduced by
    50%" -> "50% extra") and not its way."""
    up, down = set(term) & UP_WORDS, set(term) & DOWN_WORDS
    g = set(gw)
    return bool(
        (down and g & UP_WORDS and not g & DOWN_WORDS)
        or (up and g & DOWN_WORDS and not g & UP_WORDS)
    )


def _one_class(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are words of one class of :data:`TERM_CLASS_WORDS`."""
    return any(a in group and b in group for group in TERM_CLASS_WORDS)


def _modifier_swap(
    keys: list[str], gw: list[str], answer_words: list[str], ref_words: list[str], p: int
) -> str | None:
    """A declared term whose head noun is kept with another modifier in front of it
    ("Flex fares" -> "Saver fares", "express delivery" -> "economy delivery"), or
    None. The modifier the term has is nowhere in the answer, and the word now
    before the head is a content word the reference does not use; a dropped
    modifier ("the portal" for "the applicant portal") is no swap, nor are the words
    of a quantity ("15 minutes early" -> "a quarter of an hour early")."""
    if len(keys) < 2 or any(_quantity_word(k) for k in keys):
        return None  # a quantity's words are the quantity rule's ("15 minutes early")
    head, mods = keys[-1], keys[:-1]
    # (A term that ends in an adverb has no head noun: "restarts automatically" ->
    # "resumes automatically" rewords the verb, as the modal and polarity rules read.)
    if _adverb(head):
        return None
    if any(any(same_word(m, a, _NO_STEM) for a in answer_words) for m in mods):
        return None
    # A modifier said with another word of its class or contracted ("free" /
    # "complimentary", "account" / "acct").
    if any(_said_again(m, w) for m in mods for w in answer_words):
        return None
    for i, w in enumerate(gw[1:], start=1):
        if not same_word(head, w, _NO_STEM):
            continue
        before = gw[i - 1]
        if (
            before not in STOPWORDS
            # ("another person's name" -> "someone else's name")
            and before.split("'")[0] not in _OTHER_ONE
            and content([before])
            and not _quantity_word(before)
            and _count(before, ref_words, p) == 0
        ):
            return f"{before} {w}"
    return None


# Terms of everyday English said with other words of their own: the term, and what
# says it in the sentence ("whichever comes first" = "..., if that's sooner" /
# "whichever is earlier"; "at any time" = "whenever you like", "anytime").
_TERM_IDIOMS = (
    (
        re.compile(r"\bwhichever (?:comes|is|happens|occurs) (?:first|sooner|earlier)\b"),
        re.compile(
            r"\bwhichever (?:is |comes |happens |occurs )?(?:first|sooner|earlier)\b"
            r"|\bif (?:that's |that is |this is |it's |it is |that comes |that happens )?"
            r"(?:sooner|earlier)\b"
        ),
    ),
    (
        re.compile(r"\bat any time\b"),
        re.compile(r"\bwhenever you (?:like|want|wish|choose|need)\b|\banytime\b|\bany time\b"),
    ),
)


def _idiom_kept(term: str, gw: list[str]) -> bool:
    said = " ".join(gw)
    return any(t.search(term.casefold()) and a.search(said) for t, a in _TERM_IDIOMS)


# Nouns that end in "ly" ("immediate family"); other words of six letters or more that
# do are read as adverbs ("automatically", "directly").
_LY_NOUNS = frozenset(
    "family families supply supplies assembly assemblies monopoly anomaly butterfly rally "
    "ally belly jelly lily bully italy july".split()
)


def _adverb(w: str) -> bool:
    return w.endswith("ly") and len(w) >= 6 and w not in _LY_NOUNS


# Words that point to another one of the head, no kind of it.
_OTHER_ONE = frozenset({"else", "other", "another", "own", "same"})


@functools.lru_cache(maxsize=8192)
def _quantity_word(w: str) -> bool:
    """A number word, a bound word or a unit ("days", "hour"): part of how a quantity
    is written, which the quantity rule compares in canonical form."""
    if w[:1].isdigit() or w in NUMBER_WORDS or w in _BOUND_WORDS or w in _QUANTITY_WORDS:
        return True
    if all(
        x.isalpha() and (x in NUMBER_WORDS or any(q.startswith("n:") for q in quantities(x)))
        for x in w.split("-")
    ):
        return True  # "forty", "twenty-five", "one-hundred"; not "two-factor"
    # A unit after the number ("2 days", "2 pm", "2 dollars") or a currency code
    # before it ("GBP 2").
    return any(
        not q.startswith("n:")
        for q in main_readings(quantities(f"2 {w}") | quantities(f"{w.upper()} 2"))
    )


def _substitution(
    sw: list[str],
    gw: list[str],
    answer_words: list[str],
    ref_words: list[str],
    p: int,
    same_quantities: bool = False,
) -> str | None:
    """A policy noun of the step swapped for another inside an otherwise unchanged
    statement, or None.

    Evidence that the replaced span is a different thing, not a synonym, without
    a thesaurus: the rest of the step is held fixed (every other content word of
    the step is in this sentence, and nothing but the swap is added or dropped), the
    swap is short (one to three words a side),
    the lost words occur nowhere in the answer and the new ones nowhere in the
    reference, each side has a policy word (not a light word or a common verb:
    verbs are reworded freely), and no antonym is involved (polarity owns those).
    A paraphrase rewrites more than one short span, so it does not meet the first
    condition; a swapped channel, scope or document does ("by phone" -> "by text message").
    """
    # (Nor the auxiliary of "won't", "can't", "shan't": tokens "wo", "ca", "sha".)
    a = [t for t in sw if t not in STOPWORDS and t != "n't" and t not in AUX_HALVES]
    b = [t for t in gw if t not in STOPWORDS and t != "n't" and t not in AUX_HALVES]
    matcher = difflib.SequenceMatcher(
        a=[canon(t) for t in a], b=[canon(t) for t in b], autojunk=False
    )
    ops = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    if i2 - i1 > 3 or j2 - j1 > 3:
        return None
    if same_quantities and any(_quantity_word(w) for w in a[i1:i2] + b[j1:j2]):
        # A quantity reworded ("arrive 15 minutes" -> "get there a quarter of an
        # hour"): the segment states the step's quantities in canonical form, and the
        # swap is how it writes them, which is the quantity rule's to judge.
        return None
    if _count_value(a[i1:i2]) is not None and _count_value(a[i1:i2]) == _count_value(b[j1:j2]):
        return None  # the same count in other words ("a single" -> "one"): the count rule's
    rest = content(a[:i1] + a[i2:])
    gwc = content(b)
    if any(not any(same_word(w, x, p) for x in gwc) for w in rest):
        return None
    # Bound and comparison words belong to the quantity rule, never to a noun swap.
    lost = [
        w
        for w in content(a[i1:i2])
        if w not in _COMPARISON_WORDS and _count(w, answer_words, p) == 0
    ]
    new = [
        w for w in content(b[j1:j2]) if w not in _COMPARISON_WORDS and _count(w, ref_words, p) == 0
    ]
    if not lost or not new:
        return None
    # A bound said as a denied comparison ("capped at £200" -> "won't exceed £200"):
    # the quantity rule's and the declared terms'.
    _, phrased = _bounds_said(gw)
    if all(w in phrased for w in new) and all(w in _BOUND_WAY_WORDS for w in lost):
        return None
    # Verbs around the swapped nouns may change with them ("avoid a fee" ->
    # "receive a discount"); the nouns on both sides are what must differ.
    if not policy_terms(lost) or not policy_terms(new):
        return None
    if all(any(_said_again(x, y) for x in policy_terms(lost)) for y in policy_terms(new)):
        return None  # said again in other words ("free" -> "complimentary")
    if all(any(y in _SAME_AS.get(x, ()) for x in lost) for y in policy_terms(new)):
        return None  # "do not lodge a new declaration" -> "don't submit a fresh one"
    if (
        policy_terms(new) == ["already"]
        and not {"yet", "still"} & set(a[i1:i2])
        and not (NEGATORS & set(sw[max(0, i1 - 3) : i2 + 1]))
    ):
        return None  # "only considered once you have applied" -> "must already have applied"
    if any(w in ANTONYM_WORDS for w in lost + new):
        return None
    if all(w in _CONTACT_ANY_WAY for w in policy_terms(lost)) and all(
        w in _CONTACTING for w in policy_terms(new)
    ):
        return None  # "do not contact the venue" -> "don't ring the venue": a way of it
    if ORIGINAL_PAYMENT.search(" ".join(a[max(0, i1 - 2) : i2 + 2])) and paid_with(" ".join(gw)):
        return None  # "original payment method" -> "the card you paid with"
    if all(w in COST_WORDS for w in lost + new):
        return None  # a cost said another way ("is charged £65" -> "fee: £65")
    if any(w in COST_FREE_WORDS for w in new) and any(w in NEGATORS for w in a[i1:i2]):
        return None  # "at no extra charge" -> "free of charge"
    short = [x for w in b[j1:j2] for x in w.split("-")]
    if all(any(_shortens(x, w) for w in lost) for x in short):
        return None  # "Monday to Friday" -> "Mon-Fri"
    if all(w in _PARTIES for w in lost) and _two_named(gw, new):
        return None  # "binding on both parties" -> "binding on you and your landlord"
    return f"{' '.join(a[i1:i2])} -> {' '.join(b[j1:j2])}"


# Words for the parties to something, said as the two of them by name: "both parties" =
# "you and your landlord", "each side" = "the buyer and the seller".
_PARTIES = frozenset("party parties side sides".split())


def _two_named(words: list[str], new: list[str]) -> bool:
    """Whether a new word of ``new`` stands in ``words`` joined by "and" to another
    (within three words: "you and your landlord", "the seller and you")."""
    return any(w in new and "and" in words[max(0, i - 3) : i + 4] for i, w in enumerate(words))


_Span = tuple[list[str], list[str], int, int, list[str]]


def _replaced_span(sw: list[str], gw: list[str]) -> _Span | None:
    """Where a sentence keeps the step word for word (stopwords and punctuation aside)
    but for one replaced span: the step's words there, the sentence's, how many words
    are kept, how many words the step has, and the word after the span when both
    sides have it (a unit or a noun: "3 months" / "12 months"). None otherwise."""
    a = [t for t in sw if t not in STOPWORDS and t[:1].isalnum()]
    b = [t for t in gw if t not in STOPWORDS and t[:1].isalnum()]
    ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = changed[0]
    same = sum(i2 - i1 for op, i1, i2, _, _ in ops if op == "equal")
    after = a[i2 : i2 + 1] if a[i2 : i2 + 1] == b[j2 : j2 + 1] else []
    return a[i1:i2], b[j1:j2], same, len(a), after


def _numbered(ws: list[str]) -> bool:
    return any(w[:1].isdigit() or w in NUMBER_WORDS for w in ws)


def _one_span(span: _Span | None) -> str | None:
    """The words that replace one span of the step in a sentence that keeps the rest
    of it word for word (at least three content words and three fifths of its
    words), or None (``span``: :func:`_replaced_span`)."""
    if span is None:
        return None
    _, new, same, size, _ = span
    if same < max(3, 0.6 * size):
        return None
    if _numbered(new):
        return None  # a number written another way is the quantity rule's
    return " ".join(new)


def _number_span(span: _Span | None) -> bool:
    """Whether the sentence keeps the step word for word (three words or more) but for
    one short span (four words a side at most) with a number on both sides
    (``span``: :func:`_replaced_span`)."""
    if span is None:
        return False
    old, new, same, _, _ = span
    return same >= 3 and len(old) <= 4 and len(new) <= 4 and _numbered(old) and _numbered(new)


def _span_quantities(span: _Span | None) -> tuple[set[str], set[str]] | None:
    """The quantities of the one replaced word where a sentence keeps the step word for
    word but for one plain number (digits or a number word, not a time or an amount
    written with its unit: "6pm" / "18:00" is read on the whole texts), the step's and
    the sentence's, each read with the word after it when both sides share it ("3
    months" / "12 months"); None otherwise (``span``: :func:`_replaced_span`)."""
    if span is None or not _number_span(span):
        return None
    old, new, _, _, after = span
    if len(old) != 1 or len(new) != 1 or not all(_plain_number(w) for w in old + new):
        return None
    was = main_readings(quantities(" ".join(old + after)))
    now = main_readings(quantities(" ".join(new + after)))
    if not was or not now:
        return None
    return was, now


def _plain_number(w: str) -> bool:
    return w.isdigit() or w in NUMBER_WORDS


# Comparison and order words by pairs of opposites: a step kept word for word but for
# one of them turned the other way says the opposite.
_OPPOSITES: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    # (Not "above" / "below", nor "earlier" / "later": as often where a text points,
    # "the form below", "as explained earlier".)
    (SAME_CLASS_WORDS[0] - {"above"}, SAME_CLASS_WORDS[1] - {"below"}),
    (frozenset({"before"}), frozenset({"after"})),
    (frozenset("first earliest".split()), frozenset("last latest final".split())),
    (frozenset("minimum min least lowest".split()), frozenset("maximum max most highest".split())),
)


def _opposite_span(span: _Span | None) -> str | None:
    """ "old -> new" where a sentence keeps the step word for word (at least three
    content words and three fifths of its words) but for one word of a comparison or
    an order, replaced by its opposite (:data:`_OPPOSITES`); None otherwise (``span``:
    :func:`_replaced_span`)."""
    if span is None:
        return None
    old, new, same, size, _ = span
    if len(old) != 1 or len(new) != 1 or same < max(3, 0.6 * size):
        return None
    (w,), (v,) = old, new
    for one, other in _OPPOSITES:
        if (w in one and v in other) or (w in other and v in one):
            return f"{w} -> {v}"
    return None


def _count_value(words: list[str]) -> float | None:
    """The number a run of count words states ("single", "one", "2"), None when the
    run is anything else."""
    if not words:
        return None
    total = 1.0
    for w in words:
        if w.isdigit():
            total *= float(w)
        elif w == "single":
            continue
        elif w in NUMBER_WORDS:
            total *= float(NUMBER_WORDS[w])
        else:
            return None
    return total


_BOUND_WORDS = frozenset(
    "within more less most least later earlier sooner under over up maximum minimum between".split()
    + "max min".split()
)
# The bound words by the way they point (a declared term's bound said in another word
# of its way: "capped at $250" / "a maximum of $250").
_BOUND_WAYS = {
    "max": frozenset(
        "max maximum most cap capped ceiling up under within less limit limited".split()
    ),
    "min": frozenset("min minimum least more over".split()),
}
_BOUND_WAY_WORDS = _BOUND_WAYS["max"] | _BOUND_WAYS["min"]
# ... and the direction of a price change ("a 50% discount" / "50% less" / "50% off";
# "a 20% surcharge" / "20% extra").
_TERM_WAYS = {**_BOUND_WAYS, "down": DOWN_WORDS, "up": UP_WORDS}
# Bound words and the comparison classes ("anything above 3 m3" / "any excess"): the
# quantity rule's, never a noun swap.
_COMPARISON_WORDS = _BOUND_WORDS | SAME_CLASS_WORDS[0] | SAME_CLASS_WORDS[1]


_PROHIBITING = frozenset(
    "can cannot ca may must never allowed permitted accepted prohibited banned".split()
)
_NOT_APART = frozenset("nor or then if unless when once provided as and but so".split())


# Words that say how sorry or sure a reply is, no content of its own.
_HEDGES = frozenset("afraid sorry unfortunately sadly possible able unable really".split())


def _negates_apart(unit: str, need: list[str], p: int) -> bool:
    """Whether a clause of a sentence belongs to another statement than the step whose
    content words are ``need``: it shares none of them, or it negates and shares one
    word only beside four of its own ("..., we won't refund it, and we aren't able to
    accept claims that come in more than fourteen days after the lesson" for a step on
    lessons that are not refunded)."""
    said = content(tokens(unit))
    shared = [x for x in said if any(same_word(w, x, p) for w in need)]
    if not shared:
        return True
    # (Words of its own, as ``need`` is read: not how a quantity is written, "inside
    # that 21-day window there's no refund" has three.)
    own = [x for x in said if not _quantity_word(x)]
    return len(shared) == 1 and len(own) - 1 >= 4 and bool(NEGATORS & set(tokens(unit)))


def _negation_moved(part: str, unit: str, pairs: list[tuple[str, str]]) -> bool:
    """Whether every negator of ``part`` is in another clause of ``pairs`` whose own
    part lacks it: the sentence says the negation in another clause than the step."""
    own = {w for w in tokens(part) if w in NEGATORS or w == "free"}
    if not own:
        return False
    # (A clause that says more of the part than its negator: "labour is free" does not
    # take the "free" of "replacement parts are free".)
    said = {w for w in content(tokens(part)) if w not in own and w not in COST_WORDS}
    # (Each other clause and its part read once.)
    others = [(tokens(pt), tokens(u)) for pt, u in pairs if u != unit]
    return all(
        any(
            w in uw and w not in pw and any(same_word(x, y, 4) for x in said for y in content(uw))
            for pw, uw in others
        )
        for w in own
    )

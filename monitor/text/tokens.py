"""Words and tokens: what two texts are compared by.

Two tokenisers for two jobs: :func:`tokens` reads a text for *meaning* (negations
split off, number words as digits, the typed slots of masked text kept whole);
:func:`words` reads it for *labels* (every word as written, casefolded).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from monitor.text.lexicon import COMMON_VERBS, LIGHT_WORDS, NEGATORS, NUMBER_WORDS, STOPWORDS

# A typed slot of masked text (``<date>``), a number, or a word (with inner - and ').
_TOKEN = re.compile(r"<[a-z]+>|\d+(?:[.,]\d+)?|[^\W\d_]+(?:[-'][^\W\d_]+)*", re.UNICODE)
# "no." for "number" ("serial no. WM2208", "patient no. 418230", "ticket no. + photo
# ID", "give your season ticket no. and the time"): not a negator. Only after a word
# ("patient no. 4"): "Allowed? No. 2 guide dogs are" is an answer; and before a value,
# a lower-case "and"/"or", a comma or a closing bracket (not at the end: "the answer is
# no." is a no).
_NUMBER_ABBREVIATION = re.compile(
    r"(?:(?<=\w\s)|(?<=\())[Nn]o\.\s*(?=[A-Z]*\d|<[a-z]+>|[+#&/,;)]|(?:and|or)\b)"
)
_WORD = re.compile(r"[\w][\w'-]*", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Casefolded tokens for comparison: ``don't`` -> ``do``, ``n't``; ``two`` -> ``2``."""
    out = []
    text = _NUMBER_ABBREVIATION.sub("number ", text.replace("’", "'"))
    for raw in _TOKEN.findall(text):
        t = raw.casefold()
        if t.endswith("n't"):
            out += [t[:-3], "n't"]
            continue
        if t == "nothing's":
            # "Nothing's final until it arrives"; not "nobody's": "if nobody's in" says
            # the visit is missed, and "nobody's fault" is a possessive.
            out += ["nothing", "is"]
            continue
        out.append(NUMBER_WORDS.get(t, t))
    return out


def raw_words(text: str) -> list[str]:
    """The words of ``text`` as written (letters, digits, inner ``'`` and ``-``)."""
    return _WORD.findall(text)


def words(text: str) -> list[str]:
    """:func:`raw_words`, casefolded, with a typographic apostrophe read as ``'``
    ("It’ll" is "it'll", not "it" and "ll")."""
    return [w.casefold() for w in raw_words(text.replace("’", "'"))]


def singular(w: str) -> str:
    """A plural strip: ``policies`` -> ``policy``, ``fees`` -> ``fee`` (not ``pass``)."""
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def contains_run(hay: Sequence[str], needle: Sequence[str]) -> bool:
    """Whether ``needle`` occurs as a contiguous run of ``hay`` (an empty one does not)."""
    h, w, n = list(hay), list(needle), len(needle)
    if n == 0 or n > len(h):
        return False
    return any(h[i : i + n] == w for i in range(len(h) - n + 1))


def canon(w: str) -> str:
    """A coarse key for aligning two token runs: singular, cut to five letters
    (numbers and slots whole)."""
    w = singular(w)
    return w if w[:1].isdigit() or w.startswith("<") else w[:5]


@functools.lru_cache(maxsize=1 << 16)
def same_word(a: str, b: str, prefix: int) -> bool:
    """Whether two words are the same term: equal after a plural strip, one an
    abbreviation of the other, or one word family (shared prefix or a compound)."""
    a, b = singular(a), singular(b)
    if a == b:
        return True
    if a[:1].isdigit() or b[:1].isdigit():
        return False
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 2 and long_.startswith(short) and len(long_) >= 2 * len(short) + 4:
        return True  # an abbreviation: id / identification
    if len(short) >= 3 and (
        long_.startswith(short) or (long_.endswith(short) and len(long_) - len(short) >= 2)
    ):
        return True  # one word family: pay / payable / copay (not light / flight)
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= prefix and n >= min(len(a), len(b)) - 2


# The auxiliaries of "won't", "can't", "shan't" as tokens ("wo", "ca", "sha" + "n't"):
# function words, as "will", "can", "shall" are.
AUX_HALVES = frozenset({"wo", "ca", "sha"})


def content(ws: Sequence[str]) -> list[str]:
    """The content words of a token list: no function words, negators or slots."""
    return [
        w
        for w in ws
        if w not in STOPWORDS
        and w not in NEGATORS
        and not w.startswith("<")
        and w != "n't"
        and w not in AUX_HALVES
    ]


def policy_terms(ws: Sequence[str]) -> list[str]:
    """Content words that can carry a policy: not function, light or common verbs."""
    return [w for w in content(ws) if w not in LIGHT_WORDS and w not in COMMON_VERBS]

"""``--redact``: judgments and dead-letter records without the interaction's content.

For teams that may not store PII. A redacted judgment keeps its whole structure --
status, reason, scores, gate decision, claim and step verdicts, spans, field names,
diagnostics, source location, trace id -- and replaces every text that comes from the
interaction (answer sentences, claimed values, context values, matched sentences,
judge rationales and error texts, citation texts and quotes) by a salted hash::

    "hmac:9f2c0e4b7d1a83f6c2e5a7b9d0f1e3c4"

The hash is HMAC-SHA256 keyed with the salt (``CARGO_REDACT_SALT``, at least
:data:`MIN_SALT_CHARS` characters; never a flag), truncated to 128 bits: equal values
give equal hashes within one deployment, so repeats can still be counted and joined,
while a value cannot be recovered by hashing guesses without the salt. The golden
reference's own texts (procedure steps, reference values) are not interaction data and
stay. Metrics carry no content in the first place (see ``monitor.metrics``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from typing import Any

from pydantic import SecretStr

from monitor.errors import ConfigError
from monitor.schemas import (
    ClaimVerdict,
    JudgeErrorInfo,
    Judgment,
    LLMCall,
)
from monitor.schemas.citation import CitationReport, ClaimCitations

MIN_SALT_CHARS = 16
PREFIX = "hmac:"


class Redactor:
    """Replaces interaction content by salted hashes (see the module docstring)."""

    def __init__(self, salt: str | SecretStr) -> None:
        secret = salt.get_secret_value() if isinstance(salt, SecretStr) else salt
        if len(secret) < MIN_SALT_CHARS:
            raise ConfigError(
                f"the redact salt needs at least {MIN_SALT_CHARS} characters "
                "(a short salt lets hashes of short values be guessed)"
            )
        self._key = secret.encode("utf-8")

    def __repr__(self) -> str:  # never show the salt
        return "Redactor(salt=**********)"

    def text(self, value: str) -> str:
        """The salted hash of one text."""
        digest = hmac.new(self._key, value.encode("utf-8", "surrogatepass"), hashlib.sha256)
        return PREFIX + digest.hexdigest()[:32]

    def _opt(self, value: str | None) -> str | None:
        return None if value is None else self.text(value)

    def _claim(self, c: ClaimVerdict) -> ClaimVerdict:
        evidence = c.evidence.model_copy(
            update={"context_value": self._opt(c.evidence.context_value)}
        )
        return c.model_copy(
            update={
                "value": self.text(c.value),
                "sentence": self.text(c.sentence),
                "evidence": evidence,
            }
        )

    def _error(self, e: JudgeErrorInfo | None) -> JudgeErrorInfo | None:
        return None if e is None else e.model_copy(update={"reason": self.text(e.reason)})

    def _llm(self, call: LLMCall | None) -> LLMCall | None:
        if call is None:
            return None
        return call.model_copy(
            update={
                "rationales": {k: self.text(v) for k, v in call.rationales.items()},
                "claims": tuple(self._claim(c) for c in call.claims),
                "error": self._error(call.error),
            }
        )

    def _citation_claim(self, c: ClaimCitations) -> ClaimCitations:
        return c.model_copy(
            update={
                "text": self.text(c.text),
                "quotes": tuple(
                    q.model_copy(update={"quote": self.text(q.quote)}) for q in c.quotes
                ),
                "support": tuple(
                    s.model_copy(
                        update={"reason": self.text(s.reason), "matched": self._opt(s.matched)}
                    )
                    for s in c.support
                ),
            }
        )

    def _citations(self, report: CitationReport | None) -> CitationReport | None:
        if report is None:
            return None
        return report.model_copy(
            update={
                "findings": tuple(
                    f.model_copy(update={"detail": self.text(f.detail)}) for f in report.findings
                ),
                "claims": tuple(self._citation_claim(c) for c in report.claims),
            }
        )

    def judgment(self, j: Judgment) -> Judgment:
        """The judgment with its interaction content hashed; the structure unchanged.

        An ``invalid`` judgment's rationale is the decoder's own message (reason, field,
        sizes) and stays, except for the reasons whose message may quote input
        (:data:`_QUOTING_REASONS`: an exception's text, an OTLP parser's message). An
        abstention's rationale is the gate's reason and figures, no content: it stays.
        """
        keep_rationale = j.status == "abstained" or (
            j.status == "invalid" and j.reason not in _QUOTING_REASONS
        )
        return j.model_copy(
            update={
                "rationale": j.rationale
                if keep_rationale or not j.rationale
                else self.text(j.rationale),
                "claims": tuple(self._claim(c) for c in j.claims),
                "steps": tuple(
                    s.model_copy(update={"matched_sentence": self._opt(s.matched_sentence)})
                    for s in j.steps
                ),
                "error": self._error(j.error),
                "llm": self._llm(j.llm),
                "citations": self._citations(j.citations),
            }
        )

    __call__ = judgment

    def dead_letter(self, record: dict[str, Any]) -> dict[str, Any]:
        """A dead-letter record without the original message: its text is hashed (salted),
        its bytes and unsalted digest dropped (``original_base64`` and
        ``original_sha256`` null; ``original_bytes`` kept); the ``detail`` of a reason
        in :data:`_QUOTING_REASONS` (an exception's or a parser's message) hashed too.
        A record without an original (an OpenTelemetry trace's, which names its input
        records instead) gets no ``original_*`` fields."""
        out = dict(record)
        # An exception's message may quote the input; the decoder's own reasons do not.
        detail = record.get("detail")
        if record.get("reason") in _QUOTING_REASONS and isinstance(detail, str):
            out["detail"] = self.text(detail)
        has_original = "original_text" in record or "original_base64" in record
        if has_original:
            text = record.get("original_text")
            out["original_text"] = self.text(text) if isinstance(text, str) else None
            b64 = record.get("original_base64")
            if isinstance(b64, str) and "original_bytes" not in record:
                out["original_bytes"] = len(b64) * 3 // 4 - b64[-2:].count("=")
            out["original_base64"] = None
        if "original_sha256" in record:  # unsalted: a short message could be guessed
            out["original_sha256"] = None
        out["redacted"] = True
        return out


#: Reasons whose detail (and an ``invalid`` judgment's rationale) may quote the input:
#: an exception's message (``decode_error``, ``evaluator_error``, ``assembly_error``),
#: the protobuf JSON parser's message (``otlp_undecodable``: 'Couldn't parse integer:
#: "<value>"'), a bad OTLP id or the span name it was on (``otlp_bad_id``), a mapped
#: value the trace model refused (``mapping_invalid``, ``citations_invalid``; their
#: details leave the input out, hashed all the same).
_QUOTING_REASONS = frozenset(
    {
        "decode_error",
        "evaluator_error",
        "assembly_error",
        "otlp_undecodable",
        "otlp_bad_id",
        "mapping_invalid",
        "citations_invalid",
    }
)


def make_redactor(redact: bool, salt: SecretStr | str | None) -> Redactor | None:
    """The redactor the settings ask for (``None`` when off); a :class:`ConfigError`
    when redaction is on without a salt."""
    if not redact:
        return None
    if salt is None:
        raise ConfigError(
            "--redact needs a salt: set CARGO_REDACT_SALT (a secret of at least "
            f"{MIN_SALT_CHARS} characters; it is never taken from the command line)"
        )
    return Redactor(salt)


class SecretMask:
    """Masks known secret values (judge API key, SASL password, redact salt) in text
    about to leave the process: the last line of defence for a secret that reached a
    record by a path nobody planned (an endpoint that echoes its key into an error
    text, say). Applied to every judgment and dead-letter record written."""

    MASK = "[secret]"

    def __init__(self, secrets: Iterable[str | SecretStr | None]) -> None:
        values = {s.get_secret_value() if isinstance(s, SecretStr) else s for s in secrets}
        forms: set[str] = set()
        for value in values:
            if value and len(value) >= 4:  # a shorter "secret" would mask ordinary text
                forms.add(value)
                # As it appears inside a JSON string, ASCII-escaped or not (pydantic
                # writes UTF-8, json.dumps escapes by default).
                forms.add(json.dumps(value)[1:-1])
                forms.add(json.dumps(value, ensure_ascii=False)[1:-1])
        self._forms = sorted(forms, key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __repr__(self) -> str:
        return f"SecretMask({len(self._forms)} forms)"

    def __call__(self, text: str) -> str:
        for form in self._forms:
            if form in text:
                text = text.replace(form, self.MASK)
        return text

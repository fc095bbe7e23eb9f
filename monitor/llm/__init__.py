"""The LLM client: an OpenAI-compatible endpoint behind retries, a concurrency bound,
token and cost accounting and structured output with a lenient fallback.

Used by the LLM judge (:mod:`monitor.judges.llm`) and by the LLM citation support
checks (:mod:`monitor.citations`); it knows nothing of either's prompts.
"""

from __future__ import annotations

from monitor.llm.client import LLMClient, LLMConfig, OutputSchema, Prompt, StructuredMode
from monitor.llm.structured import extract_json, strict_schema, strictify

__all__ = [
    "LLMClient",
    "LLMConfig",
    "OutputSchema",
    "Prompt",
    "StructuredMode",
    "extract_json",
    "strict_schema",
    "strictify",
]

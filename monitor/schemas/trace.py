"""The trace: one live agent interaction as the monitor receives it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictStr,
)

from monitor.schemas.base import ContextValue, ResponseType
from monitor.schemas.citation import CitationBundle


class Observation(BaseModel):
    """One step of the agent's trace: planner decision, agent/tool call, replan."""

    model_config = ConfigDict(frozen=True, extra="allow")

    kind: StrictStr = Field(description="planner | agent | tool | replanner | other")
    name: StrictStr | None = None
    started_at: datetime | None = None
    duration_ms: float | None = Field(default=None, ge=0)
    status: StrictStr | None = None


class Trace(BaseModel):
    """A live interaction ``x = (q, a, c, o)``. Unknown fields are kept."""

    model_config = ConfigDict(frozen=True, extra="allow")

    trace_id: StrictStr = Field(min_length=1)
    question: StrictStr
    answer: StrictStr
    timestamp: datetime | None = None
    context: dict[str, ContextValue] = Field(default_factory=dict)
    agent: StrictStr | None = None
    response_type: ResponseType | None = None
    observations: list[Observation] = Field(default_factory=list)
    latency_ms: float | None = Field(default=None, ge=0)
    language: StrictStr | None = None
    citations: CitationBundle | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    def observed(self) -> dict[str, str]:
        """The live context as strings, without null values."""
        return {k: _scalar_text(v) for k, v in self.context.items() if v is not None}


def _scalar_text(value: ContextValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)

"""asyncio helpers that are safe when one object is driven by several event loops."""

from __future__ import annotations

import asyncio
import weakref
from types import TracebackType


class LoopSemaphore:
    """A bound on concurrency, with one ``asyncio.Semaphore`` per running loop.

    An ``asyncio.Semaphore`` belongs to the first loop that waits on it; an object
    that outlives a loop (an evaluator driven by one ``asyncio.run`` after another:
    benchmarks, tests, embedding applications) would fail every contended wait in
    the next loop with "is bound to a different event loop".
    """

    def __init__(self, value: int) -> None:
        if value < 1:
            raise ValueError(f"a concurrency bound must be at least 1, not {value}")
        self.value = value
        self._per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    def _current(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._per_loop.get(loop)
        if sem is None:
            sem = self._per_loop[loop] = asyncio.Semaphore(self.value)
        return sem

    async def __aenter__(self) -> None:
        await self._current().acquire()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._current().release()

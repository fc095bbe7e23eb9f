"""Kafka client log noise: a message repeated within a window is logged once."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable


class RepeatedLogFilter(logging.Filter):
    """Kafka client messages (loggers ``aiokafka*``, ``kafka*``) repeated within
    ``window_s`` are logged once, then once per window with the number left out.

    An unreachable broker makes the clients log an error per retry (about ten lines a
    second); the first line says what is wrong, the counts that it goes on. Messages
    are the same when their format string is. Thread-safe: Faust's consumer logs from
    its own thread.
    """

    PREFIXES = ("aiokafka", "kafka")
    MAX_KEYS = 1000

    def __init__(self, window_s: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window_s = window_s
        self.clock = clock
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith(self.PREFIXES):
            return True
        # One decision per record: the same filter sits on every handler.
        decided: bool | None = getattr(record, "_cargo_repeat_shown", None)
        if decided is None:
            decided = self._decide(record)
            record._cargo_repeat_shown = decided
        return decided

    def _decide(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        with self._lock:
            shown = self._seen.get(key)
            if shown is not None and now - shown[0] < self.window_s:
                self._seen[key] = (shown[0], shown[1] + 1)
                return False
            if len(self._seen) >= self.MAX_KEYS:
                self._seen = {k: v for k, v in self._seen.items() if now - v[0] < self.window_s}
            self._seen[key] = (now, 0)
        if shown is not None and shown[1]:
            record.msg = (
                f"{record.msg} [and {shown[1]} more like it in the {now - shown[0]:.0f} s before]"
            )
        return True


def install_repeat_filter(window_s: float) -> RepeatedLogFilter | None:
    """Adds one :class:`RepeatedLogFilter` to every handler of the root logger
    (none when ``window_s`` is 0)."""
    if window_s <= 0:
        return None
    shared = RepeatedLogFilter(window_s)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RepeatedLogFilter) for f in handler.filters):
            handler.addFilter(shared)
    return shared

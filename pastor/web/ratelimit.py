"""Per-client rate limit for questions: one every N seconds per client address."""

from __future__ import annotations

import math
import os
import threading
import time
from typing import Callable

# Entries older than the interval carry no information; past this many clients they are pruned.
PRUNE_ABOVE = 10_000


class RateLimited(Exception):
    """A client asked again too soon; `wait` is how many seconds remain."""

    def __init__(self, wait: float):
        self.wait = wait
        seconds = max(1, math.ceil(wait))
        plural = "s" if seconds != 1 else ""
        super().__init__(f"Você enviou uma pergunta há pouco. Aguarde {seconds} segundo{plural} "
                         "e envie de novo.")


class RateLimiter:
    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self._last: dict[str, float] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> None:
        """Record a question from `key`, or raise RateLimited if the last one was too recent."""
        if self.seconds <= 0:
            return
        with self._lock:
            now = self.clock()
            last = self._last.get(key)
            if last is not None and now - last < self.seconds:
                raise RateLimited(self.seconds - (now - last))
            self._last[key] = now
            if len(self._last) > PRUNE_ABOVE:
                self._prune(now)

    def _prune(self, now: float) -> None:
        self._last = {k: t for k, t in self._last.items() if now - t < self.seconds}


def client_key(request) -> str:
    """The client's address. Behind the Hugging Face proxy (SPACE_ID set) the first
    X-Forwarded-For entry is the visitor; elsewhere that header is client-controlled and ignored
    (uvicorn already trusts it from a proxy on localhost)."""
    if request is None:
        return "local"
    if os.environ.get("SPACE_ID"):
        forwarded = (request.headers.get("x-forwarded-for") or "").split(",")[0].strip()
        if forwarded:
            return forwarded
    client = getattr(request, "client", None)
    return getattr(client, "host", None) or "unknown"

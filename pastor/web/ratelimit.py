"""Per-client rate limits (one request every N seconds per client address) and who the client is."""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable
from functools import lru_cache

from pastor.errors import PastorError

# Entries older than the interval carry no information; past this many clients they are pruned.
PRUNE_ABOVE = 10_000


QUESTION = "Você enviou uma pergunta há pouco."


class RateLimited(PastorError):
    """A client asked again too soon; `wait` is how many seconds remain."""

    def __init__(self, wait: float, what: str = QUESTION):
        self.wait = wait
        seconds = max(1, math.ceil(wait))
        plural = "s" if seconds != 1 else ""
        super().__init__(f"{what} Aguarde {seconds} segundo{plural} e envie de novo.")


class RateLimiter:
    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.monotonic, what: str = QUESTION):
        self.seconds = seconds
        self.clock = clock
        self.what = what
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
                raise RateLimited(self.seconds - (now - last), self.what)
            self._last[key] = now
            if len(self._last) > PRUNE_ABOVE:
                self._prune(now)

    def _prune(self, now: float) -> None:
        self._last = {k: t for k, t in self._last.items() if now - t < self.seconds}


class Budget:
    """A token bucket per client: `per_minute` requests a minute on average, up to `burst` at once
    (a page load fetches dozens of assets together)."""

    def __init__(self, per_minute: float, burst: float | None = None, *, clock: Callable[[], float] = time.monotonic):
        self.rate = per_minute / 60.0
        self.burst = max(1.0, burst if burst is not None else per_minute / 2)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client → (tokens, when counted)
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Spend one request of `key`'s budget: 0.0 when allowed, else the seconds until one is."""
        with self._lock:
            now = self.clock()
            tokens, then = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                return (1.0 - tokens) / self.rate
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > PRUNE_ABOVE:
                self._prune(now)
            return 0.0

    def _prune(self, now: float) -> None:
        """Forget clients whose bucket has refilled: they are as if never seen."""
        self._buckets = {k: (t, w) for k, (t, w) in self._buckets.items() if t + (now - w) * self.rate < self.burst}


def client_key(request, trusted_proxies=()) -> str:
    """The client's address: the socket peer, unless the peer is a trusted proxy (an address or
    network listed in PASTOR_TRUSTED_PROXIES); then the last X-Forwarded-For entry that is not
    itself a trusted proxy. Anyone else's X-Forwarded-For is client-controlled and ignored."""
    if request is None:
        return "local"
    client = getattr(request, "client", None)
    peer = getattr(client, "host", None) or "unknown"
    networks = _networks(tuple(trusted_proxies))
    if not networks or not _trusted(peer, networks):
        return peer
    forwarded = [part.strip() for part in (request.headers.get("x-forwarded-for") or "").split(",")]
    for address in reversed([part for part in forwarded if part]):
        if not _trusted(address, networks):
            return address
    return peer


@lru_cache(maxsize=8)  # the setting is fixed for the process: parse it once, not per request
def _networks(entries: tuple[str, ...]) -> tuple:
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            continue  # a host name or typo never matches: safer than trusting it
    return tuple(networks)


def _trusted(address: str, networks: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)

"""Rate limits shared by replicas: the same one-request-every-n-seconds rule, kept in Redis."""

from __future__ import annotations

import logging
from collections.abc import Callable

from pastor.config import Settings
from pastor.web.ratelimit import QUESTION, RateLimited, RateLimiter

log = logging.getLogger("pastor.web")

PREFIX = "pastor:limit:"

# make(name, seconds, what) -> a limiter; `name` keeps each endpoint's keys apart in Redis.
LimiterFactory = Callable[[str, float, str], RateLimiter]


class RedisRateLimiter(RateLimiter):
    """One atomic `SET key NX PX` per request: the first request in a window creates the key and
    passes; any other, on whichever replica, finds it and waits its remaining time. When Redis
    cannot be reached the limit falls back to this replica's memory, never to no limit at all."""

    def __init__(self, client, name: str, seconds: float, *, what: str = QUESTION):
        super().__init__(seconds, what=what)
        self.client = client
        self.name = name

    def hit(self, key: str) -> None:
        if self.seconds <= 0:
            return
        shared_key = f"{PREFIX}{self.name}:{key}"
        try:
            if self.client.set(shared_key, "1", px=max(1, round(self.seconds * 1000)), nx=True):
                return
            left_ms = self.client.pttl(shared_key)
        except Exception as exc:  # redis.RedisError, a timeout, a refused connection
            log.warning(
                "Redis indisponível para o limite de pedidos (%s); limite local desta réplica", type(exc).__name__
            )
            return super().hit(key)
        raise RateLimited(max(left_ms, 1) / 1000 if left_ms and left_ms > 0 else self.seconds, self.what)


def limiter_factory(settings: Settings) -> LimiterFactory:
    """Limiters in Redis when PASTOR_REDIS_URL is set, else in this process's memory (as before)."""
    if not settings.redis_url:
        return lambda name, seconds, what: RateLimiter(seconds, what=what)
    import redis

    client = redis.Redis.from_url(settings.redis_url, socket_timeout=2, socket_connect_timeout=2)
    return lambda name, seconds, what: RedisRateLimiter(client, name, seconds, what=what)

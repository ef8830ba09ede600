"""Turn ids every replica can check: a Redis key per logged turn, so `/feedback` works on any replica."""

from __future__ import annotations

import logging

log = logging.getLogger("pastor.answer")

PREFIX = "pastor:turn:"
KEEP_SECONDS = 30 * 86400  # without log retention, ids are remembered for a month


class SharedTurns:
    """The turn log stays per replica (its file named after the replica, the replica in each turn
    id); only the ids are shared, for as long as the log keeps the turns. When Redis cannot be
    reached, each replica still knows its own turns."""

    def __init__(self, client, *, keep_days: float = 0.0):
        self.client = client
        self.keep_seconds = int(keep_days * 86400) if keep_days > 0 else KEEP_SECONDS

    @classmethod
    def from_url(cls, url: str, **kwargs) -> SharedTurns:
        import redis

        return cls(redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2), **kwargs)

    def add(self, turn_id: str) -> None:
        try:
            self.client.set(PREFIX + turn_id, "1", ex=self.keep_seconds)
        except Exception as exc:  # the answer matters more than the shared id; feedback then works here only
            log.warning("turno não registrado no Redis (%s)", type(exc).__name__)

    def knows(self, turn_id: str) -> bool:
        try:
            return bool(turn_id) and bool(self.client.exists(PREFIX + turn_id))
        except Exception as exc:
            log.warning("Redis indisponível para conferir o turno (%s)", type(exc).__name__)
            return False

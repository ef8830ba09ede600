"""Rate limits in Redis (issue 23): one window per client across processes, memory when Redis is down."""

from __future__ import annotations

import pytest

from pastor.config import Settings
from pastor.web.ratelimit import RateLimited, RateLimiter
from pastor.web.ratelimit_redis import RedisRateLimiter, limiter_factory
from pastor.web.runtime import endpoint_limiters
from tests.support.cluster import Redis
from tests.support.helpers import free_port


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    server = Redis(tmp_path_factory.mktemp("redis"))
    yield server.url
    server.stop()


def limiter(url: str, seconds: float, name: str = "question") -> RedisRateLimiter:
    make = limiter_factory(Settings.from_env({"PASTOR_REDIS_URL": url}))
    return make(name, seconds, "Você enviou uma pergunta há pouco.")


def test_two_replicas_share_one_window_per_client(redis_url):
    first, second = limiter(redis_url, 30), limiter(redis_url, 30)  # two processes' limiters, one Redis
    first.hit("10.0.0.1")
    with pytest.raises(RateLimited) as refused:
        second.hit("10.0.0.1")
    assert 28 < refused.value.wait <= 30
    assert "Aguarde 30 segundos" in str(refused.value) or "Aguarde 29 segundos" in str(refused.value)
    second.hit("10.0.0.2")  # another client is not affected


def test_the_window_ends_and_endpoints_keep_their_own_keys(redis_url):
    question = limiter(redis_url, 0.2, "question")
    search = limiter(redis_url, 0.2, "search")
    question.hit("10.0.0.3")
    search.hit("10.0.0.3")  # the same client on another endpoint: its own window
    with pytest.raises(RateLimited):
        question.hit("10.0.0.3")
    import time

    time.sleep(0.25)
    question.hit("10.0.0.3")


def test_zero_seconds_is_off_and_no_url_keeps_memory_limits():
    assert type(limiter_factory(Settings.from_env({}))("question", 3, "x")) is RateLimiter
    off = RedisRateLimiter(client=None, name="question", seconds=0)
    off.hit("a")
    off.hit("a")  # never reaches the (absent) client


def test_an_unreachable_redis_falls_back_to_this_replicas_memory():
    down = limiter(f"redis://127.0.0.1:{free_port()}/0", 30)
    down.hit("10.0.0.9")
    with pytest.raises(RateLimited):  # still limited, by this process alone
        down.hit("10.0.0.9")


def test_the_endpoint_limiters_come_from_the_factory(redis_url):
    made = []
    limits = endpoint_limiters(3, lambda name, seconds, what: made.append((name, seconds)) or RateLimiter(seconds))
    assert (
        set(limits) == {n for n, _ in made} == {"search", "lookup", "feedback", "status", "check_provider", "reindex"}
    )
    assert dict(made)["reindex"] == 60

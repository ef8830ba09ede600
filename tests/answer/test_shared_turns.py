"""Turn ids shared in Redis (issue 23): feedback for a turn logged by another replica."""

from __future__ import annotations

import pytest

from pastor.answer.shared_turns import SharedTurns
from pastor.answer.turnlog import TurnLog
from tests.support.cluster import Redis
from tests.support.helpers import free_port


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    server = Redis(tmp_path_factory.mktemp("redis"))
    yield server.url
    server.stop()


def test_feedback_for_a_turn_of_another_replica(tmp_path, redis_url):
    a = TurnLog(tmp_path / "a", name="turns-a", shared=SharedTurns.from_url(redis_url))
    b = TurnLog(tmp_path / "b", name="turns-b", shared=SharedTurns.from_url(redis_url))
    a.write({"turn_id": "a-0123456789abcdef", "question": "oi", "mode": "rag"})
    record = b.feedback("a-0123456789abcdef", "up", "ajudou")
    assert record.turn_id == "a-0123456789abcdef"
    assert (tmp_path / "a" / "turns-a.jsonl").is_file() and (tmp_path / "b" / "turns-b.jsonl").is_file()
    assert [e["type"] for e in b.events()] == ["feedback"]  # the rating is in the log of the replica that took it
    with pytest.raises(KeyError):
        b.feedback("b-ffffffffffffffff", "up")


def test_without_redis_each_replica_knows_its_own_turns(tmp_path):
    down = SharedTurns.from_url(f"redis://127.0.0.1:{free_port()}/0")
    log = TurnLog(tmp_path, name="turns-a", shared=down)
    log.write({"turn_id": "a-1", "question": "oi", "mode": "rag"})  # the answer is logged even so
    assert log.feedback("a-1", "down").rating == "down"
    with pytest.raises(KeyError):
        log.feedback("b-2", "up")


def test_the_ids_expire_with_the_log_retention(redis_url):
    shared = SharedTurns.from_url(redis_url, keep_days=2)
    shared.add("a-x")
    assert 2 * 86400 - 5 < shared.client.ttl("pastor:turn:a-x") <= 2 * 86400

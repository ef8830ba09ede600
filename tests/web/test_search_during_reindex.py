"""Acceptance (issue 18): during a reindex and after a failed one, /search returns the same hybrid
results as before, through the real app and API."""

from __future__ import annotations

import threading

import pytest

from pastor.web.status_model import search_status_json as status_json
from tests.support.app_fixtures import LiveServer, app_settings, wait_vectors
from tests.support.helpers import wait_for

# A real app on the real embedder, its vectors built: integration, not the unit tier.
pytestmark = pytest.mark.integration

QUESTIONS = ("Estou com medo do futuro", "Como perdoar quem me feriu?", "Deus amou o mundo")


class HeldIndexer:
    """The app's embedder, held (and optionally failing) only when the background indexer calls
    it: questions are embedded as usual while the rebuild waits for the test."""

    def __init__(self, inner):
        self.inner = inner
        self.entered, self.release = threading.Event(), threading.Event()
        self.failure: Exception | None = None

    def encode(self, texts, *args, **kwargs):
        if threading.current_thread().name == "pastor-indexer":
            self.entered.set()
            assert self.release.wait(60), "o teste não liberou a indexação"
            if self.failure is not None:
                raise self.failure
        return self.inner.encode(texts, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    server = LiveServer(app_settings(tmp_path_factory.mktemp("reindex-search"))).start()
    wait_vectors(server.runtime)
    yield server
    server.stop()


def searches(client) -> list[dict]:
    return [client.predict(q, 6, "all", api_name="/search") for q in QUESTIONS]


def test_the_same_hybrid_results_before_during_and_after_a_failed_reindex_then_a_good_one(app):
    client, engine = app.client(), app.runtime.engine
    before = searches(client)
    assert before[0]["mode"] == "rag"
    assert all(any(hit["vector_rank"] is not None for hit in r["results"]) for r in before)
    held = engine.resources.index.embedder = HeldIndexer(engine.resources.index.embedder)

    held.failure = OSError(28, "No space left on device")
    client.predict("", api_name="/reindex")
    assert held.entered.wait(30)
    assert client.predict(api_name="/status")["state"] == "indexing"
    assert searches(client) == before  # during

    held.release.set()
    wait_for(lambda: not engine.indexing, 60, "a reindexação não terminou")
    status = status_json(app.runtime.engine.status())
    assert searches(client) == before  # after the failed one
    assert status["state"] == "complete" and "anterior continua em uso" in status["index"]["error"]
    assert "No space left on device" in status["index"]["error"]

    held.failure = None
    client.predict("", api_name="/reindex")
    wait_for(
        lambda: not engine.indexing and engine.resources.index.status.error is None, 120, "a reindexação não terminou"
    )
    assert searches(client) == before  # the new table, the same vectors

"""Fixtures for the web app tests: settings on a tiny corpus, a spying fake model, a live server."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
import pytest

from pastor.config import Settings
from pastor.providers.fake import FakeProvider
from tests.support.helpers import FIXTURES, MINI_CORPUS, PROMINENCE, ROOT, free_port, wait_for  # noqa: F401

REINDEX_TOKEN = "token-de-teste-123"


def app_env(data_dir: Path, **overrides: str) -> dict[str, str]:
    """The environment of a test app: tiny corpus, fake model, no rate limit, loopback only."""
    env = {
        "PASTOR_CORPUS": str(MINI_CORPUS),
        "PASTOR_DATA_DIR": str(data_dir),
        "PASTOR_DOCS_DIR": "",
        "PASTOR_EXTRA_CORPORA": "",
        "PASTOR_PROMINENCE": str(PROMINENCE),
        "PASTOR_TOPICS": "",  # the topical index is tested in tests/search; here it would only cost CPU
        "PASTOR_ADAPTER_QUESTIONS": "",  # likewise the query adapter (tests/search/test_adapter.py)
        "PASTOR_PASTORS_WEIGHT": "0",  # the pastors' signal: tests/search/test_pastor_choices.py
        "EMBEDDING_MODEL": "use-multilingual",
        "LLM_PROVIDER": "fake",
        "PASTOR_RATE_LIMIT_SECONDS": "0",
        "PASTOR_REQUESTS_PER_MINUTE": "1000000",  # the route budget is tested on its own (test_routes.py)
        "PASTOR_HOST": "127.0.0.1",
        "PASTOR_PORT": str(free_port()),
    }
    env.update(overrides)
    return env


def app_settings(data_dir: Path, **overrides: str) -> Settings:
    return Settings.from_env(app_env(data_dir, **overrides))


class SpyProvider(FakeProvider):
    """The fake model, recording when a reply stream opens and when it is closed."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.opened = threading.Event()
        self.closed = threading.Event()
        self.cancels: list[threading.Event] = []

    def stream(self, system, messages, cancel=None):
        self.closed.clear()
        self.cancels.append(cancel)
        self.opened.set()
        return self._watch(super().stream(system, messages, cancel))

    def _watch(self, inner):
        try:
            yield from inner
        finally:
            inner.close()
            self.closed.set()

    def reset(self) -> None:
        self.opened.clear()
        self.queue.clear()
        self.delay = 0.0
        self.cancels.clear()


class LiveServer:
    """The real ASGI app (Gradio + health routes) served by uvicorn in a thread."""

    def __init__(self, settings: Settings, provider=None):
        import uvicorn

        from pastor.web.server import create_app

        self.settings = settings
        self.app, self.runtime = create_app(settings, provider=provider)
        self.url = f"http://{settings.host}:{settings.port}"
        config = uvicorn.Config(
            self.app, host=settings.host, port=settings.port, log_level="warning", timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True, name="test-uvicorn")

    def start(self, timeout: float = 60.0) -> LiveServer:
        self.thread.start()
        wait_for(lambda: self.server.started, timeout, "o servidor não iniciou")
        return self

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10)

    def client(self):
        from gradio_client import Client

        return Client(self.url + "/", verbose=False)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.runtime.stop()


def wait_vectors(runtime, timeout: float = 120.0) -> None:
    """Until the background index is complete (seconds on the tiny corpus)."""
    runtime.wait_loaded(timeout)
    wait_for(
        lambda: (
            runtime.engine is not None
            and not runtime.engine.indexing
            and runtime.engine.resources.index is not None
            and runtime.engine.resources.index.ready
        ),
        timeout,
        "o índice vetorial não ficou pronto",
    )


@pytest.fixture(scope="session")
def spy_provider() -> SpyProvider:
    return SpyProvider(chunk=3)


@pytest.fixture(scope="session")
def live(tmp_path_factory, spy_provider) -> LiveServer:
    """One server for the API tests: tiny corpus, vectors built, a reindex token."""
    settings = app_settings(tmp_path_factory.mktemp("app-data"), REINDEX_TOKEN=REINDEX_TOKEN)
    server = LiveServer(settings, provider=spy_provider).start()
    wait_vectors(server.runtime)
    yield server
    server.stop()


@pytest.fixture
def server(live, spy_provider) -> LiveServer:
    """The shared server, with the model's script and the rate limit restored after each test."""
    spy_provider.reset()
    limiter = live.runtime.limiter
    yield live
    spy_provider.reset()
    live.runtime.limiter = limiter


@pytest.fixture
def client(server):
    return server.client()

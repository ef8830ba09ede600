"""The runtime's start: ready on the texts and keywords alone, the model and the vectors once the server is up."""

from __future__ import annotations

from pastor.answer.turn_modes import Mode
from pastor.providers.fake import FakeProvider
from pastor.web.runtime import Runtime
from tests.support.app_fixtures import app_settings
from tests.support.core_fixtures import FAKE_MODEL
from tests.support.helpers import wait_for


class StartSpy(FakeProvider):
    """The fake model, recording whether its own preparation (the local model's download and load) began."""

    started = False

    def start(self) -> None:
        self.started = True


def test_an_early_start_answers_a_crisis_before_the_server_lets_the_rest_load(tmp_path, fake_models):
    # The trained classifiers are left out: they train for a minute here (tests/care), and change nothing below.
    settings = app_settings(
        tmp_path,
        EMBEDDING_MODEL=FAKE_MODEL,
        PASTOR_BACKGROUND_INDEX="false",
        PASTOR_SEMANTIC_ROUTER="false",
        PASTOR_SCOPE_CLASSIFIER="false",
    )
    provider = StartSpy()
    runtime = Runtime(settings, provider=provider).start(early=True)  # app.py, before Gradio is imported
    wait_for(lambda: runtime.phase == "ready" and runtime.chat is not None, 60, "o runtime não ficou pronto")
    final = list(runtime.chat.turn("eu quero morrer, não aguento mais viver"))[-1]
    assert final.result.mode == Mode.CRISIS and provider.calls == 0
    # Nothing the server's start would compete with: no model preparation, no embedder, until it is up.
    assert not provider.started and runtime.engine.resources.embedder is None and not runtime.wait_loaded(0)
    runtime.start()  # the server's lifespan
    assert runtime.wait_loaded(60)
    assert provider.started and runtime.engine.resources.embedder is fake_models[FAKE_MODEL]
    assert runtime.engine.health.get("embedder").state.value == "ok"

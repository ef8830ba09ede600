"""The first moments of `python app.py` on an empty data folder: nothing trained or built stands before /ready,
and a crisis message sent the moment /ready is 200 is answered with the help lines (issue 29)."""

from __future__ import annotations

import time

import pytest

from pastor.answer.turn_modes import Mode
from tests.support.helpers import wait_for
from tests.web.test_out_of_the_box import App, default_env

pytestmark = pytest.mark.slow  # a real `python app.py` with the shipped Bibles

CRISIS = "eu quero morrer, não aguento mais viver"
HELP_LINE = "**188**"  # CVV, the first of the default help lines


def test_a_crisis_sent_as_soon_as_ready_is_answered_with_the_help_lines(tmp_path):
    app = App(default_env(tmp_path / "data", LLM_PROVIDER="none"))
    events: list[tuple[str, float, dict]] = []
    try:
        ready = wait_for(lambda: (r := app.get("/ready")) is not None and r.status_code == 200 and r, 120, "/ready")
        events.append(("ready", time.monotonic(), ready.json()))
        from gradio_client import Client

        app.client = Client(app.url + "/", verbose=False)
        crisis = app.ask(CRISIS)  # a fresh client: within its rate limit; a wait would be waited out
        events.append(("crisis answered", time.monotonic(), crisis))
        router = wait_for(app.status, 30, "/status não respondeu", interval=1.0)["router"]
    finally:
        app.stop()
    assert [name for name, *_ in events] == ["ready", "crisis answered"]
    first = events[0][2]
    # Ready on keywords alone: on an empty folder no vector was built (or even loaded) before it.
    assert first["bm25_ready"] and not first["vectors"]["ready"], first
    assert crisis["mode"] == Mode.CRISIS and crisis["error"] is None, crisis
    assert HELP_LINE in crisis["answer"].split("\n\n")[0], crisis["answer"]  # the help lines come first
    # Trained or not yet: the status says which (the lexicon and rules route until the trained router is in).
    assert router.startswith("léxico + regras"), router

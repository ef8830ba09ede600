"""One deadline for the whole turn: the follow-up rewrite and the reply share it, whatever the server does."""

from __future__ import annotations

import threading

import pytest

from pastor.answer.chat import ChatService
from pastor.answer.deadline import Deadline, DeadlineExceeded, call_within, within
from pastor.config import Settings
from pastor.providers import load_provider
from pastor.search.bm25 import LexicalIndex
from tests.support.helpers import retriever_over
from tests.support.loopback_servers import LoopbackServer, OpenAIProtocol, Script

HISTORY = [
    {"role": "user", "content": "Pedro perguntou quantas vezes devo perdoar meu irmão"},
    {"role": "assistant", "content": "Setenta vezes sete (Mateus 18:22)."},
]
FOLLOW_UP = "e depois?"  # short: only understood with the conversation, so it is rewritten


class TestCallWithin:
    def test_the_result_or_the_error_of_the_call(self):
        assert call_within(lambda: "ok", Deadline(5)) == "ok"
        with pytest.raises(KeyError):
            call_within(lambda: {}["x"], Deadline(5))

    def test_a_call_that_outlasts_the_deadline_is_abandoned(self):
        release = threading.Event()
        with pytest.raises(DeadlineExceeded):
            call_within(release.wait, Deadline(0.2))
        release.set()

    def test_cancel_ends_the_wait(self):
        release, cancel = threading.Event(), threading.Event()
        cancel.set()
        with pytest.raises(DeadlineExceeded):
            call_within(release.wait, Deadline(30), cancel=cancel)
        release.set()

    def test_a_spent_deadline_makes_no_call(self):
        calls = []
        with pytest.raises(DeadlineExceeded):
            call_within(lambda: calls.append(1), Deadline(0))
        opened = []

        def stream():
            opened.append(1)
            yield "x"

        with pytest.raises(DeadlineExceeded):
            list(within(stream(), Deadline(0)))
        assert calls == [] and opened == []


def openai_at(url: str, timeout: float):
    settings = Settings.from_env(
        {"LLM_PROVIDER": "openai", "LLM_TIMEOUT": str(timeout), "OPENAI_BASE_URL": f"{url}/v1"}
    )
    return load_provider(settings, {"OPENAI_API_KEY": "sk-test-0123456789abcdef"})


class TestTheWholeTurn:
    def test_a_trickling_rewrite_ends_the_turn_at_the_deadline(self, mini_bible):
        """A non-streaming server sending one byte every 50 ms (about 15 s for the reply) never
        trips the per-read timeout (5 s); the turn's 2 s deadline ends it while the rewrite's body
        is still arriving, and the reply, which has no time left, is never requested."""
        lexical = LexicalIndex([v.id for v in mini_bible.verses], [v.text for v in mini_bible.verses])
        retriever = retriever_over(mini_bible, embedder=None, index=None, lexical=lexical)
        with LoopbackServer(OpenAIProtocol(), Script(trickle_body=True, delay=0.05)) as server:
            provider = openai_at(server.url, timeout=5)
            assert provider.client is not None  # the SDK is imported before the turn's clock starts
            final = ChatService(retriever, mini_bible, provider, deadline=2.0).ask(FOLLOW_UP, HISTORY)
            progress = list(server.body_bytes)  # [sent, total] once the reply started, [] before
            assert not progress or progress[0] < progress[1]  # the rewrite had not arrived
        assert not any(r.body.get("stream") for r in server.requests)  # the reply was never asked for
        # The turn still ends as without a model: the follow-up searched with the previous question
        # (issue 22; "e depois?" alone found nothing) shows the verses it finds, saying the model timed out.
        assert final.result.query == f"{HISTORY[0]['content']} {FOLLOW_UP}"
        assert final.result.mode == "provider_unavailable" and "(timeout)" in final.result.reason
        assert final.result.error is None  # (what it shows leaves out the verses the question before showed)

    def test_a_rewrite_past_the_deadline_still_shows_the_verses_the_message_finds(self, mini_bible):
        lexical = LexicalIndex([v.id for v in mini_bible.verses], [v.text for v in mini_bible.verses])
        retriever = retriever_over(mini_bible, embedder=None, index=None, lexical=lexical)
        with LoopbackServer(OpenAIProtocol(), Script(trickle_body=True, delay=0.05)) as server:
            provider = openai_at(server.url, timeout=5)
            # The conversation before was about fear: a follow-up shows none of the verses it showed.
            before = [{"role": "user", "content": "Estou com medo do futuro"}, {"role": "assistant", "content": "…"}]
            final = ChatService(retriever, mini_bible, provider, deadline=2.0).ask(
                "e quanto a perdoar meu irmão?", before
            )
        assert final.result.mode == "provider_unavailable" and "(timeout)" in final.result.reason
        assert "demorou mais de" in final.result.reason and final.result.sources and final.result.error is None

    def test_a_prompt_rewrite_leaves_the_reply_its_time(self, mini_bible):
        lexical = LexicalIndex([v.id for v in mini_bible.verses], [v.text for v in mini_bible.verses])
        retriever = retriever_over(mini_bible, embedder=None, index=None, lexical=lexical)
        script = Script(deltas=("Pedro perguntou quantas vezes devo perdoar meu irmão",))
        with LoopbackServer(OpenAIProtocol(), script) as server:
            chat = ChatService(retriever, mini_bible, openai_at(server.url, timeout=5), deadline=30)
            final = chat.ask(FOLLOW_UP, HISTORY)
        assert final.result.query == "Pedro perguntou quantas vezes devo perdoar meu irmão"
        assert [r.body.get("stream", False) for r in server.requests] == [False, True]
        assert final.result.error is None

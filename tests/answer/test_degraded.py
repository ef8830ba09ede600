"""Tests for answers without a model: an unreachable provider still shows what retrieval found, plus how to fix it."""

from __future__ import annotations

import pytest

from pastor.answer.chat import ChatService
from pastor.answer.degraded import PROVIDER_DOWN_INTRO, PROVIDER_DOWN_NO_VERSES
from pastor.providers.fake import FakeProvider
from pastor.providers.ollama_provider import OllamaProvider
from pastor.search.modes import Mode
from tests.answer.test_chat import FORGIVE, JOHN, load_engine, run
from tests.support.core_fixtures import HashEmbedder, settings_for
from tests.support.helpers import free_port

KINDS = ("unreachable", "timeout", "auth", "config", "rate_limit", "bad_response")


@pytest.fixture(scope="module")
def chat_engine(tmp_path_factory):
    """Tiny corpus, fake embedder, vectors built once for the module (read-only)."""
    return load_engine(settings_for(tmp_path_factory.mktemp("degraded") / "data"), HashEmbedder())


@pytest.fixture
def closed_ollama() -> OllamaProvider:
    """The default provider, pointed at a loopback port nobody listens on (no Ollama running)."""
    return OllamaProvider(base_url=f"http://127.0.0.1:{free_port()}", timeout=5)


def test_unreachable_ollama_shows_the_passage_asked_for_and_the_fix(chat_engine, closed_ollama):
    chat = ChatService(chat_engine.retriever, chat_engine.bible, closed_ollama)
    _, final = run(chat, JOHN)
    assert final.mode == Mode.PROVIDER_UNAVAILABLE == "provider_unavailable"
    assert final.error is None  # a degraded answer, not a failure: the verses are the answer
    assert final.answer.startswith(PROVIDER_DOWN_INTRO[Mode.REFERENCE])
    assert chat_engine.bible.by_id["JHN 3:16"].text in final.answer and "**João 3:16**" in final.answer
    assert "ollama pull qwen2.5:1.5b" in final.answer and "LLM_PROVIDER" in final.answer
    assert "OPENAI_API_KEY" in final.answer and closed_ollama.base_url in final.answer
    assert final.reason.startswith("ollama indisponível (unreachable)") and final.reason.endswith("busca: reference")
    assert [s["id"] for s in final.sources] == ["JHN 3:16"] and final.sources[0]["cited"]
    assert final.citations == ["João 3:16"]
    assert (final.provider, final.model) == ("ollama", "qwen2.5:1.5b")


def test_unreachable_ollama_shows_the_top_verses_of_a_question(chat_engine, closed_ollama):
    chat = ChatService(chat_engine.retriever, chat_engine.bible, closed_ollama)
    _, final = run(chat, FORGIVE)
    assert final.mode == Mode.PROVIDER_UNAVAILABLE
    assert final.answer.startswith(PROVIDER_DOWN_INTRO[None])
    assert final.sources and final.sources[0]["id"] == "MAT 18:21"
    for source in final.sources:
        assert f"> {source['text']} — **{source['reference']}**" in final.answer
    assert "busca: rag" in final.reason or "busca: lexical_fallback" in final.reason


@pytest.mark.parametrize("kind", KINDS)
def test_any_failure_before_the_first_word_degrades(chat_engine, kind):
    provider = FakeProvider()
    provider.enqueue({"error": kind})
    _, final = run(ChatService(chat_engine.retriever, chat_engine.bible, provider), JOHN)
    assert final.mode == Mode.PROVIDER_UNAVAILABLE and f"({kind})" in final.reason
    assert "João 3:16" in final.answer and final.error is None
    assert provider.setup_hint() in final.answer  # the line that says how to get a model


def test_small_talk_without_a_model_says_what_still_works(chat_engine, closed_ollama):
    _, final = run(ChatService(chat_engine.retriever, chat_engine.bible, closed_ollama), "Bom dia!")
    assert final.mode == Mode.PROVIDER_UNAVAILABLE and final.sources == []
    assert final.answer.startswith(PROVIDER_DOWN_NO_VERSES) and "ollama pull" in final.answer


def test_no_evidence_never_calls_the_model_nor_degrades(chat_engine, closed_ollama):
    _, final = run(ChatService(chat_engine.retriever, chat_engine.bible, closed_ollama),
                   "Qual a receita de bolo de cenoura?")
    assert final.mode == Mode.NO_EVIDENCE


def test_a_reachable_model_answers_normally(chat_engine):
    provider = FakeProvider()
    provider.enqueue("Deus amou o mundo de tal maneira (João 3:16).")
    _, final = run(ChatService(chat_engine.retriever, chat_engine.bible, provider), JOHN)
    assert final.mode == Mode.REFERENCE and final.citations == ["João 3:16"]
    assert final.answer.startswith("Deus amou o mundo") and "ollama pull" not in final.answer

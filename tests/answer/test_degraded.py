"""Tests for answers without a model: an unreachable provider still shows what retrieval found under one short
line for members; how to fix it goes to the reason (API, logs, status), never to the answer."""

from __future__ import annotations

import threading

import pytest

from pastor.answer.chat import INTERRUPTED_NOTE, ChatService
from pastor.answer.prompts import NO_EVIDENCE_MESSAGE
from pastor.answer.turn_modes import Mode
from pastor.care.openings import CONVERSATION, OFF_TOPIC, OPENINGS
from pastor.providers.fake import FakeProvider
from pastor.providers.none import NoneProvider
from pastor.providers.ollama_provider import OllamaProvider
from pastor.providers.provider import MEMBER_NOTICE
from tests.answer.test_chat import FORGIVE, JOHN, load_engine, run
from tests.answer.test_chat import OFF_TOPIC as RECIPE
from tests.support.core_fixtures import HashEmbedder, settings_for
from tests.support.helpers import free_port

LONG = "Deus é amor e cuida de você em todo tempo, de dia e de noite, sem descanso. "
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
    chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, closed_ollama)
    _, final = run(chat, JOHN)
    assert final.result.mode == Mode.PROVIDER_UNAVAILABLE == "provider_unavailable"
    assert final.result.error is None  # a degraded answer, not a failure: the verses are the answer
    assert final.answer.split("\n")[0] in OPENINGS["passage"]  # a passage asked for opens as one
    assert chat_engine.resources.bible.by_id["JHN 3:16"].text in final.answer and "**João 3:16**" in final.answer
    for setup in ("ollama pull", "LLM_PROVIDER", "OPENAI_API_KEY", "OLLAMA_HOST", closed_ollama.base_url):
        assert setup not in final.answer  # members never read setup instructions
        assert setup in final.result.reason  # the operator does (API reason, log, status page)
    assert (
        final.result.reason.startswith("ollama indisponível (unreachable)")
        and "busca: reference" in final.result.reason
    )
    assert [s.id for s in final.result.sources] == ["JHN 3:16"] and final.result.sources[0].cited
    assert final.result.citations == ["João 3:16"]
    assert (final.provider, final.model) == ("ollama", "qwen2.5:1.5b")


def test_unreachable_ollama_shows_the_top_verses_of_a_question(chat_engine, closed_ollama):
    chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, closed_ollama)
    _, final = run(chat, FORGIVE)
    assert final.result.mode == Mode.PROVIDER_UNAVAILABLE
    opening, _, lead = final.answer.split("\n")[:3]
    assert opening in OPENINGS["conflict"] and lead == f"_{MEMBER_NOTICE[0].upper()}{MEMBER_NOTICE[1:]}:_"
    assert final.result.sources and final.result.sources[0].id == "MAT 18:21"
    for source in final.result.sources:
        assert f"> {source.text} — **{source.reference}**" in final.answer
    assert "busca: rag" in final.result.reason or "busca: lexical_fallback" in final.result.reason


@pytest.mark.parametrize("kind", KINDS)
def test_any_failure_before_the_first_word_degrades(chat_engine, kind):
    provider = FakeProvider()
    provider.enqueue({"error": kind})
    _, final = run(ChatService(chat_engine.retriever, chat_engine.resources.bible, provider), JOHN)
    assert final.result.mode == Mode.PROVIDER_UNAVAILABLE and f"({kind})" in final.result.reason
    assert "João 3:16" in final.answer and final.result.error is None
    assert provider.setup_hint() in final.result.reason and provider.setup_hint() not in final.answer


# What a member reads without a model, by message: the reply's texts (an opening before verses, or the whole
# reply to conversation) and whether verses follow. The same whether the model fails or none is configured.
WITHOUT_A_MODEL = {
    "oi": (CONVERSATION["greeting"], False),
    "Bom dia!": (CONVERSATION["greeting"], False),
    "vlw mano": (CONVERSATION["thanks"], False),
    "tchau, fica com Deus": (CONVERSATION["farewell"], False),
    "que calor hoje, hein": (CONVERSATION["small_talk"], False),
    "Desculpe, não percebi": (CONVERSATION["clarify"], False),
    "quem é você?": (CONVERSATION["meta"], False),
    "Minha mãe faleceu, estou de luto e com o coração partido": (OPENINGS["grief"], True),
    "Estou com muito medo de pecar e perder a fé": (OPENINGS["fear"], True),
    FORGIVE: (OPENINGS["conflict"], True),
    JOHN: (OPENINGS["passage"], True),
    RECIPE: (OFF_TOPIC, False),
}


@pytest.mark.parametrize("provider", ["closed ollama", "none"])
def test_without_a_model_a_member_reads_words_that_fit_the_message(chat_engine, closed_ollama, provider):
    chat = ChatService(
        chat_engine.retriever,
        chat_engine.resources.bible,
        closed_ollama if provider == "closed ollama" else NoneProvider(),
    )
    wrong = {}
    for message, (texts, verses) in WITHOUT_A_MODEL.items():
        _, final = run(chat, message)
        first = final.answer.split("\n")[0]
        quoted = "\n> " in final.answer
        if first not in texts or quoted != verses or (not verses and final.answer not in texts):
            wrong[message] = final.answer
    assert not wrong, wrong
    assert "ollama pull" in run(chat, "oi")[1].result.reason or provider == "none"


def test_the_same_message_reads_the_same_and_a_later_one_may_differ(chat_engine):
    chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, NoneProvider())
    first, again = run(chat, "oi")[1].answer, run(chat, "oi")[1].answer
    later = {run(chat, "oi", [{"role": "user", "content": "oi"}] * n)[1].answer for n in range(6)}
    assert first == again and len(later) > 1 and later <= set(CONVERSATION["greeting"])


def test_no_verses_left_without_a_model_asks_for_more(chat_engine):
    chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, NoneProvider())
    everything = frozenset(chat_engine.resources.bible.by_id)
    chat._shown_before = lambda history: everything  # every verse was shown before: nothing is left to quote
    final = run(chat, "Estou com medo do futuro")[1]
    assert final.result.mode != Mode.NO_EVIDENCE  # the search found verses, all of them shown before
    assert final.answer == NO_EVIDENCE_MESSAGE and final.result.sources == []


def test_no_evidence_never_calls_the_model_nor_degrades(chat_engine, closed_ollama):
    _, final = run(ChatService(chat_engine.retriever, chat_engine.resources.bible, closed_ollama), RECIPE)
    assert final.result.mode == Mode.NO_EVIDENCE and final.answer in OFF_TOPIC  # what it is for, kindly


def test_a_reachable_model_answers_normally(chat_engine):
    provider = FakeProvider()
    provider.enqueue("Deus amou o mundo de tal maneira (João 3:16).")
    _, final = run(ChatService(chat_engine.retriever, chat_engine.resources.bible, provider), JOHN)
    assert final.result.mode == Mode.REFERENCE and final.result.citations == ["João 3:16"]
    assert final.answer.startswith("Deus amou o mundo") and "ollama pull" not in final.answer


# -- every turn ends useful ------------------------------------------------------------------------------
def test_a_model_silent_past_the_deadline_shows_the_verses(chat_engine):
    chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, HangingProvider(), deadline=0.5)
    _, final = run(chat, JOHN)
    assert final.result.mode == Mode.PROVIDER_UNAVAILABLE and "(timeout)" in final.result.reason
    assert chat_engine.resources.bible.by_id["JHN 3:16"].text in final.answer and final.result.error is None
    assert final.result.sources and final.result.sources[0].id == "JHN 3:16"


def test_a_failure_mid_answer_keeps_the_text_marks_it_and_keeps_the_sources(chat_engine):
    provider = FakeProvider()
    provider.enqueue({"error": "stream", "text": "Deus amou o mundo, como diz João 3:16, e "})
    _, final = run(ChatService(chat_engine.retriever, chat_engine.resources.bible, provider), JOHN)
    assert final.result.mode == Mode.REFERENCE
    assert final.answer.startswith("Deus amou o mundo, como diz João 3:16")
    assert final.answer.endswith(INTERRUPTED_NOTE)
    assert final.result.error.type == "stream" and final.result.error.partial is True
    assert final.result.citations == ["João 3:16"] and final.result.sources[0].cited


def test_a_deadline_mid_answer_keeps_the_text(chat_engine):
    chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, HangingProvider(first=LONG), deadline=0.5)
    _, final = run(chat, JOHN)
    assert final.answer.startswith("Deus é amor e cuida") and final.answer.endswith(INTERRUPTED_NOTE)
    assert final.result.error.type == "timeout" and final.result.error.partial and final.result.sources


def test_stop_marks_the_answer_interrupted_and_keeps_the_sources(chat_engine):
    cancel = threading.Event()
    chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, HangingProvider(first=LONG))
    updates = []
    for update in chat.turn(JOHN, [], cancel):
        updates.append(update)
        if "Deus é amor" in update.answer:
            cancel.set()
    final = updates[-1]
    assert final.done and final.answer.endswith(INTERRUPTED_NOTE) and final.result.error.type == "cancelled"
    assert final.result.sources and final.result.mode == Mode.REFERENCE


def test_the_deadline_stops_the_provider_generating(chat_engine):
    provider = HangingProvider(first=LONG)
    run(ChatService(chat_engine.retriever, chat_engine.resources.bible, provider, deadline=0.3), JOHN)
    assert provider.halted.wait(2), "the provider's cancel event must be set when the turn ends"


class HangingProvider(FakeProvider):
    """Writes `first` (if any), then waits silently until the turn sets its cancel event."""

    def __init__(self, first: str = "") -> None:
        super().__init__()
        self.first = first
        self.halted = threading.Event()

    def stream(self, system, messages, cancel=None):
        cancel = cancel or threading.Event()

        def replies():
            if self.first:
                yield self.first
            cancel.wait(30)
            self.halted.set()

        return replies()

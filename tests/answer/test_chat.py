"""Tests for pastor.answer.chat: grounded turns with the fake model, citation validation, modes, safety, the log."""

from __future__ import annotations

import json
import re
import sys
import threading

import pytest

from pastor.answer import prompts
from pastor.answer.chat import CRISIS_VERSES, INTERRUPTED_NOTE, LEXICAL_NOTE, ChatService, InputError
from pastor.answer.turn import TurnError, TurnResult, TurnUpdate
from pastor.answer.turnlog import TurnLog
from pastor.answer_filter.citations import NO_ANCHOR_NOTE
from pastor.care import crisis as safety
from pastor.care import openings
from pastor.care.contacts import parse_contacts
from pastor.index.engine import Engine
from pastor.providers.fake import FakeProvider
from pastor.providers.none import NoneProvider
from pastor.search.results import Source
from pastor.web.schemas import source_json
from pastor.wiring import build_chat
from tests.support.core_fixtures import HashEmbedder, copy_docs, settings_for

SECRET = "sk-teste-NUNCA-NO-LOG-0123456789"
JOHN = "o que diz João 3:16?"
PETER = "o que dizem Mateus 18:21-22?"
OFF_TOPIC = "Qual a receita de bolo de cenoura?"
CHURCH = "Onde fica a sede da igreja em Vale Sereno?"
FORGIVE = "Pedro perguntou quantas vezes devo perdoar meu irmão"  # MAT 18:21 almost word for word


def load_engine(settings, embedder, index: bool = True) -> Engine:
    import pastor.search.embedders as embedders

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(embedders, "load_embedder", lambda name: embedder)
        engine = Engine(settings).load()
    if index:
        engine.start_indexing(background=False)
    return engine


@pytest.fixture(scope="module")
def chat_engine(tmp_path_factory) -> Engine:
    """Tiny corpus, fake embedder, church documents; built once for the module (read-only)."""
    root = tmp_path_factory.mktemp("chat")
    settings = settings_for(root / "data", PASTOR_DOCS_DIR=str(copy_docs(root / "docs")))
    return load_engine(settings, HashEmbedder())


@pytest.fixture
def provider() -> FakeProvider:
    return FakeProvider(chunk=3)


@pytest.fixture
def log(tmp_path) -> TurnLog:
    return TurnLog(tmp_path / "logs")


@pytest.fixture
def chat(chat_engine, provider, log) -> ChatService:
    return ChatService(chat_engine.retriever, chat_engine.resources.bible, provider, turnlog=log)


@pytest.fixture
def queries(chat_engine, monkeypatch) -> list[str]:
    """The queries the chat searches for its turns, in order (not the earlier question a follow-up searches
    again to know which verses the conversation showed)."""
    seen: list[str] = []
    search = chat_engine.retriever.search

    def spy(query, *args, **kwargs):
        if sys._getframe(1).f_code.co_name == "turn":  # the turn's own search, not `_shown_before`'s
            seen.append(query)
        return search(query, *args, **kwargs)

    monkeypatch.setattr(chat_engine.retriever, "search", spy)
    return seen


def run(chat: ChatService, message: str, history=None, cancel=None) -> tuple[list[str], object]:
    """(answer after each update, final update)."""
    answers, final = [], None
    for final in chat.turn(message, history, cancel):
        answers.append(final.answer)
    assert final.done
    return answers, final


# -- citation validation ---------------------------------------------------------------------------
class TestCitationSpans:
    def test_each_update_carries_the_spans_of_its_validated_text(self, chat, provider):
        provider.enqueue("Em João 3:16 lemos que Deus amou o mundo, não em Hezequias 3:16. Deus ama você (Jo 3.16).")
        updates = [(u.answer, list(u.result.citation_spans)) for u in chat.turn(JOHN)]
        answer, spans = updates[-1]
        assert [(answer[c.start : c.end], c.reference, c.ids) for c in spans] == [
            ("João 3:16", "João 3:16", ("JHN 3:16",)),
            ("Jo 3.16", "João 3:16", ("JHN 3:16",)),
        ]
        for shown, placed in updates:
            assert answer.startswith(shown) and set(placed) <= set(spans)  # never a span not yet validated

    def test_a_crisis_reply_places_each_verse_it_quotes(self, chat):
        _, final = run(chat, "Eu quero morrer, não aguento mais viver")
        spans = final.result.citation_spans
        assert [final.answer[c.start : c.end] for c in spans] == [s.reference for s in final.result.sources]
        assert [c.ids for c in spans] == [(s.id,) for s in final.result.sources]


class TestInventedReferences:
    def test_invented_references_are_removed_and_supported_ones_kept(self, chat, provider):
        provider.enqueue(
            "Em João 3:16 lemos que Deus amou o mundo. Veja também João 3:17 e Hezequias 3:16. "
            "Medite em João 3:16-18 com calma. Deus ama você (João 3:16)."
        )
        answers, final = run(chat, JOHN)
        assert final.result.mode == "reference"
        assert [s.id for s in final.result.sources] == ["JHN 3:16"]
        for invented in ("3:17", "Hezequias", "3:16-18"):
            assert invented not in final.answer
        assert final.answer.count("João 3:16") == 2
        assert final.result.citations == ["João 3:16"]
        assert set(final.result.removed_citations) == {"João 3:17", "Hezequias 3:16", "João 3:16-18"}
        assert NO_ANCHOR_NOTE not in final.answer
        # No invented reference is ever shown, not even for a moment while streaming.
        assert not any("3:17" in a or "Hezequias" in a for a in answers)

    def test_range_half_outside_the_sources(self, chat, provider):
        provider.enqueue(
            "Pedro perguntou (Mateus 18:21-22) e Jesus respondeu setenta vezes sete (Mateus 18:22; Mateus 18:22-23)."
        )
        _, final = run(chat, PETER)
        assert "Mateus 18:22-23" not in final.answer
        assert "(Mateus 18:21-22)" in final.answer and "(Mateus 18:22)" in final.answer
        assert final.result.citations == ["Mateus 18:21-22", "Mateus 18:22"]
        assert final.result.removed_citations == ["Mateus 18:22-23"]

    def test_sources_cited_are_marked_and_listed_first(self, chat, provider):
        provider.enqueue("Jesus respondeu: setenta vezes sete (Mateus 18:22).")
        _, final = run(chat, PETER)
        assert [(s.id, s.cited) for s in final.result.sources] == [("MAT 18:22", True), ("MAT 18:21", False)]
        assert all(
            set(source_json(s)) == {"id", "reference", "text", "score", "cited", "kind"} for s in final.result.sources
        )

    def test_note_when_nothing_supported_remains(self, chat, provider):
        provider.enqueue("Como diz João 3:17, Deus cuida de você.")
        _, final = run(chat, JOHN)
        assert "3:17" not in final.answer
        assert final.result.notes == [NO_ANCHOR_NOTE] and NO_ANCHOR_NOTE not in final.answer
        assert final.result.citations == [] and final.result.removed_citations == ["João 3:17"]
        assert [s.cited for s in final.result.sources] == [False]

    def test_document_reference_survives_and_an_invented_one_goes(self, chat, chat_engine, provider):
        docs = [h for h in chat_engine.retriever.search(CHURCH, k=chat.top_k).results if h.kind == "doc"]
        real = next(h.id for h in docs if "Vale Sereno" in h.text)
        provider.enqueue(f"A igreja tem sede em Vale Sereno ({real}). Veja também estatuto.md#p9-c9.")
        _, final = run(chat, CHURCH)
        assert real in final.answer and "estatuto.md#p9-c9" not in final.answer
        assert final.result.citations == [real] and final.result.removed_citations == ["estatuto.md#p9-c9"]
        cited = [s for s in final.result.sources if s.cited]
        assert [(s.id, s.kind) for s in cited] == [(real, "doc")]
        assert final.result.sources[0].id == real
        assert NO_ANCHOR_NOTE not in final.answer

    def test_a_document_reference_is_matched_whole(self):
        from pastor.answer.filters import AnswerFilter

        sources = [Source(f"estatuto.md#p0-c{i}", f"estatuto.md#p0-c{i}", "…", "doc", 0.1) for i in (1, 12)]
        checked = AnswerFilter("", sources)
        checked.feed("Veja o estatuto (estatuto.md#p0-c12).")
        checked.finish()
        assert checked.cited_ids == {"estatuto.md#p0-c12"}  # the validator's verdict marks the sources

    def test_sources_reach_the_model_inside_the_data_markers(self, chat, provider):
        provider.enqueue("Deus amou o mundo (João 3:16).")
        run(chat, JOHN)
        prompt = provider.last_messages[-1]["content"]
        assert "[FONTE 1] João 3:16 — Porque Deus amou o mundo" in prompt
        assert prompt.index("INÍCIO DAS FONTES") < prompt.index("[FONTE 1]") < prompt.index("FIM DAS FONTES")
        assert JOHN in prompt


# -- modes -----------------------------------------------------------------------------------------
class TestModes:
    def test_no_evidence_makes_no_model_call(self, chat, provider):
        _, final = run(chat, OFF_TOPIC)
        assert provider.calls == 0
        assert (final.result.mode, final.result.sources) == ("no_evidence", [])
        assert final.answer in openings.OFF_TOPIC  # a recipe hears what the assistant is for
        assert final.result.reason

    def test_missing_reference_makes_no_model_call(self, chat, provider):
        _, final = run(chat, "o que diz João 3:17?")
        assert provider.calls == 0
        assert final.result.mode == "no_evidence" and "não existe" in final.result.reason
        assert final.answer == prompts.NO_EVIDENCE_MESSAGE

    def test_conversational_turn_is_one_call_without_sources(self, chat, provider):
        provider.enqueue("Bom dia! Estou aqui para conversar e orar com você.")
        _, final = run(chat, "Bom dia, pastor!")
        assert provider.calls == 1
        assert final.result.mode == "conversational" and final.result.sources == []
        sent = provider.last_system + "".join(m["content"] for m in provider.last_messages)
        assert "[FONTE" not in sent and "INÍCIO DAS FONTES" not in sent
        assert provider.last_messages[-1]["content"] == "Bom dia, pastor!"
        assert final.answer == "Bom dia! Estou aqui para conversar e orar com você."  # no note appended

    @pytest.mark.parametrize("message", ["quem é você?", "kkkkk", "olá, pode me ajudar?", "não entendi"])
    def test_questions_about_the_assistant_are_conversation(self, chat, provider, message):
        _, final = run(chat, message)
        assert final.result.mode == "conversational" and final.result.sources == [] and provider.calls == 1

    def test_without_a_model_conversation_gets_the_self_description(self, chat_engine):
        provider = NoneProvider()
        _, final = run(ChatService(chat_engine.retriever, chat_engine.resources.bible, provider), "quem é você?")
        assert (final.result.mode, final.answer, provider.calls) == ("conversational", prompts.SELF_DESCRIPTION, 0)
        assert NO_ANCHOR_NOTE not in final.answer

    def test_rag_turn_with_the_echo_model(self, chat, provider):
        _, final = run(chat, FORGIVE)
        assert final.result.mode == "rag" and provider.calls == 1
        assert final.result.citations and final.result.removed_citations == []
        assert final.result.sources[0].cited is True

    def test_lexical_note_while_vectors_are_not_ready(self, tmp_path, provider):
        engine = load_engine(settings_for(tmp_path / "data"), HashEmbedder(), index=False)
        provider.enqueue("Jesus disse: setenta vezes sete (Mateus 18:22).")
        _, final = run(ChatService(engine.retriever, engine.resources.bible, provider), FORGIVE)
        assert final.result.mode == "lexical_fallback"
        assert final.result.notes[0] == LEXICAL_NOTE and LEXICAL_NOTE not in final.answer
        assert "(Mateus 18:22)" in final.answer

    @pytest.mark.parametrize("model", ["none", "down"])
    def test_lexical_note_without_a_model_too(self, tmp_path, model):
        """Issue 22: the verses-only answers during indexing carry the note the README promises."""
        engine = load_engine(settings_for(tmp_path / "data"), HashEmbedder(), index=False)
        provider = NoneProvider() if model == "none" else FakeProvider()
        if model == "down":
            provider.enqueue({"error": "unreachable"})
        _, final = run(ChatService(engine.retriever, engine.resources.bible, provider), FORGIVE)
        assert final.result.mode in ("lexical_fallback", "provider_unavailable")
        assert final.result.notes[0] == LEXICAL_NOTE and "Mateus 18:22" in final.answer

    def test_no_model_configured_lists_the_verses(self, chat_engine):
        provider = NoneProvider()
        _, final = run(ChatService(chat_engine.retriever, chat_engine.resources.bible, provider), JOHN)
        assert final.answer.split("\n")[0] in openings.OPENINGS["passage"]
        assert "— **João 3:16**" in final.answer
        assert provider.calls == 0 and final.result.sources[0].cited is True


class TestCrisis:
    @pytest.mark.parametrize(
        "message, lines",
        [
            ("Eu quero morrer, não aguento mais viver", ("**188**", "**192**", "**808 24 24 24**", "**112**")),
            ("Meu marido me bate todos os dias", ("**190**", "**180**", "**100**", "**112**", "**800 202 148**")),
        ],
    )
    def test_routed_before_retrieval_without_the_model(self, chat, provider, queries, message, lines):
        _, final = run(chat, message)
        assert final.result.mode == "crisis" and final.result.reason.startswith("sinal de crise:")
        assert provider.calls == 0 and queries == []
        kind = safety.detect_crisis(message).kind
        assert final.answer.startswith(safety.crisis_message(kind))
        # Every number shown is a configured help line or belongs to a verse quoted below it.
        configured = set(re.findall(r"\d+", " ".join(" ".join(c[:4]) for c in safety.DEFAULT_CONTACTS)))
        assert set(re.findall(r"\d+", safety.crisis_message(kind))) <= configured
        quoted = " ".join(s.reference + " " + s.text for s in final.result.sources)
        assert set(re.findall(r"\d+", final.answer)) <= configured | set(re.findall(r"\d+", quoted))
        assert all(line in final.answer for line in lines)  # the help lines of this kind of crisis
        assert final.answer.startswith("**Ligue agora")  # help lines first: on screen when the reply arrives
        assert [s.id for s in final.result.sources] == list(CRISIS_VERSES)  # all five are in the tiny corpus
        assert all(s.cited for s in final.result.sources)
        assert final.result.citations == [s.reference for s in final.result.sources]
        assert final.turn_id

    def test_someone_else_at_risk_gets_what_to_do_for_them(self, chat, provider):
        _, final = run(chat, "minha amiga disse que vai pular do prédio hoje")
        assert final.result.mode == "crisis" and provider.calls == 0
        assert final.answer.startswith(safety.crisis_message("suicide", someone_else=True))
        assert "não deixe a pessoa sozinha" in final.answer and "**188**" in final.answer
        _, own = run(chat, "eu quero morrer, não aguento mais viver")
        assert "não deixe a pessoa sozinha" not in own.answer

    def test_configured_contacts_replace_the_defaults(self, chat_engine, provider):
        contacts = parse_contacts("Angola|Linha de apoio|111|24 horas")
        _, final = run(
            ChatService(chat_engine.retriever, chat_engine.resources.bible, provider, crisis_contacts=contacts),
            "quero me matar",
        )
        assert "- Angola: Linha de apoio — **111** (24 horas)" in final.answer
        assert "188" not in final.answer and "192" not in final.answer

    def test_build_chat_passes_the_setting(self, chat_engine, tmp_path):
        settings = settings_for(tmp_path, PASTOR_CRISIS_CONTACTS="Brasil|CVV|188")
        assert build_chat(settings, chat_engine, NoneProvider()).crisis_contacts == parse_contacts("Brasil|CVV|188")


# -- numbers that are no reference -------------------------------------------------------------------
class TestNumbersAfterReferences:
    @pytest.mark.parametrize("message", ["Salmos 23; 2024", "Sl 23 e 1000", "Leio o Salmo 23 e 1000 vezes me consolo"])
    def test_the_message_is_answered(self, chat, provider, message):
        _, final = run(chat, message)
        assert final.result.error is None and final.result.mode == "reference"

    def test_a_model_writing_them_does_not_break_the_stream(self, chat, provider):
        provider.enqueue(
            "Salmos 23; 2024 foi um ano difícil. Sl 23 e 1000 vezes Jo 3:16, Leio o Salmo 23 e 1000 vezes."
        )
        answers, final = run(chat, JOHN)
        assert final.result.error is None and final.result.citations == ["João 3:16"]
        assert "2024" in final.answer and "Salmo" not in final.answer and "Sl 23" not in final.answer


# -- follow-up rewriting ---------------------------------------------------------------------------
HISTORY = [
    {"role": "user", "content": "Como posso perdoar meu irmão?"},
    {"role": "assistant", "content": "Perdoar é um caminho (Efésios 4:32)."},
]


class TestFollowUp:
    def test_rewritten_by_a_short_complete_call(self, chat, provider, queries):
        provider.enqueue("Quantas vezes devo perdoar meu irmão?", "Setenta vezes sete (Mateus 18:22).")
        _, final = run(chat, "e quantas vezes?", HISTORY)
        assert queries == ["Quantas vezes devo perdoar meu irmão?"]
        assert provider.calls == 2
        assert final.result.citations == ["Mateus 18:22"]

    def test_failed_rewrite_searches_with_the_previous_question(self, chat, provider, queries):
        provider.enqueue({"error": "timeout"}, "Estou aqui com você.")
        _, final = run(chat, "e quantas vezes?", HISTORY)
        assert queries == ["Como posso perdoar meu irmão? e quantas vezes?"]
        assert final.result.query == queries[0]  # shown as "busquei: …"
        assert provider.calls == 2

    def test_without_a_model_a_follow_up_is_searched_with_the_previous_question(self, chat_engine, queries):
        chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, NoneProvider())
        _, final = run(chat, "e o que mais a Bíblia diz sobre isso?", HISTORY)
        assert queries == ["Como posso perdoar meu irmão? e o que mais a Bíblia diz sobre isso?"]
        assert final.result.query == queries[0]

    def test_a_follow_up_never_shows_again_a_verse_the_conversation_showed(self, chat_engine):
        """Issue 31: "e o que mais a Bíblia diz sobre isso?" gets other verses, not the six just shown."""
        chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, NoneProvider())
        _, first = run(chat, HISTORY[0]["content"])
        shown = {s.id for s in first.result.sources}
        history = [*HISTORY, {"role": "assistant", "content": "Veja Efésios 4:32."}]
        _, final = run(chat, "e o que mais a Bíblia diz sobre isso?", history)
        again = shown | {"EPH 4:32"}
        assert shown and not again & {s.id for s in final.result.sources}

    def test_without_a_model_a_question_that_stands_alone_is_searched_alone(self, chat_engine, queries):
        chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, NoneProvider())
        _, final = run(chat, "Estou de luto pela minha mãe e não consigo dormir", HISTORY)
        _, first = run(chat, "e o que mais a Bíblia diz sobre isso?")  # no history: nothing to join
        _, short = run(chat, "ansiedade", HISTORY)  # short, but points back at nothing: a new subject
        assert queries == [
            "Estou de luto pela minha mãe e não consigo dormir",
            "e o que mais a Bíblia diz sobre isso?",
            "ansiedade",
        ]
        assert final.result.query == first.result.query == short.result.query == ""

    def test_the_rewritten_query_is_reported(self, chat, provider):
        provider.enqueue("Quantas vezes devo perdoar meu irmão?", "Setenta vezes sete (Mateus 18:22).")
        _, final = run(chat, "e quantas vezes?", HISTORY)
        assert final.result.query == "Quantas vezes devo perdoar meu irmão?"
        _, plain = run(chat, "quantas vezes devo perdoar meu irmão quando ele me ofende", HISTORY)
        assert plain.result.query == ""

    def test_a_short_reference_mid_conversation_is_looked_up_not_rewritten(self, chat, provider, queries):
        provider.enqueue("Quantas vezes devo perdoar?")  # what a rewrite would have returned
        _, final = run(chat, "Sl 23", HISTORY)
        assert queries == ["Sl 23"] and final.result.mode == "reference" and final.result.query == ""
        assert final.result.sources and final.result.sources[0].id.startswith("PSA 23:")

    def test_a_greeting_mid_conversation_stays_a_greeting(self, chat, provider, queries):
        provider.enqueue("Quantas vezes devo perdoar?", "Tudo bem, graças a Deus! Estou aqui.")
        _, final = run(chat, "oi, tudo bem?", HISTORY)
        assert queries == [] and final.result.mode == "conversational"  # neither rewritten nor searched
        assert provider.calls == 1

    def test_standalone_question_is_not_rewritten(self, chat, provider, queries):
        run(chat, "quantas vezes devo perdoar meu irmão quando ele me ofende", HISTORY)
        assert queries == ["quantas vezes devo perdoar meu irmão quando ele me ofende"]
        assert provider.calls == 1

    def test_history_above_ten_turns_reaches_the_model(self, chat_engine, provider):
        # PASTOR_HISTORY_TURNS=12 used to be capped at 10 by a default inside the prompt builder.
        chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, provider, history_turns=12)
        history = []
        for i in range(15):
            history += [{"role": "user", "content": f"pergunta {i}"}, {"role": "assistant", "content": f"resposta {i}"}]
        run(chat, "quantas vezes devo perdoar meu irmão quando ele me ofende", history)
        contents = [m["content"] for m in provider.last_messages]
        assert contents[0] == "pergunta 3" and len(contents) == 2 * 12 + 1

    def test_history_is_trimmed(self, chat_engine, provider):
        chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, provider, history_turns=1)
        older = [{"role": "user", "content": "primeira"}, {"role": "assistant", "content": "resposta 1"}]
        run(chat, "quantas vezes devo perdoar meu irmão quando ele me ofende", older + HISTORY)
        contents = [m["content"] for m in provider.last_messages]
        assert "primeira" not in contents and contents[:2] == [h["content"] for h in HISTORY]


# -- failures and cancel ---------------------------------------------------------------------------
class TestFailures:
    def test_provider_error_mid_stream(self, chat, provider, log):
        provider.enqueue({"error": "stream", "text": "Deus amou o mundo de tal maneira que"})
        answers, final = run(chat, JOHN)
        assert any("Deus amou" in a for a in answers)  # the start was shown
        expected = FakeProvider().error("stream").user_message
        # What was shown stays, marked as cut; the error says why.
        assert final.answer == f"Deus amou o mundo de tal maneira que\n\n{INTERRUPTED_NOTE}"
        assert final.result.error == TurnError("stream", expected, "fake", partial=True)
        assert log.read()[-1]["error"]["type"] == "stream"

    def test_cancel_stops_the_turn(self, chat, provider):
        full = "Deus amou o mundo (João 3:16). " * 20
        provider.enqueue(full)
        cancel = threading.Event()
        answers, final = [], None
        for final in chat.turn(JOHN, cancel=cancel):
            answers.append(final.answer)
            if final.answer:
                cancel.set()
        assert final.done
        assert final.result.error == TurnError("cancelled", "Resposta interrompida.", "fake", partial=True)
        assert len(final.answer) < len(full) / 2 and final.answer.endswith(INTERRUPTED_NOTE)
        assert NO_ANCHOR_NOTE not in final.answer

    @pytest.mark.parametrize("message", ["", "   ", None])
    def test_empty_message(self, chat, message):
        with pytest.raises(InputError, match="Escreva uma mensagem"):
            chat.ask(message)

    def test_too_long_message(self, chat_engine, provider):
        with pytest.raises(InputError, match="limite é 10"):
            ChatService(chat_engine.retriever, chat_engine.resources.bible, provider, max_chars=10).ask("x" * 11)


# -- the turn log ----------------------------------------------------------------------------------
class TestTurnLog:
    def test_one_line_per_turn_with_the_fields_and_no_key(self, chat, provider, log, monkeypatch):
        monkeypatch.setenv("OPENAI_API_KEY", SECRET)
        provider.enqueue("Jesus respondeu: setenta vezes sete (Mateus 18:22; Hezequias 3:16).")
        result = chat.ask(PETER)
        chat.ask(OFF_TOPIC)
        chat.ask(f"Bom dia! minha chave é {SECRET}")
        lines = log.path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 3
        assert SECRET not in "\n".join(lines)
        record = json.loads(lines[0])
        for key in (
            "timestamp",
            "turn_id",
            "question",
            "mode",
            "reason",
            "retrieved",
            "answer",
            "citations",
            "removed_citations",
            "provider",
            "model",
            "latency",
        ):
            assert key in record, key
        assert record["turn_id"] == result.turn_id and record["question"] == PETER
        assert record["mode"] == "reference" and record["reason"] == result.result.reason
        assert {r["id"] for r in record["retrieved"]} == {"MAT 18:21", "MAT 18:22"}
        assert all(isinstance(r["score"], float) for r in record["retrieved"])
        assert record["answer"] == result.answer
        assert record["removed_citations"] == ["Hezequias 3:16"]
        assert (record["provider"], record["model"]) == ("fake", "fake")
        assert {"retrieval_ms", "first_token_ms", "total_ms"} <= set(record["latency"])
        assert json.loads(lines[1])["mode"] == "no_evidence"

    def test_routed_turns_log_their_mode_and_reason_as_plain_text(self, chat, log):
        """Route and kind names are `StrEnum`s; the log line holds their plain values, as before them."""
        chat.ask("quero me matar")
        chat.ask("qual remédio devo tomar pra dor de cabeça?")
        crisis, advice = log.path.read_text(encoding="utf-8").splitlines()
        assert '"mode": "crisis", "reason": "sinal de crise: suicide",' in crisis
        assert '"mode": "out_of_scope", "reason": "fora do escopo pastoral: medical",' in advice
        assert [type(json.loads(line)["reason"]) for line in (crisis, advice)] == [str, str]

    def test_feedback_attaches_to_a_turn(self, chat, log):
        result = chat.ask(OFF_TOPIC)
        log.feedback(result.turn_id, "up", "ajudou")
        assert log.read()[-1]["turn_id"] == result.turn_id


# -- wiring ----------------------------------------------------------------------------------------
class TestBuildChat:
    def test_from_settings(self, chat_engine, tmp_path):
        settings = settings_for(
            tmp_path / "data",
            PASTOR_TOP_K="3",
            PASTOR_HISTORY_TURNS="2",
            PASTOR_MAX_MESSAGE_CHARS="500",
            PASTOR_LOG_MAX_BYTES="4096",
        )
        chat = build_chat(settings, chat_engine)
        assert isinstance(chat.provider, FakeProvider)
        assert (chat.top_k, chat.history_turns, chat.max_chars) == (3, 2, 500)
        assert chat.turnlog.path == tmp_path / "data" / "logs" / "turns.jsonl"
        assert chat.turnlog.max_bytes == 4096
        result = chat.ask(FORGIVE)
        assert len([s for s in result.result.sources if s.kind == "verse"]) <= 3
        assert chat.turnlog.read()[0]["turn_id"] == result.turn_id

    def test_ask_returns_the_final_update(self, chat):
        result = chat.ask(JOHN)
        assert isinstance(result, TurnUpdate) and isinstance(result.result, TurnResult)
        assert result.done is True and result.result.error is None and result.result.mode == "reference"


class TestRealEmbedder:
    def test_a_pastoral_turn_end_to_end(self, tmp_path, real_embedder):
        engine = load_engine(settings_for(tmp_path / "data", EMBEDDING_MODEL="use-multilingual"), real_embedder)
        provider = FakeProvider(chunk=4)  # the echo quotes the first sources it was given
        _, final = run(ChatService(engine.retriever, engine.resources.bible, provider), "Estou muito ansioso com tudo")
        assert final.result.mode == "rag"
        assert final.result.citations and final.result.removed_citations == []
        assert final.result.sources[0].cited and final.result.sources[0].id in {"PHP 4:6", "1PE 5:7"}


class TestOutOfScope:
    def test_medical_advice_gets_the_kind_fixed_reply_without_search_or_model(self, chat, provider, queries):
        _, final = run(chat, "qual remédio devo tomar pra dor de cabeça?")
        assert final.result.mode == "out_of_scope" and final.result.reason == "fora do escopo pastoral: medical"
        assert "médico ou de um farmacêutico" in final.answer and "orar" in final.answer
        assert provider.calls == 0 and queries == [] and final.result.sources == []

    def test_not_understood_without_a_model_asks_what_was_unclear(self, chat_engine, queries):
        chat = ChatService(chat_engine.retriever, chat_engine.resources.bible, NoneProvider())
        _, final = run(chat, "não entendi, pode explicar de outro jeito?", HISTORY)
        assert final.result.mode == "conversational" and final.answer == openings.NOT_UNDERSTOOD and queries == []
        _, final = run(chat, "boa noite, tudo bem com o senhor?", HISTORY)
        assert final.answer in openings.CONVERSATION["greeting"]

    def test_not_understood_asks_the_model_with_the_history_instead_of_searching(self, chat, provider, queries):
        provider.enqueue("Vou explicar de outro jeito: Deus perdoa sempre.")
        _, final = run(chat, "não entendi, pode explicar de outro jeito?", HISTORY)
        assert final.result.mode == "conversational" and queries == [] and provider.calls == 1
        assert "outro jeito" in final.answer

"""One grounded chat turn: crisis check, retrieval, gated generation and streamed validation."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict

from pastor.answer import degraded, prompts
from pastor.answer.checks import InputError, check_message
from pastor.answer.deadline import Deadline, DeadlineExceeded, call_within, within
from pastor.answer.filters import AnswerFilter
from pastor.answer.followup import searched_without_model
from pastor.answer.halt import Halt
from pastor.answer.history import History
from pastor.answer.turn import Turn, TurnError, TurnResult, TurnUpdate
from pastor.answer.turn_modes import Mode
from pastor.answer_filter.citations import NO_ANCHOR_NOTE
from pastor.bible.references import named_verse_ids
from pastor.care import crisis as safety
from pastor.care import openings
from pastor.care.advice import out_of_scope_reply
from pastor.care.router import Router
from pastor.care.routes import RouteName
from pastor.providers import ProviderError
from pastor.search.modes import SearchMode
from pastor.search.results import SearchResult, Source

log = logging.getLogger("pastor.answer")

__all__ = ["ChatService", "InputError", "TurnUpdate", "TurnResult", "CRISIS_VERSES", "LEXICAL_NOTE"]

# Verses offered after the safety message in a crisis: God's nearness, refuge and rest.
CRISIS_VERSES = ("PSA 34:18", "PSA 46:1", "MAT 11:28", "ISA 41:10", "PSA 23:4")

# Marks an answer the model did not finish (Stop, a failure or the deadline after the first words).
INTERRUPTED_NOTE = "_(resposta interrompida)_"

# Notes travel beside the answer (`TurnResult.notes`), never inside its text.
LEXICAL_NOTE = "Ainda estou me preparando; por enquanto, escolhi os versículos pelas palavras da sua mensagem."
# The earlier questions whose verses a follow-up leaves out: enough for one subject, a handful of searches to re-read.
SHOWN_TURNS = 3
# The reason a conversational turn gives: the router sent it to conversation, nothing was searched.
CONVERSATION_REASON = "conversa: saudação, agradecimento ou pergunta sobre o assistente"


class ChatService:
    """Runs turns against what it is given: a retriever, the Bible shown, a provider and a turn log."""

    def __init__(
        self,
        retriever,
        bible,
        provider,
        *,
        turnlog=None,
        top_k: int = 6,
        history_turns: int = 10,
        max_chars: int = 4000,
        crisis_contacts=safety.DEFAULT_CONTACTS,
        deadline: float = 60.0,
        router: Router | None = None,
        replica: str = "",
        translations=None,
    ):
        self.retriever = retriever
        self.bible = bible
        self.provider = provider
        self.turnlog = turnlog
        self.top_k = top_k
        self.history_turns = history_turns
        self.max_chars = max_chars
        self.crisis_contacts = crisis_contacts
        self.deadline = deadline  # seconds for a whole reply (LLM_TIMEOUT), however slowly it trickles
        self.replica = replica  # named in turn ids when several replicas answer (issue 23)
        self.router = router or Router()  # lexicon and rules; the runtime adds the semantic router when it is ready
        self.translations = translations  # the texts a reader can choose; None = the cited Bible's only

    # -- public ------------------------------------------------------------------------------------
    def turn(
        self,
        message: str,
        history: History | list[dict] | None = None,
        cancel: threading.Event | None = None,
        translation: str = "",
    ) -> Iterator[TurnUpdate]:
        """Yield updates with the validated answer so far; the last one has done=True. Verses are quoted
        in `translation` (a key of `translations`; empty = the default); ids and citations never change.

        The message and history are checked where they entered (`check_message`, `History.checked`: the
        page and the API do it before anything else); a caller that did not (the CLI) has them checked here."""
        if self.translations is not None:
            translation = self.translations.get(translation).key  # UnknownTranslation before any work
        turn = Turn.start(check_message(message, self.max_chars), self.provider, self.replica)
        history = History.checked(history, self.max_chars)
        deadline = Deadline(self.deadline)  # one for every model call of the turn
        route = self.router.route(turn.message)
        turn.kind, turn.asked_before = route.kind, sum(1 for m in history.messages if m.role == "user")
        if route.name == RouteName.CRISIS:
            yield from self._finish(turn, self._crisis(route, translation))
            return
        if route.name == RouteName.OUT_OF_SCOPE:
            scope = TurnResult(Mode.OUT_OF_SCOPE, f"fora do escopo pastoral: {route.kind}")
            yield from self._finish(turn, TurnUpdate("", out_of_scope_reply(route.kind), result=scope))
            return
        if route.name == RouteName.CONVERSATIONAL:
            yield from self._converse(turn, history, cancel, deadline, route.kind)
            return
        try:
            query, rewrite_timed_out = self._standalone(turn, history, deadline, cancel), False
        except DeadlineExceeded:  # the rewrite took the whole turn: search with the previous question, show the verses
            query, rewrite_timed_out = searched_without_model(history, turn.message), True
        t0 = time.perf_counter()
        shown = self._shown_before(history)
        result = turn.retrieval = self._in_translation(
            self.retriever.search(query, k=self.top_k, exclude=shown), translation
        )
        turn.lap("retrieval_ms", t0)
        update = turn.update
        update.set(
            query=query if query != turn.message else "",
            mode=Mode(result.mode),
            reason=result.reason,
            sources=result.results,
            notes=(result.note,) if result.note else (),
        )
        if result.mode == Mode.NO_EVIDENCE:
            # A request for something else hears what the assistant is for; a pastoral one is asked for more.
            off_topic = openings.off_topic_reply(turn.message, turn.asked_before)
            update.answer = off_topic if result.off_topic else prompts.NO_EVIDENCE_MESSAGE
            yield from self._finish(turn)
            return
        if rewrite_timed_out:
            self._provider_down(turn, self.provider.error("timeout", detail="a reescrita gastou o prazo do turno"))
            yield from self._finish(turn)
            return
        if not self.provider.generates:
            # Without a model, every verse shown is quoted with its reference under an opening that fits.
            update.answer, spans = self._with_verses(turn, result)
            update.set(sources=tuple(s.marked(True) for s in result.results), citation_spans=spans)
            self._note_keyword_search(update)
            yield from self._finish(turn)
            return
        yield from self._generate(turn, history, cancel, deadline)

    def _converse(
        self, turn: Turn, history: History, cancel, deadline: Deadline, kind: str = ""
    ) -> Iterator[TurnUpdate]:
        """Greetings, thanks, small talk, questions about the assistant, "não entendi": no search. The model
        answers with the conversation's history (so "não entendi" rephrases the last answer); without one, the
        fixed reply of the conversation's kind (`care.openings.CONVERSATION`)."""
        turn.retrieval = SearchResult(SearchMode.CONVERSATIONAL, CONVERSATION_REASON)
        turn.update.set(mode=Mode.CONVERSATIONAL, reason=CONVERSATION_REASON)
        if not self.provider.generates:
            turn.update.answer = openings.conversation_reply(kind, turn.message, turn.asked_before)
            yield from self._finish(turn)
            return
        yield from self._generate(turn, history, cancel, deadline)

    def _shown_before(self, history: History) -> frozenset[str]:
        """The verses the conversation already showed, which a follow-up does not show again: those its answers
        cited, and those its last questions' searches gave, each searched again as it was then (a verses-only
        turn keeps only the person's question, so the search is how to know its verses)."""
        cited = {verse for m in history.messages if m.role == "assistant" for verse in named_verse_ids(m.content)}
        shown: set[str] = set()
        asked = [i for i, m in enumerate(history.messages) if m.role == "user" and m.content.strip()]
        for index in asked[-SHOWN_TURNS:]:
            before = History(history.messages[:index])
            question = searched_without_model(before, history.messages[index].content)
            earlier = self.retriever.search(question, k=self.top_k, exclude=frozenset(shown))
            shown |= {source.id for source in earlier.results if source.kind == "verse"}
        return frozenset(cited | shown)

    def ask(self, message: str, history: History | list[dict] | None = None) -> TurnUpdate:
        """The final update of one turn (for the CLI)."""
        final = None
        for update in self.turn(message, history):
            final = update
        assert final is not None, "a turn yields its final update"
        return final

    # -- steps -------------------------------------------------------------------------------------
    def _standalone(self, turn: Turn, history: History, deadline: Deadline, cancel=None) -> str:
        """Rewrite a genuine follow-up into a standalone query; without a model, or when the rewrite
        fails, a follow-up is searched with the previous question (`followup.searched_without_model`). The call
        shares the turn's deadline: DeadlineExceeded when it outlasts it (no time left for a reply).

        References and greetings are recognised on the message itself (`prompts.understood_alone`)."""
        message = turn.message
        if not prompts.needs_rewrite(message, history):
            return message
        fallback = searched_without_model(history, message)
        if not self.provider.generates:
            return fallback
        t0 = time.perf_counter()
        halt = Halt(cancel)  # set below when the turn stops waiting: an in-process model frees its slot
        try:
            system, messages = prompts.rewrite_messages(history, message)
            rewritten = call_within(
                lambda: self.provider.complete(system, messages, cancel=halt), deadline, cancel=cancel
            ).strip()
        except ProviderError:
            return fallback
        except DeadlineExceeded:
            if cancel is not None and cancel.is_set():
                return message  # the person's Stop: the reply step sees it and ends the turn
            raise
        finally:
            halt.set()
            turn.lap("rewrite_ms", t0)
        return rewritten if 0 < len(rewritten) <= 500 else fallback

    def _in_translation(self, result: SearchResult, translation: str) -> SearchResult:
        """The search result with its verses' text in the reader's translation (ids, references,
        scores and mode unchanged, so validation and citations are the same in every translation)."""
        if self.translations is None:
            return result
        return dataclasses.replace(result, results=self.translations.retext(result.results, translation))

    def _crisis(self, crisis, translation: str = "") -> TurnUpdate:
        """The crisis reply: help lines first, then the safety message and comforting verses."""
        bible = self.bible
        verses = [bible.by_id[i] for i in CRISIS_VERSES if i in bible.by_id]
        texts = {v.id: self.translations.text(v.id, translation) if self.translations else v.text for v in verses}
        sources = [Source(v.id, v.reference, texts[v.id], score=1.0, cited=True) for v in verses]
        reply = degraded.quoted(
            [safety.crisis_message(crisis.kind, self.crisis_contacts, crisis.someone_else), ""], sources
        )
        return TurnUpdate(
            "",
            reply.text,
            result=TurnResult(
                Mode.CRISIS,
                f"sinal de crise: {crisis.kind}",
                citations=[v.reference for v in verses],
                citation_spans=list(reply.citations),
                sources=sources,
            ),
        )

    def _generate(self, turn: Turn, history: History, cancel, deadline: Deadline) -> Iterator[TurnUpdate]:
        update = turn.update
        mode, sources = update.result.mode, update.result.sources
        system, messages = prompts.build_messages(
            mode, turn.message, sources, history, history_turns=self.history_turns
        )
        validator = AnswerFilter(system, sources)
        self._note_keyword_search(update)
        yield update  # "preparando resposta…" is the UI's state until the first token
        # Set when the turn ends for any reason (Stop, deadline, failure): the provider stops generating
        # at once, which for the in-process model frees its slot for the next person.
        halt = Halt(cancel)
        t0 = time.perf_counter()
        stream = within(self.provider.stream(system, messages, cancel=halt), deadline, cancel=cancel)
        shown = False
        try:
            for delta in stream:
                if cancel is not None and cancel.is_set():
                    break
                if "first_token_ms" not in turn.timings:
                    turn.lap("first_token_ms", t0)
                safe = validator.feed(delta)
                if safe:
                    update.answer += safe
                    update.set(citation_spans=validator.spans)  # placed in the answer as it now reads
                    shown = True
                    yield update
            update.answer += validator.finish()
        except (ProviderError, DeadlineExceeded) as exc:
            error = (
                exc
                if isinstance(exc, ProviderError)
                else self.provider.error("timeout", detail="prazo da resposta esgotado")
            )
            if shown:
                self._interrupted(turn, validator, error)
            else:  # nothing of the model reached the reader: show what retrieval found
                self._provider_down(turn, error)
            yield from self._finish(turn)
            return
        finally:
            halt.set()
            close = getattr(stream, "close", None)
            if close:
                close()  # closing the generator closes the provider's HTTP stream
        if cancel is not None and cancel.is_set():
            self._mark_partial(update, "cancelled", "Resposta interrompida.")
        _checked(update, validator)
        if mode != Mode.CONVERSATIONAL and not update.result.citations and not update.result.error:
            update.set(notes=(*update.result.notes, NO_ANCHOR_NOTE))
        yield from self._finish(turn)

    def _note_keyword_search(self, update: TurnUpdate) -> None:
        """While the vectors are being built, an answer from keyword search says so, with or without a model."""
        notes = update.result.notes
        if (
            update.result.mode == Mode.LEXICAL_FALLBACK
            and not self.retriever.vectors_ready
            and LEXICAL_NOTE not in notes
        ):
            update.set(notes=(LEXICAL_NOTE, *notes))

    def _interrupted(self, turn: Turn, validator: AnswerFilter, error: ProviderError) -> None:
        """The model failed mid-answer: keep what was shown (validated), say it was cut, keep the sources."""
        update = turn.update
        try:
            update.answer += validator.finish()
        except Exception:  # the held-back tail is optional; the shown text is what matters
            log.debug("validator tail dropped after a failure", exc_info=True)
        self._mark_partial(update, error.kind, error.user_message)
        _checked(update, validator)

    def _mark_partial(self, update: TurnUpdate, kind: str, message: str) -> None:
        """An answer the model did not finish: the text shown stays, marked; the error says why."""
        update.answer = _marked(update.answer, INTERRUPTED_NOTE)
        update.set(error=TurnError(kind, message, self.provider.name, partial=True))

    def _with_verses(self, turn: Turn, result: SearchResult) -> degraded.Quoted:
        """The answer without the model's words, in the members' own: conversation gets the reply of its kind,
        verses come under an opening that fits the message, and no verses (all shown before) an invitation."""
        if result.mode == Mode.CONVERSATIONAL:
            return degraded.Quoted(openings.conversation_reply(turn.kind, turn.message, turn.asked_before))
        if not result.results:
            return degraded.Quoted(prompts.NO_EVIDENCE_MESSAGE)
        notice = self.provider.member_notice()
        return degraded.with_verses(result, turn.kind, turn.message, notice, turn.asked_before)

    def _provider_down(self, turn: Turn, error: ProviderError) -> None:
        """The model failed before its first word: show what retrieval found, never another model.

        The members read one short line; how to enable a model goes to the reason (API, logs, status)."""
        update, result = turn.update, turn.retrieval
        assert result is not None, "the model is asked only after retrieval, or a conversation's own result"
        reason = f"{degraded.provider_down_reason(result, error)} — {self.provider.setup_hint()}"
        update.answer, spans = self._with_verses(turn, result)
        self._note_keyword_search(update)  # a rewrite that outlasted the deadline comes here before _generate
        # The answer is the verses, each quoted with its reference: all of them are cited.
        update.set(
            mode=Mode.PROVIDER_UNAVAILABLE,
            reason=reason,
            citations=tuple(h.reference for h in result.results),
            citation_spans=spans,
            sources=tuple(s.marked(True) for s in update.result.sources),
        )
        log.warning("modelo de linguagem indisponível: %s", reason)

    def _finish(self, turn: Turn, final: TurnUpdate | None = None) -> Iterator[TurnUpdate]:
        """Close the turn: `final` (default: the turn's own update) gets its id, cited sources first and
        its log line. A note about the search (references left out) is dropped when the turn failed."""
        final = final or turn.update
        final.turn_id = turn.update.turn_id
        final.provider, final.model = turn.update.provider, turn.update.model
        final.done = True
        result = final.result
        notes = result.notes if not result.error else tuple(n for n in result.notes if n == LEXICAL_NOTE)
        final.set(notes=notes, sources=tuple(sorted(result.sources, key=lambda s: not s.cited)))
        turn.update = final
        turn.lap("total_ms", turn.started)
        if self.turnlog is not None:
            self.turnlog.write(_log_record(turn))
        yield final


def _marked(answer: str, note: str) -> str:
    return f"{answer.rstrip()}\n\n{note}" if answer.strip() else note


def _checked(update: TurnUpdate, validator: AnswerFilter) -> None:
    """The validator's verdict on the answer: its citations, what it removed and the sources cited."""
    cited = validator.cited_ids
    update.set(
        citations=tuple(validator.citations),
        citation_spans=validator.spans,
        removed_citations=tuple(validator.removed),
        sources=tuple(s.marked(s.id in cited) for s in update.result.sources),
    )


def _log_record(turn: Turn) -> dict[str, object]:
    """The turn log's line for a finished turn (a log record, not a response)."""
    final, result = turn.update, turn.update.result
    return {
        "turn_id": final.turn_id,
        "question": turn.message,
        "mode": result.mode,
        "reason": result.reason,
        "retrieved": [{"id": s.id, "score": round(s.score, 6)} for s in result.sources],
        "query": result.query,
        "answer": final.answer,
        "notes": list(result.notes),
        "citations": list(result.citations),
        "removed_citations": list(result.removed_citations),
        "provider": final.provider,
        "model": final.model,
        "error": asdict(result.error) if result.error else None,
        "latency": turn.timings,
    }

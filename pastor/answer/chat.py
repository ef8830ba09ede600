"""One grounded chat turn: crisis check, retrieval, gated generation and streamed validation."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from typing import Iterator

from pastor.answer import degraded, prompts, safety
from pastor.answer.followup import searched_without_model
from pastor.answer.routing import CLARIFY, CONVERSATIONAL, CRISIS, OUT_OF_SCOPE, Router
from pastor.answer.scope import out_of_scope_reply
from pastor.answer.checks import InputError, check_message
from pastor.answer.citations import NO_ANCHOR_NOTE
from pastor.answer.deadline import Deadline, DeadlineExceeded, call_within, within
from pastor.answer.halt import Halt
from pastor.answer.pipeline import AnswerFilter
from pastor.answer.turn import Turn, TurnUpdate
from pastor.bible.references import find_references
from pastor.documents.refs import DOC_REF_PATTERN
from pastor.providers import ProviderError
from pastor.search.modes import Mode
from pastor.search.retrieval import CONVERSATION_REASON, SearchResult

log = logging.getLogger("pastor.answer")

__all__ = ["ChatService", "InputError", "TurnUpdate", "CRISIS_VERSES", "LEXICAL_NOTE"]

# Verses offered after the safety message in a crisis: God's nearness, refuge and rest.
CRISIS_VERSES = ("PSA 34:18", "PSA 46:1", "MAT 11:28", "ISA 41:10", "PSA 23:4")

# Marks an answer the model did not finish (Stop, a failure or the deadline after the first words).
INTERRUPTED_NOTE = "_(resposta interrompida)_"

LEXICAL_NOTE = ("_(O índice semântico ainda está sendo preparado; busquei os versículos por "
                "palavras-chave.)_\n\n")


class ChatService:
    """Runs turns against what it is given: a retriever, the Bible shown, a provider and a turn log."""

    def __init__(self, retriever, bible, provider, *, turnlog=None, top_k: int = 6, history_turns: int = 10,
                 max_chars: int = 4000, crisis_contacts=safety.DEFAULT_CONTACTS, deadline: float = 60.0,
                 router: Router | None = None, translations=None):
        self.retriever = retriever
        self.bible = bible
        self.provider = provider
        self.turnlog = turnlog
        self.top_k = top_k
        self.history_turns = history_turns
        self.max_chars = max_chars
        self.crisis_contacts = crisis_contacts
        self.deadline = deadline  # seconds for a whole reply (LLM_TIMEOUT), however slowly it trickles
        self.router = router or Router()  # lexicon and rules; the runtime adds the semantic router when it is ready
        self.translations = translations  # the texts a reader can choose; None = the cited Bible's only

    # -- public ------------------------------------------------------------------------------------
    def turn(self, message: str, history: list[dict] | None = None,
             cancel: threading.Event | None = None, translation: str = "") -> Iterator[TurnUpdate]:
        """Yield updates with the validated answer so far; the last one has done=True. Verses are quoted
        in `translation` (a key of `translations`; empty = the default); ids and citations never change."""
        if self.translations is not None:
            translation = self.translations.get(translation).key  # UnknownTranslation before any work
        turn = Turn.start(check_message(message, self.max_chars), self.provider)
        deadline = Deadline(self.deadline)  # one for every model call of the turn
        history = history or []
        route = self.router.route(turn.message)
        if route.name == CRISIS:
            yield from self._finish(turn, self._crisis(route, translation))
            return
        if route.name == OUT_OF_SCOPE:
            yield from self._finish(turn, TurnUpdate("", out_of_scope_reply(route.kind), mode=Mode.OUT_OF_SCOPE,
                                                     reason=f"fora do escopo pastoral: {route.kind}"))
            return
        if route.name == CONVERSATIONAL:
            yield from self._converse(turn, history, cancel, deadline, route.kind)
            return
        try:
            query, rewrite_timed_out = self._standalone(turn, history, deadline, cancel), False
        except DeadlineExceeded:  # the rewrite took the whole turn: search with the previous question, show the verses
            query, rewrite_timed_out = searched_without_model(history, turn.message), True
        t0 = time.perf_counter()
        result = turn.result = self._in_translation(self.retriever.search(query, k=self.top_k), translation)
        turn.lap("retrieval_ms", t0)
        update = turn.update
        update.query = query if query != turn.message else ""
        update.mode, update.reason = result.mode, result.reason
        update.sources = [_source(h) for h in result.results]
        if result.mode == Mode.NO_EVIDENCE:
            update.answer = prompts.NO_EVIDENCE_MESSAGE
            yield from self._finish(turn)
            return
        if rewrite_timed_out:
            self._provider_down(turn, self.provider.error("timeout", detail="the rewrite used the turn's deadline"))
            yield from self._finish(turn)
            return
        if not self.provider.generates:
            # Without a model, conversation gets the fixed self-description; anything else the verses.
            update.answer = prompts.SELF_DESCRIPTION if result.mode == Mode.CONVERSATIONAL else degraded.verses_only(result)
            yield from self._finish(turn)
            return
        yield from self._generate(turn, history, cancel, deadline)

    def _converse(self, turn: Turn, history: list[dict], cancel, deadline: Deadline,
                  kind: str = "") -> Iterator[TurnUpdate]:
        """Greetings, thanks, questions about the assistant, "não entendi": no search. The model answers
        with the conversation's history (so "não entendi" rephrases the last answer); without one, the
        fixed self-description, or for "não entendi" an invitation to say what was unclear."""
        turn.result = SearchResult(Mode.CONVERSATIONAL, CONVERSATION_REASON, [])
        turn.update.mode, turn.update.reason = Mode.CONVERSATIONAL, CONVERSATION_REASON
        if not self.provider.generates:
            turn.update.answer = prompts.NOT_UNDERSTOOD if kind == CLARIFY else prompts.SELF_DESCRIPTION
            yield from self._finish(turn)
            return
        yield from self._generate(turn, history, cancel, deadline)

    def ask(self, message: str, history: list[dict] | None = None) -> dict:
        final = None
        for final in self.turn(message, history):
            pass
        return final.as_dict()

    # -- steps -------------------------------------------------------------------------------------
    def _standalone(self, turn: Turn, history: list[dict], deadline: Deadline, cancel=None) -> str:
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
            rewritten = call_within(lambda: self.provider.complete(system, messages, cancel=halt), deadline,
                                    cancel=cancel).strip()
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
        lines = [safety.crisis_message(crisis.kind, self.crisis_contacts), ""]
        lines += [f"> {texts[v.id]} — **{v.reference}**" for v in verses]
        sources = [{"id": v.id, "reference": v.reference, "text": texts[v.id], "score": 1.0,
                    "cited": True, "kind": "verse"} for v in verses]
        return TurnUpdate("", "\n".join(lines), mode=Mode.CRISIS, reason=f"sinal de crise: {crisis.kind}",
                          citations=[v.reference for v in verses], sources=sources)

    def _generate(self, turn: Turn, history: list[dict], cancel, deadline: Deadline) -> Iterator[TurnUpdate]:
        update, result = turn.update, turn.result
        sources = [{"id": h.id, "reference": h.reference, "text": h.text, "kind": h.kind} for h in result.results]
        system, messages = prompts.build_messages(result.mode, turn.message, sources, history,
                                                  history_turns=self.history_turns)
        validator = AnswerFilter(system, sources)
        lexical_only = result.mode == Mode.LEXICAL_FALLBACK and not self.retriever.vectors_ready
        update.answer = LEXICAL_NOTE if lexical_only else ""
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
                    shown = True
                    yield update
            update.answer += validator.finish()
        except (ProviderError, DeadlineExceeded) as exc:
            error = exc if isinstance(exc, ProviderError) else self.provider.error("timeout", detail="reply deadline")
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
        update.citations = list(validator.citations)
        update.removed_citations = list(validator.removed)
        if result.mode != Mode.CONVERSATIONAL and not update.citations and not update.error:
            update.answer = update.answer.rstrip() + "\n\n" + NO_ANCHOR_NOTE
        yield from self._finish(turn)

    def _interrupted(self, turn: Turn, validator: AnswerFilter, error: ProviderError) -> None:
        """The model failed mid-answer: keep what was shown (validated), say it was cut, keep the sources."""
        update = turn.update
        try:
            update.answer += validator.finish()
        except Exception:  # the held-back tail is optional; the shown text is what matters
            log.debug("validator tail dropped after a failure", exc_info=True)
        self._mark_partial(update, error.kind, error.user_message)
        update.citations = list(validator.citations)
        update.removed_citations = list(validator.removed)

    def _mark_partial(self, update: TurnUpdate, kind: str, message: str) -> None:
        """An answer the model did not finish: the text shown stays, marked; the error says why."""
        update.answer = _marked(update.answer, INTERRUPTED_NOTE)
        update.error = {"type": kind, "message": message, "provider": self.provider.name, "partial": True}

    def _provider_down(self, turn: Turn, error: ProviderError) -> None:
        """The model failed before its first word: show what retrieval found, never another model.

        The members read one short line; how to enable a model goes to the reason (API, logs, status)."""
        update, result = turn.update, turn.result
        update.mode = Mode.PROVIDER_UNAVAILABLE
        update.reason = f"{degraded.provider_down_reason(result, error)} — {self.provider.setup_hint()}"
        update.answer = degraded.provider_down(result, self.provider.member_notice())
        update.citations = [h.reference for h in result.results]
        log.warning("provider unavailable: %s", update.reason)

    def _finish(self, turn: Turn, final: TurnUpdate | None = None) -> Iterator[TurnUpdate]:
        """Close the turn: `final` (default: the turn's own update) gets its id, cited sources and log line."""
        final = final or turn.update
        final.turn_id = turn.update.turn_id
        final.provider, final.model = turn.update.provider, turn.update.model
        final.done = True
        note = getattr(turn.result, "note", "")
        if note and not final.error:  # references beyond the caps were left out: say so
            final.answer = final.answer.rstrip() + f"\n\n_({note})_"
        _mark_cited(final)
        turn.lap("total_ms", turn.started)
        if self.turnlog is not None:
            self.turnlog.write({
                "turn_id": final.turn_id, "question": turn.message, "mode": final.mode, "reason": final.reason,
                "retrieved": [{"id": s["id"], "score": s["score"]} for s in final.sources],
                "query": final.query, "answer": final.answer, "citations": final.citations,
                "removed_citations": final.removed_citations, "provider": final.provider,
                "model": final.model, "error": final.error, "latency": turn.timings,
            })
        yield final


def _marked(answer: str, note: str) -> str:
    return f"{answer.rstrip()}\n\n{note}" if answer.strip() else note


def _source(hit) -> dict:
    return {"id": hit.id, "reference": hit.reference, "text": hit.text, "score": round(hit.score, 6),
            "cited": False, "kind": hit.kind}


def _mark_cited(update: TurnUpdate) -> None:
    """Flag the sources the answer cites and list them first."""
    cited: set[str] = set()
    for match in find_references(update.answer):
        if match.reference is not None and not match.error:
            cited.update(match.reference.verse_ids())
    # Whole document references only: `faq.json#p0-c1` is not cited by `faq.json#p0-c12`.
    cited.update(match.group() for match in DOC_REF_PATTERN.finditer(update.answer))
    for source in update.sources:
        source["cited"] = source["cited"] or source["id"] in cited
    update.sources.sort(key=lambda s: not s["cited"])

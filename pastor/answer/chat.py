"""One grounded chat turn: crisis check, retrieval, gated generation and streamed validation."""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Iterator

from pastor.search.modes import Mode
from pastor.answer import prompts, safety
from pastor.answer.citations import NO_ANCHOR_NOTE
from pastor.answer.streaming import StreamingValidator
from pastor.documents.refs import DOC_REF_PATTERN
from pastor.providers import ProviderError
from pastor.bible.references import find_references

# Verses offered after the safety message in a crisis: God's nearness, refuge and rest.
CRISIS_VERSES = ("PSA 34:18", "PSA 46:1", "MAT 11:28", "ISA 41:10", "PSA 23:4")

LEXICAL_NOTE = ("_(O índice semântico ainda está sendo preparado; busquei os versículos por "
                "palavras-chave.)_\n\n")


class InputError(ValueError):
    """The user's message cannot be processed as sent; the message says why, in Portuguese."""


@dataclass
class TurnUpdate:
    """What the UI/API shows: the validated answer so far, and at the end everything else."""

    turn_id: str
    answer: str
    done: bool = False
    mode: str = ""
    reason: str = ""
    citations: list[str] = field(default_factory=list)
    removed_citations: list[str] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)
    provider: str = ""
    model: str = ""
    error: dict | None = None

    def as_dict(self) -> dict:
        return asdict(self)


class ChatService:
    def __init__(self, engine, provider, *, turnlog=None, top_k: int = 6, history_turns: int = 10,
                 max_chars: int = 4000, crisis_contacts=safety.DEFAULT_CONTACTS):
        self.engine = engine
        self.provider = provider
        self.turnlog = turnlog
        self.top_k = top_k
        self.history_turns = history_turns
        self.max_chars = max_chars
        self.crisis_contacts = crisis_contacts

    # -- public ------------------------------------------------------------------------------------
    def check_message(self, message) -> str:
        if not isinstance(message, str) or not message.strip():
            raise InputError("Escreva uma mensagem antes de enviar.")
        if len(message) > self.max_chars:
            raise InputError(f"Sua mensagem tem {len(message)} caracteres; o limite é {self.max_chars}. "
                             "Resuma um pouco e envie de novo.")
        return message.strip()

    def turn(self, message: str, history: list[dict] | None = None,
             cancel: threading.Event | None = None) -> Iterator[TurnUpdate]:
        """Yield updates with the validated answer so far; the last one has done=True."""
        message = self.check_message(message)
        history = _trim(history or [], self.history_turns)
        turn_id = uuid.uuid4().hex[:16]
        timings: dict[str, float] = {}
        started = time.perf_counter()
        update = TurnUpdate(turn_id, "", provider=self.provider.name, model=self.provider.model)

        crisis = safety.detect_crisis(message)
        if crisis is not None:
            yield from self._finish(update, self._crisis(crisis), message, started, timings, None)
            return
        query = self._standalone(message, history, timings)
        t0 = time.perf_counter()
        result = self.engine.retriever.search(query, k=self.top_k)
        timings["retrieval_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        update.mode, update.reason = result.mode, result.reason
        update.sources = [_source(h) for h in result.results]
        if result.mode == Mode.NO_EVIDENCE:
            update.answer = prompts.NO_EVIDENCE_MESSAGE
            yield from self._finish(update, update, message, started, timings, result)
            return
        if self.provider.name == "none":
            # Without a model, conversation gets the fixed self-description; anything else the verses.
            update.answer = prompts.SELF_DESCRIPTION if result.mode == Mode.CONVERSATIONAL else self._verses_only(result)
            yield from self._finish(update, update, message, started, timings, result)
            return
        yield from self._generate(update, message, history, result, cancel, timings, started)

    def ask(self, message: str, history: list[dict] | None = None) -> dict:
        final = None
        for final in self.turn(message, history):
            pass
        return final.as_dict()

    # -- steps -------------------------------------------------------------------------------------
    def _standalone(self, message: str, history: list[dict], timings: dict) -> str:
        """Rewrite a contextual follow-up into a standalone query; on failure use the message."""
        if self.provider.name == "none" or not prompts.needs_rewrite(message, history):
            return message
        t0 = time.perf_counter()
        try:
            system, messages = prompts.rewrite_messages(history, message)
            rewritten = self.provider.complete(system, messages).strip()
        except ProviderError:
            return message
        finally:
            timings["rewrite_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        return rewritten if 0 < len(rewritten) <= 500 else message

    def _crisis(self, crisis) -> TurnUpdate:
        bible = self.engine.bible
        verses = [bible.by_id[i] for i in CRISIS_VERSES if i in bible.by_id]
        lines = [safety.crisis_message(crisis.kind, self.crisis_contacts), ""]
        lines += [f"> {v.text} — **{v.reference}**" for v in verses]
        sources = [{"id": v.id, "reference": v.reference, "text": v.text, "score": 1.0,
                    "cited": True, "kind": "verse"} for v in verses]
        return TurnUpdate("", "\n".join(lines), mode=Mode.CRISIS, reason=f"sinal de crise: {crisis.kind}",
                          citations=[v.reference for v in verses], sources=sources)

    def _verses_only(self, result) -> str:
        lines = [prompts.NONE_PROVIDER_INTRO, ""]
        lines += [f"> {h.text} — **{h.reference}**" for h in result.results]
        return "\n".join(lines)

    def _generate(self, update, message, history, result, cancel, timings, started) -> Iterator[TurnUpdate]:
        sources = [{"reference": h.reference, "text": h.text, "kind": h.kind} for h in result.results]
        system, messages = prompts.build_messages(result.mode, message, sources, history)
        allowed_verses = {h.id for h in result.results if h.kind == "verse"}
        allowed_docs = {h.id for h in result.results if h.kind == "doc"}
        validator = StreamingValidator(allowed_verses, allowed_docs)
        prefix = LEXICAL_NOTE if result.mode == Mode.LEXICAL_FALLBACK and not self.engine.retriever.vectors_ready else ""
        update.answer = prefix
        yield update  # "preparando resposta…" is the UI's state until the first token
        t0 = time.perf_counter()
        stream = self.provider.stream(system, messages, cancel=cancel)
        try:
            for delta in stream:
                if cancel is not None and cancel.is_set():
                    break
                if "first_token_ms" not in timings:
                    timings["first_token_ms"] = round((time.perf_counter() - t0) * 1000, 1)
                safe = validator.feed(delta)
                if safe:
                    update.answer += safe
                    yield update
            update.answer += validator.finish()
        except ProviderError as exc:
            update.answer = exc.user_message
            update.error = {"type": exc.kind, "message": exc.user_message, "provider": self.provider.name}
            yield from self._finish(update, update, message, started, timings, result, partial=True)
            return
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()  # closing the generator closes the provider's HTTP stream
        if cancel is not None and cancel.is_set():
            update.error = {"type": "cancelled", "message": "Resposta interrompida.", "provider": self.provider.name}
        update.citations = list(validator.citations)
        update.removed_citations = list(validator.removed)
        if result.mode != Mode.CONVERSATIONAL and not update.citations and not update.error:
            update.answer = update.answer.rstrip() + "\n\n" + NO_ANCHOR_NOTE
        yield from self._finish(update, update, message, started, timings, result)

    def _finish(self, update, final, message, started, timings, result, partial=False) -> Iterator[TurnUpdate]:
        final.turn_id = update.turn_id
        final.provider, final.model = update.provider, update.model
        final.done = True
        _mark_cited(final)
        timings["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        if self.turnlog is not None:
            self.turnlog.write({
                "turn_id": final.turn_id, "question": message, "mode": final.mode, "reason": final.reason,
                "retrieved": [{"id": s["id"], "score": s["score"]} for s in final.sources],
                "answer": final.answer, "citations": final.citations,
                "removed_citations": final.removed_citations, "provider": final.provider,
                "model": final.model, "error": final.error, "latency": timings,
            })
        yield final


def build_chat(settings, engine, provider=None) -> ChatService:
    """A chat service wired from settings: the configured provider and the turn log."""
    from pastor.providers import load_provider
    from pastor.answer.turnlog import TurnLog
    return ChatService(engine, provider or load_provider(settings),
                       turnlog=TurnLog(settings.data_dir / "logs", max_bytes=settings.log_max_bytes),
                       top_k=settings.top_k, history_turns=settings.history_turns,
                       max_chars=settings.max_message_chars, crisis_contacts=settings.crisis_contacts)


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


def _trim(history: list[dict], turns: int) -> list[dict]:
    """Keep the last `turns` exchanges of well-formed user/assistant messages."""
    clean = [{"role": m["role"], "content": str(m["content"])} for m in history
             if isinstance(m, dict) and m.get("role") in ("user", "assistant") and m.get("content")]
    return clean[-2 * turns:] if turns else []

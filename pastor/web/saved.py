"""The conversation kept in the person's own browser (Gradio's BrowserState): sealed on its way out; on its way
back opened, checked, capped and rendered again from plain text as a live answer is (nothing from the browser
is trusted: whoever can write its storage, a shared computer or an extension, may have put anything there)."""

from __future__ import annotations

import json
import logging
from dataclasses import replace

import gradio as gr

from pastor.answer.filters import placed_again
from pastor.answer.turn import TurnError, TurnResult, TurnUpdate
from pastor.answer.turn_modes import Mode
from pastor.search.results import Source
from pastor.web import chatview
from pastor.web.browser_keys import BrowserKeys, Unsealed
from pastor.web.conversation import KEPT_MESSAGES, Conversation, Exchange, Unreadable, recent
from pastor.web.handlers import finished_messages, user_message
from pastor.web.runtime import Runtime

log = logging.getLogger("pastor.web")

STORAGE_KEY = "pastor-online-conversa"
MAX_MESSAGES = KEPT_MESSAGES  # the same cap when saving and when bringing back
# Gradio decrypts the kept value in the page and sends null when it cannot (a value written under another key):
# the page then says so, so that the person hears why the conversation is gone.
UNDECRYPTED = {"undecrypted": True}
CHECK_STORAGE_JS = (
    (
        "(kept) => { let there = false; try { there = localStorage.getItem(KEY) !== null; } catch (e) {}"
        " return [kept === null && there ? MARK : kept]; }"
    )
    .replace("KEY", json.dumps(STORAGE_KEY))
    .replace("MARK", json.dumps(UNDECRYPTED))
)
DROPPED = "A conversa guardada neste navegador não pôde ser conferida e foi descartada. Comece uma nova conversa."
NOT_YET = (
    "A conversa guardada neste navegador volta assim que o Pastor Online terminar de iniciar: "
    "recarregue a página em instantes."
)
RESTORE_WAIT_SECONDS = 20.0  # the Bible loads in seconds; the page waits that long for it, not more


class KeptConversation:
    """Saves, forgets and brings back the conversation of one browser with this deployment's keys."""

    def __init__(self, runtime: Runtime, keys: BrowserKeys, wait_seconds: float = RESTORE_WAIT_SECONDS):
        self.runtime = runtime
        self.keys = keys
        self.wait_seconds = wait_seconds

    def snapshot(self, convo: Conversation | None) -> dict | None:
        """What the browser keeps after a turn, sealed; None when no exchange was answered (nothing to keep)."""
        if convo is None or not convo.exchanges:
            return None
        return self.keys.sealed(convo.to_browser(MAX_MESSAGES))

    @staticmethod
    def forget() -> dict:
        """ "Nova conversa": the browser keeps an empty conversation (Gradio's BrowserState leaves a stored value
        in place when given None, so nothing would be forgotten)."""
        return {}

    def restore(self, stored) -> tuple:
        """(chat, conversation state, notice, value to keep) when the page opens. A value this server did not
        seal, or not in this version's shape, is dropped: an empty chat, a short notice, one log line."""
        if stored is None or stored == {}:
            return [], Conversation(), "", gr.skip()
        try:
            if stored == UNDECRYPTED:
                raise Unsealed("não decifrado (outra chave)")
            convo = Conversation.from_browser(self.keys.opened(stored), self.runtime.settings.max_message_chars)
        except (Unsealed, Unreadable) as exc:
            log.warning("conversa guardada descartada: %s", exc)  # a fixed phrase, never the value
            return [], Conversation(), chatview.notice_html(DROPPED, info=True), self.forget()
        if self.runtime.engine is None:
            self.runtime.wait_loaded(self.wait_seconds)
        engine = self.runtime.engine
        if engine is None:  # still starting, or no Bible to read the sources from: kept for a later visit
            return [], Conversation(), chatview.notice_html(NOT_YET, info=True), gr.skip()
        chat, convo = self.rendered(convo, engine)
        return chat, convo, "", gr.skip()

    def rendered(self, convo: Conversation, engine) -> tuple[list[dict], Conversation]:
        """The chat of the most recent exchanges that fit, each rendered as a live answer, and the state with
        each turn id at the place of its answer and sources."""
        chat: list[dict] = []
        turn_ids: dict[int, str] = {}
        placed: list[Exchange] = []
        credits = self.runtime.attributions()
        for exchange in recent(convo.exchanges, MAX_MESSAGES):
            chat.append(user_message(exchange.question))
            messages = finished_messages(_update(exchange, _sources(exchange, engine)), credits)
            turn_ids.update({len(chat) + offset: exchange.turn_id for offset in range(len(messages))})
            placed.append(replace(exchange, at=len(chat)))
            chat += messages
        history = convo.history.last(self.runtime.settings.history_turns)
        return chat, replace(convo, history=history, turn_ids=turn_ids, exchanges=tuple(placed))


def _update(exchange: Exchange, sources: list[Source]) -> TurnUpdate:
    """The final update of a kept exchange: its citations placed again against its sources read again."""
    spans = [] if exchange.failed else placed_again(exchange.answer, sources)
    cited = {source_id for span in spans for source_id in span.ids}
    result = TurnResult(
        Mode(exchange.mode) if exchange.mode else None,
        citation_spans=spans,
        notes=list(exchange.notes),
        sources=[source.marked(source.id in cited) for source in sources],
        error=TurnError("failed", "") if exchange.failed else None,
    )
    return TurnUpdate(exchange.turn_id, exchange.answer, done=True, result=result)


def _sources(exchange: Exchange, engine) -> list[Source]:
    """The exchange's sources read again by id: a verse from the Bible (in the translation shown then), a
    document's chunk from the documents loaded now; an id that names neither is left out."""
    bible, texts, docs = engine.resources.bible, engine.translations, engine.resources.docs
    found: dict[str, Source] = {}
    for kind, source_id in exchange.sources:
        verse = bible.by_id.get(source_id) if kind == "verse" else None
        if verse is not None:
            text = texts.text(source_id, texts.resolve(exchange.translation)) if texts is not None else None
            found.setdefault(source_id, Source(source_id, verse.reference, text or verse.text))
        elif kind == "doc" and docs is not None and (text := docs.text(source_id)) is not None:
            found.setdefault(source_id, Source(source_id, source_id, text, kind="doc"))
    return list(found.values())

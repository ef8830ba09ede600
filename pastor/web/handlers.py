"""The page's event handlers: streamed chat turns, regenerate, new conversation, stop, feedback, status, reindex."""

from __future__ import annotations

import logging
from collections.abc import Generator
from dataclasses import replace
from typing import cast

import gradio as gr

from pastor.answer.checks import InputError, check_message
from pastor.answer.history import History, Message
from pastor.answer.turn import TurnUpdate
from pastor.answer.turn_modes import Mode
from pastor.web import chatview, render
from pastor.web.conversation import KEPT_MESSAGES, Conversation, Exchange, Rated, recent
from pastor.web.ratelimit import RateLimited
from pastor.web.runtime import Runtime

log = logging.getLogger("pastor.web")

UNEXPECTED = "⚠️ Ocorreu um erro inesperado ao preparar a resposta. Tente de novo em instantes."
NOTHING_TO_REGENERATE = "Ainda não há resposta para gerar de novo."
SAME_WITHOUT_MODEL = (
    "Gerar de novo traria a mesma resposta, com os mesmos versículos. Para ver outros, escreva a sua "
    "mensagem com outras palavras."
)

SKIP_TURN = (gr.skip(),) * 5  # (chatbot, textbox, mode, notice, conversation) left as they are


def plain_messages(messages) -> list[dict]:
    """The Chatbot's value (content as a list of parts in Gradio 6) as {role, content[, metadata]}."""
    out = []
    for message in messages or []:
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(
                part.get("text") or ""
                for part in content
                if isinstance(part, dict) and part.get("type", "text") == "text"
            )
        item = {"role": message.get("role", "assistant"), "content": content if isinstance(content, str) else ""}
        metadata = {k: v for k, v in (message.get("metadata") or {}).items() if v is not None}
        if metadata:
            item["metadata"] = metadata
        out.append(item)
    return out


def answer_markdown(update, pending: bool) -> str:
    """What the chat shows for an update: escaped, citations linked, its notes, a waiting line before text."""
    result = update.result
    if result.error and not result.error.partial and result.error.type != "cancelled":
        return "⚠️ " + render.escape(update.answer)
    text = chatview.answer_html(update.answer, result.citation_spans, result.sources, update.turn_id)
    if result.notes:
        text = (text.rstrip() + "\n\n" if text.strip() else "") + chatview.notes_html(result.notes)
    if pending:
        text = (text.rstrip() + "\n\n" if text.strip() else "") + chatview.PREPARING
    if result.mode == Mode.CRISIS:
        text = chatview.CRISIS_MARK + text
    return text


def finished_messages(update: TurnUpdate, credits: list[str]) -> list[dict]:
    """A final update as the chat shows it: the answer (with its copy button unless the turn failed) and, when it
    has sources, their accordion. A live turn and a conversation brought back from the browser alike."""
    result = update.result
    shown = answer_markdown(update, False)
    if not result.error or result.error.partial:
        shown += "\n\n" + chatview.actions_html(update.answer, result.sources, result.notes)
    return [_assistant(shown)] + ([sources_message(update, credits)] if result.sources else [])


def sources_message(update: TurnUpdate, credits: list[str]) -> dict:
    """The sources of a turn as the collapsible message under its answer."""
    sources = update.result.sources
    return {
        "role": "assistant",
        "content": chatview.sources_html(sources, update.turn_id, credits),
        "metadata": {"title": chatview.sources_title(sources), "status": "done"},
    }


def kept_exchange(update: TurnUpdate, question: str, answer_at: int, translation: str = "") -> Exchange:
    """What the browser keeps of a finished turn: plain text and the ids its sources are read again from."""
    result = update.result
    return Exchange(
        question,
        update.answer,
        update.turn_id,
        str(result.mode or ""),
        tuple((source.kind, source.id) for source in result.sources),
        tuple(result.notes),
        translation,
        bool(result.error and not result.error.partial),
        answer_at,
    )


def refused(message: str):
    """A refusal shown beside the input: the chat and the typed text stay as they are."""
    return gr.skip(), gr.skip(), gr.skip(), chatview.notice_html(message), gr.skip()


class Handlers:
    def __init__(self, runtime: Runtime):
        self.runtime = runtime

    # -- chat ------------------------------------------------------------------------------------
    def respond(self, message: str, chat: list, convo: Conversation, request: gr.Request, translation: str = ""):
        """Yields (chatbot, textbox, mode label, notice, conversation state). `translation`: the reader's
        choice of text (web/reader.py); a stale or unknown one reads the default."""
        try:
            text = check_message(message, self.runtime.settings.max_message_chars)
        except InputError as exc:
            log.warning("mensagem recusada: %s", type(exc).__name__)  # one line; never the text
            yield refused(str(exc))
            return
        display = plain_messages(chat)
        if self.runtime.phase == "error":
            # Say in the chat itself what is missing; keep the text for after the fix.
            problem = self.runtime.unavailable(need_chat=True)
            display += [user_message(text), _assistant("❌ " + render.escape(str(problem)))]
            yield display, gr.skip(), gr.skip(), "", gr.skip()
            return
        yield from self._checked_turn(text, display, convo, request, translation)

    def regenerate(self, chat: list, convo: Conversation, request: gr.Request, translation: str = ""):
        """The last question asked again: its answer (and sources) replaced by a new one."""
        display = plain_messages(chat)
        users = [i for i, m in enumerate(display) if m["role"] == "user"]
        if not convo.last or not users:
            yield refused(NOTHING_TO_REGENERATE)
            return
        if self._same_without_model(convo):
            yield refused(SAME_WITHOUT_MODEL)
            return
        cut = users[-1]
        convo = convo.before(cut)
        # The old answer must not reach the model as context.
        yield from self._checked_turn(convo.last, display[:cut], convo, request, translation, again=True)

    def _same_without_model(self, convo: Conversation) -> bool:
        """Whether ↻ would give back the same verses-only answer: no model configured, or the last answer
        had none and it still does not answer."""
        provider = getattr(self.runtime.chat, "provider", None)
        if provider is not None and not provider.generates:
            return True
        if convo.last_mode != Mode.PROVIDER_UNAVAILABLE:
            return False
        return self.runtime.status().get("llm", {}).get("reachable") is not True

    def _checked_turn(
        self, text: str, display: list[dict], convo: Conversation, request, translation: str = "", again: bool = False
    ):
        """A checked message's turn, once the service is ready, the history well-formed and the rate
        limit allows it; `again` asks the last question again, its answer left out of the history."""
        problem = self.runtime.unavailable(need_chat=True)
        if problem:
            yield refused(problem)
            return
        try:
            # Checked like a client's history: a kept answer may be longer than the cap.
            history = History.checked(convo.history.as_dicts(), self.runtime.settings.max_message_chars)
        except InputError as exc:
            log.warning("conversa recusada: %s", type(exc).__name__)
            yield refused(str(exc))
            return
        history = history.without_last(text) if again else history
        try:
            self.runtime.limiter.hit(self.runtime.client(request))
        except RateLimited as exc:
            log.warning("pergunta recusada: limite de frequência")
            yield refused(str(exc))
            return
        yield from self._turn(text, history, display, convo, _session(request), translation)

    def _turn(
        self, text: str, history: History, display: list[dict], convo: Conversation, session: str, translation: str = ""
    ):
        runtime = self.runtime
        cancel = runtime.turns.begin(session)  # also cancels this session's previous turn
        display += [user_message(text), _assistant(chatview.PREPARING)]
        answer_at = len(display) - 1
        yield list(display), "", "", "", gr.skip()
        first = None
        texts = runtime.engine.translations if runtime.engine is not None else None
        translation = texts.resolve(translation) if texts is not None else ""
        chat = runtime.chat
        assert chat is not None, "_checked_turn refuses a turn while there is no chat service"
        # A generator (closed below); ChatService.turn is annotated as an Iterator.
        turn = cast(Generator[TurnUpdate, None, None], chat.turn(text, history, cancel, translation=translation))
        try:
            for update in turn:
                if cancel.is_set() and not getattr(cancel, "stopped", False):
                    return  # replaced by a newer question (or a new conversation): that one owns the page now
                if cancel.is_set() and not update.done:
                    continue  # Stop: the service ends the turn at once; its last update is marked interrupted
                first = update.answer if first is None else first
                runtime.turns.note(session, cancel, update)  # Stop shows this turn's sources
                if not update.done:
                    pending = update.answer == first
                    display[answer_at] = _assistant(answer_markdown(update, pending))
                    yield list(display), gr.skip(), gr.skip(), gr.skip(), gr.skip()
                    continue
                yield self._final(update, text, history, display, answer_at, convo, translation)
        except Exception:
            log.exception("o turno da conversa falhou")
            display[answer_at] = _assistant(UNEXPECTED)
            yield list(display), gr.skip(), gr.skip(), gr.skip(), gr.skip()
        finally:
            turn.close()  # closes the provider's stream when Gradio cancels this generator
            runtime.turns.end(session, cancel)

    def _final(
        self,
        update,
        text: str,
        history: History,
        display: list[dict],
        answer_at: int,
        convo: Conversation,
        translation="",
    ):
        result = update.result
        display[answer_at : answer_at + 1] = finished_messages(update, self.runtime.attributions())
        if not result.error and result.mode != Mode.PROVIDER_UNAVAILABLE:
            # A verses-only answer is not the model's side of the conversation (notes never are: they are apart).
            history = history.plus(Message("user", text), Message("assistant", update.answer))
        elif result.mode == Mode.PROVIDER_UNAVAILABLE:
            # The question alone, unanswered: a follow-up is searched with it (the model's prompt drops it).
            history = history.plus(Message("user", text))
        turn_ids = {**convo.turn_ids, answer_at: update.turn_id}
        if result.sources:
            turn_ids[answer_at + 1] = update.turn_id
        history = history.last(self.runtime.settings.history_turns)
        # Only what the browser may keep: a long session does not grow its state with every turn.
        exchanges = recent((*convo.exchanges, kept_exchange(update, text, answer_at, translation)), KEPT_MESSAGES)
        convo = replace(
            convo, history=history, turn_ids=turn_ids, last=text, last_mode=str(result.mode or ""), exchanges=exchanges
        )
        mode = chatview.mode_html(result.mode or "", result.query)
        return list(display), gr.skip(), mode, gr.skip(), convo

    def _sources_message(self, update) -> dict:
        return sources_message(update, self.runtime.attributions())

    def respond_example(
        self, chat: list, convo: Conversation, data: gr.SelectData, request: gr.Request, translation: str = ""
    ):
        """An example clicked in the empty chat is sent as a question."""
        value = data.value if isinstance(data.value, dict) else {}
        yield from self.respond(value.get("text", ""), chat, convo, request, translation)

    def new_chat(self, request: gr.Request):
        """A new conversation: chat, rewrite history, mode line, notice, rating and turn ids, all at once.
        Yields (chatbot, mode label, notice, conversation state, comment row)."""
        self.runtime.turns.cancel(_session(request), stopped=False)
        return [], "", "", Conversation(), gr.update(visible=False)

    def stop(self, chat: list, request: gr.Request) -> list[dict]:
        """Stop this session's running turn: marked at once here, and the turn itself ends with its last
        update (marked interrupted, with its sources), which replaces this one."""
        display = plain_messages(chat)
        update = self.runtime.turns.latest(_session(request))
        if not self.runtime.turns.cancel(_session(request)):
            return display
        if display and display[-1]["role"] == "assistant" and "metadata" not in display[-1]:
            shown = display[-1]["content"].replace(chatview.PREPARING, "").rstrip()
            display[-1] = _assistant((shown + "\n\n" if shown else "") + chatview.INTERRUPTED)
            if update is not None and update.result.sources:
                display.append(self._sources_message(update))
        return display

    # -- feedback --------------------------------------------------------------------------------
    def like(self, convo: Conversation, data: gr.LikeData, request: gr.Request | None = None):
        """Thumbs up/down on an answer: one rating per turn (a new click replaces it); opens the comment box.
        Returns (notice, conversation state, comment row)."""
        if data.liked not in (True, False):
            return gr.skip(), gr.skip(), gr.skip()  # a removed rating or another option: nothing to record
        index = data.index[0] if isinstance(data.index, (list, tuple)) else data.index
        turn_id = convo.turn_ids.get(index)
        rating = "up" if data.liked else "down"
        problem = self._record(turn_id, rating, request=request)
        if problem:
            return chatview.notice_html(problem), gr.skip(), gr.skip()
        assert turn_id, "_record refuses a rating without a turn id"
        convo = replace(convo, rated=Rated(turn_id, rating))
        return (
            chatview.notice_html("Obrigado pela avaliação! Se quiser, deixe um comentário.", info=True),
            convo,
            gr.update(visible=True),
        )

    def comment(self, text: str, convo: Conversation, request: gr.Request | None = None):
        """The optional comment on the last rating. Returns (notice, comment box, comment row)."""
        rated = convo.rated
        if not rated:
            return chatview.notice_html("Avalie uma resposta (👍 ou 👎) antes de comentar."), gr.skip(), gr.skip()
        if not (text or "").strip():
            return chatview.notice_html("Escreva o comentário antes de enviar."), gr.skip(), gr.skip()
        problem = self._record(rated.turn_id, rated.rating, text.strip(), request=request)
        if problem:
            return chatview.notice_html(problem), gr.skip(), gr.skip()
        return chatview.notice_html("Comentário registrado. Obrigado!", info=True), "", gr.update(visible=False)

    def _record(self, turn_id: str | None, rating: str, comment: str = "", request=None) -> str | None:
        """Log a rating; a problem to show, or None. Limited per client like the API's /feedback."""
        if not turn_id or self.runtime.turnlog is None:
            return "Não foi possível registrar a avaliação desta mensagem."
        try:
            self.runtime.limiters["feedback"].hit(self.runtime.client(request))
            self.runtime.turnlog.feedback(turn_id, rating, comment)
        except RateLimited as exc:
            return str(exc)
        except (ValueError, KeyError) as exc:
            return str(exc.args[0]) if exc.args else "Avaliação não registrada."
        return None

    # -- status ------------------------------------------------------------------------------------
    def refresh(self, request: gr.Request | None = None):
        """(banner, state, progress bar, details, credits) for the timer and the page load. Limited
        per client like the API's /status: a refresh too soon (several tabs, or a script calling the
        page's event) leaves the page as it is until the next tick."""
        try:
            self.runtime.limiters["status"].hit(self.runtime.client(request))
        except RateLimited:
            return (gr.skip(),) * 5
        status = self.runtime.status()
        return (
            render.banner_markdown(status),
            render.state_markdown(status),
            render.progress_html(status),
            render.details_markdown(status),
            render.credits_html(status),
        )

    def check_provider(self, request: gr.Request | None = None) -> str:
        """The "Verificar de novo" button: ask the model again and say what it answered."""
        try:
            self.runtime.limiters["check_provider"].hit(self.runtime.client(request))
        except RateLimited as exc:
            return "⚠️ " + render.escape(str(exc))
        return render.provider_check_markdown(self.runtime.check_provider())

    def reindex(self, token: str, request: gr.Request | None = None) -> str:
        denied = self.runtime.reindex_policy.check(token or "")
        if denied:
            return "⚠️ " + render.escape(denied.message)
        try:
            self.runtime.limiters["reindex"].hit(self.runtime.client(request))
        except RateLimited as exc:
            return "⚠️ " + render.escape(str(exc))
        outcome = self.runtime.reindex(token or "")
        return ("✅ " if outcome.ok else "⚠️ ") + render.escape(outcome.message)


def user_message(text: str) -> dict:
    return {"role": "user", "content": render.escape(text)}


def _assistant(text: str) -> dict:
    return {"role": "assistant", "content": text}


def _session(request) -> str:
    return getattr(request, "session_hash", None) or "anonymous"

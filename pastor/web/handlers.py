"""The page's event handlers: streamed chat turns, stop, feedback, status refresh and reindex."""

from __future__ import annotations

import logging

import gradio as gr

from pastor.web import render as render
from pastor.answer.chat import LEXICAL_NOTE
from pastor.answer.checks import InputError
from pastor.web.ratelimit import RateLimited, client_key
from pastor.web.runtime import Runtime

log = logging.getLogger("pastor.web")

UNEXPECTED = "⚠️ Ocorreu um erro inesperado ao preparar a resposta. Tente de novo em instantes."


def new_conversation() -> dict:
    """Per-session state: the plain history sent to the model and the turn id of each answer,
    keyed by the answer's index in the chat (what the like event reports)."""
    return {"history": [], "turn_ids": {}}


def plain_messages(messages) -> list[dict]:
    """The Chatbot's value (content as a list of parts in Gradio 6) as {role, content[, metadata]}."""
    out = []
    for message in messages or []:
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(part.get("text") or "" for part in content
                              if isinstance(part, dict) and part.get("type", "text") == "text")
        item = {"role": message.get("role", "assistant"), "content": content if isinstance(content, str) else ""}
        metadata = {k: v for k, v in (message.get("metadata") or {}).items() if v is not None}
        if metadata:
            item["metadata"] = metadata
        out.append(item)
    return out


def answer_markdown(update, pending: bool) -> str:
    """What the chat shows for an update: escaped, citations in bold, a waiting line before text."""
    if update.error and update.error.get("type") != "cancelled":
        return "⚠️ " + render.escape(update.answer)
    text = render.highlight(update.answer, update.citations if update.done else None)
    if pending:
        text = (text.rstrip() + "\n\n" if text.strip() else "") + render.PREPARING
    return text


class Handlers:
    def __init__(self, runtime: Runtime):
        self.runtime = runtime

    # -- chat ------------------------------------------------------------------------------------
    def respond(self, message: str, chat: list, convo: dict, request: gr.Request):
        """Yields (chatbot, textbox, mode label, sources, conversation state).

        Every refusal is raised before the first yield, so the textbox keeps the text."""
        runtime = self.runtime
        try:
            text = runtime.check_message(message)
        except InputError as exc:
            log.warning("mensagem recusada: %s", type(exc).__name__)
            raise gr.Error(str(exc), title="Mensagem não enviada", print_exception=False) from None
        display = plain_messages(chat)
        if runtime.phase == "error":
            # Say in the chat itself what is missing; keep the text for after the fix.
            display += [_user(text), _assistant("❌ " + render.escape(runtime.unavailable(need_chat=True)))]
            yield display, gr.skip(), gr.skip(), gr.skip(), gr.skip()
            return
        problem = runtime.unavailable(need_chat=True)
        if problem:
            raise gr.Error(problem, title="Aguarde", print_exception=False)
        try:
            runtime.limiter.hit(client_key(request, runtime.settings.trusted_proxies))
        except RateLimited as exc:
            log.warning("pergunta recusada: limite de frequência")
            raise gr.Error(str(exc), title="Muitas perguntas seguidas", print_exception=False) from None
        yield from self._turn(text, display, convo or new_conversation(), _session(request))

    def _turn(self, text: str, display: list[dict], convo: dict, session: str):
        runtime = self.runtime
        cancel = runtime.turns.begin(session)  # also cancels this session's previous turn
        display += [_user(text), _assistant(render.PREPARING)]
        answer_at = len(display) - 1
        yield list(display), "", "", gr.skip(), gr.skip()
        first = None
        turn = runtime.chat.turn(text, convo["history"], cancel)
        try:
            for update in turn:
                if cancel.is_set():
                    return  # stopped, or replaced by a newer question: that one owns the page now
                first = update.answer if first is None else first
                display[answer_at] = _assistant(answer_markdown(update, not update.done and update.answer == first))
                if not update.done:
                    yield list(display), gr.skip(), gr.skip(), gr.skip(), gr.skip()
                    continue
                yield self._final(update, text, display, answer_at, convo)
        except Exception:
            log.exception("chat turn failed")
            display[answer_at] = _assistant(UNEXPECTED)
            yield list(display), gr.skip(), gr.skip(), gr.skip(), gr.skip()
        finally:
            turn.close()  # closes the provider's stream when Gradio cancels this generator
            runtime.turns.end(session, cancel)

    def _final(self, update, text: str, display: list[dict], answer_at: int, convo: dict):
        credits = self.runtime.attributions()
        sources_md = render.sources_markdown(update.sources, credits)
        if update.sources:
            display.append({"role": "assistant", "content": sources_md,
                            "metadata": {"title": render.sources_title(update.sources), "status": "done",
                                         "log": render.mode_text(update.mode)}})
        history = list(convo["history"])
        if not update.error:
            # The keyword-search note is for the reader, not part of the conversation.
            answer = update.answer.removeprefix(LEXICAL_NOTE)
            history += [{"role": "user", "content": text}, {"role": "assistant", "content": answer}]
        keep = 2 * self.runtime.settings.history_turns
        turn_ids = {**convo["turn_ids"], answer_at: update.turn_id}
        if update.sources:
            turn_ids[answer_at + 1] = update.turn_id
        convo = {"history": history[-keep:] if keep else [], "turn_ids": turn_ids}
        return list(display), gr.skip(), render.mode_markdown(update.mode, update.reason), sources_md, convo

    def respond_example(self, chat: list, convo: dict, data: gr.SelectData, request: gr.Request):
        """An example clicked in the empty chat is sent as a question."""
        value = data.value if isinstance(data.value, dict) else {}
        yield from self.respond(value.get("text", ""), chat, convo, request)

    def stop(self, chat: list, request: gr.Request) -> list[dict]:
        """Cancel this session's running turn; Gradio's `cancels=` closes the generator too."""
        display = plain_messages(chat)
        if not self.runtime.turns.cancel(_session(request)):
            return display
        if display and display[-1]["role"] == "assistant" and "metadata" not in display[-1]:
            shown = display[-1]["content"].replace(render.PREPARING, "").rstrip()
            display[-1] = _assistant((shown + "\n\n" if shown else "") + render.INTERRUPTED)
        return display

    def like(self, convo: dict, data: gr.LikeData) -> None:
        """Thumbs up/down on an answer, stored with the turn log."""
        if data.liked not in (True, False):
            return  # a removed rating or another option: nothing to record
        index = data.index[0] if isinstance(data.index, (list, tuple)) else data.index
        turn_id = (convo or {}).get("turn_ids", {}).get(index)
        if not turn_id or self.runtime.turnlog is None:
            gr.Warning("Não foi possível registrar a avaliação desta mensagem.")
            return
        try:
            self.runtime.turnlog.feedback(turn_id, "up" if data.liked else "down")
        except (ValueError, KeyError) as exc:
            gr.Warning(str(exc.args[0]) if exc.args else "Avaliação não registrada.")
            return
        gr.Info("Obrigado pela avaliação!")

    # -- status ------------------------------------------------------------------------------------
    def refresh(self):
        """(banner, state, progress bar, details, credits) for the timer and the page load."""
        status = self.runtime.status()
        credits = " · ".join(status["attributions"])
        return (render.banner_markdown(status), render.state_markdown(status), render.progress_html(status),
                render.details_markdown(status), f"<small>{render.escape(credits)}</small>" if credits else "")

    def reindex(self, token: str, request: gr.Request = None) -> str:
        try:
            self.runtime.limiters["reindex"].hit(client_key(request, self.runtime.settings.trusted_proxies))
        except RateLimited as exc:
            return "⚠️ " + render.escape(str(exc))
        outcome = self.runtime.reindex(token or "")
        return ("✅ " if outcome.ok else "⚠️ ") + render.escape(outcome.message)


def _user(text: str) -> dict:
    return {"role": "user", "content": render.escape(text)}


def _assistant(text: str) -> dict:
    return {"role": "assistant", "content": text}


def _session(request) -> str:
    return getattr(request, "session_hash", None) or "anonymous"

"""The Gradio page (pt-BR): a Chat tab and a Status tab, plus the named API endpoints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gradio as gr

from pastor.web import reader, saved
from pastor.web.api import WebAPI
from pastor.web.browser_keys import browser_keys
from pastor.web.conversation import Conversation
from pastor.web.handlers import Handlers
from pastor.web.runtime import Runtime

ASSETS = Path(__file__).resolve().parent / "assets"
# Issue 22 hook: the reader's selector and chapter panel bring their own CSS and script (web/reader.py).
CSS = (ASSETS / "page.css").read_text(encoding="utf-8") + "\n" + reader.CSS
# Citations that open their source, the copy button, labels for Gradio's unnamed icon buttons.
HEAD = "<script>\n" + (ASSETS / "page.js").read_text(encoding="utf-8") + "\n</script>\n" + reader.HEAD

EXAMPLES = (
    "Estou com medo do futuro",
    "O que diz João 3:16?",
    "Como perdoar quem me feriu?",
    "Estou de luto pela minha mãe",
)

INTRO = (
    "# Pastor Online\n"
    "Escreva o que está no seu coração. As respostas se apoiam apenas em versículos da Bíblia "
    "encontrados aqui, sempre com a referência. Não substitui o cuidado de um pastor, de um médico "
    "ou de um profissional de saúde mental."
)

INPUT_HINT = "**Enter** envia · **Shift+Enter** quebra a linha"

# Stable element ids for browser tests.
ELEM_IDS = {
    "textbox": "message-box",
    "send": "send-button",
    "stop": "stop-button",
    "chatbot": "chatbot",
    "new_chat": "new-chat-button",
    "notice": "chat-notice",
    "mode": "mode-label",
    "status_tab": "status-tab",
    "status_state": "status-state",
    "progress": "status-progress",
    "reindex": "reindex-button",
    "comment": "comment-box",
    "send_comment": "comment-button",
    "recheck": "recheck-provider-button",
}

STATUS_REFRESH_SECONDS = 2.0


def build_blocks(runtime: Runtime) -> gr.Blocks:
    handlers = Handlers(runtime)
    with gr.Blocks(title="Pastor Online", analytics_enabled=False) as demo:
        gr.Markdown(INTRO, elem_id="intro")
        banner = gr.Markdown(elem_id="startup-banner")
        with gr.Tabs():
            with gr.Tab("Conversa", id="chat", elem_id="chat-tab"):
                _chat_tab(handlers, demo)
            with gr.Tab("Status", id="status", elem_id=ELEM_IDS["status_tab"]):
                status = _status_tab(handlers, runtime)
        credits = gr.Markdown(elem_id="attribution")

        # The status page and the banner follow the engine (loading, indexing progress, errors).
        timer = gr.Timer(STATUS_REFRESH_SECONDS)
        outputs = [banner, *status, credits]
        for name, trigger in (("ui_tick", timer.tick), ("ui_load", demo.load)):
            trigger(
                handlers.refresh,
                None,
                outputs,
                api_name=name,
                api_visibility="private",
                show_progress="hidden",
                concurrency_limit=None,
                queue=False,
            )
        WebAPI(runtime).register()
    return demo


def _chat_tab(handlers: Handlers, demo: gr.Blocks) -> None:
    # No floating label (it covered the top message: the tab already says "Conversa"); the chat's height
    # follows the window (assets/page.js) so the input, notices and mode line stay in view.
    chatbot = gr.Chatbot(
        elem_id=ELEM_IDS["chatbot"],
        label="Conversa",
        show_label=False,
        height=520,
        render_markdown=True,
        sanitize_html=True,
        allow_tags=False,
        feedback_options=("Like", "Dislike"),
        examples=[{"text": e} for e in EXAMPLES],
        buttons=[],  # copying is the answer's own button
        placeholder="Conte como você está, ou peça um versículo (ex.: Salmos 23).",
    )
    mode = gr.Markdown(elem_id=ELEM_IDS["mode"])
    # Right above the input, where the eyes are when Enter was pressed.
    notice = gr.HTML(elem_id=ELEM_IDS["notice"])
    with gr.Row(elem_id="input-row"):
        # One line that grows to eight: Enter sends, Shift+Enter breaks the line (Gradio's rule for lines=1).
        textbox = gr.Textbox(
            elem_id=ELEM_IDS["textbox"],
            label="Sua mensagem",
            show_label=False,
            lines=1,
            max_lines=8,
            scale=8,
            min_width=120,
            placeholder="Escreva sua mensagem…",
            autofocus=True,
        )
        send = gr.Button("Enviar", variant="primary", elem_id=ELEM_IDS["send"], scale=0, min_width=80, size="md")
        stop = gr.Button("Parar", variant="stop", elem_id=ELEM_IDS["stop"], scale=0, min_width=80, size="md")
    with gr.Row(elem_id="hint-row"):
        gr.Markdown(INPUT_HINT, elem_id="input-hint")
        new_chat = gr.Button("🗒️ Nova conversa", elem_id=ELEM_IDS["new_chat"], size="sm", scale=0, min_width=150)
    with gr.Row(visible=False, elem_id="comment-row") as comment_row:
        comment = gr.Textbox(
            label="Comentário sobre a resposta (opcional)",
            elem_id=ELEM_IDS["comment"],
            lines=1,
            max_lines=4,
            scale=4,
            placeholder="O que ajudou ou o que faltou?",
        )
        send_comment = gr.Button("Enviar comentário", elem_id=ELEM_IDS["send_comment"], scale=1, min_width=120)
    convo = gr.State(Conversation())
    # Issue 22 hook: the translation read (an input of every turn) and the chapter panel (web/reader.py).
    translation = reader.Reader(handlers.runtime).render()

    outputs = [chatbot, textbox, mode, notice, convo]
    # trigger_mode="multiple": a new question runs at once and cancels the previous one itself.
    common: dict[str, Any] = dict(
        outputs=outputs,
        api_visibility="private",
        concurrency_id="chat",
        show_progress="hidden",
        trigger_mode="multiple",
    )
    # Gradio's `cancels=` is typed as a list of dicts: each Dependency is one.
    turns: list[dict[str, Any]] = [
        textbox.submit(handlers.respond, [textbox, chatbot, convo, translation], api_name="ui_submit", **common),
        send.click(handlers.respond, [textbox, chatbot, convo, translation], api_name="ui_send", **common),
        chatbot.example_select(
            handlers.respond_example, [chatbot, convo, translation], api_name="ui_example", **common
        ),
        chatbot.retry(handlers.regenerate, [chatbot, convo, translation], api_name="ui_retry", **common),
    ]
    private: dict[str, Any] = dict(api_visibility="private", concurrency_limit=None, queue=False)
    # No `cancels=` for Stop: the turn sees its cancel event, the model stops at once, and the turn's own
    # last update (marked interrupted, with its sources) reaches the page; killing the generator instead
    # let an update already in flight overwrite Stop's mark.
    stop.click(handlers.stop, [chatbot], [chatbot], api_name="ui_stop", **private)
    reset = [chatbot, mode, notice, convo, comment_row]
    resets = [
        new_chat.click(handlers.new_chat, None, reset, cancels=turns, api_name="ui_new_chat", **private),
        chatbot.clear(handlers.new_chat, None, reset, cancels=turns, api_name="ui_clear", **private),
    ]
    chatbot.like(handlers.like, [convo], [notice, convo, comment_row], api_name="ui_like", **private)
    _kept_in_the_browser(
        demo,
        saved.KeptConversation(handlers.runtime, browser_keys(handlers.runtime.settings)),
        [chatbot, convo, notice],
        turns,
        resets,
    )
    comment_args: dict[str, Any] = dict(
        fn=handlers.comment, inputs=[comment, convo], outputs=[notice, comment, comment_row], **private
    )
    send_comment.click(api_name="ui_comment", **comment_args)
    comment.submit(api_name="ui_comment_submit", **comment_args)


def _kept_in_the_browser(demo: gr.Blocks, kept: saved.KeptConversation, shown: list, turns, resets) -> None:
    """The conversation survives a reload in the person's own browser (localStorage, encrypted by Gradio, sealed
    by this server), and nowhere else: saved after each turn, brought back when the page opens (re-rendered from
    its plain text, or dropped with a notice), forgotten by "Nova conversa". `shown`: chatbot, state, notice."""
    stored = gr.BrowserState(None, storage_key=saved.STORAGE_KEY, secret=kept.keys.storage)
    quiet: dict[str, Any] = dict(api_visibility="private", queue=False, show_progress="hidden")
    chatbot, convo, notice = shown
    for turn in turns:
        turn.then(kept.snapshot, [convo], [stored], **quiet)
    for reset in resets:
        reset.then(kept.forget, None, [stored], **quiet)
    demo.load(
        kept.restore,
        [stored],
        [chatbot, convo, notice, stored],
        js=saved.CHECK_STORAGE_JS,
        api_name="ui_restore",
        **quiet,
    )


def _status_tab(handlers: Handlers, runtime: Runtime):
    state = gr.Markdown(elem_id=ELEM_IDS["status_state"])
    progress = gr.HTML(elem_id=ELEM_IDS["progress"])
    details = gr.Markdown(elem_id="status-details")
    with gr.Row():
        token = gr.Textbox(
            label="Token de reindexação",
            type="password",
            elem_id="reindex-token",
            visible=bool(runtime.settings.reindex_token),
            scale=3,
        )
        refusal = runtime.reindex_refusal()
        reindex = gr.Button("Reindexar", elem_id=ELEM_IDS["reindex"], scale=1, interactive=refusal is None)
    # Disabled without a token on a public address; the message says how to enable it.
    message = gr.Markdown("⚠️ " + refusal if refusal else "", elem_id="reindex-message")
    with gr.Row():
        recheck = gr.Button("Verificar de novo o modelo de linguagem", elem_id=ELEM_IDS["recheck"], scale=1)
    recheck.click(
        handlers.check_provider,
        None,
        [message],
        api_name="ui_check_provider",
        api_visibility="private",
        concurrency_limit=None,
    )
    reindex.click(
        handlers.reindex, [token], [message], api_name="ui_reindex", api_visibility="private", concurrency_limit=None
    )
    return state, progress, details

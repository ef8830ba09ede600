"""The Gradio page (pt-BR): a Chat tab and a Status tab, plus the named API endpoints."""

from __future__ import annotations

import gradio as gr

from pastor.web.handlers import Handlers, new_conversation
from pastor.web.runtime import Runtime
from pastor.web.api import WebAPI

EXAMPLES = (
    "Estou com medo do futuro",
    "O que diz João 3:16?",
    "Como perdoar quem me feriu?",
    "Estou de luto pela minha mãe",
)

INTRO = ("# Pastor Online\n"
         "Escreva o que está no seu coração. As respostas se apoiam apenas em versículos da Bíblia "
         "encontrados aqui, sempre com a referência. Não substitui o cuidado de um pastor, de um médico "
         "ou de um profissional de saúde mental.")

CSS = """
#mode-label { opacity: 0.7; }
#chatbot strong { color: var(--color-accent); }
.pastor-progress { display: flex; align-items: center; gap: 0.75rem; }
.pastor-progress progress { flex: 1; height: 1rem; }
"""

# Stable element ids for browser tests.
ELEM_IDS = {
    "textbox": "message-box", "send": "send-button", "stop": "stop-button", "chatbot": "chatbot",
    "sources": "sources-accordion", "mode": "mode-label", "status_tab": "status-tab",
    "status_state": "status-state", "progress": "status-progress", "reindex": "reindex-button",
}

STATUS_REFRESH_SECONDS = 2.0


def build_blocks(runtime: Runtime) -> gr.Blocks:
    handlers = Handlers(runtime)
    with gr.Blocks(title="Pastor Online", analytics_enabled=False) as demo:
        gr.Markdown(INTRO)
        banner = gr.Markdown(elem_id="startup-banner")
        with gr.Tabs():
            with gr.Tab("Conversa", id="chat", elem_id="chat-tab"):
                _chat_tab(handlers)
            with gr.Tab("Status", id="status", elem_id=ELEM_IDS["status_tab"]):
                status = _status_tab(handlers, runtime)
        credits = gr.Markdown(elem_id="attribution")

        # The status page and the banner follow the engine (loading, indexing progress, errors).
        timer = gr.Timer(STATUS_REFRESH_SECONDS)
        outputs = [banner, *status, credits]
        for name, trigger in (("ui_tick", timer.tick), ("ui_load", demo.load)):
            trigger(handlers.refresh, None, outputs, api_name=name, api_visibility="private",
                    show_progress="hidden", concurrency_limit=None, queue=False)
        WebAPI(runtime).register()
    return demo


def _chat_tab(handlers: Handlers) -> None:
    chatbot = gr.Chatbot(
        elem_id=ELEM_IDS["chatbot"], label="Conversa", height=520, render_markdown=True,
        sanitize_html=True, allow_tags=False, feedback_options=("Like", "Dislike"),
        examples=[{"text": e} for e in EXAMPLES], buttons=["copy"],
        placeholder="Conte como você está, ou peça um versículo (ex.: Salmos 23).")
    mode = gr.Markdown(elem_id=ELEM_IDS["mode"])
    with gr.Row():
        textbox = gr.Textbox(elem_id=ELEM_IDS["textbox"], show_label=False, lines=2, max_lines=8, scale=8,
                             placeholder="Escreva sua mensagem…", autofocus=True)
        with gr.Column(scale=1, min_width=120):
            send = gr.Button("Enviar", variant="primary", elem_id=ELEM_IDS["send"])
            stop = gr.Button("Parar", variant="stop", elem_id=ELEM_IDS["stop"])
    with gr.Accordion("Fontes da última resposta", open=False, elem_id=ELEM_IDS["sources"]):
        sources = gr.Markdown(elem_id="sources")
    convo = gr.State(new_conversation())

    outputs = [chatbot, textbox, mode, sources, convo]
    # trigger_mode="multiple": a new question runs at once and cancels the previous one itself.
    common = dict(outputs=outputs, api_visibility="private", concurrency_id="chat",
                  show_progress="hidden", trigger_mode="multiple")
    turns = [
        textbox.submit(handlers.respond, [textbox, chatbot, convo], api_name="ui_submit", **common),
        send.click(handlers.respond, [textbox, chatbot, convo], api_name="ui_send", **common),
        chatbot.example_select(handlers.respond_example, [chatbot, convo], api_name="ui_example", **common),
    ]
    stop.click(handlers.stop, [chatbot], [chatbot], cancels=turns, api_name="ui_stop", api_visibility="private",
               concurrency_limit=None, queue=False)
    chatbot.like(handlers.like, [convo], None, api_name="ui_like", api_visibility="private", concurrency_limit=None)


def _status_tab(handlers: Handlers, runtime: Runtime):
    state = gr.Markdown(elem_id=ELEM_IDS["status_state"])
    progress = gr.HTML(elem_id=ELEM_IDS["progress"])
    details = gr.Markdown(elem_id="status-details")
    with gr.Row():
        token = gr.Textbox(label="Token de reindexação", type="password", elem_id="reindex-token",
                           visible=bool(runtime.settings.reindex_token), scale=3)
        refusal = runtime.reindex_refusal()
        reindex = gr.Button("Reindexar", elem_id=ELEM_IDS["reindex"], scale=1, interactive=refusal is None)
    # Disabled without a token on a public address; the message says how to enable it.
    message = gr.Markdown("⚠️ " + refusal if refusal else "", elem_id="reindex-message")
    reindex.click(handlers.reindex, [token], [message], api_name="ui_reindex", api_visibility="private",
                  concurrency_limit=None)
    return state, progress, details

"""The reader's choices in the page: the translation shown and copied (kept in the browser) and the
chapter around a source, opened over the page with the verse highlighted."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import gradio as gr
from gradio.context import Context

from pastor.bible.translations import declared, default_key
from pastor.web import render
from pastor.web.runtime import Runtime

ASSETS = Path(__file__).resolve().parent / "assets"
CSS = (ASSETS / "reader.css").read_text(encoding="utf-8")
HEAD = "<script>\n" + (ASSETS / "reader.js").read_text(encoding="utf-8") + "\n</script>"

ELEM_IDS = {
    "translation": "translation-choice",
    "credit": "translation-credit",
    "panel": "context-panel",
    "chapter": "context-chapter",
    "verse": "context-verse",
    "open": "context-open",
    "close": "context-close",
}

# Where the browser keeps the choice. Not a secret: the value is a translation's public name; a fixed key
# keeps it across restarts (Gradio would otherwise encrypt it with a new random key at each start).
STORAGE_KEY = "pastor-translation"
STORAGE_SECRET = "pastor-online-escolha-de-traducao"

_VERSE_ID = re.compile(r"[1-4]?[A-Z]{2,3} \d{1,3}:\d{1,3}")
NOT_READY = "O texto bíblico ainda está sendo carregado. Tente de novo em instantes."
UNKNOWN_VERSE = "Não encontrei esse versículo no texto carregado."
# Hands the verse the page script recorded (assets/reader.js) to the open event, with the translation.
PICKED_VERSE_JS = "(verse, translation) => [window.__pastorContextVerse || verse, translation]"
# The verse in view; the keyboard on "Fechar" (Esc closes too: assets/reader.js).
SHOW_VERSE_JS = (
    "() => { const here = document.querySelector('#context-panel .pastor-here');"
    " if (here) here.scrollIntoView({block: 'center'});"
    " const close = document.querySelector('#context-close');"
    " if (close) close.focus({preventScroll: true}); }"
)


class Reader:
    """The translation selector and the chapter panel, with their handlers."""

    def __init__(self, runtime: Runtime):
        self.runtime = runtime
        settings = runtime.settings
        self.choices = declared([settings.corpus, *settings.extra_corpora])
        keys = [key for key, _, _ in self.choices]
        self.default = default_key(keys, settings.translation)

    # -- the page ----------------------------------------------------------------------------------
    def render(self) -> gr.Radio:
        """The selector row and the (hidden) chapter panel; returns the selector, an input of every turn."""
        with gr.Row(elem_id="translation-row", visible=len(self.choices) > 1):
            translation = gr.Radio(
                [(title, key) for key, title, _ in self.choices],
                value=self.default,
                label="Texto bíblico",
                elem_id=ELEM_IDS["translation"],
                scale=0,
                min_width=340,
            )
            credit = gr.Markdown(self.credit_markdown(self.default), elem_id=ELEM_IDS["credit"])
        saved = gr.BrowserState(self.default, storage_key=STORAGE_KEY, secret=STORAGE_SECRET)
        with gr.Column(visible=False, elem_id=ELEM_IDS["panel"]) as panel:
            close = gr.Button("✕ Fechar", elem_id=ELEM_IDS["close"], size="sm", scale=0, min_width=90)
            chapter = gr.HTML(elem_id=ELEM_IDS["chapter"])
        verse = gr.Textbox(elem_id=ELEM_IDS["verse"], visible="hidden", show_label=False, container=False)
        opener = gr.Button("Ler o capítulo", elem_id=ELEM_IDS["open"], visible="hidden")

        private: dict[str, Any] = dict(api_visibility="private", concurrency_limit=None, queue=False)
        translation.change(self.remember, [translation], [saved, credit], api_name="ui_translation", **private)
        page = Context.root_block
        assert page is not None, "Reader.render runs inside the page's gr.Blocks"
        page.load(self.restore, [saved], [translation, credit], api_name="ui_translation_restore", **private)
        opener.click(
            self.open_chapter,
            [verse, translation],
            [panel, chapter],
            js=PICKED_VERSE_JS,
            api_name="ui_context",
            **private,
        ).then(None, js=SHOW_VERSE_JS)
        close.click(lambda: gr.update(visible=False), None, [panel], api_name="ui_context_close", **private)
        return translation

    # -- handlers ----------------------------------------------------------------------------------
    def credit_markdown(self, key: str) -> str:
        credit = next((c for k, _, c in self.choices if k == key), "")
        return f"<small>{render.escape(credit)}</small>" if credit else ""  # as in the footer: no live link

    def resolve(self, key) -> str:
        """A remembered choice that may be stale (another server's, an edited browser): else the default."""
        return key if isinstance(key, str) and key in {k for k, _, _ in self.choices} else self.default

    def remember(self, key):
        """The selector changed: keep the choice in the browser and show its credit."""
        key = self.resolve(key)
        return key, self.credit_markdown(key)

    def restore(self, saved):
        """A page (re)loaded: the selector back on the browser's choice."""
        key = self.resolve(saved)
        return key, self.credit_markdown(key)

    def open_chapter(self, verse_id, key):
        """(panel, chapter HTML): the chapter around `verse_id` in the chosen translation."""
        engine = self.runtime.engine
        texts = engine.translations if engine is not None else None
        if texts is None:
            return gr.update(visible=True), _message(NOT_READY)
        verse_id = verse_id.strip() if isinstance(verse_id, str) else ""
        if not _VERSE_ID.fullmatch(verse_id) or verse_id not in texts.cited.by_id:
            return gr.update(visible=True), _message(UNKNOWN_VERSE)
        return gr.update(visible=True), chapter_html(texts, verse_id, texts.resolve(key))


def chapter_html(texts, verse_id: str, key: str) -> str:
    """The chapter as numbered paragraphs, the verse marked (`pastor-here`), its translation and credit."""
    translation = texts.get(key)
    title = texts.cited.by_id[verse_id].reference.rsplit(":", 1)[0]
    parts = [
        f'<div class="pastor-chapter" role="region" aria-label="{html.escape(title)}">',
        f"<h3>{html.escape(title)}</h3><p><small>{html.escape(translation.title)}</small></p>",
    ]
    for vid, number, text in texts.chapter(verse_id, key):
        here = ' class="pastor-here" aria-current="true"' if vid == verse_id else ""
        parts.append(f"<p{here}><sup>{number}</sup>{html.escape(text or '')}</p>")
    if translation.credit:
        parts.append(f"<p><small>{html.escape(translation.credit)}</small></p>")
    return "".join(parts) + "</div>"


def _message(text: str) -> str:
    return f'<p class="pastor-chapter-message">{html.escape(text)}</p>'

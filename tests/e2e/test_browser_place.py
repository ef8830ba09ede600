"""Issue 29, item 5: the page where the member left it (real Chromium, by boxes on screen): a reload opens at the last
exchange with the title and tabs in view, the turn after a crisis reply scrolls as any turn, Esc closes the chapter."""

from __future__ import annotations

import os

import pytest

from tests.e2e.test_browser import CHROMIUM, MISSING, MS, PLAYWRIGHT, ask, browser, open_chat, screenshot, start_app  # noqa: F401
from tests.e2e.test_browser_layout import assert_seen

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif((CHROMIUM is None or not PLAYWRIGHT) and not os.environ.get("CI"), reason=MISSING),
]

SIZES = [(1280, 800), (390, 844)]
CRISIS = "não aguento mais, quero me matar"
# A reference turn (no vectors, no model needed): its sources carry "📜 ler o capítulo".
PASSAGE = "Salmos 23:4"
LAST = "O que diz Salmos 23:1?"


@pytest.fixture(scope="module")
def place_app(tmp_path_factory):
    """No model (answers quote their verses) and no background index: crisis and reference turns need neither."""
    app = start_app(tmp_path_factory.mktemp("browser-place"), LLM_PROVIDER="none", PASTOR_BACKGROUND_INDEX="false")
    yield app
    app.stop()


def new_page(browser, width: int, height: int):
    phone = width < 500
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="pt-BR", is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.script_errors = []
    page.on("pageerror", lambda error: page.script_errors.append(str(error)))
    return context, page


def assert_header_in_view(page, when: str) -> None:
    """The title and the tabs inside the window, the window not scrolled."""
    for selector, what in (("#intro h1", "o título"), ("#chat-tab-button", "a aba Conversa")):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], (
            f"{what} fora da janela {when}: {box}"
        )
    assert page.evaluate("window.scrollY") == 0, f"a janela ficou rolada {when}"


@pytest.mark.parametrize("width, height", SIZES)
def test_after_a_crisis_and_after_a_reload_the_last_exchange_shows_under_the_header(place_app, browser, width, height):
    from playwright.sync_api import expect

    context, page = new_page(browser, width, height)
    try:
        box = open_chat(place_app, page)
        ask(page, box, PASSAGE)
        ask(page, box, CRISIS, answers=2)
        page.wait_for_timeout(2500)  # past the page script's hold on the crisis reply
        chat = page.locator("#chatbot")
        crisis = chat.locator('[data-testid="bot"]').filter(has_text="Ligue agora").last
        assert_seen(crisis.locator("p", has=page.locator(".pastor-crisis-top")), "o início da resposta de crise")
        assert_header_in_view(page, "depois da resposta de crise")

        # The next turn is followed to its end, as any turn, under the title and tabs.
        ask(page, box, LAST, answers=3)
        page.wait_for_timeout(2500)
        assert_seen(chat.locator("button.pastor-copy").last, "o fim da resposta seguinte")
        assert_header_in_view(page, "na pergunta seguinte")

        # A reload (a later visit) opens at the last exchange, from its question, not at the old crisis reply.
        page.reload()
        expect(chat.locator("button.pastor-copy")).to_have_count(3, timeout=30 * MS)
        page.wait_for_timeout(2500)
        assert_seen(chat.locator('[data-testid="user"]').last, "a última pergunta depois de recarregar")
        assert_seen(chat.locator('[data-testid="bot"]').last, "o início da última resposta", top=True)
        assert_header_in_view(page, "depois de recarregar")
        screenshot(page, f"place-reload-{width}x{height}")
        assert page.script_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("width, height", SIZES)
def test_escape_closes_the_chapter_and_gives_the_keyboard_back_to_its_link(place_app, browser, width, height):
    from playwright.sync_api import expect

    context, page = new_page(browser, width, height)
    try:
        box = open_chat(place_app, page)
        ask(page, box, PASSAGE)
        chat = page.locator("#chatbot")
        chat.get_by_text("Fontes consultadas").click()
        link = chat.locator(".pastor-source a.pastor-context").first
        expect(link).to_be_visible(timeout=10 * MS)
        href = link.get_attribute("href")
        link.click()
        panel = page.locator("#context-panel")
        expect(panel).to_be_visible(timeout=10 * MS)
        expect(page.locator("#context-close")).to_be_focused(timeout=10 * MS)

        page.keyboard.press("Escape")
        expect(panel).to_be_hidden(timeout=10 * MS)
        focused = page.locator(f'#chatbot a.pastor-context[href="{href}"]').first
        expect(focused).to_be_focused(timeout=10 * MS)
        assert_seen(focused, "o link que abriu o capítulo")
        assert page.script_errors == []
    finally:
        context.close()

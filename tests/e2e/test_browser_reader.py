"""The reader in a real Chromium (issue 22): the translation chosen is what is shown, copied and remembered,
and a source opens its chapter in the page with the verse highlighted. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import os

import pytest

from tests.e2e.test_browser import (  # noqa: F401
    CHROMIUM,
    MISSING,
    MS,
    PLAYWRIGHT,
    browser,
    open_chat,
    page,
    require_browser,
    screenshot,
    start_app,
)
from tests.e2e.test_browser_layout import assert_seen
from tests.support.app_fixtures import FIXTURES, MINI_CORPUS

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif((CHROMIUM is None or not PLAYWRIGHT) and not os.environ.get("CI"), reason=MISSING),
]

OLD = FIXTURES / "app" / "por-mini1911.usfx.xml"  # the cited text, a few verses in the 1911 spelling
OLD_JOHN = "todo aquelle que n'elle crê"
NEW_JOHN = "todo aquele que nele crê"
QUESTION = "o que diz João 3:16?"


@pytest.fixture(scope="module")
def reader_app(tmp_path_factory):
    """The old-spelling text with its modern translation, no model (the answer quotes the verses)."""
    tmp = tmp_path_factory.mktemp("browser-reader")
    app = start_app(
        tmp,
        PASTOR_CORPUS=str(OLD),
        PASTOR_EXTRA_CORPORA=str(MINI_CORPUS),
        LLM_PROVIDER="none",
        PASTOR_BACKGROUND_INDEX="false",
    )
    yield app
    app.stop()


def ask(page, box, text: str, answers: int):
    from playwright.sync_api import expect

    box.fill(text)
    box.press("Enter")
    expect(page.locator("#chatbot button.pastor-copy")).to_have_count(answers, timeout=90 * MS)


def choice(page, key: str):
    return page.locator("#translation-choice").get_by_label(key, exact=True)


def inside_viewport(page, locator) -> bool:
    box, view = locator.bounding_box(), page.viewport_size
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= view["width"] + 1
        and box["y"] + box["height"] <= view["height"] + 1
    )


class TestTranslation:
    def test_the_modern_text_by_default_and_the_original_one_click_away(self, reader_app, page):
        from playwright.sync_api import expect

        box = open_chat(reader_app, page)
        expect(choice(page, "mini")).to_be_checked()
        ask(page, box, QUESTION, answers=1)
        bots = page.locator('#chatbot [data-testid="bot"]')
        expect(bots.first).to_contain_text(NEW_JOHN)

        choice(page, "mini1911").check()
        ask(page, box, QUESTION, answers=2)
        answer = page.locator("#chatbot button.pastor-copy").last
        expect(page.locator("#chatbot")).to_contain_text(OLD_JOHN)
        answer.click()
        copied = page.evaluate("window.__pastorCopied")
        assert OLD_JOHN in copied and NEW_JOHN not in copied and "João 3:16" in copied
        screenshot(page, "reader-original-translation")

        # The choice is the browser's: a reload keeps it (and the conversation, kept in the browser too:
        # its two answers come back), and the next answer is in the original spelling again.
        page.reload()
        box = page.locator("#message-box textarea")
        expect(box).to_be_visible(timeout=60 * MS)
        expect(choice(page, "mini1911")).to_be_checked(timeout=10 * MS)
        expect(page.locator("#chatbot button.pastor-copy")).to_have_count(2, timeout=30 * MS)
        ask(page, box, QUESTION, answers=3)
        answers = page.locator('#chatbot [data-testid="bot"]', has=page.locator("button.pastor-copy"))
        expect(answers.last).to_contain_text(OLD_JOHN)
        assert page.script_errors == []

    def test_another_browser_starts_on_the_default(self, reader_app, browser):  # noqa: F811
        from playwright.sync_api import expect

        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="pt-BR")
        fresh = context.new_page()
        try:
            fresh.goto(reader_app.url + "/")
            expect(choice(fresh, "mini")).to_be_checked(timeout=60 * MS)
        finally:
            context.close()

    @pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
    def test_the_selector_is_in_view_without_scrolling(self, reader_app, browser, size):  # noqa: F811
        """Issue 29: the choice of text (both options) is on screen as the page opens, the chat sized around it,
        before and after an answer."""
        from playwright.sync_api import expect

        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="pt-BR")
        page = context.new_page()  # noqa: F811
        try:
            box = open_chat(reader_app, page)
            options = page.locator("#translation-choice label")
            parts = {
                "a escolha do texto": page.locator("#translation-choice"),
                "a opção do texto original": options.nth(0),
                "a opção do texto atual": options.nth(1),
            }  # the fixture's texts have no credit (the shipped ones do: tests/web/test_translations.py)
            for moment in ("ao abrir", "depois de uma resposta"):
                if moment != "ao abrir":
                    ask(page, box, QUESTION, answers=1)
                for what, locator in parts.items():
                    expect(locator).to_be_visible(timeout=10 * MS)
                    assert_seen(locator, f"{what} {moment} em {size[0]}×{size[1]}")
                assert page.evaluate("window.scrollY") == 0
            screenshot(page, f"reader-selector-{size[0]}x{size[1]}")
        finally:
            context.close()


class TestChapter:
    @pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
    def test_a_source_opens_its_chapter_with_the_verse_highlighted(self, reader_app, browser, size):  # noqa: F811
        from playwright.sync_api import expect

        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="pt-BR")
        page = context.new_page()  # noqa: F811
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            box = open_chat(reader_app, page)
            ask(page, box, "Salmos 23:4", answers=1)  # the modern text is the default
            chat = page.locator("#chatbot")
            chat.get_by_text("Fontes consultadas").click()
            link = chat.locator(".pastor-source a.pastor-context").first
            expect(link).to_be_visible(timeout=10 * MS)
            link.click()
            panel = page.locator("#context-panel")
            expect(panel).to_be_visible(timeout=10 * MS)
            expect(panel.locator("h3")).to_have_text("Salmos 23")
            here = panel.locator(".pastor-here")
            expect(here).to_have_count(1)
            expect(here).to_contain_text("Ainda que eu ande pelo vale")
            expect(panel.locator("p sup")).to_have_count(2)  # the tiny corpus's Salmos 23: verses 1 and 4
            assert inside_viewport(page, here) and inside_viewport(page, page.locator("#context-close"))
            screenshot(page, f"reader-chapter-{size[0]}x{size[1]}")
            page.locator("#context-close").click()
            expect(panel).to_be_hidden(timeout=10 * MS)
            assert errors == []
        finally:
            context.close()

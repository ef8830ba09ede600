"""The page as a person uses it: `python app.py` driven by a real headless Chromium (Debian's package).

Screenshots go to tests/artifacts/ (git-ignored). Without a Chromium the module is skipped, except
under CI, where a missing browser fails (`.ci/run` installs it with apt)."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

from tests.support.app_fixtures import app_env
from tests.support.helpers import wait_for
from tests.support.browser_support import (
    ARTIFACTS, CHROMIUM_ARGS, AppProcess, chromium_path, missing_browser_reason, write_synthetic_usfx)

CHROMIUM = chromium_path()
PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
MISSING = missing_browser_reason() if CHROMIUM is None else "Playwright ausente (requirements-dev.txt)"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif((CHROMIUM is None or not PLAYWRIGHT) and not os.environ.get("CI"), reason=MISSING)]

QUESTION = "Estou com medo do futuro"
# Mateus 6:34 is the tiny corpus's best hit for QUESTION, so the citation survives validation.
SCRIPTED = ("Não tenha medo do amanhã: veja Mateus 6:34. Deus cuida de você hoje; "
            "entregue a Ele cada preocupação, um dia de cada vez.")
CITED_TEXT = "Não tenham medo do futuro nem se preocupem com o amanhã"

SYNTHETIC_VERSES = 6000  # ~15–35 s of indexing with the USE embedder on 2 cores

MS = 1000  # Playwright timeouts are in milliseconds


# == browser and pages ==============================================================================
@pytest.fixture(scope="module", autouse=True)
def require_browser():
    """Under CI a missing browser fails, before any app is started for nothing."""
    if CHROMIUM is None or not PLAYWRIGHT:
        pytest.fail(MISSING, pytrace=False)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        # A persistent profile is not needed: each launch gets a fresh temporary one.
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    """A fresh page in pt-BR; uncaught script errors are collected in `page.script_errors`."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR")
    opened = context.new_page()
    opened.script_errors = []
    opened.on("pageerror", lambda error: opened.script_errors.append(str(error)))
    yield opened
    context.close()


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def start_app(tmp_path, **overrides: str) -> AppProcess:
    data = tmp_path / "data"
    data.mkdir()
    app = AppProcess(app_env(data, **overrides), tmp_path / "app.log").start()
    try:
        app.wait_ready()
    except BaseException:
        app.stop()
        raise
    return app


# == a question answered with a cited verse ============================================================
@pytest.fixture(scope="module")
def chat_app(tmp_path_factory):
    """The tiny corpus, a slow scripted model (so streaming is visible) and vectors built."""
    tmp = tmp_path_factory.mktemp("browser-chat")
    script = tmp / "respostas.json"
    script.write_text(json.dumps([SCRIPTED], ensure_ascii=False), encoding="utf-8")
    app = start_app(tmp, PASTOR_FAKE_RESPONSES=str(script), PASTOR_FAKE_DELAY="0.1", PASTOR_FAKE_CHUNK="3")
    wait_for(lambda: (r := app.get("/ready")) is not None and r.json()["vectors"]["ready"], 120,
             f"o índice vetorial não ficou pronto:\n{app.log()}")
    yield app
    app.stop()


# Records each distinct text of the first answer bubble, so the test sees every streamed state
# however fast the updates come.
RECORD_ANSWERS = """() => {
  window.__answers = [];
  const chat = document.querySelector('#chatbot');
  const record = () => {
    const bubble = chat.querySelector('[data-testid="bot"]');
    if (!bubble) return;
    const text = bubble.innerText.trim();
    if (window.__answers[window.__answers.length - 1] !== text) window.__answers.push(text);
  };
  new MutationObserver(record).observe(chat, {subtree: true, childList: true, characterData: true});
}"""


class TestChatPage:
    def test_a_streamed_answer_with_a_highlighted_citation_and_its_sources(self, chat_app, page):
        from playwright.sync_api import expect
        page.goto(chat_app.url + "/")
        box = page.locator("#message-box textarea")
        expect(box).to_be_visible(timeout=60 * MS)
        page.evaluate(RECORD_ANSWERS)

        # Ask, then wait for the final update: it adds the collapsible list of sources.
        box.fill(QUESTION)
        page.locator("#send-button").click()
        chat = page.locator("#chatbot")
        expect(chat).to_contain_text("Fontes consultadas", timeout=90 * MS)
        expect(chat).to_contain_text(QUESTION)

        # The answer grew in place before the final text.
        answers = page.evaluate("window.__answers")
        final = answers[-1]
        assert "Deus cuida de você hoje" in final and "preparando" not in final
        partial = [a for a in answers if "Não tenha" in a and "preparando" not in a
                   and a != final and final.startswith(a)]
        assert len(partial) >= 2, answers

        # The supported citation is bold in the answer bubble itself.
        answer = chat.locator('[data-testid="bot"]').first
        expect(answer.locator("strong")).to_have_text(["Mateus 6:34"])
        expect(page.locator("#mode-label")).to_contain_text("Modo:")
        screenshot(page, "browser-chat-answer")

        # The collapsible under the answer lists the cited verse first.
        chat.get_by_text("Fontes consultadas").click()
        expect(chat).to_contain_text("citado na resposta", timeout=10 * MS)
        expect(chat).to_contain_text(CITED_TEXT)

        # So does the "latest sources" accordion below the chat.
        page.locator("#sources-accordion").get_by_text("Fontes da última resposta").click()
        sources = page.locator("#sources")
        expect(sources).to_be_visible(timeout=10 * MS)
        expect(sources).to_contain_text("Mateus 6:34")
        expect(sources).to_contain_text(CITED_TEXT)
        expect(sources).to_contain_text("✅ citado na resposta")
        screenshot(page, "browser-chat-sources")
        assert page.script_errors == []


# == the status tab while the vector index is built ======================================================
@pytest.fixture(scope="module")
def indexing_app(tmp_path_factory):
    """A synthetic corpus big enough that the background index takes several seconds."""
    tmp = tmp_path_factory.mktemp("browser-status")
    corpus = write_synthetic_usfx(tmp / "sintetico.usfx.xml", SYNTHETIC_VERSES)
    app = start_app(tmp, PASTOR_CORPUS=str(corpus), PASTOR_PROMINENCE="")
    yield app
    app.stop()


def progress_of(page) -> tuple[int, int]:
    bar = page.locator("#status-progress progress")
    return int(float(bar.get_attribute("value"))), int(float(bar.get_attribute("max")))


class TestStatusPage:
    def test_shows_indexing_progress_then_the_complete_index(self, indexing_app, page):
        from playwright.sync_api import expect
        page.goto(indexing_app.url + "/")
        page.locator("#status-tab-button").click()
        state = page.locator("#status-state")

        # While indexing: the state, a live progress bar and the keyword-search banner.
        expect(state).to_contain_text("Indexando", timeout=60 * MS)
        expect(page.locator("#status-progress progress")).to_be_visible()
        done, total = progress_of(page)
        assert total == SYNTHETIC_VERSES and done < total
        expect(page.locator("#startup-banner")).to_contain_text("Preparando o índice semântico")
        expect(state).to_contain_text("palavras-chave")
        screenshot(page, "browser-status-indexing")

        # The page follows the build by itself (timer refresh, no reload) until it is complete.
        wait_for(lambda: progress_of(page)[0] > done, 120, "a barra de progresso não avançou")
        expect(state).to_contain_text("Índice completo", timeout=300 * MS)
        assert progress_of(page) == (SYNTHETIC_VERSES, SYNTHETIC_VERSES)
        expect(page.locator("#status-details")).to_contain_text("6.000 de 6.000")
        expect(page.locator("#startup-banner")).not_to_contain_text("Preparando")
        screenshot(page, "browser-status-complete")
        assert page.script_errors == []

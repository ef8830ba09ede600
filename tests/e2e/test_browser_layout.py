"""Issue 22: what the person needs is in view (and the conversation kept in their browser) at 1280×800,
1366×768 and 390×844 (real Chromium): the input,
every notice, the mode line, a clicked citation's source and the top message, by their boxes on screen."""

from __future__ import annotations

import json
import os
import re

import pytest

from pastor.web import saved
from tests.e2e.test_browser import (  # noqa: F401
    CHROMIUM,
    MISSING,
    MS,
    PLAYWRIGHT,
    QUESTION,
    SCRIPTED,
    ask,
    browser,
    open_chat,
    screenshot,
    start_app,
)
from tests.support.helpers import ARTIFACTS, wait_for

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif((CHROMIUM is None or not PLAYWRIGHT) and not os.environ.get("CI"), reason=MISSING),
]

SIZES = [(1280, 800), (1366, 768), (390, 844)]
RATE_LIMIT_SECONDS = 6  # long enough that a question right after an answer is always inside it

# Is the element (or, with `top`, its first line) really seen: inside the window and inside every scroll box
# that holds it, and the topmost thing at its centre and near each corner (not covered by a label or a
# button)? Returns what failed, or "" when it is seen.
SEEN = """([element, top]) => {
  const box = element.getBoundingClientRect();
  const bottom = top ? Math.min(box.bottom, box.top + 24) : box.bottom;
  const frames = [["janela", {top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth}]];
  for (let up = element.parentElement; up; up = up.parentElement) {
    if (/(auto|scroll|hidden)/.test(getComputedStyle(up).overflowY))
      frames.push([up.id || up.className, up.getBoundingClientRect()]);
  }
  for (const [name, frame] of frames) {
    if (box.top < frame.top - 0.5 || bottom > frame.bottom + 0.5
        || box.left < frame.left - 0.5 || box.right > frame.right + 0.5)
      return `fora de ${name}: ${JSON.stringify(box)} em ${JSON.stringify(frame)}`;
  }
  const inset = Math.min(8, box.width / 4, (bottom - box.top) / 4);
  const points = [[(box.left + box.right) / 2, (box.top + bottom) / 2], [box.left + inset, box.top + inset],
                  [box.right - inset, box.top + inset], [box.left + inset, bottom - inset],
                  [box.right - inset, bottom - inset]];
  for (const [x, y] of points) {
    const hit = document.elementFromPoint(x, y);
    if (hit === null || !(hit === element || element.contains(hit)))
      return `coberto em (${x}, ${y}) por ${hit ? hit.outerHTML.slice(0, 120) : "nada"}`;
  }
  return "";
}"""


def assert_seen(locator, what: str, top: bool = False, settle: float = 5.0) -> None:
    """Fails with what is wrong unless the element is seen within `settle` seconds (a slide, a scroll)."""
    problems = []

    def seen() -> bool:
        problems.append(locator.evaluate(f"(element) => ({SEEN})([element, {json.dumps(top)}])"))
        return problems[-1] == ""

    try:
        wait_for(seen, settle, what, interval=0.1)
    except AssertionError:
        raise AssertionError(f"{what}: {problems[-1]}") from None


def wait_out_the_rate_limit(page) -> None:
    """Every browser context asks from the same address: the previous test's last question may still be
    inside the limit."""
    page.wait_for_timeout(RATE_LIMIT_SECONDS * 1000 + 200)


@pytest.fixture(scope="module")
def layout_app(tmp_path_factory):
    """The tiny corpus, a scripted model with one citation, and the default-like rate limit."""
    tmp = tmp_path_factory.mktemp("browser-layout")
    script = tmp / "respostas.json"
    script.write_text(json.dumps([SCRIPTED], ensure_ascii=False), encoding="utf-8")
    app = start_app(tmp, PASTOR_FAKE_RESPONSES=str(script), PASTOR_RATE_LIMIT_SECONDS=str(RATE_LIMIT_SECONDS))
    app.data = tmp / "data"
    wait_for(
        lambda: (r := app.get("/ready")) is not None and r.json()["vectors"]["ready"],
        120,
        f"o índice vetorial não ficou pronto:\n{app.log()}",
    )
    yield app
    app.stop()


@pytest.mark.parametrize("width, height", SIZES)
def test_the_input_notices_mode_line_source_and_top_message_are_in_view(layout_app, browser, width, height):
    from playwright.sync_api import expect

    phone = width < 500
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="pt-BR", is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        box = open_chat(layout_app, page)
        assert_seen(box, "a caixa de mensagem (página vazia)")
        wait_out_the_rate_limit(page)
        ask(page, box, QUESTION)
        page.wait_for_timeout(RATE_LIMIT_SECONDS * 1000 + 200)  # past the rate limit: the next one is accepted
        ask(page, box, "Como perdoar quem me feriu?", answers=2)
        assert_seen(box, "a caixa de mensagem")
        assert_seen(page.locator("#mode-label .pastor-mode"), "a linha do modo")
        assert_seen(page.locator("#send-button"), "o botão Enviar")

        # Each refusal is a notice in view, beside the input, which stays in view too.
        notice = page.locator("#chat-notice .pastor-notice")
        box.fill("Outra pergunta logo em seguida")
        box.press("Enter")
        expect(notice).to_contain_text("Aguarde", timeout=10 * MS)
        assert_seen(notice, "o aviso de limite de frequência")
        box.fill("")
        box.press("Enter")
        expect(notice).to_contain_text("Escreva uma mensagem", timeout=10 * MS)
        assert_seen(notice, "o aviso de mensagem vazia")
        assert_seen(box, "a caixa de mensagem com o aviso")
        # What the window shows, exactly (docs/layout-<size>.png in docs/page.md are these).
        page.screenshot(path=str(ARTIFACTS / f"layout-{width}x{height}.png"))
        box.fill("Estou cansado. " * 300)
        box.press("Enter")
        expect(notice).to_contain_text("o limite é 4000", timeout=10 * MS)
        assert_seen(notice, "o aviso de mensagem longa demais")
        assert_seen(box, "a caixa de mensagem com texto longo")
        assert_seen(page.locator("#mode-label .pastor-mode"), "a linha do modo com o aviso")
        screenshot(page, f"layout-notice-{width}x{height}")

        # A citation opens its source, which lands inside the chat and the window, clear of the edges.
        chat = page.locator("#chatbot")
        cite = chat.locator("a.pastor-cite").first
        cite.scroll_into_view_if_needed()
        target = cite.get_attribute("href").lstrip("#")
        cite.click()
        entry = chat.locator(f".pastor-source.{target}")
        expect(entry).to_have_class(re.compile("pastor-flash"), timeout=5 * MS)
        assert_seen(entry, "a fonte da citação clicada")
        screenshot(page, f"layout-source-{width}x{height}")

        # The top of the conversation: the first question and the first answer's first line, uncovered.
        chat.locator(".bubble-wrap").evaluate("(wrap) => wrap.scrollTo({top: 0, behavior: 'instant'})")
        assert_seen(chat.locator('[data-testid="user"]').first, "a primeira pergunta")
        assert_seen(chat.locator('[data-testid="bot"]').first, "o início da primeira resposta", top=True)
        screenshot(page, f"layout-top-{width}x{height}")
        assert errors == []
    finally:
        context.close()


# Words of a status cell each on one line: a word the table broke ("Versícul|os") has two boxes.
BROKEN_WORDS = """(cell) => {
  const broken = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/[^\\s\\-\\/]+/g)) {  // a break after "-" or "/" is allowed
      if (match[0].length > 24) continue;  // a SHA-256 or a path may break; words may not
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


def test_the_status_tab_on_a_phone_keeps_words_whole_and_credits_once(layout_app, browser):
    from playwright.sync_api import expect

    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="pt-BR", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    try:
        open_chat(layout_app, page)
        page.locator("#status-tab-button").click()
        expect(page.locator("#status-state")).to_contain_text("Índice completo", timeout=30 * MS)
        cells = page.locator("#status-details td")
        expect(cells.first).to_be_visible()
        assert cells.count() > 20
        broken = [word for index in range(cells.count()) for word in cells.nth(index).evaluate(BROKEN_WORDS)]
        assert broken == [], broken
        row = page.locator("#status-details tr", has_text="Versículos").first.bounding_box()
        assert row["width"] <= 390, row
        credit = "Referências cruzadas © OpenBible.info"
        assert page.locator("body").inner_text().count(credit) == 1
        screenshot(page, "layout-status-390x844")
    finally:
        context.close()


def test_the_conversation_comes_back_after_a_reload_in_this_browser_only(layout_app, browser):
    from playwright.sync_api import expect

    from pastor.answer.turnlog import latest_feedback

    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="pt-BR")
    page = context.new_page()
    other = browser.new_context(viewport={"width": 1280, "height": 800}, locale="pt-BR")
    try:
        box = open_chat(layout_app, page)
        wait_out_the_rate_limit(page)
        ask(page, box, QUESTION)
        expect(page.locator("#chatbot a.pastor-cite")).to_have_count(1)

        # A reload (a later visit) brings the conversation back, linked citation and sources included.
        page.reload()
        chat = page.locator("#chatbot")
        expect(chat.locator('[data-testid="user"]')).to_have_text([QUESTION], timeout=30 * MS)
        expect(chat.locator("a.pastor-cite")).to_have_text(["Mateus 6:34"])
        expect(chat).to_contain_text("Fontes consultadas")

        # The kept turn id still records a rating against the turn that produced the answer.
        chat.get_by_role("button", name="Gostei", exact=True).first.click()
        expect(page.locator("#chat-notice")).to_contain_text("Obrigado pela avaliação", timeout=10 * MS)
        events = [json.loads(line) for line in (layout_app.data / "logs" / "turns.jsonl").read_text().splitlines()]
        turns = [e for e in latest_feedback(events) if e["type"] == "turn" and e.get("question") == QUESTION]
        rated = [e for e in latest_feedback(events) if e["type"] == "feedback"]
        assert rated and rated[-1]["turn_id"] == turns[-1]["turn_id"] and rated[-1]["rating"] == "up"

        # Another browser (its own storage) sees nothing of it.
        stranger = other.new_page()
        open_chat(layout_app, stranger)
        stranger.wait_for_timeout(1500)  # the page's restore has run
        assert stranger.evaluate(f"localStorage.getItem({json.dumps(saved.STORAGE_KEY)})") is None
        assert stranger.locator('#chatbot [data-testid="user"]').count() == 0
        assert stranger.locator('#chatbot [data-testid="bot"]').count() == 0

        # "Nova conversa" forgets it: a reload starts empty.
        stored = f"localStorage.getItem({json.dumps(saved.STORAGE_KEY)})"
        before = page.evaluate(stored)
        page.locator("#new-chat-button").click()
        expect(chat.locator('[data-testid="user"]')).to_have_count(0, timeout=10 * MS)
        wait_for(lambda: page.evaluate(stored) != before, 10, "Nova conversa não esvaziou o que o navegador guarda")
        page.reload()
        page.locator("#message-box textarea").wait_for(timeout=30 * MS)
        page.wait_for_timeout(1500)
        assert page.locator('#chatbot [data-testid="user"]').count() == 0
    finally:
        other.close()
        context.close()

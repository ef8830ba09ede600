"""Issue 21: a crisis reply's help lines are on screen when it arrives, on a phone and on a desktop (real Chromium)."""

from __future__ import annotations

import os

import pytest

from tests.web.test_browser import (CHROMIUM, MISSING, PLAYWRIGHT, ask, browser,  # noqa: F401 (a fixture)
                                    open_chat, screenshot, start_app)

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif((CHROMIUM is None or not PLAYWRIGHT) and not os.environ.get("CI"), reason=MISSING)]

CRISIS = "não aguento mais, quero me matar"
NUMBERS = ("188", "192", "808 24 24 24", "112")  # the suicide help lines of the default configuration
# Long enough to fill the chat before the crisis, so scrolling to the end would hide the reply's top.
EARLIER = "Como posso perdoar meu irmão que me magoou muitas vezes e nunca pediu perdão?"

# Is the element really seen: inside the window, and the topmost thing at its centre (not clipped by
# the chat's scroll box nor covered)?
SEEN = """(element) => {
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const inside = box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  const top = document.elementFromPoint(x, y);
  return inside && (top === element || element.contains(top));
}"""


@pytest.fixture(scope="module")
def crisis_app(tmp_path_factory):
    app = start_app(tmp_path_factory.mktemp("browser-crisis"))
    yield app
    app.stop()


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_the_help_lines_are_in_view_when_the_crisis_reply_arrives(crisis_app, browser, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="pt-BR",
                                  is_mobile=width < 500, has_touch=width < 500)
    page = context.new_page()
    try:
        box = open_chat(crisis_app, page)
        ask(page, box, EARLIER)
        ask(page, box, EARLIER, answers=2)
        ask(page, box, CRISIS, answers=3)
        page.wait_for_timeout(2500)  # past the page script's hold: what stays on screen is what counts
        reply = page.locator('#chatbot [data-testid="bot"]').filter(has_text="Ligue agora").last
        heading = reply.locator("strong", has_text="Ligue agora")
        assert heading.evaluate(SEEN), "o início da resposta de crise não está na tela"
        for number in NUMBERS:
            line = reply.locator("strong", has_text=number).first
            assert line.evaluate(SEEN), f"o número {number} não está visível em {width}×{height}"
        screenshot(page, f"crisis-{width}x{height}")
    finally:
        context.close()

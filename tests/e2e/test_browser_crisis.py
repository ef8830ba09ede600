"""Issue 21: a crisis reply's help lines are on screen when it arrives, on a phone and on a desktop (real Chromium)."""

from __future__ import annotations

import os

import pytest

from tests.e2e.test_browser import CHROMIUM, MISSING, PLAYWRIGHT, ask, browser, open_chat, screenshot, start_app  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif((CHROMIUM is None or not PLAYWRIGHT) and not os.environ.get("CI"), reason=MISSING),
]

# Each with the help lines of its kind in the default configuration; violence has the longest list.
CRISES = {
    "suicide": ("não aguento mais, quero me matar", ("188", "192", "808 24 24 24", "112")),
    "violence": (
        "meu marido está com uma arma e disse que vai matar a gente",
        ("190", "100", "180", "112", "800 202 148"),
    ),
}
# Long enough to fill the chat before the crisis, so scrolling to the end would hide the reply's top.
EARLIER = "Como posso perdoar meu irmão que me magoou muitas vezes e nunca pediu perdão?"

# Is the element really seen: each of its line boxes inside the window and inside every scroll box that
# holds it (not clipped by the chat), and the topmost thing at its centre (not covered by a button)?
SEEN = """(element) => {
  const within = (box, frame) => box.top >= frame.top - 0.5 && box.bottom <= frame.bottom + 0.5 &&
    box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5;
  const frames = [{top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth}];
  for (let up = element.parentElement; up; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (/(auto|scroll|hidden)/.test(style.overflowY)) frames.push(up.getBoundingClientRect());
  }
  return [...element.getClientRects()].every((box) => {
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return frames.every((frame) => within(box, frame)) && top !== null && (top === element || element.contains(top));
  });
}"""


@pytest.fixture(scope="module")
def crisis_app(tmp_path_factory):
    app = start_app(tmp_path_factory.mktemp("browser-crisis"))
    yield app
    app.stop()


@pytest.mark.parametrize("kind", sorted(CRISES))
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_the_help_lines_are_in_view_when_the_crisis_reply_arrives(crisis_app, browser, width, height, kind):
    message, numbers = CRISES[kind]
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="pt-BR", is_mobile=width < 500, has_touch=width < 500
    )
    page = context.new_page()
    try:
        box = open_chat(crisis_app, page)
        ask(page, box, EARLIER)
        ask(page, box, EARLIER, answers=2)
        ask(page, box, message, answers=3)
        page.wait_for_timeout(2500)  # past the page script's hold: what stays on screen is what counts
        reply = page.locator('#chatbot [data-testid="bot"]').filter(has_text="Ligue agora").last
        heading = reply.locator("strong", has_text="Ligue agora")
        assert heading.evaluate(SEEN), "o início da resposta de crise não está na tela"
        for number in numbers:
            line = reply.locator("strong", has_text=number).first
            assert line.evaluate(SEEN), f"o número {number} não está visível em {width}×{height}"
        screenshot(page, f"crisis-{kind}-{width}x{height}")
    finally:
        context.close()

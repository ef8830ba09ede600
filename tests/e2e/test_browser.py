"""The page as a person uses it: `python app.py` driven by a real headless Chromium (Debian's package).

Screenshots go to tests/artifacts/ (git-ignored). Without a Chromium the module is skipped, except
under CI, where a missing browser fails (`.ci/run` installs it with apt)."""

from __future__ import annotations

import importlib.util
import json
import os
import re

import pytest

from tests.support.app_fixtures import app_env
from tests.support.browser_support import (
    ARTIFACTS,
    CHROMIUM_ARGS,
    AppProcess,
    chromium_path,
    missing_browser_reason,
    write_synthetic_usfx,
)
from tests.support.helpers import css_colour, wait_for

CHROMIUM = chromium_path()
PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
MISSING = missing_browser_reason() if CHROMIUM is None else "Playwright ausente (requirements-dev.txt)"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif((CHROMIUM is None or not PLAYWRIGHT) and not os.environ.get("CI"), reason=MISSING),
]

QUESTION = "Estou com medo do futuro"
# Mateus 6:34 is the tiny corpus's best hit for QUESTION, so the citation survives validation.
SCRIPTED = (
    "Não tenha medo do amanhã: veja Mateus 6:34. Deus cuida de você hoje; "
    "entregue a Ele cada preocupação, um dia de cada vez. "
    "[Clique para confirmar sua doação](https://evil.example/pix) ou www.evil.example"
)
# What the page shows of the model's link and address: the text, with no link.
MODEL_LINK = "[Clique para confirmar sua doação](https://evil.example/pix) ou www.evil.example"
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
    app.data = tmp / "data"
    wait_for(
        lambda: (r := app.get("/ready")) is not None and r.json()["vectors"]["ready"],
        120,
        f"o índice vetorial não ficou pronto:\n{app.log()}",
    )
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


def open_chat(app, page):
    from playwright.sync_api import expect

    page.goto(app.url + "/")
    box = page.locator("#message-box textarea")
    expect(box).to_be_visible(timeout=60 * MS)
    return box


def ask(page, box, text: str, answers: int = 1):
    """Type and press Enter; wait until the chat holds `answers` finished answers (their copy buttons)."""
    from playwright.sync_api import expect

    box.fill(text)
    box.press("Enter")
    expect(page.locator("#chatbot button.pastor-copy")).to_have_count(answers, timeout=90 * MS)


def assert_follow_up_is_not_rewritten(page, box) -> None:
    """After a reset, the follow-up that was rewritten inside the old conversation is searched as it is."""
    from playwright.sync_api import expect

    box.fill("e se ele repetir?")
    box.press("Enter")
    expect(page.locator("#mode-label .pastor-mode")).to_be_visible(timeout=90 * MS)
    assert "busquei" not in mode_line(page)


def mode_line(page) -> str:
    return page.locator("#mode-label").inner_text()


class TestChatPage:
    def test_a_streamed_answer_with_a_linked_citation_and_its_sources(self, chat_app, page):
        from playwright.sync_api import expect

        box = open_chat(chat_app, page)
        page.evaluate(RECORD_ANSWERS)

        # Ask, then take a short sequence of the answer as it streams (committed under docs/ too).
        box.fill(QUESTION)
        page.locator("#send-button").click()
        chat = page.locator("#chatbot")
        expect(chat).to_contain_text("Não tenha", timeout=60 * MS)
        screenshot(page, "stream-1-partial")
        expect(chat).to_contain_text("Fontes consultadas", timeout=90 * MS)
        expect(chat).to_contain_text(QUESTION)
        screenshot(page, "stream-2-answer")

        # The answer grew in place before the final text.
        answers = page.evaluate("window.__answers")
        final = answers[-1]
        assert "Deus cuida de você hoje" in final and "preparando" not in final
        partial = [
            a for a in answers if "Não tenha" in a and "preparando" not in a and a != final and final.startswith(a)
        ]
        assert len(partial) >= 2, answers

        # The supported citation is a link, styled apart from bold; the mode is in plain words.
        answer = chat.locator('[data-testid="bot"]').first
        cite = answer.locator("a.pastor-cite")
        expect(cite).to_have_text(["Mateus 6:34"])
        # The model's own link and address are shown as text and are not links (issue 18, item 6).
        expect(answer).to_contain_text(MODEL_LINK)
        assert answer.locator("a").count() == 1 and answer.locator("a[href*='evil']").count() == 0
        assert answer.locator("strong").count() == 0
        styles = cite.evaluate("e => [getComputedStyle(e).textDecorationLine, getComputedStyle(e).backgroundColor]")
        assert styles[0] == "underline" and styles[1] not in ("rgba(0, 0, 0, 0)", "transparent")
        expect(page.locator("#mode-label")).to_contain_text("Versículos escolhidos para a sua mensagem")

        # One place for sources: the accordion under the answer; no relevance label, no score (issue 31).
        chat.get_by_text("Fontes consultadas").click()
        entry = chat.locator(".pastor-source").first
        expect(entry).to_contain_text("citado na resposta", timeout=10 * MS)
        expect(entry).to_contain_text(CITED_TEXT)
        assert entry.locator(".pastor-rel").count() == 0 and "relevância" not in chat.inner_text()
        assert "pontuação" not in chat.inner_text()
        assert page.locator("#sources-accordion").count() == 0
        expect(entry).to_be_visible()
        page.wait_for_timeout(800)  # for the picture only: the accordion slides open
        screenshot(page, "stream-3-sources")
        assert page.script_errors == []

    def test_clicking_a_citation_opens_its_source(self, chat_app, page):
        from playwright.sync_api import expect

        ask(page, open_chat(chat_app, page), QUESTION)
        chat = page.locator("#chatbot")
        assert chat.locator(".pastor-source").count() == 0  # the accordion starts closed
        cite = chat.locator("a.pastor-cite").first
        target = cite.get_attribute("href").lstrip("#")
        cite.click()
        entry = chat.locator(f".pastor-source.{target}")
        expect(entry).to_be_visible(timeout=5 * MS)
        expect(entry).to_contain_text("Mateus 6:34")
        expect(entry).to_have_class(re.compile("pastor-flash"))
        expect(entry).to_be_in_viewport()
        screenshot(page, "browser-citation-opens-source")

    def test_an_inline_error_keeps_the_conversation_and_the_typed_text(self, chat_app, page):
        from playwright.sync_api import expect

        box = open_chat(chat_app, page)
        ask(page, box, QUESTION)
        long_text = "Estou cansado. " * 340  # 5,100 characters, over the 4,000 limit
        box.fill(long_text)
        box.press("Enter")
        notice = page.locator("#chat-notice .pastor-notice")
        expect(notice).to_contain_text("caracteres", timeout=10 * MS)
        expect(notice).to_contain_text("o limite é 4000")
        assert box.input_value() == long_text  # nothing the person wrote is lost
        expect(page.locator("#chatbot")).to_contain_text("Deus cuida de você hoje")  # the answer is still there
        assert page.locator(".toast-body, .toast-wrap .toast-title").count() == 0  # no overlay
        assert "Error" not in page.locator("#chatbot").inner_text()
        screenshot(page, "browser-inline-error")

        box.fill("   ")
        page.locator("#send-button").click()
        expect(notice).to_contain_text("Escreva uma mensagem")

        # The next accepted question clears the notice.
        ask(page, box, "Como perdoar quem me feriu?", answers=2)
        expect(page.locator("#chat-notice .pastor-notice")).to_have_count(0)
        assert page.script_errors == []

    def test_enter_sends_and_shift_enter_breaks_the_line(self, chat_app, page):
        from playwright.sync_api import expect

        box = open_chat(chat_app, page)
        expect(page.locator("#input-hint")).to_contain_text("Enter envia · Shift+Enter quebra a linha")
        box.fill("Estou com medo")
        box.press("Shift+Enter")
        box.type("do futuro")
        assert box.input_value() == "Estou com medo\ndo futuro"
        assert page.locator('#chatbot [data-testid="user"]').count() == 0
        box.press("Enter")
        expect(page.locator('#chatbot [data-testid="user"]')).to_have_count(1, timeout=10 * MS)
        expect(page.locator("#chatbot button.pastor-copy")).to_have_count(1, timeout=90 * MS)
        expect(box).to_have_value("")

    def test_new_conversation_resets_sources_mode_and_history(self, chat_app, page):
        from playwright.sync_api import expect

        box = open_chat(chat_app, page)
        ask(page, box, "Como perdoar quem me feriu?")
        # Inside a conversation a short contextual message is rewritten: the page says what it searched.
        ask(page, box, "e se ele repetir?", answers=2)
        expect(page.locator("#mode-label")).to_contain_text("busquei:")

        page.locator("#new-chat-button").click()
        expect(page.locator('#chatbot [data-testid="bot"]')).to_have_count(0, timeout=10 * MS)
        expect(page.locator("#chatbot .pastor-source")).to_have_count(0)
        expect(page.locator("#mode-label")).to_have_text("")
        screenshot(page, "browser-new-conversation")

        # The same follow-up in the new conversation is not rewritten from the old one.
        assert_follow_up_is_not_rewritten(page, box)

    def test_gradios_clear_button_resets_too(self, chat_app, page):
        from playwright.sync_api import expect

        box = open_chat(chat_app, page)
        ask(page, box, "Como perdoar quem me feriu?")
        page.locator("#chatbot").get_by_role("button", name="Limpar conversa").click()
        expect(page.locator("#mode-label")).to_have_text("", timeout=10 * MS)
        assert_follow_up_is_not_rewritten(page, box)

    def test_a_reference_mid_conversation_is_a_reference_turn(self, chat_app, page):
        from playwright.sync_api import expect

        box = open_chat(chat_app, page)
        ask(page, box, QUESTION)
        ask(page, box, "Sl 23", answers=2)
        expect(page.locator("#mode-label")).to_contain_text("A passagem que você pediu")
        assert "busquei" not in mode_line(page)
        page.locator("#chatbot").get_by_text("Fontes consultadas").last.click()
        expect(page.locator("#chatbot .pastor-source").first).to_contain_text("Salmos 23", timeout=10 * MS)

    def test_regenerate_replaces_the_last_answer(self, chat_app, page):
        from playwright.sync_api import expect

        box = open_chat(chat_app, page)
        ask(page, box, QUESTION)
        before = page.locator("#chatbot a.pastor-cite").first.get_attribute("href")
        page.locator("#chatbot").get_by_role("button", name="Gerar a resposta de novo").click()
        # A new turn: the citation now points at the new turn's sources; still one question, one answer.
        expect(page.locator("#chatbot a.pastor-cite").first).not_to_have_attribute("href", before, timeout=90 * MS)
        expect(page.locator("#chatbot button.pastor-copy")).to_have_count(1, timeout=90 * MS)
        assert page.locator('#chatbot [data-testid="user"]').count() == 1
        expect(page.locator("#chatbot")).to_contain_text("Deus cuida de você hoje")

    def test_copy_gives_the_answer_with_its_references(self, chat_app, page):
        from playwright.sync_api import expect

        ask(page, open_chat(chat_app, page), QUESTION)
        button = page.locator("#chatbot button.pastor-copy")
        expect(button).to_have_attribute("title", "Copiar a resposta com as referências")
        button.click()
        expect(button).to_have_text("✅ Copiado")
        copied = page.evaluate("window.__pastorCopied")
        assert copied.startswith("Não tenha medo do amanhã: veja Mateus 6:34.")
        assert "Referências:\n- Mateus 6:34: " + CITED_TEXT in copied

    def test_one_rating_per_turn_and_an_optional_comment(self, chat_app, page):
        from playwright.sync_api import expect

        from pastor.answer.turnlog import latest_feedback

        ask(page, open_chat(chat_app, page), QUESTION)
        chat = page.locator("#chatbot")
        chat.get_by_role("button", name="Não gostei", exact=True).click()
        expect(page.locator("#chat-notice")).to_contain_text("Obrigado pela avaliação", timeout=10 * MS)
        chat.get_by_role("button", name="Gostei", exact=True).click()
        comment = page.locator("#comment-box textarea")
        expect(comment).to_be_visible()
        comment.fill("Me trouxe paz")
        page.locator("#comment-button").click()
        expect(page.locator("#chat-notice")).to_contain_text("Comentário registrado", timeout=10 * MS)
        events = [json.loads(line) for line in (chat_app.data / "logs" / "turns.jsonl").read_text().splitlines()]
        records = latest_feedback(events)  # each click is one appended event; the latest one counts
        turn_id = [r for r in records if r["type"] == "turn"][-1]["turn_id"]
        ratings = [r for r in records if r["type"] == "feedback" and r["turn_id"] == turn_id]
        assert [(r["rating"], r["comment"]) for r in ratings] == [("up", "Me trouxe paz")]
        assert len([e for e in events if e["type"] == "feedback"]) == 3  # down, up, up with the comment

    def test_gradios_own_strings_and_every_control_have_portuguese_labels(self, chat_app, page):
        from playwright.sync_api import expect

        ask(page, open_chat(chat_app, page), QUESTION)  # the browser is en-US: Gradio would say "Clear", "Retry"
        names = page.evaluate("""() => [...document.querySelectorAll('#chat-tab button, #chat-tab textarea')]
            .filter(e => e.offsetParent !== null)
            .map(e => (e.getAttribute('aria-label') || (e.labels && e.labels[0] ? e.labels[0].innerText : '')
                       || e.innerText || e.getAttribute('title') || '').trim())""")
        assert names and all(names), names
        english = {"Clear", "Retry", "Like", "Dislike", "Copy message", "Undo", "Submit"}
        assert not english & set(names), names
        assert {"Limpar conversa", "Gerar a resposta de novo", "Gostei", "Não gostei", "Sua mensagem"} <= set(names), (
            names
        )

        # After a rating, and on the messages themselves: no English, no raw markup read aloud.
        page.locator("#chatbot").get_by_role("button", name="Gostei", exact=True).click()
        expect(page.locator("#chatbot").get_by_role("button", name="Gostei (marcado)")).to_be_visible(timeout=5 * MS)
        labels = page.evaluate("""() => [...document.querySelectorAll('#chatbot [aria-label]')]
            .map(e => e.getAttribute('aria-label'))""")
        assert "Conversa" in labels and not english & set(labels) and "Liked" not in labels, labels
        spoken = [label for label in labels if label.startswith(("Pastor Online: ", "Você: "))]
        assert spoken and not any("<" in label or "message:" in label for label in labels), labels
        assert any(label.startswith("Pastor Online: Não tenha medo do amanhã") for label in spoken), spoken

    def test_the_mode_line_colours_apply_in_light_and_dark(self, chat_app, page):
        from playwright.sync_api import expect

        from pastor.web.page import CSS

        colour = "() => getComputedStyle(document.querySelector('#mode-label .pastor-mode span')).color"
        for answers, (theme, selector) in enumerate((("light", "#mode-label"), ("dark", ".dark #mode-label")), 1):
            page.goto(f"{chat_app.url}/?__theme={theme}")
            box = page.locator("#message-box textarea")
            expect(box).to_be_visible(timeout=60 * MS)
            if answers > 1:  # the conversation kept in this browser comes back first
                expect(page.locator("#chatbot button.pastor-copy")).to_have_count(answers - 1, timeout=30 * MS)
            ask(page, box, "Como perdoar quem me feriu?", answers=answers)
            expect(page.locator("#mode-label .pastor-mode")).to_be_visible()
            hex_colour = css_colour(CSS, selector)
            rgb = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
            assert page.evaluate(colour) == "rgb({}, {}, {})".format(*rgb), theme
        screenshot(page, "browser-dark")


@pytest.fixture(scope="module")
def limited_app(tmp_path_factory):
    """One question per client every 10 minutes: the second question is always too soon."""
    app = start_app(tmp_path_factory.mktemp("browser-limited"), PASTOR_RATE_LIMIT_SECONDS="600")
    yield app
    app.stop()


class TestRateLimit:
    def test_asking_again_too_soon_is_a_notice_that_keeps_everything(self, limited_app, page):
        from playwright.sync_api import expect

        box = open_chat(limited_app, page)
        ask(page, box, QUESTION)
        box.fill("Como perdoar quem me feriu?")
        box.press("Enter")
        notice = page.locator("#chat-notice .pastor-notice")
        expect(notice).to_contain_text("Aguarde", timeout=10 * MS)
        assert box.input_value() == "Como perdoar quem me feriu?"
        assert page.locator('#chatbot [data-testid="user"]').count() == 1
        assert page.locator(".toast-body").count() == 0
        screenshot(page, "browser-rate-limit")


class TestMobile:
    def test_the_input_stays_visible_and_full_width_after_an_answer(self, chat_app, browser):
        from playwright.sync_api import expect

        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            locale="pt-BR",
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
        )
        page = context.new_page()
        try:
            box = open_chat(chat_app, page)
            screenshot(page, "browser-mobile-empty")
            ask(page, box, QUESTION)
            ask(page, box, "Como perdoar quem me feriu?", answers=2)
            expect(box).to_be_in_viewport(ratio=1.0)
            frame = box.bounding_box()
            assert frame["y"] + frame["height"] <= 844
            # Full width: the input's block spans the column, like the chat above it.
            row, chat = page.locator("#message-box").bounding_box(), page.locator("#chatbot").bounding_box()
            assert row["width"] >= 0.95 * chat["width"] and chat["width"] >= 0.8 * 390, (row, chat)
            send = page.locator("#send-button").bounding_box()
            assert send["y"] + send["height"] <= 844, send  # the send button too, without scrolling
            screenshot(page, "browser-mobile-answer")
        finally:
            context.close()


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
        expect(page.locator("#startup-banner")).to_contain_text("Preparando a busca de versículos pelo sentido")
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


# == the local model inside the app ==================================================================
@pytest.fixture(scope="module")
def local_app(tmp_path_factory, wired_model):
    """The app with LLM_PROVIDER=local on the tiny wired Qwen2 model: real tokens from the app's own process."""
    tmp = tmp_path_factory.mktemp("browser-local")
    app = start_app(tmp, LLM_PROVIDER="local", PASTOR_LOCAL_MODEL=str(wired_model))
    wait_for(
        lambda: (r := app.get("/ready")) is not None and r.json()["vectors"]["ready"],
        120,
        f"o índice vetorial não ficou pronto:\n{app.log()}",
    )
    wait_local_model(app)
    yield app
    app.stop()


@pytest.fixture(scope="module")
def endless_app(tmp_path_factory, endless_model):
    """The local provider on a model that never ends its reply, with a short whole-reply deadline."""
    tmp = tmp_path_factory.mktemp("browser-endless")
    app = start_app(
        tmp,
        LLM_PROVIDER="local",
        PASTOR_LOCAL_MODEL=str(endless_model),
        PASTOR_LOCAL_MAX_TOKENS="100000",
        PASTOR_LOCAL_TEMPERATURE="0.8",
        LLM_TIMEOUT="8",
    )
    wait_local_model(app)
    yield app
    app.stop()


def wait_local_model(app) -> None:
    from gradio_client import Client

    client = Client(app.url + "/", verbose=False)
    wait_for(
        lambda: client.predict(api_name="/status")["llm"]["reachable"],
        120,
        f"o modelo local não carregou:\n{app.log()}",
        interval=0.5,
    )


class TestLocalModel:
    def test_the_local_model_streams_an_answer_whose_invented_citation_never_shows(self, local_app, page):
        from playwright.sync_api import expect

        box = open_chat(local_app, page)
        page.evaluate(RECORD_ANSWERS)
        ask(page, box, QUESTION)
        chat = page.locator("#chatbot")
        answer = chat.locator('[data-testid="bot"]').first
        expect(answer).to_contain_text("Não tenha medo do amanhã")
        expect(answer.locator("a.pastor-cite")).to_have_text(["Mateus 6:34"])
        streamed = page.evaluate("window.__answers")
        assert len([a for a in streamed if "Não tenha" in a]) >= 2, streamed  # it grew in place
        assert all("Hezequias" not in a for a in streamed)  # in no partial state either
        screenshot(page, "local-model-answer")

    def test_stop_marks_the_answer_interrupted_and_shows_its_sources(self, endless_app, page):
        from playwright.sync_api import expect

        box = open_chat(endless_app, page)
        box.fill(QUESTION)
        box.press("Enter")
        chat = page.locator("#chatbot")
        answer = chat.locator('[data-testid="bot"]').first
        wait_for(
            lambda: len(answer.inner_text().replace("preparando resposta…", "").strip()) > 3,
            60,
            "o modelo local não começou a escrever",
        )
        page.locator("#stop-button").click()
        expect(answer).to_contain_text("resposta interrompida", timeout=10 * MS)
        expect(chat).to_contain_text("Fontes consultadas", timeout=10 * MS)

    def test_the_deadline_ends_an_endless_answer_marked_with_its_sources(self, endless_app, page):
        from playwright.sync_api import expect

        box = open_chat(endless_app, page)
        box.fill("Como encontrar paz quando estou ansioso?")
        box.press("Enter")
        chat = page.locator("#chatbot")
        expect(chat.locator('[data-testid="bot"]').first).to_contain_text("resposta interrompida", timeout=60 * MS)
        expect(chat).to_contain_text("Fontes consultadas", timeout=10 * MS)

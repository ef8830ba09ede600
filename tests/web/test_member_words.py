"""Members read the app in their own words (issue 29): every text a member can read in the chat — openings,
replies, notices, the line under an answer, refusals, errors — is walked, and each holding an operator's word
(the model, the index, a mode's name) is listed. The operator's view (/status, the status tab, the API's
`reason` and `mode`) keeps them and is not walked."""

from __future__ import annotations

import re

from pastor.answer import chat, prompts
from pastor.answer_filter.citations import NO_ANCHOR_NOTE
from pastor.bible.lookup import truncation_note
from pastor.care import openings
from pastor.care.advice import out_of_scope_reply
from pastor.care.crisis import crisis_message
from pastor.care.routes import AdviceKind, CrisisKind
from pastor.providers import local_provider, provider
from pastor.web import chatview, handlers, page, reader, render, runtime
from pastor.web.ratelimit import RateLimited

# Words only the people who run the app should need: the model, the index and its signals, the modes' names.
OPERATOR_WORDS = re.compile(
    r"modelo|\bllm\b|provedor|provider|sem[aâ]ntic|\brag\b|lexical|l[ée]xico|embedd|fallback|[íi]ndice|index|"
    r"vetor|bm25|\bapi\b|token|prompt|configura|ollama|pastor_|\bmodo\b|[a-z]+_[a-z]+",
    re.IGNORECASE,
)


def member_texts() -> dict[str, str]:
    """Every text a member can read, named by where it comes from."""
    texts: dict[str, str] = {}

    def add(name: str, values) -> None:
        for number, value in enumerate(values):
            texts[f"{name}[{number}]"] = value

    for kind, values in openings.OPENINGS.items():
        add(f"openings.OPENINGS[{kind}]", values)
    for kind, values in openings.CONVERSATION.items():
        add(f"openings.CONVERSATION[{kind}]", values)
    add("openings.OFF_TOPIC", openings.OFF_TOPIC)
    add("advice.out_of_scope_reply", [out_of_scope_reply(kind) for kind in AdviceKind])
    crises = [crisis_message(kind, someone_else=other) for kind in CrisisKind for other in (False, True)]
    add("crisis.crisis_message", crises)
    add("prompts", [prompts.NO_EVIDENCE_MESSAGE, prompts.SELF_DESCRIPTION])
    add("chat notes", [chat.LEXICAL_NOTE, chat.INTERRUPTED_NOTE, NO_ANCHOR_NOTE, truncation_note(10, 200, 3, 0)])
    add("member notices", [provider.MEMBER_NOTICE, local_provider.PREPARING_NOTICE])
    for mode in render.MODE_LABELS:
        texts[f"render.MODE_LABELS[{mode}]"] = chatview.mode_html(mode)
    add("banner", [render.banner_markdown(status) for status in _statuses()])
    add("chatview", [chatview.PREPARING, chatview.sources_title([]), chatview.sources_html([])])
    add("handlers", [handlers.UNEXPECTED, handlers.NOTHING_TO_REGENERATE, handlers.SAME_WITHOUT_MODEL])
    add("runtime", [runtime.CHAT_DOWN_MESSAGE, runtime.LOADING_MESSAGE])
    add("reader", [reader.NOT_READY, reader.UNKNOWN_VERSE])
    add("page", [page.INTRO, page.INPUT_HINT, *page.EXAMPLES])
    add("ratelimit", [str(RateLimited(3))])
    return texts


def _statuses() -> list[dict]:
    """The states the banner above the chat speaks of (it is empty when all is well)."""
    indexing = {"phase": "ready", "state": "indexing", "progress": {"done": 8, "total": 25}}
    return [{"phase": "loading"}, indexing, {**indexing, "vectors_ready": True}]


def test_no_member_text_holds_an_operator_word():
    texts = member_texts()
    wrong = {name: found.group() for name, text in texts.items() if (found := OPERATOR_WORDS.search(text))}
    assert not wrong, "\n".join(f"{name}: «{word}» em {texts[name]!r}" for name, word in wrong.items())


def test_the_walk_reads_what_it_means_to():
    """The pattern finds each word it is for (a test that could not fail would prove nothing), and the walk
    holds the texts of each kind of reply."""
    for jargon in ("sem modelo de linguagem", "Modo: busca semântica", "modo RAG", "lexical_fallback", "índice"):
        assert OPERATOR_WORDS.search(jargon), jargon
    assert not OPERATOR_WORDS.search(openings.opening("grief", "minha mãe morreu"))
    names = " ".join(member_texts())
    assert all(part in names for part in ("OPENINGS[grief]", "CONVERSATION[greeting]", "MODE_LABELS", "banner"))

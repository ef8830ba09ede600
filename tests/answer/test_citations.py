"""Citation validation: what is kept, what is removed and how, and the streaming guarantees."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pastor.answer_filter.citations import NO_ANCHOR_NOTE, validate
from pastor.answer_filter.streaming import StreamingValidator
from pastor.bible.references import find_references
from pastor.documents.refs import DOC_REF_PATTERN

ALLOWED = {"JHN 3:16", "MAT 5:3", "MAT 5:4", "1CO 13:4", "PSA 23:1", "JOB 1:1", "JHN 14:27"}
DOCS = {"estatuto.md#p0-c3"}


def check(text: str, allowed=ALLOWED, docs=DOCS) -> str:
    return validate(text, allowed, docs).text


def stream(text: str, sizes, allowed=ALLOWED, docs=DOCS) -> tuple[list[str], StreamingValidator]:
    """Feed `text` in chunks of the given sizes (cycled); return every piece emitted, finish last."""
    validator = StreamingValidator(allowed, docs)
    pieces, pos, index = [], 0, 0
    while pos < len(text):
        size = sizes[index % len(sizes)]
        pieces.append(validator.feed(text[pos : pos + size]))
        pos, index = pos + size, index + 1
    pieces.append(validator.finish())
    return pieces, validator


def unsupported_in(text: str, allowed=ALLOWED, docs=DOCS) -> list[str]:
    bad = [
        m.text
        for m in find_references(text)
        if m.error or m.reference is None or not set(m.reference.verse_ids()) <= allowed
    ]
    return bad + [m.group() for m in DOC_REF_PATTERN.finditer(text) if m.group() not in docs]


# -- what is kept ----------------------------------------------------------------------------------
class TestKept:
    @pytest.mark.parametrize(
        "text",
        [
            "Deus amou o mundo (João 3:16).",
            "Veja Jo 3.16 e 1Co 13,4 com calma.",
            "Bem-aventurados os pobres (Mateus 5:3-4).",
            "Jó 1:1 fala de um homem íntegro.",
            "Leia estatuto.md#p0-c3 para os horários.",
        ],
    )
    def test_supported_citations_are_left_exactly_as_written(self, text):
        assert check(text) == text

    def test_citations_are_canonical_unique_and_in_order(self):
        result = validate("Jo 3.16, depois 1Co 13,4 e de novo João 3:16; estatuto.md#p0-c3.", ALLOWED, DOCS)
        assert result.citations == ["João 3:16", "1 Coríntios 13:4", "estatuto.md#p0-c3"]
        assert result.removed == []

    def test_clock_times_are_just_text(self):
        text = "O culto é no Domingo 19:30, e o ensaio às 18:00. Às 9:30 tem café."
        assert check(text) == text

    def test_an_unknown_book_shaped_like_a_reference_is_removed_even_alone(self):
        assert check("Como disse Hezequias 3:16, confie.") == "Como disse, confie."


# -- what is removed, and how the text is left -------------------------------------------------------
class TestRemoved:
    @pytest.mark.parametrize(
        "text, expected",
        [
            # Lists: the separator goes with the removed citation.
            ("Deus cuida de nós (João 3:16; Hezequias 3:16).", "Deus cuida de nós (João 3:16)."),
            ("como em Mt 5:3 e Jo 3:17", "como em Mt 5:3"),
            ("Veja (João 3:17, João 3:16 e Mt 5:3).", "Veja (João 3:16 e Mt 5:3)."),
            ("Veja (João 3:16, João 3:17 e Mt 5:3).", "Veja (João 3:16 e Mt 5:3)."),
            ("Veja (João 3:16, Mt 5:3 e João 3:17).", "Veja (João 3:16, Mt 5:3)."),
            # Alone: parentheses, cue words and the spaces around go too.
            ("Ele nos ama (Jo 3:17). Amém.", "Ele nos ama. Amém."),
            ("Ele nos ama (cf. Jo 3:17) sempre.", "Ele nos ama sempre."),
            ("Ele nos ama [Jo 3:17].", "Ele nos ama."),
            ("(Jo 3:17) Deus nos ama.", "Deus nos ama."),
            ("Deus cuida, como diz Jo 3:17.", "Deus cuida."),
            ("Deus cuida de nós, Jo 3:17, todos os dias.", "Deus cuida de nós todos os dias."),
            ("Em Jo 3:17, Jesus diz que veio salvar.", "Jesus diz que veio salvar."),
            ("Jo 3:17 diz que Ele veio salvar.", "Ele veio salvar."),  # issue 17: the clause leaning on it goes too
            ("Ore. Leia Jo 3:17. Confie.", "Ore. Confie."),
            ("Ele veio salvar Jo 3:17 e não condenar.", "Ele veio salvar e não condenar."),
            # List lines and dashes.
            ("- Jo 3:17\n- João 3:16\n", "- João 3:16\n"),
            ("- Jo 3:17: Ele veio salvar.\n", "- Ele veio salvar.\n"),
            ("Amém. Jo 3:17 — Ele veio salvar.", "Amém. Ele veio salvar."),
            # A citation that introduces a quotation keeps the verb and the colon.
            ("Leia João 3:17: Deus enviou o Filho.", "Leia: Deus enviou o Filho."),
            ("Como está escrito em Jo 3:17: Deus enviou o Filho.", "Como está escrito: Deus enviou o Filho."),
        ],
    )
    def test_removal_leaves_clean_text(self, text, expected):
        assert check(text) == expected

    @pytest.mark.parametrize(
        "citation",
        [
            "João 3:17",  # a verse outside the sources
            "João 3:16-18",  # a range only half inside them
            "João 3:16,17",
            "Jo 3.17",
            "1Co 13,5",
            "Salmos 23",  # a whole chapter of which only verse 1 is a source
            "Tobias 1:1",  # outside the 66-book canon
            "João 30:1",  # a chapter that does not exist
            "example/faq.json#p2-c0",  # a document chunk not retrieved
        ],
    )
    def test_unsupported_citations_are_removed_and_reported_as_written(self, citation):
        result = validate(f"Deus é fiel (João 3:16; {citation}).", ALLOWED, DOCS)
        assert result.text == "Deus é fiel (João 3:16)."
        assert result.removed == [citation]
        assert result.citations == ["João 3:16"]

    def test_removal_never_leaves_dangling_punctuation_or_spaces(self):
        text = (
            "Deus cuida (Jo 3:17; Tobias 1:1). Como diz Jo 3:17, Ele ama, conforme Jo 3:18. "
            "Veja (cf. Mt 5:5) e [Jo 3:19, Jo 3:20]; ore Jo 3:21, Jo 3:22 e Jo 3:23."
        )
        out = check(text)
        assert unsupported_in(out) == []
        for leftover in ("()", "[]", "(cf. )", "  ", " .", " ,", " ;", ",.", ", .", ",,", ";."):
            assert leftover not in out, (leftover, out)

    def test_text_glued_into_a_new_reference_by_a_removal_is_removed_too(self):
        # Removing `(Jo 3:17)` would glue `Jo` and `3:18` into a reference nobody cited.
        out = check("Leia Jo (Jo 3:17) 3:18 hoje.")
        assert unsupported_in(out) == []
        assert out.startswith("Leia Jo")

    def test_no_citation_left_gives_an_empty_list(self):
        result = validate("Deus cuida de nós (Jo 3:17).", ALLOWED, DOCS)
        assert result.citations == [] and result.removed == ["Jo 3:17"]

    def test_no_anchor_note_says_no_verse_was_cited_and_where_the_passages_are(self):
        assert "não citou um versículo" in NO_ANCHOR_NOTE and "listados abaixo" in NO_ANCHOR_NOTE


# -- streaming ---------------------------------------------------------------------------------------
EXAMPLES = (
    "Deus cuida de nós (João 3:16; Hezequias 3:16). Confie nele, como em Mt 5:3 e Jo 3:17.",
    "Leia João 3:17: Deus enviou o Filho. Em Jo 3:17, Jesus diz que veio salvar (cf. Tobias 1:1).",
    "O amor é paciente (1Co 13,4-7), e Jó 1:1 mostra integridade; veja estatuto.md#p0-c3 e "
    "example/faq.json#p2-c0. Primeira Coríntios 13:4 resume tudo.",
    "Deus cuida, como diz Jo 3:17.\n(Jo 3:17) Amém! Salmos 23 e Salmos 23:1; João 30:1, Jo 3.16.",
    "Versículos:\n- Jo 3:17: Ele veio salvar.\n- João 3:16 — Deus amou.\n- Tobias 1:1\n1. Mt 5:3\n",
)


class TestStreaming:
    @pytest.mark.parametrize("text", EXAMPLES)
    @pytest.mark.parametrize("sizes", [[1], [2], [3], [5], [8], [20], [10_000], [1, 7, 2, 13]])
    def test_emitted_text_equals_validate_for_any_chunking(self, text, sizes):
        pieces, _ = stream(text, sizes)
        assert "".join(pieces) == validate(text, ALLOWED, DOCS).text

    def test_a_supported_reference_is_never_shown_cut_short(self):
        validator = StreamingValidator(ALLOWED, DOCS)
        shown = validator.feed("Deus amou (João 3:1")
        shown += validator.feed("6")
        assert "3:1" not in shown  # `João 3:1` would be another verse
        shown += validator.feed(") e deu seu Filho.")
        shown += validator.finish()
        assert shown == "Deus amou (João 3:16) e deu seu Filho."

    def test_brackets_and_separators_wait_for_what_follows(self):
        validator = StreamingValidator(ALLOWED, DOCS)
        shown = validator.feed("Deus cuida (")
        assert shown == "Deus"  # `cuida` waits too (it could still be glued to what follows), and so does
        # the space before it: a removed citation takes the space before it with it
        shown += validator.feed("João 3:16;")
        shown += validator.feed(" Jo 3:17")
        assert shown == "Deus cuida ("  # `;` and even `João 3:16` wait for the list to close
        shown += validator.feed(").") + validator.finish()
        assert shown == "Deus cuida (João 3:16)."

    def test_plain_text_flows_with_a_small_lag(self):
        validator = StreamingValidator(ALLOWED, DOCS)
        shown = validator.feed("A paz de Deus guarda o coração de quem confia nele todos os dias, ")
        assert shown.startswith("A paz de Deus guarda o coração de quem confia nele todos os")
        assert validator.held <= 8  # `dias, ` waits: a citation may follow the comma

    @pytest.mark.parametrize(
        "text",
        [
            "João 3:16estatuto.md#p0-c3João 3:16",  # a repair that only holds while `João 3` is open
            "Jo 3.16estatuto.md#p0-c3João 3:16João 3:16",  # a cut that would end a document reference
            "João 3:16, 1111Co 13,4João 3:16",  # a numbered book never starts inside a number
            "Hezequias 3:16Hezequias 3:16 como dizHezequias 3:16",  # a cue before a glued name
        ],
    )
    def test_glued_text_never_shows_a_partial_that_is_retracted_or_unsupported(self, text):
        final, validator, shown = validate(text, ALLOWED, DOCS).text, StreamingValidator(ALLOWED, DOCS), ""
        for ch in text:
            shown += validator.feed(ch)
            assert final.startswith(shown) and unsupported_in(shown) == [], shown
        assert shown + validator.finish() == final

    def test_citations_and_removed_are_set_by_finish(self):
        _, validator = stream(EXAMPLES[0], [4])
        assert validator.citations == ["João 3:16", "Mateus 5:3"]
        assert validator.removed == ["Hezequias 3:16", "Jo 3:17"]


# -- properties ----------------------------------------------------------------------------------------
SUPPORTED = [
    "João 3:16",
    "Jo 3.16",
    "JOÃO 3:16",
    "1Co 13,4",
    "1 Coríntios 13:4",
    "Primeira Coríntios 13:4",
    "Mt 5:3",
    "Mateus 5:3-4",
    "Salmos 23:1",
    "Jó 1:1",
    "estatuto.md#p0-c3",
]
UNSUPPORTED = [
    "João 3:17",
    "Jo 3.17",
    "João 3:16-18",
    "Tobias 1:1",
    "João 30:1",
    "Sl 23",
    "1Co 13,5",
    "Hezequias 3:16",
    "Atos dos Apóstolos 2:1",
    "Sal 23:2",
    "example/faq.json#p2-c0",
]
# Fragments that look like the start of a reference, to trip the hold-back.
TRICKY = [
    "Jo",
    "Os",
    "1",
    "3",
    "6",
    "17",
    "3:16",
    "João",
    "ão",
    "Primeira",
    "Cântico dos",
    "e",
    "em",
    "como",
    "diz",
    "Leia",
    "cf.",
    "capítulo",
    "v.",
    "vers",
    "-",
    "ou",
    "/",
    "estatuto",
    ".md",
    "#p0-c3",
    "Domingo",
    "às 19:30",
    "Deus",
    "cuida",
    "de",
    "nós",
    "amor",
    "(",
    ")",
    "[",
    "]",
    ",",
    ".",
    ";",
    ":",
    "!",
    "\n",
    "como diz",
    "de acordo com",
    "conforme",
    "Em",
    "Apocalipse 21 4",
]

chaotic_texts = st.lists(
    st.tuples(st.sampled_from(SUPPORTED + UNSUPPORTED + TRICKY), st.sampled_from(["", " ", " ", ", ", "\n"])),
    max_size=40,
).map(lambda parts: "".join(p + s for p, s in parts))
chunkings = st.lists(st.integers(1, 25), min_size=1, max_size=40)

WORDS = ["Deus", "cuida", "de", "nós", "o", "amor", "é", "paciente", "confie", "nele", "sempre", "a", "paz"]
words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
items = st.lists(st.sampled_from(SUPPORTED + UNSUPPORTED), min_size=1, max_size=4)
separated = st.tuples(items, st.sampled_from(["; ", ", ", " e ", ", e "])).map(lambda t: t[1].join(t[0]))


@st.composite
def sentence(draw) -> str:
    form = draw(st.integers(0, 8))
    listed, before, after = draw(separated), draw(words), draw(words)
    return [
        f"{before} ({listed}) {after}.",
        f"{before}, como diz {listed}.",
        f"Em {listed}, {after}.",
        f"{listed} diz que {after}.",
        f"Leia {draw(st.sampled_from(SUPPORTED + UNSUPPORTED))}: {after}.",
        f"{before} {listed} {after}.",
        f"{before}, {listed}, {after}!",
        f"\n- {listed}: {after}.\n",
        f"{listed} — {after}.",
    ][form]


realistic_texts = st.lists(sentence(), min_size=1, max_size=5).map(" ".join)
PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))


class TestProperties:
    @PROPERTY
    @given(chaotic_texts, chunkings)
    def test_no_unsupported_reference_is_ever_emitted(self, text, sizes):
        validator, shown, pos, index = StreamingValidator(ALLOWED, DOCS), "", 0, 0
        final = validate(text, ALLOWED, DOCS).text
        while pos < len(text):
            size = sizes[index % len(sizes)]
            shown += validator.feed(text[pos : pos + size])
            pos, index = pos + size, index + 1
            # After every chunk: nothing unsupported on screen, and nothing that must be retracted.
            assert unsupported_in(shown) == [], (text, shown)
            assert final.startswith(shown), (text, shown)
        assert shown + validator.finish() == final
        assert unsupported_in(final) == []

    @PROPERTY
    @given(realistic_texts, chunkings)
    def test_every_supported_citation_is_kept_and_the_text_stays_clean(self, text, sizes):
        pieces, validator = stream(text, sizes)
        out = "".join(pieces)
        assert out == validate(text, ALLOWED, DOCS).text
        assert unsupported_in(out) == []
        kept = Counter(m.text for m in find_references(out))
        for match in find_references(text):
            if not unsupported_in(match.text):
                assert match.reference.format() in validator.citations, (text, out)
                assert kept[match.text] > 0, (text, out)
                kept[match.text] -= 1
        assert not re.search(r"  | [.,;:!?)\]]|\(\)|\[\]|[,;:][.,;!?)]|^\s*[-—]\s*$", out, re.M), (text, out)

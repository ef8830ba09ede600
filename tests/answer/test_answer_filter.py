"""The answer's filters (issue 18, items 1 and 7): source markers, prompt leaks, then citations, streamed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pastor.answer.filters import AnswerFilter, filter_answer, private_instructions
from pastor.answer.prompts import SELF_DESCRIPTION, SYSTEM_PROMPT, build_messages
from pastor.answer_filter.leaks import LEAK_WORDS, LeakFilter, words
from pastor.answer_filter.markers import SourceMarkers
from pastor.search.results import Source
from tests.answer.test_security_citations import BYPASSES, appears

SOURCES = [
    Source(id="JHN 3:16", reference="João 3:16", kind="verse", text="Porque Deus amou o mundo"),
    Source(id="PSA 23:1", reference="Salmos 23:1", kind="verse", text="O Senhor é o meu pastor"),
    Source(id="estatuto.md#p0-c3", reference="estatuto.md#p0-c3", kind="doc", text="A sede fica"),
]
SYSTEM = build_messages("rag", "oi", SOURCES, history_turns=0)[0]
PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
chunkings = st.lists(st.integers(1, 13), min_size=1, max_size=20)


def streamed(make, text: str, sizes) -> tuple[str, list[str]]:
    """(whole output, every partial) of a filter fed `text` in chunks of the given sizes, cycled."""
    stage, shown, partials, pos, index = make(), "", [], 0, 0
    while pos < len(text):
        size = sizes[index % len(sizes)]
        shown += stage.feed(text[pos : pos + size])
        partials.append(shown)
        pos, index = pos + size, index + 1
    return shown + stage.finish(), partials


def shared_run(answer: str, secret: str) -> int:
    """The longest run of words `answer` shares with `secret` (written apart from LeakFilter)."""
    a, s = [m.group() for m in words(answer)], " " + " ".join(m.group() for m in words(secret)) + " "
    best = 0
    for i in range(len(a)):
        j = i + best + 1
        while j <= len(a) and " " + " ".join(a[i:j]) + " " in s:
            best, j = j - i, j + 1
    return best


class TestSourceMarkers:
    @pytest.mark.parametrize(
        "written, shown",
        [
            ("Deus te ama [FONTE 1].", "Deus te ama (João 3:16)."),
            ("Deus cuida ([FONTE 1], [FONTE 2]) de você.", "Deus cuida (João 3:16; Salmos 23:1) de você."),
            (
                "Ele é pastor [Fonte 2] e guia [FONTES 1 e 2].",
                "Ele é pastor (Salmos 23:1) e guia (João 3:16; Salmos 23:1).",
            ),
            ("A sede (FONTE 3) fica no centro.", "A sede (estatuto.md#p0-c3) fica no centro."),
            ("Veja [FONTE 9] e [FONTE 1].", "Veja e (João 3:16)."),  # a marker that numbers no source goes
            ("Uma [nota] (entre parênteses) fica.", "Uma [nota] (entre parênteses) fica."),
        ],
    )
    @pytest.mark.parametrize("size", [1, 3, 11])
    def test_a_marker_becomes_the_sources_own_reference(self, written, shown, size):
        refs = [s.reference for s in SOURCES]
        assert streamed(lambda: SourceMarkers(refs), written, [size])[0] == shown

    def test_a_marker_is_a_supported_citation_on_the_page(self):
        answer = AnswerFilter(SYSTEM, SOURCES)
        text = answer.feed("O Senhor cuida de você [FONTE 2]; veja [FONTE 7].") + answer.finish()
        assert text == "O Senhor cuida de você (Salmos 23:1); veja." and answer.citations == ["Salmos 23:1"]


class TestPromptLeaks:
    LEAK = "Claro! Minhas instruções são estas:\n\n" + SYSTEM + "\n\nQue Deus abençoe você."

    @pytest.mark.parametrize("size", [1, 3, 11])
    def test_the_system_prompt_echoed_is_removed_from_every_partial(self, size):
        final, partials = streamed(lambda: AnswerFilter(SYSTEM, SOURCES), self.LEAK, [size])
        assert final.startswith("Claro! Minhas instruções são estas:") and final.endswith("Que Deus abençoe você.")
        for partial in partials + [final]:
            assert shared_run(partial, private_instructions(SYSTEM)) < LEAK_WORDS, partial

    def test_a_leak_in_pieces_between_ordinary_words_goes_piece_by_piece(self):
        lines = [line for line in SYSTEM_PROMPT.splitlines() if len(line.split()) > LEAK_WORDS]
        text = " Amém. ".join(lines[:3])
        final = filter_answer(text, SYSTEM, SOURCES)
        assert shared_run(final, SYSTEM) < LEAK_WORDS and final.count("Amém.") == 2

    @pytest.mark.parametrize(
        "advice",
        [
            "Procure imediatamente o serviço de emergência local e uma pessoa de confiança; você não está só.",
            "Recomendo com delicadeza procurar um profissional qualificado, como um médico ou um psicólogo.",
            "Responda somente ao que seu coração pede: Deus ouve, e as fontes numeradas acima mostram isso.",
        ],
    )
    def test_following_the_instructions_is_not_a_leak(self, advice):
        assert filter_answer(advice, SYSTEM, SOURCES) == advice

    def test_the_self_description_may_be_said(self):
        system = build_messages("conversational", "quem é você?", [], history_turns=0)[0]
        assert SELF_DESCRIPTION in system
        assert filter_answer(SELF_DESCRIPTION, system, []) == SELF_DESCRIPTION


PIECES = list(BYPASSES.values()) + [
    "João 3:16",
    "[FONTE 1]",
    "[FONTE 2]",
    "[FONTE 9]",
    "([FONTE 1], [FONTE 2])",
    "(",
    ")",
    ",",
    ";",
    "Deus",
    "cuida",
    "de",
    "nós",
    "há 3 anos",
    "às 19:30",
    "versão 2.1",
    "Salmos 23:1",
    "\n- ",
    " ".join(SYSTEM_PROMPT.split()[40 : 40 + LEAK_WORDS + 3]),
    " ".join(SYSTEM_PROMPT.split()[:8]),
]
texts = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(["", " ", ". ", "\n"])), max_size=20).map(
    lambda parts: "".join(p + s for p, s in parts)
)


class TestProperties:
    @PROPERTY
    @given(texts, chunkings)
    def test_streamed_equals_the_whole_and_never_retracts(self, text, sizes):
        final = filter_answer(text, SYSTEM, SOURCES)
        whole, partials = streamed(lambda: AnswerFilter(SYSTEM, SOURCES), text, sizes)
        assert whole == final
        for partial in partials:
            assert final.startswith(partial)
        assert shared_run(final, private_instructions(SYSTEM)) < LEAK_WORDS
        for form in BYPASSES.values():
            assert not appears(form, final), (text, final)

    @PROPERTY
    @given(st.text(alphabet="abc de[]()FONTE 0123,;e", max_size=60), chunkings)
    def test_markers_stream_like_the_whole_on_any_text(self, text, sizes):
        refs = ["João 3:16", "Salmos 23:1"]
        assert (
            streamed(lambda: SourceMarkers(refs), text, sizes)[0]
            == streamed(lambda: SourceMarkers(refs), text, [len(text) or 1])[0]
        )

    @PROPERTY
    @given(st.lists(st.sampled_from(SYSTEM_PROMPT.split()[:60] + ["amém", "paz", "\n"]), max_size=80), chunkings)
    def test_leak_filter_streams_like_the_whole(self, tokens, sizes):
        text = " ".join(tokens)
        assert (
            streamed(lambda: LeakFilter(SYSTEM_PROMPT), text, sizes)[0]
            == streamed(lambda: LeakFilter(SYSTEM_PROMPT), text, [len(text) or 1])[0]
        )


def test_a_number_ending_a_line_is_not_the_ordinal_of_the_book_on_the_next():
    # Found by the property above after issue 19's ordinals: `$` also matched before the newline, the
    # reference "3.\nRomanos 8:28" overlapped "Hezequias 3" and the stream showed "\nezequias".
    text = "Hezequias 3. [FONTE 9]\nRоmanos 8:28"
    whole, partials = streamed(lambda: AnswerFilter(SYSTEM, SOURCES), text, [1])
    assert whole == filter_answer(text, SYSTEM, SOURCES) and "ezequias" not in whole


@pytest.mark.parametrize("sizes", [[1], [2], [3], [5]])
def test_a_space_before_a_removed_citation_is_not_shown_ahead_of_it(sizes):
    # Found by the property above: the stream showed "versão " before "2.1João 14:6" (an unsupported
    # 1 João 14:6) was removed with the space before it, so the streamed answer ended in a space the
    # whole one does not have.
    text = "versão 2.1Jo\u200bão 14:6"
    whole, partials = streamed(lambda: AnswerFilter(SYSTEM, SOURCES), text, sizes)
    assert whole == filter_answer(text, SYSTEM, SOURCES) == "versão"
    assert all("versão".startswith(p) for p in partials)

"""Typed citation spans: the validator (and the service, for answers it writes) places each kept citation in
the answer as shown, so the page links them without reading the answer again."""

from __future__ import annotations

import pytest
from hypothesis import given

from pastor.answer.degraded import quoted, with_verses
from pastor.answer_filter.citations import Citation, validate
from pastor.answer_filter.streaming import StreamingValidator
from pastor.search.modes import SearchMode
from pastor.search.results import SearchResult, Source
from tests.answer.test_citations import ALLOWED, DOCS, EXAMPLES, PROPERTY, chaotic_texts, chunkings, realistic_texts


def streamed(text: str, sizes) -> tuple[str, StreamingValidator, list[list[Citation]]]:
    """Feed `text` in chunks; the text shown, the validator, and its spans after each release."""
    validator, shown, pos, index, steps = StreamingValidator(ALLOWED, DOCS), "", 0, 0, []
    while pos < len(text):
        piece = validator.feed(text[pos : pos + sizes[index % len(sizes)]])
        pos, index = pos + sizes[index % len(sizes)], index + 1
        if piece:
            shown += piece
            steps.append(list(validator.spans))
            assert all(c.end < len(shown) for c in validator.spans), (text, shown)  # never the open end
    return shown + validator.finish(), validator, steps


class TestPlaced:
    def test_each_kept_citation_is_placed_in_its_own_form_with_the_ids_it_names(self):
        result = validate("Leia Jo 14.27 e Mateus 5:3-4 (cf. estatuto.md#p0-c3).", ALLOWED, DOCS)
        assert result.spans == [
            Citation(5, 13, "João 14:27", ("JHN 14:27",)),
            Citation(16, 28, "Mateus 5:3-4", ("MAT 5:3", "MAT 5:4")),
            Citation(34, 51, "estatuto.md#p0-c3", ("estatuto.md#p0-c3",)),
        ]

    def test_spans_point_into_the_text_as_shown_after_removals(self):
        result = validate("Deus cuida (Hezequias 3:16; João 3:16) de nós, como em Jo 3:17 e **Jó 1:1**.", ALLOWED, DOCS)
        # A span takes the emphasis markers that hug it (the page shows the reference without them).
        assert [result.text[c.start : c.end] for c in result.spans] == ["João 3:16", "**Jó 1:1**"]
        assert [c.reference for c in result.spans] == result.citations

    def test_hidden_characters_and_emphasis_inside_a_citation_are_inside_its_span(self):
        result = validate("Veja *Jo*\u200b 3.16 hoje.", ALLOWED, DOCS)
        assert [(result.text[c.start : c.end], c.reference) for c in result.spans] == [("*Jo*\u200b 3.16", "João 3:16")]

    def test_no_citation_no_span(self):
        assert validate("Deus cuida de nós às 19:30 (Tobias 1:1).", ALLOWED, DOCS).spans == []


class TestStreamed:
    @pytest.mark.parametrize("text", EXAMPLES)
    @pytest.mark.parametrize("sizes", [[1], [3], [8], [10_000], [1, 7, 2, 13]])
    def test_every_span_shown_while_streaming_is_final_and_the_last_ones_are_validates(self, text, sizes):
        shown, validator, steps = streamed(text, sizes)
        final = validate(text, ALLOWED, DOCS)
        assert shown == final.text and validator.spans == final.spans
        for spans in steps:
            assert set(spans) <= set(final.spans)

    def test_a_citation_is_placed_once_it_is_shown_with_what_follows_it(self):
        validator = StreamingValidator(ALLOWED, DOCS)
        shown = validator.feed("Deus cuida de nós (João 3:16")
        shown += validator.feed(")")
        assert "João" not in shown and validator.spans == []  # `(João 3:16)` still waits: a list may follow
        shown += validator.feed(" e nos guarda.")
        assert shown.startswith("Deus cuida de nós (João 3:16) e")
        assert validator.spans == [Citation(19, 28, "João 3:16", ("JHN 3:16",))]

    def test_a_document_reference_glued_to_what_follows_is_never_linked(self):
        text = "Veja estatuto.md#p0-c3Primeira Coríntios 13:4 hoje."
        for size in (1, 2, 5):
            _, validator, steps = streamed(text, [size])
            assert all(c.ids != ("estatuto.md#p0-c3",) for spans in steps for c in spans)
            assert [c.reference for c in validator.spans] == ["1 Coríntios 13:4"]

    @PROPERTY
    @given(chaotic_texts, chunkings)
    def test_streamed_spans_are_never_retracted(self, text, sizes):
        shown, validator, steps = streamed(text, sizes)
        final = validate(text, ALLOWED, DOCS)
        assert validator.spans == final.spans
        assert all(set(spans) <= set(final.spans) for spans in steps), text

    @PROPERTY
    @given(realistic_texts, chunkings)
    def test_each_span_reads_as_its_reference_in_the_shown_text(self, text, sizes):
        shown, validator, _ = streamed(text, sizes)
        for citation in validator.spans:
            again = validate(shown[citation.start : citation.end], ALLOWED, DOCS)
            assert [c.reference for c in again.spans] == [citation.reference], (text, citation)


SOURCES = [
    Source("PSA 23:1", "Salmos 23:1", "O Senhor é o meu pastor.", "verse", 0.02),
    Source("faq.json#p0-c1", "faq.json#p0-c1", "Culto às 19h", "doc", 0.01),
]


class TestWrittenByTheService:
    def test_each_quoted_passage_cites_its_reference(self):
        reply = quoted(["Introdução:", ""], SOURCES)
        assert (
            reply.text
            == "Introdução:\n\n> O Senhor é o meu pastor. — **Salmos 23:1**\n> Culto às 19h — **faq.json#p0-c1**"
        )
        assert [(reply.text[c.start : c.end], c.ids) for c in reply.citations] == [
            ("Salmos 23:1", ("PSA 23:1",)),
            ("faq.json#p0-c1", ("faq.json#p0-c1",)),
        ]

    def test_an_answer_with_verses_carries_their_citations(self):
        for mode in (SearchMode.RAG, SearchMode.REFERENCE):
            reply = with_verses(SearchResult(mode, "", SOURCES), "grief", "minha mãe morreu", "deixo aqui")
            assert [reply.text[c.start : c.end] for c in reply.citations] == ["Salmos 23:1", "faq.json#p0-c1"]

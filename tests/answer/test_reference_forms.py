"""The forms of issue 19 in chat: retrieval reads them as the book written, and the citation validator
(whole and streamed) checks a model's `1. João 4:8` against 1 João 4:8, never João 4:8."""

from __future__ import annotations

import pytest

from pastor.answer.turn_modes import Mode
from pastor.answer_filter.citations import validate
from pastor.answer_filter.streaming import StreamingValidator
from tests.support.helpers import retriever_over


def streamed(text: str, allowed: set[str], size: int) -> str:
    validator = StreamingValidator(allowed)
    shown = "".join(validator.feed(text[i : i + size]) for i in range(0, len(text), size))
    return shown + validator.finish()


@pytest.fixture(scope="module")
def retriever(almeida):
    return retriever_over(almeida, embedder=None, index=None, lexical=None)


class TestChat:
    @pytest.mark.parametrize(
        "question,ids",
        [
            ("o que diz 1. João 4:8?", ["1JN 4:8"]),
            ("primeira de João 4 8", ["1JN 4:8"]),
            ("me explica a segunda carta aos Coríntios 5:17", ["2CO 5:17"]),
            ("Apocalipse de João 21:4", ["REV 21:4"]),
            ("I. João 1:9 e II. Reis 2:11", ["1JN 1:9", "2KI 2:11"]),
            ("Sl 22(23), 1", ["PSA 23:1"]),
        ],
    )
    def test_the_book_written_is_the_book_read(self, retriever, question, ids):
        result = retriever.search(question)
        assert result.mode == Mode.REFERENCE
        assert [hit.id for hit in result.results] == ids

    @pytest.mark.parametrize(
        "question,reason",
        [
            ("o que diz 2 Esdras 1:1?", "2 Esdras não faz parte"),
            ("3 Mc 1:1", "3 Macabeus não faz parte"),
            ("Carta de Jeremias 1:1", "Carta de Jeremias não faz parte"),
            ("leia 4 João 3:16", "4 João: livro não reconhecido"),
        ],
    )
    def test_refused_with_the_reason(self, retriever, question, reason):
        result = retriever.search(question)
        assert result.mode == Mode.NO_EVIDENCE and result.results == ()
        assert result.reason.startswith(reason)


class TestValidator:
    TEXT = "Deus é amor, como diz 1. João 4:8."

    @pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
    def test_1_joao_4_8_is_checked_against_1_joao(self, size):
        assert validate(self.TEXT, {"1JN 4:8"}).text == self.TEXT
        assert validate(self.TEXT, {"1JN 4:8"}).citations == ["1 João 4:8"]
        assert "1. João 4:8" not in validate(self.TEXT, {"JHN 4:8"}).text
        assert streamed(self.TEXT, {"1JN 4:8"}, size) == self.TEXT
        assert "João 4:8" not in streamed(self.TEXT, {"JHN 4:8"}, size)

    @pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
    @pytest.mark.parametrize("citation", ["4 João 3:16", "5ª João 3:16", "3 Mc 1:1", "Carta de Jeremias 3:16"])
    def test_a_book_that_is_not_john_never_passes_as_john(self, citation, size):
        text = f"Lemos em {citation} que Deus ama."
        assert "3:16" not in validate(text, {"JHN 3:16"}).text and "1:1" not in validate(text, {"JHN 3:16"}).text
        shown = streamed(text, {"JHN 3:16"}, size)
        assert "3:16" not in shown and "1:1" not in shown

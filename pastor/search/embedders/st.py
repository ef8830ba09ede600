"""Any sentence-transformers model, by hub id or local folder, on the CPU."""

from __future__ import annotations

import numpy as np

from pastor.search.embedders.embedder import Embedder, EmbedderError


class SentenceTransformerEmbedder(Embedder):
    """`name` is exactly the id or path given; a model that cannot load raises EmbedderError."""

    def __init__(self, name_or_path: str):
        try:
            self._model = _load(name_or_path)
        except Exception as exc:  # never fall back to another model: the caller must know
            raise EmbedderError(
                f"Não foi possível carregar o modelo de embeddings '{name_or_path}' "
                "(sentence-transformers). Use o caminho de uma pasta local com o modelo ou "
                "um id do Hugging Face já presente no cache (o download pode estar bloqueado "
                f"nesta máquina). Detalhe: {type(exc).__name__}: {exc}"
            ) from exc
        self.name = name_or_path
        dimension = (
            getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        )  # renamed in sentence-transformers 5
        self.dim = int(dimension())

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(
            texts, batch_size=len(texts), convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
        )


def _load(name_or_path: str):
    """Local files first: with no network, a hub lookup retries for over a minute before failing."""
    import os

    from sentence_transformers import SentenceTransformer

    try:
        return SentenceTransformer(name_or_path, device="cpu", local_files_only=True)
    except Exception:
        if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}:
            raise
    return SentenceTransformer(name_or_path, device="cpu")  # not cached: try the hub

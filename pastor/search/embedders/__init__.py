"""Sentence embedders behind one interface, chosen by name."""

from __future__ import annotations

from pastor.search.embedders.embedder import Embedder, EmbedderError
from pastor.search.embedders.st import SentenceTransformerEmbedder  # its library loads on first use
from pastor.search.embedders.use import USEEmbedder  # idem

USE_NAME = "use-multilingual"


def load_embedder(name: str) -> Embedder:
    """`use-multilingual` → USE v3 (numpy); anything else → a sentence-transformers model."""
    name = (name or "").strip()
    if not name:
        raise EmbedderError("Nenhum modelo de embeddings configurado (EMBEDDING_MODEL vazio).")
    if name == USE_NAME:
        return USEEmbedder()
    return SentenceTransformerEmbedder(name)


__all__ = ["Embedder", "EmbedderError", "USE_NAME", "load_embedder"]

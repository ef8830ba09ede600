"""Tests for pastor.search.sources: the shared in-memory vector table and the source protocols."""

from __future__ import annotations

import numpy as np

from pastor.index.doc_index import DocumentSource
from pastor.index.verse_index import VerseIndex
from pastor.search.bm25 import LexicalIndex
from pastor.search.sources import LexicalSource, VectorSource, VectorTable


def table() -> VectorTable:
    # Two rows for A (two translations), one for B.
    matrix = np.array([[1, 0], [0.6, 0.8], [0, 1]], dtype=np.float32)
    return VectorTable(["A", "A", "B"], matrix)


def test_distinct_ids_best_row_wins():
    assert table().copies == 2
    assert table().vector_search(np.array([0, 1], dtype=np.float32), 2) == [("B", 1.0), ("A", 0.800000011920929)]


def test_scores_for_given_ids():
    scores = table().scores_for(["A", "B", "missing"], np.array([0, 1], dtype=np.float32))
    assert set(scores) == {"A", "B"} and scores["A"] == np.float32(0.8)
    assert VectorTable().scores_for(["A"], np.array([0, 1], dtype=np.float32)) == {}


def test_empty_table_is_not_ready():
    assert not VectorTable().ready and VectorTable().vector_search(np.ones(2), 3) == []


def test_verse_and_document_sources_share_the_protocols(tmp_path, mini_bible):
    from tests.support.core_fixtures import HashEmbedder, settings_for

    embedder = HashEmbedder()
    assert isinstance(VerseIndex(tmp_path, embedder), VectorSource)
    assert isinstance(DocumentSource(settings_for(tmp_path), embedder).index, VectorSource)
    assert isinstance(LexicalIndex(["GEN 1:1"], ["No princípio"]), LexicalSource)

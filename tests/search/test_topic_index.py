"""Tests for pastor.search.topic_index: topic matching, verse weights, the cache, and the retriever's third list."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from pastor.bible.topical_bibles import Entry, Reference
from pastor.index.verse_index import VerseIndex
from pastor.search.bm25 import LexicalIndex
from pastor.search.topic_index import Sparse, TopicIndex, entry_weights, read_names, rerank_by_cosine
from pastor.text.stemmer import get_stemmer
from pastor.web.schemas import hit_json
from tests.support.core_fixtures import HashEmbedder
from tests.support.helpers import retriever_over

NAVE = [
    {"section": "F", "subject": "FORGIVENESS", "entry": "-OF ENEMIES MAT 6:14; EPH 4:32; COL 3:13; MAT 18:21-22"},
    {"section": "C", "subject": "CARE", "entry": "-Worldly MAT 6:34; PHP 4:6; 1PE 5:7"},
    {"section": "S", "subject": "SORROW", "entry": "-Comfort in MAT 5:4; 2CO 1:3; PSA 34:18; REV 21:4"},
]
TORREY = {"names": {"TOR1": "Fear, Unholy"}, "topics": {"TOR1": ["ISA 41:10", "PSA 23:4"]}}
NAMES = "# comentário\nperdão, perdoar\tNAV:FORGIVENESS/\nansiedade, preocupação\tNAV:CARE/|TOR:Fear\n"


@pytest.fixture
def files(tmp_path):
    nave, torrey, names = tmp_path / "nave.csv", tmp_path / "torrey.json", tmp_path / "names.tsv"
    with open(nave, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["section", "subject", "entry"])
        writer.writeheader()
        writer.writerows(NAVE)
    torrey.write_text(json.dumps(TORREY), encoding="utf-8")
    names.write_text(NAMES, encoding="utf-8")
    return {"nave": nave, "torrey": torrey, "names": names}


def topic_index(tmp_path, files, embedder=None, **options) -> TopicIndex:
    return TopicIndex(tmp_path / "data", embedder or HashEmbedder(), stem=get_stemmer("rslp").stem, **files, **options)


@pytest.fixture
def built(tmp_path, files, mini_bible):
    topics = topic_index(tmp_path, files)
    topics.build(mini_bible)
    return topics


def search(topics, question: str, n: int = 10) -> list[str]:
    return [v for v, _ in topics.search(topics.embedder.encode([question])[0], question, n)]


class TestSearch:
    def test_labels_and_names_are_rows(self, built):
        assert built.labels == [
            "Forgiveness — OF ENEMIES",
            "Care — Worldly",
            "Sorrow — Comfort in",
            "Fear, Unholy",
            "perdão, perdoar",
            "ansiedade, preocupação",
        ]

    def test_a_question_brings_the_verses_of_its_topic(self, built):
        assert set(search(built, "ansiedade", 3)) <= {"MAT 6:34", "PHP 4:6", "1PE 5:7", "ISA 41:10", "PSA 23:4"}
        assert set(search(built, "sorrow comfort", 4)) == {"MAT 5:4", "2CO 1:3", "PSA 34:18", "REV 21:4"}

    def test_a_portuguese_name_in_the_question_lifts_its_topic(self, tmp_path, files, mini_bible):
        question = "não consigo perdoar meu irmão"
        with_bonus = topic_index(tmp_path / "a", files, name_bonus=1.0)
        with_bonus.build(mini_bible)
        assert set(search(with_bonus, question, 4)) <= {"MAT 6:14", "EPH 4:32", "COL 3:13", "MAT 18:21", "MAT 18:22"}
        sims = with_bonus.entry_scores(with_bonus.embedder.encode([question])[0], question)
        plain = topic_index(tmp_path / "b", files, name_bonus=0.0)
        plain.build(mini_bible)
        assert sims[4] == pytest.approx(plain.entry_scores(plain.embedder.encode([question])[0], question)[4] + 1.0)

    def test_nothing_when_empty(self, tmp_path, files):
        assert topic_index(tmp_path, files).search(np.ones(64, dtype=np.float32), "medo", 5) == []


class TestCache:
    def test_a_restart_reads_the_cache_without_embedding(self, built, tmp_path, files, mini_bible):
        embedder = HashEmbedder()
        again = topic_index(tmp_path, files, embedder)
        assert again.open(mini_bible) and again.ready
        assert embedder.calls == 0
        assert again.labels == built.labels
        assert search(again, "ansiedade") == search(built, "ansiedade")

    def test_changed_names_or_embedder_rebuild(self, built, tmp_path, files, mini_bible):
        files["names"].write_text(NAMES + "medo\tTOR:Fear\n", encoding="utf-8")
        assert not topic_index(tmp_path, files).open(mini_bible)
        assert not topic_index(tmp_path, {**files, "names": None}, HashEmbedder(name="other")).open(mini_bible)


class TestWeights:
    def test_ranges_and_chapters_weigh_less_and_long_entries_spread(self):
        entry = Entry("k", "label", [Reference(["A 1:1"]), Reference(["A 2:1", "A 2:2", "A 2:3", "A 2:4"])])
        index = {"A 1:1": 0, "A 2:1": 1, "A 2:2": 2, "A 2:3": 3, "A 2:4": 4}
        weights = entry_weights(entry, index)
        assert weights[0] == pytest.approx(1 / np.sqrt(2))
        assert weights[1] == pytest.approx(0.25 / np.sqrt(2))

    def test_sparse_rows_combine_like_dense_ones(self):
        rows = [{0: 1.0, 3: 0.5}, {1: 2.0}, {0: 0.25, 1: 1.0}]
        sparse = Sparse.from_rows(rows)
        dense = np.zeros((3, 4), dtype=np.float32)
        for r, row in enumerate(rows):
            for c, w in row.items():
                dense[r, c] = w
        factors = np.array([0.5, 2.0], dtype=np.float32)
        assert np.allclose(sparse.combine(np.array([0, 2]), factors, 4), factors @ dense[[0, 2]])

    def test_read_names_skips_comments_and_bad_lines(self, tmp_path):
        path = tmp_path / "n.tsv"
        path.write_text("# x\nmedo, pavor\tTOR:Fear | NAV:COURAGE/\nsem tabulação\n", encoding="utf-8")
        assert read_names(path) == [(["medo", "pavor"], ["TOR:Fear", "NAV:COURAGE/"])]
        assert read_names(None) == []


def test_rerank_by_cosine_lifts_what_matches_the_question():
    ranked = [("A", 3.0), ("B", 2.0), ("C", 1.0)]
    assert [i for i, _ in rerank_by_cosine(ranked, {"A": 0.1, "B": 0.2, "C": 0.9}, weight=2.0)][0] == "C"
    assert [i for i, _ in rerank_by_cosine(ranked, {"A": 0.1, "B": 0.2, "C": 0.9}, weight=0.0)] == ["A", "B", "C"]


class TestRetrieverTopicList:
    @pytest.fixture
    def retriever(self, built, tmp_path, mini_bible):
        index = VerseIndex(tmp_path / "data", built.embedder, batch_size=16)
        index.build(mini_bible)
        lexical = LexicalIndex([v.id for v in mini_bible.verses], [v.text for v in mini_bible.verses])
        return retriever_over(
            mini_bible, embedder=built.embedder, index=index, lexical=lexical, topics=built, topic_weight=1.0
        )

    def test_the_topic_list_is_fused_and_reported(self, retriever):
        hits = retriever.search("sorrow comfort", k=25, gated=False).results
        ranked = {h.id for h in hits if h.rank_in("topic") is not None}
        assert {"MAT 5:4", "2CO 1:3", "PSA 34:18", "REV 21:4"} <= ranked
        assert "GEN 1:1" not in ranked  # filed under no topic
        assert all(hit_json(h)["topic_rank"] == h.rank_in("topic") for h in hits)

    def test_it_can_be_switched_off(self, retriever):
        hits = retriever.search("sorrow comfort", k=10, gated=False, off={"topic"}).results
        assert all(h.rank_in("topic") is None for h in hits)
        retriever.signal("topic").weight = 0.0
        assert all(h.rank_in("topic") is None for h in retriever.search("sorrow comfort", gated=False).results)

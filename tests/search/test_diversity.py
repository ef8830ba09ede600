"""Tests for pastor.search.diversity: at most n sources of one chapter, unless a passage is asked for."""

from __future__ import annotations

from pastor.search.diversity import chapter_of, spread_chapters, wants_passage
from pastor.search.results import Source as Hit


def ids(hits) -> list[str]:
    return [h.id for h in hits]


def hits(*names: str) -> list[Hit]:
    return [Hit(name) for name in names]


class TestSpread:
    def test_a_third_verse_of_a_chapter_waits_behind_other_chapters(self):
        ranked = hits("PSA 23:1", "PSA 23:2", "PSA 23:3", "PSA 23:4", "JHN 14:1", "MAT 11:28")
        assert ids(spread_chapters(ranked, 4, 2)) == [
            "PSA 23:1",
            "PSA 23:2",
            "JHN 14:1",
            "MAT 11:28",
            "PSA 23:3",
            "PSA 23:4",
        ]

    def test_nothing_is_dropped_and_short_lists_are_filled(self):
        ranked = hits("PSA 23:1", "PSA 23:2", "PSA 23:3")
        assert ids(spread_chapters(ranked, 3, 1)) == ["PSA 23:1", "PSA 23:2", "PSA 23:3"]

    def test_documents_have_no_chapter(self):
        assert chapter_of("estatuto.md#p0-c1") is None
        assert chapter_of("1CO 13:4") == "1CO 13"
        ranked = hits("a.md#p0-c0", "a.md#p0-c1", "a.md#p0-c2")
        assert ids(spread_chapters(ranked, 3, 1)) == ids(ranked)


def test_passage_requests():
    assert wants_passage("me explica o capítulo 13 de 1 Coríntios")
    assert wants_passage("qual a história de José do Egito?")
    assert not wants_passage("estou com medo do futuro")

"""Tests for pastor.search.xref: deriving the links table and expanding the top hits with it."""

from __future__ import annotations

import gzip

import pytest

from pastor.search.fusion import Hit
from pastor.search.xref import CrossReferences, derive_links, load_links

RAW = ("From Verse\tTo Verse\tVotes\t#www.openbible.info CC-BY\n"
       "Phil.4.6\t1Pet.5.7\t369\n"
       "Phil.4.6\tMatt.6.25-Matt.6.34\t328\n"
       "Phil.4.6\tPs.55.22\t5\n"       # below the vote threshold
       "Phil.4.6\tPhil.4.6\t50\n"      # a self-link
       "Matt.11.28\tMatt.11.29\t211\n")


@pytest.fixture
def links(tmp_path):
    raw = tmp_path / "cross_references.txt.gz"
    with gzip.open(raw, "wt", encoding="utf-8") as handle:
        handle.write(RAW)
    summary = derive_links(raw, tmp_path / "links.tsv.gz", min_votes=10, per_verse=5)
    assert summary["links"] == 3 and summary["verses"] == 2
    return load_links(tmp_path / "links.tsv.gz")


def test_derived_links_strongest_first_ranges_to_their_first_verse(links):
    assert links.links["PHP 4:6"] == [("1PE 5:7", 369), ("MAT 6:25", 328)]
    assert links.links["MAT 11:28"] == [("MAT 11:29", 211)]


def test_expansion_adds_damped_linked_verses(links):
    fused = [Hit("PHP 4:6", score=0.02), Hit("1PE 5:7", score=0.01)]
    expanded = {h.id: h for h in links.expand(fused, weight=1.0, k=60)}
    assert expanded["MAT 6:25"].xref_rank == 1  # 1PE 5:7 is already a seed: not counted again
    assert expanded["MAT 6:25"].score == pytest.approx(1 / 61)
    assert expanded["PHP 4:6"].xref_rank is None


def test_a_bad_file_names_the_line(tmp_path):
    path = tmp_path / "links.tsv"
    path.write_text("verse\ttarget\tvotes\nPHP 4:6\t1PE 5:7\n", encoding="utf-8")
    with pytest.raises(ValueError, match="linha 2"):
        load_links(path)
    path.write_text("outra coisa\n", encoding="utf-8")
    with pytest.raises(ValueError, match="cabeçalho"):
        load_links(path)


def test_documents_are_not_seeds():
    refs = CrossReferences({"PHP 4:6": [("1PE 5:7", 100)]})
    assert refs.ranked([Hit("a.md#p0-c0", kind="doc", score=1.0)]) == []

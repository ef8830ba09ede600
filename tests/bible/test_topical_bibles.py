"""Tests for pastor.bible.topical_bibles: Nave's and Torrey's references and entries into verse ids."""

from __future__ import annotations

import csv
import gzip
import io
import json

from pastor.bible.topical_bibles import load_entries, nave_entries, parse_references, split_label, torrey_entries


def size(book: str, chapter: int) -> int:
    """A made-up versification: every chapter has 5 verses."""
    return 5


def ids(text: str) -> list[list[str]]:
    return [ref.ids for ref in parse_references(text, size)]


class TestReferences:
    def test_single_verses_lists_and_ranges(self):
        assert ids("EXO 6:16-18; JOS 21:4,10") == [["EXO 6:16", "EXO 6:17", "EXO 6:18"], ["JOS 21:4", "JOS 21:10"]]

    def test_a_part_without_a_book_continues_the_last_book(self):
        assert ids("DEU 4:10; 5:29") == [["DEU 4:10"], ["DEU 5:29"]]

    def test_a_bare_chapter_is_the_whole_chapter(self):
        assert ids("NUM 17") == [[f"NUM 17:{v}" for v in range(1, 6)]]
        assert ids("1CH 6:3; 24") == [["1CH 6:3"], [f"1CH 24:{v}" for v in range(1, 6)]]

    def test_typos_are_tolerated_and_bad_parts_skipped(self):
        assert ids("2SA  20:14") == [["2SA 20:14"]]  # a double space in the source
        assert ids("XYZ 1:1; JHN 3:16") == [["JHN 3:16"]]  # unknown book: skipped, the rest kept
        assert ids("XYZ 1:1; 3:17") == []  # a continuation of an unknown book is not guessed
        assert ids("JHN 3:a; JHN 3:16.") == [["JHN 3:16"]]

    def test_with_prefix(self):
        assert ids("1SA 22:20-21; with 22:6") == [["1SA 22:20", "1SA 22:21"], ["1SA 22:6"]]

    def test_split_label(self):
        assert split_label("-Lineage of EXO 6:16-20; JOS 21:4") == ("Lineage of", "EXO 6:16-20; JOS 21:4")
        assert split_label("     -See SORROW") == ("See SORROW", "")


def nave(rows: list[dict]):
    return nave_entries(iter(rows), size)


class TestNave:
    def test_nested_lines_carry_their_parents_label(self):
        [entry] = nave([{"subject": "AFFLICTIONS", "entry": "-OF SAINTS\n     -Temporary PSA 30:5; 103:9"}])
        assert entry.key == "NAV:AFFLICTIONS/OF SAINTS/Temporary"
        assert entry.label == "Afflictions — OF SAINTS — Temporary"
        assert entry.verse_ids == ["PSA 30:5", "PSA 103:9"]

    def test_see_lines_people_places_and_instances_are_left_out(self):
        entries = nave(
            [
                {"subject": "GRIEF", "entry": "-See SORROW\n-Attributed to the Holy Spirit EPH 4:30"},
                {"subject": "ABIATHAR", "entry": "-Son of Ahimelech 1SA 22:20"},
                {
                    "subject": "FORGIVENESS",
                    "entry": "-OF ENEMIES MAT 5:44\n-INSTANCES OF\n     -Esau forgives Jacob GEN 33:4",
                },
            ]
        )
        assert [e.key for e in entries] == ["NAV:GRIEF/Attributed to the Holy Spirit", "NAV:FORGIVENESS/OF ENEMIES"]


class TestTorrey:
    DATA = {
        "names": {"TOR1": "Fear, Unholy", "HIT1": "Other"},
        "topics": {"TOR1": ["PSA 56:3", "JOB 3:25 ((-26))", "BAD"], "HIT1": ["GEN 1:1"]},
    }

    def test_ranges_and_only_the_chosen_source(self):
        [entry] = torrey_entries(self.DATA, size)
        assert (entry.key, entry.label) == ("TOR:Fear, Unholy", "Fear, Unholy")
        assert [r.ids for r in entry.references] == [["PSA 56:3"], ["JOB 3:25", "JOB 3:26"]]


def test_load_entries_reads_gzip_files(tmp_path):
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=["section", "subject", "entry"])
    writer.writeheader()
    writer.writerow({"section": "C", "subject": "CARE", "entry": "-Worldly MAT 6:34; PHP 4:6"})
    nave_path, torrey_path = tmp_path / "nave.csv.gz", tmp_path / "torrey.json.gz"
    with gzip.open(nave_path, "wt", encoding="utf-8-sig") as handle:  # the BOM of the original file
        handle.write(text.getvalue())
    with gzip.open(torrey_path, "wt", encoding="utf-8") as handle:
        json.dump(TestTorrey.DATA, handle)
    entries = load_entries(nave_path, torrey_path, size)
    assert [e.key for e in entries] == ["NAV:CARE/Worldly", "TOR:Fear, Unholy"]
    assert entries[0].verse_ids == ["MAT 6:34", "PHP 4:6"]

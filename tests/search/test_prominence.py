"""Tests for pastor.search.prominence: deriving, loading and scoring the verse-prominence prior."""

from __future__ import annotations

import math
import zipfile
from pathlib import Path

import pytest

from pastor.bible import canon
from pastor.cli import commands
from pastor.cli import main as cli
from pastor.cli.prominence_command import register_prominence
from pastor.search.prominence import (
    ATTRIBUTION,
    HEADER,
    OSIS_BOOKS,
    ProminenceError,
    derive_prominence,
    load_prominence,
    osis_to_usfx,
)
from tests.support.helpers import FIXTURES, real_prominence

CROSS_REFS = FIXTURES / "xref" / "cross_references.txt"
EXPECTED = FIXTURES / "xref" / "expected_prominence.tsv"
XREF_HEADER = "From Verse\tTo Verse\tVotes\t#www.openbible.info CC-BY 2026-02-23\n"


def write_xrefs(path: Path, *rows: str) -> Path:
    path.write_text(XREF_HEADER + "".join(row + "\n" for row in rows), encoding="utf-8")
    return path


def table_of(path: Path) -> dict[str, list[int]]:
    """The TSV as {verse: [in_refs, in_votes, out_refs, out_votes, neg_rows]}, read naively."""
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return {f[0]: [int(x) for x in f[1:]] for f in (line.split("\t") for line in lines)}


@pytest.fixture
def derived(tmp_path):
    out = tmp_path / "out" / "verse_prominence.tsv"
    return derive_prominence(CROSS_REFS, out), out


# ---------------------------------------------------------------------------------------------
# Book names
# ---------------------------------------------------------------------------------------------


class TestOsisNames:
    def test_every_canon_book_has_one_osis_name(self):
        mapping = osis_to_usfx()
        assert len(OSIS_BOOKS) == len(set(OSIS_BOOKS)) == 66
        assert list(mapping.values()) == [b.code for b in canon.books()]

    @pytest.mark.parametrize(
        "osis, code",
        [
            ("Gen", "GEN"),
            ("Ps", "PSA"),
            ("Song", "SNG"),
            ("Ezek", "EZK"),
            ("Phlm", "PHM"),
            ("Jas", "JAS"),
            ("3John", "3JN"),
            ("Rev", "REV"),
        ],
    )
    def test_irregular_names(self, osis, code):
        assert osis_to_usfx()[osis] == code


# ---------------------------------------------------------------------------------------------
# Deriving the table
# ---------------------------------------------------------------------------------------------


class TestDerive:
    def test_matches_the_hand_computed_table_byte_for_byte(self, derived):
        _, out = derived
        assert out.read_bytes() == EXPECTED.read_bytes()

    def test_summary_counts(self, derived):
        summary, out = derived
        assert {
            k: getattr(summary, k)
            for k in (
                "rows",
                "positive",
                "zero",
                "negative",
                "ranges",
                "cross_chapter",
                "cross_book",
                "fallback",
                "self_overlap",
                "verses",
                "positive_votes",
            )
        } == {
            "rows": 14,
            "positive": 11,
            "zero": 1,
            "negative": 2,
            "ranges": 5,
            "cross_chapter": 2,
            "cross_book": 1,
            "fallback": 0,
            "self_overlap": 1,
            "verses": 24,
            "positive_votes": 218,
        }
        assert summary.source == "cross_references.txt"
        assert len(summary.sha256) == 64

    def test_totals_are_consistent(self, derived):
        _, out = derived
        columns = list(zip(*table_of(out).values(), strict=False))
        in_refs, in_votes, out_refs, out_votes, neg_rows = map(sum, columns)
        assert (in_refs, out_refs, out_votes, neg_rows) == (24, 14, 218, 7)

    def test_cross_chapter_range_uses_chapter_lengths_from_the_data(self, derived):
        # Genesis 2 ends at verse 3 in the fixture (not 25 as in real Bibles): the data decides.
        table = table_of(derived[1])
        assert [v for v in table if v.startswith("GEN ")] == [
            "GEN 1:1",
            "GEN 1:30",
            "GEN 1:31",
            "GEN 2:1",
            "GEN 2:2",
            "GEN 2:3",
            "GEN 3:1",
            "GEN 50:20",
        ]
        assert "GEN 2:4" not in table

    def test_cross_book_range_moves_to_the_next_book(self, derived):
        table = table_of(derived[1])
        assert table["LEV 27:34"][:2] == table["NUM 1:1"][:2] == [1, 4]

    def test_verse_inside_its_own_range_counts_on_both_sides(self, derived):
        assert table_of(derived[1])["MAT 5:3"] == [2, 10, 2, 10, 2]

    def test_non_positive_rows_count_refs_and_neg_rows_but_no_votes(self, derived):
        table = table_of(derived[1])
        assert table["PSA 1:1"] == [1, 0, 1, 0, 2]
        assert table["ROM 8:29"] == [1, 0, 0, 0, 1]

    def test_rows_are_in_canonical_order_with_lf_endings(self, derived):
        raw = derived[1].read_bytes()
        assert b"\r" not in raw and raw.endswith(b"\n")
        order = {b.code: b.order for b in canon.books()}
        keys = []
        for verse in table_of(derived[1]):
            book, place = verse.split(" ")
            chapter, number = place.split(":")
            keys.append((order[book], int(chapter), int(number)))
        assert keys == sorted(keys)
        assert raw.decode("utf-8").splitlines()[0] == HEADER

    def test_no_temporary_file_is_left_behind(self, derived):
        assert [p.name for p in derived[1].parent.iterdir()] == ["verse_prominence.tsv"]

    def test_accepts_a_zip_holding_cross_references(self, tmp_path):
        archive = tmp_path / "cross-references.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(CROSS_REFS, "cross_references.txt")
        out = tmp_path / "p.tsv"
        summary = derive_prominence(archive, out)
        assert out.read_bytes() == EXPECTED.read_bytes()
        assert summary.rows == 14

    def test_zip_without_the_member_is_refused(self, tmp_path):
        archive = tmp_path / "other.zip"
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("readme.txt", "nada")
        with pytest.raises(ProminenceError, match="não contém cross_references.txt"):
            derive_prominence(archive, tmp_path / "p.tsv")

    def test_whole_middle_chapters_and_book_change(self, tmp_path):
        # Ruth ends at 4:22 (seen as a From verse), 1 Samuel 1 at 28: Ruth.3.18-1Sam.2.1 covers
        # RUT 3:18, all of RUT 4, all of 1SA 1, and 1SA 2:1.
        source = write_xrefs(
            tmp_path / "x.txt", "Ruth.4.22\tGen.1.1\t1", "Gen.1.1\t1Sam.1.28\t1", "Gen.1.1\tRuth.3.18-1Sam.2.1\t2"
        )
        table = table_of(_derive(source, tmp_path))
        covered = [v for v, counts in table.items() if counts[1] >= 2]
        assert covered == ["RUT 3:18"] + [f"RUT 4:{v}" for v in range(1, 23)] + [f"1SA 1:{v}" for v in range(1, 29)] + [
            "1SA 2:1"
        ]

    def test_range_over_an_unknown_chapter_keeps_its_endpoints(self, tmp_path):
        # Nothing in the data mentions Ruth 2, so its length is unknown: endpoints only.
        source = write_xrefs(tmp_path / "x.txt", "Gen.1.1\tRuth.1.22-Ruth.3.1\t3")
        out = tmp_path / "p.tsv"
        summary = derive_prominence(source, out)
        assert summary.fallback == 1
        assert list(table_of(out)) == ["GEN 1:1", "RUT 1:22", "RUT 3:1"]

    def test_reversed_range_keeps_its_endpoints(self, tmp_path):
        source = write_xrefs(tmp_path / "x.txt", "Gen.1.1\tRom.1.20-Rom.1.19\t3")
        out = tmp_path / "p.tsv"
        assert derive_prominence(source, out).fallback == 1
        assert list(table_of(out)) == ["GEN 1:1", "ROM 1:19", "ROM 1:20"]

    def test_blank_lines_and_crlf_are_tolerated(self, tmp_path):
        source = tmp_path / "x.txt"
        source.write_bytes(CROSS_REFS.read_bytes().replace(b"\n", b"\r\n") + b"\r\n")
        assert _derive(source, tmp_path).read_bytes() == EXPECTED.read_bytes()


def _derive(source: Path, tmp_path: Path) -> Path:
    out = tmp_path / "derived.tsv"
    derive_prominence(source, out)
    return out


class TestDeriveErrors:
    @pytest.mark.parametrize(
        "row, message",
        [
            ("Gen.1.1\tJohn.3.16", "linha 3: esperadas 3 colunas"),
            ("Gen.1.1\tJohn.3.16\tmuitos", "linha 3: votos inválidos 'muitos'"),
            ("Tob.1.1\tJohn.3.16\t4", "linha 3: referência inválida ou livro desconhecido 'Tob.1.1'"),
            ("Gen.1.1\tJohn.3\t4", "linha 3: referência inválida"),
            ("Gen.1.1\tJohn.3.16-\t4", "linha 3: intervalo sem fim 'John.3.16-'"),
        ],
    )
    def test_bad_row_names_its_line(self, tmp_path, row, message):
        source = write_xrefs(tmp_path / "x.txt", "Gen.1.1\tJohn.1.1\t5", row)
        with pytest.raises(ProminenceError, match=message):
            derive_prominence(source, tmp_path / "p.tsv")
        assert not (tmp_path / "p.tsv").exists()

    def test_wrong_header(self, tmp_path):
        source = tmp_path / "x.txt"
        source.write_text("verse\tin_refs\n", encoding="utf-8")
        with pytest.raises(ProminenceError, match="linha 1: cabeçalho inesperado"):
            derive_prominence(source, tmp_path / "p.tsv")

    def test_missing_source(self, tmp_path):
        with pytest.raises(ProminenceError, match="não encontrado"):
            derive_prominence(tmp_path / "nada.txt", tmp_path / "p.tsv")

    def test_not_utf8(self, tmp_path):
        source = tmp_path / "x.txt"
        source.write_bytes(XREF_HEADER.encode() + b"Gen.1.1\tJo\xe3o.1.1\t5\n")
        with pytest.raises(ProminenceError, match="UTF-8"):
            derive_prominence(source, tmp_path / "p.tsv")


# ---------------------------------------------------------------------------------------------
# Loading the table
# ---------------------------------------------------------------------------------------------


class TestLoad:
    def test_loads_counts(self):
        prominence = load_prominence(EXPECTED)
        assert len(prominence) == 24
        assert prominence.in_votes("JHN 1:1") == 50
        assert prominence.count("JHN 3:16", "out_votes") == 70
        assert "MAT 5:4" in prominence and "MAT 5:6" not in prominence

    def test_absent_verse_has_zero_votes(self):
        prominence = load_prominence(EXPECTED)
        assert prominence.in_votes("JHN 11:35") == 0
        assert prominence.in_votes("nada") == 0

    def test_source_names_file_and_hash(self):
        import hashlib

        source = load_prominence(EXPECTED).source
        assert source == {
            "file": "expected_prominence.tsv",
            "sha256": hashlib.sha256(EXPECTED.read_bytes()).hexdigest(),
        }

    def test_top_breaks_ties_in_canonical_order(self):
        top = load_prominence(EXPECTED).top(4)
        assert top == [("JHN 1:1", 50), ("ROM 5:8", 40), ("1JN 4:9", 30), ("1JN 4:10", 30)]

    def test_attribution_names_openbible_and_licence(self):
        assert "OpenBible.info" in ATTRIBUTION and "CC BY 4.0" in ATTRIBUTION
        assert "https://www.openbible.info/labs/cross-references/" in ATTRIBUTION


class TestLoadErrors:
    def test_missing_file_names_the_setting(self, tmp_path):
        with pytest.raises(ProminenceError, match="PASTOR_PROMINENCE") as info:
            load_prominence(tmp_path / "nada.tsv")
        assert "nada.tsv" in str(info.value)

    @pytest.mark.parametrize("header", ["", "verse\tin_refs\tin_votes\n", "From Verse\tTo Verse\tVotes\n"])
    def test_wrong_header(self, tmp_path, header):
        path = tmp_path / "p.tsv"
        path.write_text(header + "JHN 3:16\t1\t1\t1\t1\t0\n", encoding="utf-8")
        with pytest.raises(ProminenceError, match="linha 1: cabeçalho inesperado"):
            load_prominence(path)

    @pytest.mark.parametrize(
        "line, message",
        [
            ("JHN 3:16\t1\t2\t3\t4", "linha 3: esperadas 6 colunas"),
            ("", "linha 3: esperadas 6 colunas"),
            ("JHN 3:16\t1\tmuitos\t3\t4\t0", "linha 3: valor inválido 'muitos' na coluna in_votes"),
            ("JHN 3:16\t1\t-2\t3\t4\t0", "linha 3: valor inválido '-2'"),
            ("João 3:16\t1\t2\t3\t4\t0", "linha 3: versículo inválido"),
            ("TOB 1:1\t1\t2\t3\t4\t0", "linha 3: livro desconhecido 'TOB'"),
            ("GEN 1:1\t1\t2\t3\t4\t0", "linha 3: versículo repetido GEN 1:1"),
            (" JHN 3:16\t1\t2\t3\t4\t0", "linha 3: linha malformada"),
        ],
    )
    def test_malformed_line_names_its_number(self, tmp_path, line, message):
        path = tmp_path / "p.tsv"
        path.write_text(f"{HEADER}\nGEN 1:1\t0\t0\t1\t5\t0\n{line}\nGEN 1:3\t0\t0\t1\t1\t0\n", encoding="utf-8")
        with pytest.raises(ProminenceError, match=message):
            load_prominence(path)

    def test_not_utf8(self, tmp_path):
        path = tmp_path / "p.tsv"
        path.write_bytes(HEADER.encode() + b"\nJHN 3:16\t1\t2\t3\t4\t0\n\xe3\n")
        with pytest.raises(ProminenceError, match="linha 3: o texto não está em UTF-8"):
            load_prominence(path)


# ---------------------------------------------------------------------------------------------
# The prior
# ---------------------------------------------------------------------------------------------


class TestPrior:
    def test_is_weight_times_log1p_of_in_votes(self):
        prominence = load_prominence(EXPECTED)
        assert prominence.prior("JHN 1:1", 0.004) == pytest.approx(0.004 * math.log(51))
        assert prominence.prior("GEN 3:1", 2.0) == pytest.approx(2.0 * math.log(6))

    def test_absent_or_voteless_verse_gets_no_boost(self):
        prominence = load_prominence(EXPECTED)
        assert prominence.prior("JHN 11:35", 0.004) == 0.0
        assert prominence.prior("ROM 8:29", 0.004) == 0.0  # only a negative-vote row points to it

    def test_zero_weight_disables_it(self):
        assert load_prominence(EXPECTED).prior("JHN 1:1", 0.0) == 0.0

    def test_grows_with_votes_but_sub_linearly(self):
        prominence = load_prominence(EXPECTED)
        fifty, five = prominence.prior("JHN 1:1", 1.0), prominence.prior("GEN 3:1", 1.0)
        assert fifty > five
        assert fifty / five < 50 / 5


# ---------------------------------------------------------------------------------------------
# Round trip and command line
# ---------------------------------------------------------------------------------------------


class TestRoundTrip:
    def test_derive_then_load_matches_the_expected_table(self, derived):
        loaded, expected = load_prominence(derived[1]), load_prominence(EXPECTED)
        assert loaded.ids == expected.ids
        assert {k: list(v) for k, v in loaded.columns.items()} == {k: list(v) for k, v in expected.columns.items()}
        assert loaded.source["sha256"] == derived[0].sha256 == expected.source["sha256"]


class TestCli:
    def test_the_cli_registers_the_command(self):
        assert register_prominence in commands.REGISTRARS

    def test_writes_the_table_and_prints_a_portuguese_summary(self, tmp_path, capsys):
        out = tmp_path / "verse_prominence.tsv"
        assert cli.main(["prominence", str(CROSS_REFS), "--out", str(out)]) == 0
        text = capsys.readouterr().out
        assert out.read_bytes() == EXPECTED.read_bytes()
        assert "Lidas 14 referências cruzadas" in text
        assert "Gravados 24 versículos" in text
        assert ATTRIBUTION in text

    def test_json_summary(self, tmp_path, capsys):
        import json

        assert cli.main(["prominence", str(CROSS_REFS), "--out", str(tmp_path / "p.tsv"), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["verses"] == 24

    def test_error_exits_2_with_a_message(self, tmp_path, capsys):
        assert cli.main(["prominence", str(tmp_path / "nada.txt"), "--out", str(tmp_path / "p.tsv")]) == 2
        assert "erro: Arquivo de referências cruzadas não encontrado" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# The real table shipped in corpus/ (figures from its provenance, summarised in corpus/NOTICE.md)
# ---------------------------------------------------------------------------------------------

REAL_TABLE = real_prominence()


@pytest.fixture(scope="module")
def real():
    assert REAL_TABLE.is_file(), f"tabela real ausente: {REAL_TABLE} (o repositório a traz)"
    return load_prominence(REAL_TABLE)


class TestRealTable:
    def test_row_count(self, real):
        assert len(real) == 31049

    def test_known_verses(self, real):
        assert real.in_votes("ISA 41:10") == 3478
        assert real.in_votes("JHN 3:16") == 1511
        assert "3JN 1:15" in real and "MAT 17:21" not in real

    def test_top_verse_is_isaiah_41_10(self, real):
        assert real.top(1) == [("ISA 41:10", 3478)]

    def test_totals(self, real):
        totals = {name: sum(values) for name, values in real.columns.items()}
        assert totals == {
            "in_refs": 614280,
            "in_votes": 3548597,
            "out_refs": 344799,
            "out_votes": 2148057,
            "neg_rows": 9044,
        }

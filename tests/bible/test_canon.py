"""Tests for pastor.bible.canon: the 66 books, their versification and every pt-BR name form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pastor.bible import canon
from pastor.bible.canon import alias_key, books, by_code, deuterocanon_aliases, fold, resolve_book

VERSIFICATION = Path(canon.__file__).parent / "data" / "versification.json"


# --- The catalogue -----------------------------------------------------------------------------


class TestCatalogue:
    def test_66_books_1189_chapters_31102_verses(self):
        assert len(books()) == 66
        assert sum(b.chapters for b in books()) == 1189
        assert sum(sum(b.verse_counts) for b in books()) == 31102

    def test_testaments_and_order(self):
        assert [b.testament for b in books()].count("AT") == 39
        assert [b.testament for b in books()].count("NT") == 27
        assert [b.order for b in books()] == list(range(66))
        assert (books()[0].code, books()[38].code, books()[39].code, books()[-1].code) == ("GEN", "MAL", "MAT", "REV")

    def test_versification_file_covers_exactly_the_canon(self):
        data = json.loads(VERSIFICATION.read_text())
        assert set(data) == {b.code for b in books()}
        assert all(n > 0 for counts in data.values() for n in counts)

    @pytest.mark.parametrize(
        "code,chapter,verses",
        [
            ("GEN", 1, 31),
            ("PSA", 119, 176),
            ("PSA", 117, 2),
            ("PSA", 46, 11),
            ("JHN", 3, 36),
            ("2CO", 13, 14),
            ("REV", 12, 17),
            ("REV", 22, 21),
            ("MAL", 4, 6),
            ("3JN", 1, 14),
        ],
    )
    def test_known_chapter_sizes(self, code, chapter, verses):
        assert by_code()[code].verse_counts[chapter - 1] == verses

    @pytest.mark.parametrize(
        "code,chapters", [("GEN", 50), ("PSA", 150), ("ISA", 66), ("JHN", 21), ("REV", 22), ("MAL", 4), ("JOL", 3)]
    )
    def test_chapter_totals(self, code, chapters):
        assert by_code()[code].chapters == chapters

    def test_single_chapter_books(self):
        assert {b.code for b in books() if b.single_chapter} == {"OBA", "PHM", "2JN", "3JN", "JUD"}

    def test_names_are_portuguese(self):
        names = {b.code: b.name for b in books()}
        assert names["JHN"] == "João"
        assert names["JOB"] == "Jó"
        assert names["1CO"] == "1 Coríntios"
        assert names["PSA"] == "Salmos"
        assert names["SNG"] == "Cânticos"
        assert len(set(names.values())) == 66


# --- fold and alias_key -------------------------------------------------------------------------


class TestFold:
    @pytest.mark.parametrize("text", ["Gênesis", "ÊXODO", "João 3:16", "Cânticos", "1ª Coríntios", "Ç"])
    def test_same_length(self, text):
        assert len(fold(text)) == len(text)

    def test_lower_and_without_accents(self):
        assert fold("Gênesis ÊXODO Juízes Provérbios Açúcar") == "genesis exodo juizes proverbios acucar"

    def test_alias_key_drops_spaces_and_dots(self):
        assert alias_key("1 Co.") == alias_key("1co") == "1co"


# --- Name resolution ----------------------------------------------------------------------------

ABBREVIATIONS = dict(
    zip(
        "Gn Êx Lv Nm Dt Js Jz Rt 1Sm 2Sm 1Rs 2Rs 1Cr 2Cr Ed Ne Et Jó Sl Pv Ec Ct Is Jr Lm Ez Dn Os Jl Am "
        "Ob Jn Mq Na Hc Sf Ag Zc Ml Mt Mc Lc Jo At Rm 1Co 2Co Gl Ef Fp Cl 1Ts 2Ts 1Tm 2Tm Tt Fm Hb Tg 1Pe "
        "2Pe 1Jo 2Jo 3Jo Jd Ap".split(),
        [b.code for b in books()],
        strict=False,
    )
)


class TestResolveBook:
    @pytest.mark.parametrize("abbr,code", ABBREVIATIONS.items())
    def test_standard_abbreviation(self, abbr, code):
        assert resolve_book(abbr).code == code

    def test_abbreviation_list_covers_all_66(self):
        assert len(ABBREVIATIONS) == 66
        assert set(ABBREVIATIONS.values()) == set(by_code())

    @pytest.mark.parametrize("book", [b for b in books()], ids=lambda b: b.code)
    def test_full_name_with_and_without_accents_in_any_case(self, book):
        import unicodedata

        plain = "".join(c for c in unicodedata.normalize("NFD", book.name) if not unicodedata.combining(c))
        for form in (book.name, plain, book.name.upper(), plain.lower()):
            # `JÓ`/`jó` keep their accent; without it the name is `Jo`, which means João.
            if book.code == "JOB" and form in {"Jo", "jo"}:
                continue
            assert resolve_book(form) == book, form

    @pytest.mark.parametrize(
        "form",
        [
            "1 Coríntios",
            "1Co",
            "1 Co",
            "1co",
            "I Coríntios",
            "Primeira Coríntios",
            "1ª Coríntios",
            "1º Coríntios",
            "1a Corintios",
            "1 Corintios",
            "1Cor",
            "1 Co.",
        ],
    )
    def test_numbered_book_forms(self, form):
        assert resolve_book(form).code == "1CO"

    @pytest.mark.parametrize(
        "form,code",
        [
            ("II Timóteo", "2TI"),
            ("Segunda Timóteo", "2TI"),
            ("2ª Timóteo", "2TI"),
            ("2Tm", "2TI"),
            ("III João", "3JN"),
            ("Terceira João", "3JN"),
            ("3ª João", "3JN"),
            ("3Jo", "3JN"),
            ("Primeiro Samuel", "1SA"),
            ("I Reis", "1KI"),
            ("Segundo Reis", "2KI"),
            ("1 Crónicas", "1CH"),
            ("Segunda Crônicas", "2CH"),
            ("1º Pedro", "1PE"),
            ("2 Pedro", "2PE"),
            ("1 Tessalonicenses", "1TH"),
            ("II Tessalonicenses", "2TH"),
        ],
    )
    def test_other_numbered_books(self, form, code):
        assert resolve_book(form).code == code

    @pytest.mark.parametrize(
        "form,code",
        [
            ("Salmo", "PSA"),
            ("Cantares", "SNG"),
            ("Cântico dos Cânticos", "SNG"),
            ("Cantares de Salomão", "SNG"),
            ("Lamentações de Jeremias", "LAM"),
            ("Atos dos Apóstolos", "ACT"),
            ("Oséias", "HOS"),
            ("Miquéias", "MIC"),
            ("Deuteronómio", "DEU"),
            ("Genesis", "GEN"),
            ("Filemon", "PHM"),
            ("Fl", "PHP"),
        ],
    )
    def test_alternative_names(self, form, code):
        assert resolve_book(form).code == code

    # Jó (Job) against Jo/João (John): the accent decides.
    @pytest.mark.parametrize(
        "form,code",
        [
            ("Jó", "JOB"),
            ("jó", "JOB"),
            ("JÓ", "JOB"),
            (" Jó ", "JOB"),
            ("Jo", "JHN"),
            ("jo", "JHN"),
            ("João", "JHN"),
            ("Joao", "JHN"),
            ("JOÃO", "JHN"),
        ],
    )
    def test_job_and_john(self, form, code):
        assert resolve_book(form).code == code

    @pytest.mark.parametrize(
        "form,code",
        [
            ("Judas", "JUD"),
            ("Jd", "JUD"),
            ("Juízes", "JDG"),
            ("Juizes", "JDG"),
            ("Jz", "JDG"),
            ("Jn", "JON"),
            ("Jonas", "JON"),
            ("Jl", "JOL"),
            ("Js", "JOS"),
            ("Josué", "JOS"),
        ],
    )
    def test_similar_names(self, form, code):
        assert resolve_book(form).code == code

    @pytest.mark.parametrize("form", ["", "Xyz", "Coríntios", "4 Reis", "Evangelho", "Tobias", "1 Macabeus"])
    def test_unknown_or_outside_the_canon(self, form):
        assert resolve_book(form) is None


class TestDeuterocanon:
    @pytest.mark.parametrize(
        "form,name",
        [
            ("Tobias", "Tobias"),
            ("Tb", "Tobias"),
            ("Judite", "Judite"),
            ("Sabedoria", "Sabedoria"),
            ("Eclesiástico", "Eclesiástico"),
            ("Eclesiastico", "Eclesiástico"),
            ("Eclo", "Eclesiástico"),
            ("Baruque", "Baruque"),
            ("1 Macabeus", "1 Macabeus"),
            ("I Macabeus", "1 Macabeus"),
            ("2 Macabeus", "2 Macabeus"),
            ("2Mc", "2 Macabeus"),
            ("Segundo Macabeus", "2 Macabeus"),
        ],
    )
    def test_recognised_as_not_in_this_canon(self, form, name):
        assert deuterocanon_aliases()[alias_key(form)] == name
        assert resolve_book(form) is None

    def test_no_deuterocanonical_alias_shadows_a_canonical_one(self):
        assert not set(deuterocanon_aliases()) & set(canon.aliases())

    def test_eclesiastes_is_not_eclesiastico(self):
        assert resolve_book("Eclesiastes").code == "ECC"
        assert resolve_book("Ec").code == "ECC"


class TestAliasForms:
    def test_longest_first(self):
        forms = canon.alias_forms()
        assert [len(f) for f in forms] == sorted((len(f) for f in forms), reverse=True)

    def test_every_form_is_folded_and_resolves(self):
        table = canon.aliases()
        deutero = deuterocanon_aliases()
        for form in canon.alias_forms():
            assert form == fold(form)
            assert alias_key(form) in table or alias_key(form) in deutero, form

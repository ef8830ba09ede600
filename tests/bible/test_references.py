"""Tests for pastor.bible.references: finding, resolving, formatting and looking up Bible references."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pastor.bible.canon import books, by_code
from pastor.bible.lookup import Lookup, Passage, VerseText, lookup
from pastor.bible.references import (
    Reference,
    Segment,
    canonical_counts,
    find_references,
    format_verse_id,
    parse_reference,
)
from pastor.bible.unmatched import Unmatched


def one(text: str):
    """The single match found in `text`."""
    matches = find_references(text)
    assert len(matches) == 1, [m.text for m in matches]
    return matches[0]


def ids(text: str) -> list[str]:
    return parse_reference(text).verse_ids()


# --- The forms people write ---------------------------------------------------------------------


class TestForms:
    @pytest.mark.parametrize(
        "text,formatted,expected_ids",
        [
            ("João 3:16", "João 3:16", ["JHN 3:16"]),
            ("Jo 3.16", "João 3:16", ["JHN 3:16"]),
            ("1Co 13,4", "1 Coríntios 13:4", ["1CO 13:4"]),
            ("Sl 91:1-2", "Salmos 91:1-2", ["PSA 91:1", "PSA 91:2"]),
            ("Pv 3:5-6", "Provérbios 3:5-6", ["PRO 3:5", "PRO 3:6"]),
            ("Mt 5:3,5", "Mateus 5:3,5", ["MAT 5:3", "MAT 5:5"]),
            ("Romanos capítulo 8 versículo 28", "Romanos 8:28", ["ROM 8:28"]),
            ("Apocalipse 21 4", "Apocalipse 21:4", ["REV 21:4"]),
            ("isaias 41 10", "Isaías 41:10", ["ISA 41:10"]),
            ("Jd 24-25", "Judas 1:24-25", ["JUD 1:24", "JUD 1:25"]),
            ("Salmos 23:1-3", "Salmos 23:1-3", ["PSA 23:1", "PSA 23:2", "PSA 23:3"]),
        ],
    )
    def test_acceptance_forms(self, text, formatted, expected_ids):
        reference = parse_reference(text)
        assert reference.format() == formatted
        assert reference.verse_ids() == expected_ids

    def test_whole_chapter(self):
        reference = parse_reference("Salmos 23")
        assert reference.segments == (Segment(23, None, 23, None),)
        assert reference.format() == "Salmos 23"
        assert reference.verse_ids() == [f"PSA 23:{n}" for n in range(1, 7)]

    def test_range_across_chapters(self):
        reference = parse_reference("Gn 1:1-2:3")
        assert reference.format() == "Gênesis 1:1-2:3"
        assert reference.verse_ids() == [f"GEN 1:{n}" for n in range(1, 32)] + ["GEN 2:1", "GEN 2:2", "GEN 2:3"]

    @pytest.mark.parametrize(
        "text,formatted",
        [
            ("1 Coríntios 13:4", "1 Coríntios 13:4"),
            ("I Coríntios 13:4", "1 Coríntios 13:4"),
            ("Primeira Coríntios 13:4", "1 Coríntios 13:4"),
            ("1ª Coríntios 13:4", "1 Coríntios 13:4"),
            ("1 Co 13:4", "1 Coríntios 13:4"),
            ("II Timóteo 1:7", "2 Timóteo 1:7"),
            ("3Jo 4", "3 João 1:4"),
            ("Joao 3:16", "João 3:16"),
            ("JOÃO 3:16", "João 3:16"),
            ("Jo. 3:16", "João 3:16"),
            ("Mateus cap. 5 v. 3", "Mateus 5:3"),
            ("Mateus cap 5 vv. 3-5", "Mateus 5:3-5"),
            ("Mateus  5 : 3", "Mateus 5:3"),
            ("Mt 5:3, 5", "Mateus 5:3,5"),
            ("Mt 5:3-5,7", "Mateus 5:3-5,7"),
            ("Apocalipse 21 4 e 5", "Apocalipse 21:4,5"),
            ("Sl 23:1; 91:1", "Salmos 23:1; 91:1"),
            ("Gn 1-3", "Gênesis 1-3"),
            ("Gn 1; 3-4", "Gênesis 1; 3-4"),
            ("Salmos 23 e 24", "Salmos 23; 24"),
            ("Cantares 2:1", "Cânticos 2:1"),
            ("Atos dos Apóstolos 2:1", "Atos 2:1"),
            ("Ob 4", "Obadias 1:4"),
            ("Ob 1-4", "Obadias 1:1-4"),
            ("Judas 1", "Judas 1"),
            ("Fm 4", "Filemom 1:4"),
        ],
    )
    def test_more_forms(self, text, formatted):
        assert parse_reference(text).format() == formatted

    def test_verse_ids_use_usfx_codes(self):
        assert ids("João 3:16") == ["JHN 3:16"]
        assert ids("1 João 4:8") == ["1JN 4:8"]
        assert format_verse_id("JHN 3:16") == "João 3:16"
        assert format_verse_id("1CO 13:4") == "1 Coríntios 13:4"


class TestDisambiguation:
    @pytest.mark.parametrize(
        "text,code",
        [
            ("Jó 1:1", "JOB"),
            ("jó 1:1", "JOB"),
            ("JÓ 1:1", "JOB"),
            ("Jó 42", "JOB"),
            ("Jo 1:1", "JHN"),
            ("jo 1:1", "JHN"),
            ("João 1:1", "JHN"),
            ("joão 1:1", "JHN"),
            ("1 Jo 1:9", "1JN"),
            ("I Jo 1:9", "1JN"),
            ("Judas 3", "JUD"),
            ("Jd 3", "JUD"),
            ("Juízes 6:12", "JDG"),
            ("Jz 6:12", "JDG"),
            ("Juizes 6:12", "JDG"),
            ("Jn 2:1", "JON"),
            ("Jl 2:28", "JOL"),
            ("Js 1:9", "JOS"),
        ],
    )
    def test_book(self, text, code):
        assert parse_reference(text).book.code == code

    def test_job_and_john_in_one_sentence(self):
        found = [m.reference.format() for m in find_references("Compare Jó 1:1 com João 1:1 e Jo 1:2.")]
        assert found == ["Jó 1:1", "João 1:1", "João 1:2"]

    def test_single_chapter_numbers_are_verses(self):
        assert ids("Judas 3") == ["JUD 1:3"]
        assert ids("Jd 1:24-25") == ["JUD 1:24", "JUD 1:25"]
        assert ids("2Jo 12") == ["2JN 1:12"]


# --- Not found: a clear reason, never a neighbour ---------------------------------------------


class TestNotFound:
    @pytest.mark.parametrize(
        "text,reason",
        [
            ("João 30:1", "João tem 21 capítulos; o capítulo 30 não existe."),
            ("Mateus 5:99", "Mateus 5 tem 48 versículos; o versículo 99 não existe."),
            ("Salmos 151", "Salmos tem 150 capítulos; o capítulo 151 não existe."),
            ("Jd 26", "Judas 1 tem 25 versículos; o versículo 26 não existe."),
            ("Salmos 23:0", "Salmos 23 tem 6 versículos; o versículo 0 não existe."),
            ("João 3:18-16", "O intervalo em João 3:18-16 está invertido."),
        ],
    )
    def test_reason(self, text, reason):
        match = one(text)
        assert match.error == reason
        assert match.text == text
        with pytest.raises(ValueError, match="não existe|invertido"):
            parse_reference(text)

    @pytest.mark.parametrize(
        "text,name",
        [
            ("Tobias 1:1", "Tobias"),
            ("Tb 1:1", "Tobias"),
            ("Judite 2:3", "Judite"),
            ("Sabedoria 3:1", "Sabedoria"),
            ("Eclesiástico 3:4", "Eclesiástico"),
            ("Eclo 1:1", "Eclesiástico"),
            ("Baruque 3:1", "Baruque"),
            ("1 Macabeus 1:1", "1 Macabeus"),
            ("2 Macabeus 12:46", "2 Macabeus"),
            ("I Macabeus 2:1", "1 Macabeus"),
            ("1Mc 1:1", "1 Macabeus"),
            ("2Mac 3:1", "2 Macabeus"),
        ],
    )
    def test_deuterocanonical_books(self, text, name):
        match = one(text)
        assert match.reference is None
        assert match.error == f"{name} não faz parte do cânon de 66 livros usado aqui (é um livro deuterocanônico)."

    def test_not_found_never_returns_a_neighbour(self, almeida):
        for text in ("João 30:1", "Mateus 5:99", "Salmos 151", "Tobias 1:1"):
            result = lookup(text, almeida)
            assert result.references == (), text
            assert result.not_found[0].text == text

    @pytest.mark.parametrize(
        "text", ["", "Qual o sentido da vida?", "Coríntios 13:4", "4 Reis 1:1", "capítulo 3 versículo 16"]
    )
    def test_nothing_recognised(self, text):
        assert find_references(text) == []
        with pytest.raises(ValueError, match="Referência não reconhecida"):
            parse_reference(text)


# --- Free text -------------------------------------------------------------------------------


class TestFreeText:
    @pytest.mark.parametrize(
        "text",
        [
            "tenho os 2 filhos em casa",
            "os 2 filhos",
            "ex 20 pessoas",
            "na 3 casa",
            "Os 2 filhos",
            "Ex 20 pessoas vieram",
            "am 5 vezes",
            "a sabedoria 3 vezes",
            "sal 2 colheres",
            "is 3",
        ],
    )
    def test_everyday_words_are_not_books(self, text):
        assert find_references(text) == []

    @pytest.mark.parametrize(
        "text,formatted",
        [
            ("Os 2:19", "Oseias 2:19"),
            ("Ex 20:3", "Êxodo 20:3"),
            ("Na 1:7", "Naum 1:7"),
            ("Am 5:24", "Amós 5:24"),
            ("Is 40:31", "Isaías 40:31"),
            ("Sal 23:1", "Salmos 23:1"),
        ],
    )
    def test_same_abbreviations_written_as_references(self, text, formatted):
        assert one(text).reference.format() == formatted

    def test_spans_point_into_the_original_text(self):
        text = "Leia João 3:16 e Salmos 23, depois Rm 8:28."
        matches = find_references(text)
        assert [m.text for m in matches] == ["João 3:16", "Salmos 23", "Rm 8:28"]
        for m in matches:
            assert text[m.start : m.end] == m.text

    def test_everyday_words_do_not_hide_a_later_reference(self):
        matches = find_references("ex 20 pessoas leram Ex 20:3")
        assert [(m.text, m.reference.format()) for m in matches] == [("Ex 20:3", "Êxodo 20:3")]

    @pytest.mark.parametrize(
        "text,found",
        [
            ("João 3:16 e 2 Coríntios 5:17", ["João 3:16", "2 Coríntios 5:17"]),
            ("Rm 8:28, 1 Co 13:4", ["Romanos 8:28", "1 Coríntios 13:4"]),
            ("Sl 23; 1 Jo 4:8", ["Salmos 23", "1 João 4:8"]),
            ("Salmos 23 e 1 Pedro 5:7", ["Salmos 23", "1 Pedro 5:7"]),
            ("Fp 4:13; 2 Tm 1:7", ["Filipenses 4:13", "2 Timóteo 1:7"]),
            ("Rm 8:28 e 1ª Coríntios 13:4", ["Romanos 8:28", "1 Coríntios 13:4"]),
        ],
    )
    def test_a_numbered_book_after_a_reference_starts_a_new_one(self, text, found):
        assert [m.reference.format() for m in find_references(text)] == found


# --- lookup() against a loaded translation -----------------------------------------------------


class TestLookup:
    def test_shape(self, almeida):
        result = lookup("Leia João 3:16 e João 30:1", almeida)
        assert result.found is True and result.truncated is False and result.note == ""
        assert result.references == (
            Passage("João 3:16", (VerseText("JHN 3:16", "João 3:16", almeida.by_id["JHN 3:16"].text),)),
        )
        [missing] = result.not_found
        assert (missing.text, missing.reason) == ("João 30:1", "João tem 21 capítulos; o capítulo 30 não existe.")

    def test_the_wire_shape(self, almeida):
        """What the CLI's `lookup --json` and the API's `/lookup` print: the keys in this order."""
        shape = lookup("Leia João 3:16 e João 30:1", almeida).as_dict()
        assert list(shape) == ["found", "references", "not_found"]
        assert shape["found"] is True
        assert shape["references"] == [
            {
                "reference": "João 3:16",
                "verses": [{"id": "JHN 3:16", "reference": "João 3:16", "text": almeida.by_id["JHN 3:16"].text}],
            }
        ]
        assert shape["not_found"] == [
            {"text": "João 30:1", "reason": "João tem 21 capítulos; o capítulo 30 não existe."}
        ]
        assert json.loads(json.dumps(shape, ensure_ascii=False)) == shape

    def test_a_capped_lookup_adds_truncated_and_note_last(self, almeida):
        result = lookup("Sl 23; Sl 24", almeida, max_verses=8)
        assert result.truncated and "ficaram de fora 8 versículos" in result.note
        shape = result.as_dict()
        assert list(shape) == ["found", "references", "not_found", "truncated", "note"]
        assert shape["truncated"] is True and shape["note"] == result.note

    def test_whole_chapter_lists_every_verse(self, almeida):
        verses = lookup("Salmos 23", almeida).references[0].verses
        assert [v.id for v in verses] == [f"PSA 23:{n}" for n in range(1, 7)]
        assert verses[0].text == "O Senhor é o meu pastor, nada me faltará."

    def test_nothing_found(self, almeida):
        assert lookup("bom dia", almeida) == Lookup()
        assert lookup("bom dia", almeida).as_dict() == {"found": False, "references": [], "not_found": []}

    def test_2co_13_14_exists_canonically_but_not_in_almeida_1911(self, almeida):
        assert one("2 Coríntios 13:14").error is None  # canonical versification has it
        result = lookup("2 Coríntios 13:14", almeida)
        assert result.found is False and result.references == ()
        [entry] = result.not_found
        assert entry.text == "2 Coríntios 13:14"
        assert "14" in entry.reason and "não existe" in entry.reason

    def test_2co_13_whole_chapter_in_almeida_has_13_verses(self, almeida):
        verses = lookup("2Co 13", almeida).references[0].verses
        assert verses[-1].id == "2CO 13:13"
        assert len(verses) == 13

    def test_translation_numbering_decides_psalm_46(self, blivre):
        # Bíblia Livre joins Salmos 46:3 to 46:2: the chapter and a range skip it.
        chapter = lookup("Salmos 46", blivre).references[0]
        assert [v.id for v in chapter.verses] == [f"PSA 46:{n}" for n in (1, 2, *range(4, 12))]
        assert [v.id for v in lookup("Sl 46:1-4", blivre).references[0].verses] == ["PSA 46:1", "PSA 46:2", "PSA 46:4"]
        assert lookup("Sl 46:11", blivre).found is True
        assert lookup("Sl 46:3", blivre).not_found == (Unmatched("Sl 46:3", "Salmos 46:3 não existe nesta tradução."),)

    def test_translation_numbering_decides_revelation_12_18(self, blivre, almeida):
        assert lookup("Ap 12:18", blivre).references[0].verses[0].text == "E eu fiquei parado sobre a areia do mar."
        assert lookup("Ap 12:18", almeida).found is False

    def test_deuterocanonical_is_not_found(self, almeida):
        result = lookup("Tobias 1:1", almeida)
        assert result.found is False
        assert "deuterocanônico" in result.not_found[0].reason

    def test_verse_ids_accept_a_bible(self, almeida, blivre):
        assert parse_reference("2Co 13").verse_ids(almeida)[-1] == "2CO 13:13"
        assert parse_reference("2Co 13").verse_ids()[-1] == "2CO 13:14"
        assert parse_reference("2Co 13:14").check(almeida) is not None
        assert parse_reference("Ap 12").verse_ids(blivre)[-1] == "REV 12:18"


# --- Round trips over the real corpus ---------------------------------------------------------


class TestRoundTrip:
    def test_every_almeida_verse_id(self, almeida):
        """format → parse → verse_ids gives back each of the 31,101 ids."""
        failures = []
        for verse in almeida.verses:
            for text in (verse.reference, format_verse_id(verse.id)):
                if parse_reference(text).verse_ids() != [verse.id]:
                    failures.append(text)
        assert failures == []
        assert len(almeida.verses) == 31101

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.data())
    def test_sampled_ids_round_trip_inside_a_sentence(self, almeida, data):
        verse = data.draw(st.sampled_from(almeida.verses))
        [match] = find_references(f"Você pode ler {verse.reference} hoje.")
        assert match.text == verse.reference
        assert match.reference.verse_ids(almeida) == [verse.id]


@st.composite
def segments(draw, book):
    """One random segment of `book` that exists in the canonical versification."""
    kind = draw(st.sampled_from(["verse", "range", "across", "chapter", "chapters"]))
    first = draw(st.integers(1, book.chapters))
    if kind in ("chapter", "chapters"):
        last = first if kind == "chapter" else draw(st.integers(first, book.chapters))
        return Segment(first, None, last, None)
    verse = draw(st.integers(1, canonical_counts(book.code, first)))
    if kind == "verse":
        return Segment(first, verse, first, verse)
    last = first if kind == "range" else draw(st.integers(first, book.chapters))
    lowest = verse if last == first else 1
    return Segment(first, verse, last, draw(st.integers(lowest, canonical_counts(book.code, last))))


@st.composite
def references(draw, max_segments=1):
    book = draw(st.sampled_from(books()))
    return Reference(book, tuple(draw(st.lists(segments(book), min_size=1, max_size=max_segments))))


class TestRandomReferences:
    @settings(max_examples=400, deadline=None)
    @given(references())
    def test_random_ranges_round_trip(self, reference):
        parsed = parse_reference(reference.format())
        assert parsed == reference
        assert parsed.verse_ids() == reference.verse_ids()

    @settings(max_examples=400, deadline=None)
    @given(references(max_segments=4))
    def test_random_lists_round_trip(self, reference):
        text = reference.format()
        parsed = parse_reference(text)
        assert parsed.format() == text
        assert parsed.verse_ids() == reference.verse_ids()

    @settings(max_examples=200, deadline=None)
    @given(references(max_segments=3))
    def test_every_id_covered_is_canonical(self, reference):
        covered = reference.verse_ids()
        assert covered and len(covered) == len(set(covered))
        for vid in covered:
            code, rest = vid.split(" ")
            chapter, verse = map(int, rest.split(":"))
            assert code == reference.book.code
            assert 1 <= verse <= by_code()[code].verse_counts[chapter - 1]


class TestOrdinalWordsThatMeanAccordingTo:
    """ "Segundo" is also "according to": the numbered book is read only when it exists."""

    def test_segundo_joao_is_john(self):
        found = find_references("Segundo João 3:16, Deus amou o mundo")
        assert [(m.text, m.reference.format(), m.error) for m in found] == [("João 3:16", "João 3:16", None)]

    def test_real_numbered_book_still_wins(self):
        found = find_references("Segunda Coríntios 5:17")
        assert found[0].reference.format() == "2 Coríntios 5:17"

    def test_invalid_numbered_reference_still_reported(self):
        # An invented reference must still be seen (the citation validator removes it).
        found = find_references("Primeiro Coríntios 40:1")
        assert len(found) == 1 and found[0].error


# --- Robustness: ordinary text with numbers never breaks the parser ---------------------------------
CRASHES = ("Salmos 23; 2024", "Sl 23 e 1000", "Leio o Salmo 23 e 1000 vezes me consolo")


class TestNumbersThatAreNotReferences:
    @pytest.mark.parametrize(
        "text, found",
        [
            ("Salmos 23; 2024", ["Salmos 23"]),
            ("Sl 23 e 1000", ["Salmos 23"]),
            ("Leio o Salmo 23 e 1000 vezes me consolo", ["Salmos 23"]),
            ("Jo 3:16,99999999999999999999", ["João 3:16"]),
            ("Sl 23, 1000 vezes", ["Salmos 23"]),
        ],
    )
    def test_numbers_that_cannot_be_chapters_or_verses_are_ignored(self, text, found):
        matches = find_references(text)
        assert [m.reference.format() for m in matches if not m.error] == found
        assert all(m.error is None for m in matches)

    @pytest.mark.parametrize(
        "text, found",
        [
            ("Deus, como diz João 3:16-18. 1 Coríntios 13:4 — Deus.", ["João 3:16-18", "1 Coríntios 13:4"]),
            ("Leia Salmos 23. 1 Coríntios 13:4 também.", ["Salmos 23", "1 Coríntios 13:4"]),
            ("Veja Sl 23; 1 Corinthians 13:4", ["Salmos 23"]),
        ],
    )
    def test_a_sentence_end_or_an_unknown_numbered_book_ends_the_reference(self, text, found):
        assert [m.reference.format() for m in find_references(text)] == found

    @pytest.mark.parametrize("text", ["Sl 1000", "Jd 12345", "Salmos 00000023"])
    def test_a_book_before_a_huge_number_is_no_reference(self, text):
        assert find_references(text) == []

    @pytest.mark.parametrize("text", ["Jo 3:1000", "Jo 3:16-1000", "Gn 1:1-2:1000"])
    def test_digits_glued_by_colon_or_dash_make_the_whole_reference_invalid(self, text):
        (match,) = find_references(text)
        assert match.text == text and "1000" in match.error

    @pytest.mark.parametrize("text", CRASHES)
    def test_lookup_of_the_crash_strings(self, text, mini_bible):
        result = lookup(text, mini_bible)
        assert set(result.as_dict()) == {"found", "references", "not_found"}


NUMBERS = st.one_of(
    st.integers(0, 10**25).map(str),
    st.integers(0, 200).map(str),
    st.sampled_from(["0", "00", "007", "1000", "2024", "3:16", "23:1-6", "1.000", "1,5"]),
)
WORDS_PT = st.sampled_from(
    [
        "Salmos",
        "Sl",
        "Salmo",
        "João",
        "Jo",
        "Jó",
        "Gn",
        "1Co",
        "Judas",
        "Jd",
        "Ap",
        "Romanos",
        "capítulo",
        "versículo",
        "v.",
        "cap.",
        "e",
        "ou",
        "vezes",
        "leio",
        "o",
        "Segundo",
        "Primeira",
        "Tobias",
        "Os",
        "em",
        "de",
        "Hezequias",
        "VIII",
    ]
)
SEPARATORS = st.sampled_from([" ", "", ":", ".", ",", ";", "-", "–", " e ", ", ", "; ", "\n", "  ", "/"])


@st.composite
def numbered_text(draw) -> str:
    parts = draw(st.lists(st.tuples(st.one_of(WORDS_PT, NUMBERS), SEPARATORS), max_size=14))
    return "".join(p + s for p, s in parts)


class TestNeverRaises:
    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(numbered_text())
    def test_find_references_and_format_never_raise(self, text):
        for match in find_references(text):
            assert text[match.start : match.end] == match.text
            if match.reference is not None:
                match.reference.format()
                match.reference.check()
                if match.error is None:
                    match.reference.verse_ids()

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(numbered_text())
    def test_lookup_never_raises(self, mini_bible, text):
        lookup(text, mini_bible)


def test_a_number_ending_the_previous_line_does_not_number_the_book():
    from pastor.bible.references import find_references

    text = "Hezequias 3.\nRomanos 8:28"
    (match,) = find_references(text)
    assert text[match.start : match.end] == "Romanos 8:28" and match.error is None
    assert list(match.reference.verse_ids()) == ["ROM 8:28"]

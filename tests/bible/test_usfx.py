"""Tests for pastor.bible.usfx: USFX parsing (both styles), noise cleaning, counts and corpus errors."""

from __future__ import annotations

import gc
import gzip
import hashlib
import re
import warnings
from pathlib import Path

import pytest

from pastor.bible.usfx import (
    Bible,
    CorpusError,
    Verse,
    clean_text,
    count_differences,
    load_bible,
    parse_verse_id,
    verse_id,
)
from pastor.text.datafile import read_bytes


def texts(bible: Bible) -> dict[str, str]:
    return {v.id: v.text for v in bible.verses}


def write(tmp_path: Path, body: str, name: str = "t.usfx.xml") -> Path:
    path = tmp_path / name
    path.write_text(f'<?xml version="1.0" encoding="utf-8"?>\n<usfx>\n{body}\n</usfx>\n', encoding="utf-8")
    return path


# --- Milestone style: <c/>, <v/>text<ve/> -----------------------------------------------------


class TestMilestone:
    @pytest.fixture
    def bible(self, usfx):
        return load_bible(usfx("milestone"))

    def test_verses_and_order(self, bible):
        assert [v.id for v in bible.verses] == ["GEN 1:1", "GEN 1:2", "GEN 1:3", "GEN 2:1", "GEN 2:2", "JHN 3:16"]

    def test_plain_verse(self, bible):
        assert bible.by_id["GEN 1:1"].text == "No princípio criou Deus os céus e a terra."

    def test_footnote_excluded_and_following_text_kept(self, bible):
        assert bible.by_id["GEN 1:2"].text == "E a terra era sem forma e vazia."

    def test_words_of_jesus_kept_cross_reference_excluded(self, bible):
        assert bible.by_id["GEN 1:3"].text == "E disse Deus: Haja luz; e houve luz."

    def test_verse_across_paragraphs_keeps_inline_text_in_order_and_skips_headings(self, bible):
        # <add> and <nd> are kept in place; the <s> between the paragraphs is not verse text.
        assert (
            bible.by_id["GEN 2:1"].text
            == "Assim os céus, a terra e todo o seu exército foram acabados. O Senhor descansou."
        )

    def test_headings_and_book_titles_never_leak(self, bible):
        joined = " ".join(v.text for v in bible.verses)
        for heading in ("A criação", "Outro título", "Gênesis", "Teste", "Ou: vazia", "2Co 4.6", "1.2", "1.3"):
            assert heading not in joined

    def test_trailing_spaces_trimmed(self, bible):
        assert bible.by_id["JHN 3:16"].text == "Porque Deus amou o mundo de tal maneira."

    def test_verse_without_ve_ends_at_the_next_verse(self, tmp_path):
        bible = load_bible(
            write(
                tmp_path,
                '<book id="RUT"><c id="1"/><v id="1"/>Um.\n<v id="2"/>Dois.\n<c id="2"/><v id="1"/>Três.</book>',
            )
        )
        assert texts(bible) == {"RUT 1:1": "Um.", "RUT 1:2": "Dois.", "RUT 2:1": "Três."}

    def test_text_between_ve_and_next_verse_is_not_verse_text(self, tmp_path):
        bible = load_bible(
            write(tmp_path, '<book id="RUT"><c id="1"/><v id="1"/>Um.<ve/> solto <v id="2"/>Dois.<ve/></book>')
        )
        assert texts(bible) == {"RUT 1:1": "Um.", "RUT 1:2": "Dois."}


# --- Container style: <c><v>text</v></c> ------------------------------------------------------


class TestContainer:
    @pytest.fixture
    def bible(self, usfx):
        return load_bible(usfx("container"))

    def test_all_verses(self, bible):
        assert texts(bible) == {
            "PSA 23:1": "O Senhor é o meu pastor; nada me faltará.",
            "PSA 23:2": "Deitar-me faz em verdes pastos, guia-me mansamente a águas tranquilas.",
            "PSA 23:3": "Refrigera a minha alma.",
            "JUD 1:24": "Ora, àquele que é poderoso.",
            "JUD 1:25": "Ao único Deus. Amém.",
        }

    def test_psalm_title_is_not_a_verse(self, bible):
        assert "Salmo de Davi" not in " ".join(texts(bible).values())

    def test_verse_made_only_of_inline_markup(self, tmp_path):
        bible = load_bible(
            write(
                tmp_path,
                '<book id="JHN"><c id="11"><v id="35"><wj>Jesus chorou.</wj></v><v id="36">Disseram.</v></c></book>',
            )
        )
        assert texts(bible) == {"JHN 11:35": "Jesus chorou.", "JHN 11:36": "Disseram."}


class TestNamespaceAndBooks:
    def test_namespace_qualified_file(self, usfx):
        bible = load_bible(usfx("namespaced"))
        assert texts(bible) == {"ROM 8:28": "E sabemos que todas as coisas contribuem juntamente para o bem."}

    def test_deuterocanonical_and_unknown_books_are_skipped(self, tmp_path):
        bible = load_bible(
            write(
                tmp_path,
                '<book id="TOB"><c id="1"/><v id="1"/>Tobias.<ve/></book>'
                '<book id="FRT"><c id="1"/><v id="1"/>Prefácio.<ve/></book>'
                '<book id="GEN"><c id="1"/><v id="1"/>Gênesis.<ve/></book>',
            )
        )
        assert texts(bible) == {"GEN 1:1": "Gênesis."}

    def test_books_sorted_into_canonical_order(self, tmp_path):
        bible = load_bible(
            write(
                tmp_path,
                '<book id="REV"><c id="1"/><v id="1"/>Ap.<ve/></book>'
                '<book id="GEN"><c id="2"/><v id="1"/>Gn2.<ve/><c id="1"/>'
                '<v id="2"/>Gn1b.<ve/><v id="1"/>Gn1a.<ve/></book>',
            )
        )
        assert [v.id for v in bible.verses] == ["GEN 1:1", "GEN 1:2", "GEN 2:1", "REV 1:1"]

    def test_lower_case_book_id(self, tmp_path):
        bible = load_bible(write(tmp_path, '<book id="gen"><c id="1"/><v id="1"/>Texto.<ve/></book>'))
        assert [v.id for v in bible.verses] == ["GEN 1:1"]


# --- Noise cleaning ---------------------------------------------------------------------------


class TestCleanText:
    @pytest.mark.parametrize(
        "raw,clean",
        [
            ("chamou-*os pelos nomes", "chamou-os pelos nomes"),  # a real hyphen: kept
            ("todas as maravi-*lhas que", "todas as maravi-lhas que"),  # ambiguous without a dictionary
            ("o holo-* *causto nos", "o holocausto nos"),  # line-end split across a space: joined
            ("que eu vos ensi-* no, para", "que eu vos ensino, para"),
            ("por-* que temi", "porque temi"),
            ("das* bandas do norte", "das bandas do norte"),
            ("os meus fru*ctos.", "os meus fructos."),
            ("Paddan*-aram", "Paddan-aram"),
            ("texto.  ", "texto."),
            ("  dois  espaços\tjuntos \n", "dois espaços juntos"),
            ("deles./fn/keyCorromperam-se ... é deles/*keyobscuro/*fn São uma", "deles. São uma"),
            ("Sem ruído: “aspas” — travessão, (Selá).", "Sem ruído: “aspas” — travessão, (Selá)."),
        ],
    )
    def test_cases(self, raw, clean):
        assert clean_text(raw) == clean

    def test_noise_fixture_through_the_parser(self, usfx):
        assert texts(load_bible(usfx("noise"))) == {
            "EXO 4:21": "todas as maravi-lhas que tenho posto",
            "LEV 9:13": "Tambem lhe entregaram o holocausto nos seus pedaços.",
            "DEU 32:5": "a falha é deles. São uma geração perversa.",
        }


# --- Corpus errors ----------------------------------------------------------------------------


class TestErrors:
    def test_missing_file_names_pastor_corpus(self, tmp_path):
        with pytest.raises(CorpusError) as info:
            load_bible(tmp_path / "nao-existe.xml")
        assert "PASTOR_CORPUS" in str(info.value)
        assert "nao-existe.xml" in str(info.value)

    def test_directory_is_not_a_corpus(self, tmp_path):
        with pytest.raises(CorpusError, match="PASTOR_CORPUS"):
            load_bible(tmp_path)

    def test_verse_outside_a_chapter_gives_its_line(self, usfx):
        with pytest.raises(CorpusError, match=r"linha 5: versículo fora de um capítulo em GEN"):
            load_bible(usfx("verse_outside_chapter"))

    def test_well_formed_xml_that_is_not_usfx(self, usfx):
        with pytest.raises(CorpusError, match="não parece um arquivo USFX"):
            load_bible(usfx("not_usfx.xml"))

    def test_text_file_that_is_not_xml(self, tmp_path):
        path = tmp_path / "biblia.txt"
        path.write_text("Gênesis 1:1 No princípio\n", encoding="utf-8")
        with pytest.raises(CorpusError, match=r"linha 1"):
            load_bible(path)

    def test_empty_file(self, tmp_path):
        path = tmp_path / "vazio.xml"
        path.write_bytes(b"")
        with pytest.raises(CorpusError, match="vazio.xml"):
            load_bible(path)

    def test_unclosed_tag_gives_its_line(self, tmp_path):
        path = tmp_path / "quebrado.xml"
        path.write_text(
            '<usfx>\n<book id="GEN">\n<c id="1"/>\n<v id="1"/>Texto<ve/>\n</livro>\n</usfx>\n', encoding="utf-8"
        )
        with pytest.raises(CorpusError, match=r"quebrado\.xml: XML malformado ou truncado na linha 5"):
            load_bible(path)

    def test_chapter_without_number(self, tmp_path):
        path = write(tmp_path, '<book id="GEN">\n<c id="x"/>\n<v id="1"/>Texto<ve/></book>')
        with pytest.raises(CorpusError, match=r"linha 4: capítulo sem número"):
            load_bible(path)

    def test_repeated_book(self, tmp_path):
        path = write(
            tmp_path,
            '<book id="GEN"><c id="1"/><v id="1"/>A<ve/></book>\n<book id="GEN"><c id="2"/><v id="1"/>B<ve/></book>',
        )
        with pytest.raises(CorpusError, match="livro GEN repetido"):
            load_bible(path)

    def test_duplicate_verse(self, tmp_path):
        path = write(tmp_path, '<book id="GEN"><c id="1"/><v id="1"/>A<ve/><v id="1"/>B<ve/></book>')
        with pytest.raises(CorpusError, match="versículo duplicado GEN 1:1"):
            load_bible(path)

    def test_failed_load_closes_the_file(self, usfx):
        # A reindex that retries a broken corpus must not leak one descriptor per attempt.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            try:
                load_bible(usfx("verse_outside_chapter"))
            except CorpusError:
                pass
            gc.collect()
        # Only this file's handle counts: other tests' sockets may be collected here too.
        assert [
            w for w in caught if issubclass(w.category, ResourceWarning) and "verse_outside_chapter" in str(w.message)
        ] == []

    @pytest.mark.parametrize("offset", [200, 1_000, 2_000_000, 4_474_000])
    def test_truncated_real_file_gives_the_line_and_no_bible(self, almeida_path, tmp_path, offset):
        # Cut mid-comment, mid-first-book, mid-corpus (after many complete books) and near the end.
        data = read_bytes(almeida_path)[:offset]  # the uncompressed text
        path = tmp_path / "truncado.xml"
        path.write_bytes(data)
        with pytest.raises(CorpusError) as info:
            load_bible(path)
        last_line = data.count(b"\n") + 1
        assert f"truncado.xml: XML malformado ou truncado na linha {last_line}:" in str(info.value)

    def test_trailing_newline_is_not_needed(self, almeida_path, tmp_path):
        path = tmp_path / "sem-quebra-final.xml"
        path.write_bytes(read_bytes(almeida_path).rstrip(b"\n"))
        assert len(load_bible(path).verses) == 31101


# --- The Bible object -------------------------------------------------------------------------


class TestBibleObject:
    @pytest.fixture
    def bible(self, usfx):
        return load_bible(usfx("milestone"))

    def test_verse_id_and_reference(self):
        verse = Verse("JHN", 3, 16, "x")
        assert verse.id == "JHN 3:16"
        assert verse.reference == "João 3:16"
        assert Verse("1CO", 13, 4, "x").reference == "1 Coríntios 13:4"

    def test_verse_id_round_trip(self):
        assert verse_id("1JN", 4, 8) == "1JN 4:8"
        assert parse_verse_id("1JN 4:8") == ("1JN", 4, 8)
        assert parse_verse_id(" PSA 119:176 ") == ("PSA", 119, 176)

    @pytest.mark.parametrize("bad", ["João 3:16", "JHN 3", "JHN3:16", "jhn 3:16", "JHN 3:16a", ""])
    def test_parse_verse_id_rejects(self, bad):
        with pytest.raises(ValueError):
            parse_verse_id(bad)

    def test_lookups(self, bible):
        assert bible.get("GEN", 1, 3).text.startswith("E disse Deus")
        assert bible.get("GEN", 1, 4) is None
        assert bible.chapter_count("GEN") == 2
        assert bible.chapter_count("EXO") == 0
        assert bible.verse_count("GEN", 1) == 3
        assert bible.verse_count("GEN", 3) == 0
        assert bible.verse_count("GEN", 0) == 0

    def test_counts_leave_missing_chapters_at_zero(self, bible):
        # John starts at chapter 3 in this fixture.
        assert bible.counts["JHN"] == [0, 0, 1]

    def test_last_verse_sees_past_a_gap(self, tmp_path):
        bible = load_bible(
            write(tmp_path, '<book id="PSA"><c id="46"/><v id="1"/>A<ve/><v id="2"/>B<ve/><v id="4"/>D<ve/></book>')
        )
        assert bible.verse_count("PSA", 46) == 3
        assert bible.last_verse("PSA", 46) == 4
        assert bible.last_verse("PSA", 47) == 0

    def test_sha256_and_name(self, bible, usfx):
        path = usfx("milestone")
        assert bible.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
        assert bible.name == "milestone.usfx"
        assert load_bible(path, name="Teste").name == "Teste"

    def test_stats_of_a_partial_bible_report_missing_books(self, bible):
        stats = bible.stats()
        assert (stats["file"], stats["books"], stats["chapters"], stats["verses"]) == ("milestone.usfx.xml", 2, 5, 6)
        absent = [d for d in stats["differences"] if d["chapter"] is None]
        assert len(absent) == 64
        assert {
            "book": "EXO",
            "name": "Êxodo",
            "chapter": None,
            "expected": 40,
            "found": 0,
            "detail": "livro ausente",
        } in absent


# --- The real corpora -------------------------------------------------------------------------

ALMEIDA_VERSES = {
    "GEN 1:1": "No principio creou Deus os céus e a terra.",
    "GEN 1:9": "E disse Deus: Ajuntem-se as aguas debaixo dos céus n'um logar; e appareça a porção secca: e assim foi",
    "GEN 50:26": "E morreu José da edade de cento e dez annos; e o embalsamaram, e o pozeram n'um caixão no Egypto.",
    "PSA 23:1": "O Senhor é o meu pastor, nada me faltará.",
    "JHN 3:16": "Porque Deus amou o mundo de tal maneira, que deu o seu Filho unigenito, para que todo "
    "aquelle que n'elle crê não pereça, mas tenha a vida eterna.",
    "2CO 13:13": "A graça do Senhor Jesus Christo, e o amor de Deus, e a communhão do Espirito Sancto seja "
    "com vós todos. Amen.",
    "EXO 4:21": "E disse o Senhor a Moysés: Quando fores tornado ao Egypto, attenta que faças diante de "
    "Pharaó todas as maravi-lhas que tenho posto na tua mão: mas eu endurecerei o seu coração, "
    "para que não deixe ir o povo",
    "GEN 26:18": "E tornou Isaac, e cavou os poços d'agua que cavaram nos dias de Abrahão seu pae, e que os "
    "philisteus taparam depois da morte de Abrahão, e chamou-os pelos nomes que os chamara "
    "seu pae.",
    "LEV 9:13": "Tambem lhe entregaram o holocausto nos seus pedaços, com a cabeça; e queimou-o sobre o altar.",
    "REV 22:21": "A graça de nosso Senhor Jesus Christo seja com todos vós. Amen.",
}

BLIVRE_VERSES = {
    "GEN 1:1": "No princípio criou Deus os céus e a terra.",
    "JHN 3:16": "Porque Deus amou ao mundo de tal maneira, que deu o seu Filho unigênito; para que todo "
    "aquele que nele crê não pereça, mas tenha a vida eterna.",
    "DEU 32:5": "Corromperam-se contra ele; não são seus filhos, a falha é deles. São uma geração perversa "
    "e distorcida.",
    "REV 12:18": "E eu fiquei parado sobre a areia do mar.",
}


def raw_verses(path: Path) -> dict[str, str]:
    """The verse texts exactly as in a milestone file, read independently of the parser."""
    found, book, chapter = {}, None, None
    for line in read_bytes(path).decode("utf-8").splitlines():
        if m := re.match(r'<book id="(\w+)">', line):
            book = m.group(1)
        elif m := re.match(r'<c id="(\d+)"/>', line):
            chapter = int(m.group(1))
        elif m := re.match(r'<v id="(\d+)"/>(.*)<ve/>$', line):
            found[f"{book} {chapter}:{m.group(1)}"] = m.group(2)
    return found


class TestAlmeida:
    def test_counts(self, almeida):
        stats = almeida.stats()
        assert (stats["books"], stats["chapters"], stats["verses"]) == (66, 1189, 31101)

    def test_exactly_one_difference_2co_13(self, almeida):
        assert count_differences(almeida) == [
            {
                "book": "2CO",
                "name": "2 Coríntios",
                "chapter": 13,
                "expected": 14,
                "found": 13,
                "missing": [14],
                "extra": [],
                "detail": "2 Coríntios 13: 13 versículos (canônico: 14); faltam [14]",
            }
        ]

    @pytest.mark.parametrize("vid", ALMEIDA_VERSES)
    def test_known_verses_byte_for_byte(self, almeida, vid):
        assert almeida.by_id[vid].text == ALMEIDA_VERSES[vid]

    def test_verbatim_except_noise(self, almeida, almeida_path):
        raw = raw_verses(almeida_path)
        assert set(raw) == set(almeida.by_id)
        starred = 0
        for vid, source in raw.items():
            text = almeida.by_id[vid].text
            if "*" in source:
                # Only `*`, a printer's hyphen and spaces may go; every letter stays, in order.
                starred += 1
                assert re.sub(r"[*\s-]", "", source) == re.sub(r"[\s-]", "", text), vid
            else:
                assert text == source.strip(), vid
        assert starred == 75

    def test_no_noise_left(self, almeida):
        for v in almeida.verses:
            assert "*" not in v.text and v.text == v.text.strip() and "  " not in v.text and " - " not in v.text, v.id

    def test_sha256_matches_provenance(self, almeida):
        assert almeida.sha256 == "b0d41dc6f818a9cd79fca5c645d94cd7bc47b47d919a39220220c866c4c3405c"


class TestCompressed:
    """The shipped files are gzip; a plain copy of the same text is the same Bible."""

    def test_gzip_and_plain_give_the_same_bible_and_digest(self, usfx, tmp_path):
        plain = usfx("milestone")
        packed = tmp_path / "milestone.usfx.xml.gz"
        packed.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
        a, b = load_bible(plain), load_bible(packed)
        assert a.verses == b.verses and a.name == b.name == "milestone.usfx"
        assert a.sha256 == b.sha256 == hashlib.sha256(plain.read_bytes()).hexdigest()

    def test_a_truncated_gzip_is_a_corpus_error(self, usfx, tmp_path):
        packed = gzip.compress(usfx("milestone").read_bytes())
        path = tmp_path / "cortado.usfx.xml.gz"
        path.write_bytes(packed[: len(packed) // 2])
        with pytest.raises(CorpusError, match="cortado.usfx.xml.gz: arquivo compactado ilegível ou truncado"):
            load_bible(path)

    def test_the_shipped_files_carry_their_attribution(self, almeida, blivre):
        assert almeida.path.name == "por-almeida1911.usfx.xml.gz"
        assert "Almeida 1911" in almeida.credit and "domínio público" in almeida.credit
        assert "Bíblia Livre" in blivre.credit and "CC BY 4.0" in blivre.credit
        assert "Diego Santos" in blivre.credit
        assert blivre.stats()["credit"] == blivre.credit

    def test_a_file_no_notice_covers_has_no_credit(self, usfx):
        assert load_bible(usfx("milestone")).credit == ""


class TestBibliaLivre:
    def test_counts(self, blivre):
        stats = blivre.stats()
        assert (stats["books"], stats["chapters"], stats["verses"]) == (66, 1189, 31102)

    def test_psalm_46_missing_3_and_revelation_12_extra_18(self, blivre):
        diffs = [
            (d["book"], d["chapter"], d["expected"], d["found"], d["missing"], d["extra"])
            for d in count_differences(blivre)
        ]
        assert diffs == [("PSA", 46, 11, 10, [3], []), ("REV", 12, 17, 18, [], [18])]

    @pytest.mark.parametrize("vid", BLIVRE_VERSES)
    def test_known_verses_byte_for_byte(self, blivre, vid):
        assert blivre.by_id[vid].text == BLIVRE_VERSES[vid]

    def test_verbatim_except_spacing_and_the_footnote(self, blivre, blivre_path):
        raw = raw_verses(blivre_path)
        assert set(raw) == set(blivre.by_id)
        for vid, source in raw.items():
            if vid != "DEU 32:5":
                assert blivre.by_id[vid].text == " ".join(source.split()), vid

    def test_no_footnote_residue_or_edge_space(self, blivre):
        for v in blivre.verses:
            assert "/fn" not in v.text and "/*" not in v.text and v.text == v.text.strip(), v.id

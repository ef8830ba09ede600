"""Tests for the book-name table: every form reads as its own book and no other, deuterocanonical books
are refused by name, a number no form takes is never dropped, and every refusal says why."""

from __future__ import annotations

import unicodedata

import pytest

from pastor.bible import book_names, canon
from pastor.bible.book_names import alias_key, forms
from pastor.bible.lookup import lookup
from pastor.bible.references import find_references
from pastor.bible.unmatched import Unmatched

DEUTERO_REASON = "não faz parte do cânon de 66 livros usado aqui"


def reading(text: str):
    """The single match of `text`, which must cover all of it."""
    matches = find_references(text)
    assert len(matches) == 1, (text, [m.text for m in matches])
    assert (matches[0].start, matches[0].end) == (0, len(text)), (text, matches[0].text)
    return matches[0]


def plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


# --- The property: every form of the table, as written and in lower case without accents ---------------


class TestEveryForm:
    def test_the_table_has_thousands_of_forms_for_all_66_books(self):
        codes = {f.code for f in forms() if not f.deuterocanonical}
        assert codes == set(canon.by_code())
        assert len(forms()) > 3000

    def test_every_form_then_1_1_is_that_book_and_no_other(self):
        """One table-wide check (a row is not a separate behaviour): every failing form is listed."""
        wrong = []
        for form in (f for f in forms() if not f.deuterocanonical):
            matches = find_references(f"{form.text} 1:1")
            match = matches[0] if len(matches) == 1 else None
            if (
                match is None
                or (match.start, match.end) != (0, len(form.text) + 4)
                or match.error is not None
                or match.reference.book.code != form.code
                or match.reference.verse_ids() != [f"{form.code} 1:1"]
            ):
                wrong.append(form.text)
        assert wrong == []

    def test_every_deuterocanonical_form_is_refused_with_its_name(self):
        wrong = []
        for form in (f for f in forms() if f.deuterocanonical):
            matches = find_references(f"{form.text} 1:1")
            expected = f"{canon.deuterocanon_name(form.code)} {DEUTERO_REASON} (é um livro deuterocanônico)."
            if len(matches) != 1 or matches[0].reference is not None or matches[0].error != expected:
                wrong.append(form.text)
        assert wrong == []

    def test_names_in_lower_case_without_accents_read_alike(self):
        wrong = []
        for form in forms():
            if form.kind != "name" or form.deuterocanonical or form.code == "JOB":  # `jo` is João
                continue
            text = plain(form.text).lower() + " 1:1"
            match = find_references(text)
            if len(match) != 1 or match[0].reference is None or match[0].reference.book.code != form.code:
                wrong.append(text)
        assert wrong == []


# --- The forms the issue quotes -----------------------------------------------------------------------


class TestQuotedForms:
    @pytest.mark.parametrize(
        "text,expected",
        [
            ("1. João 1:1", "1 João 1:1"),
            ("1a. João 1:1", "1 João 1:1"),
            ("I. João 1:1", "1 João 1:1"),
            ("Segundo. João 1:1", "2 João 1:1"),
            ("Apocalipse de João 1:1", "Apocalipse 1:1"),
            ("1. Coríntios 13:4", "1 Coríntios 13:4"),
            ("2a. Timóteo 1:7", "2 Timóteo 1:7"),
            ("1o. Samuel 3:10", "1 Samuel 3:10"),
            ("II. Reis 2:11", "2 Reis 2:11"),
            ("Mat 5:3", "Mateus 5:3"),
            ("Luc 2:10", "Lucas 2:10"),
            ("Tit 2:11", "Tito 2:11"),
            ("Jud 1:24", "Judas 1:24"),
            ("Rut 1:16", "Rute 1:16"),
            ("Miq 6:8", "Miqueias 6:8"),
            ("Sof 3:17", "Sofonias 3:17"),
            ("Ezeq 36:26", "Ezequiel 36:26"),
            ("1 Ped 5:7", "1 Pedro 5:7"),
            ("2 Ti 1:7", "2 Timóteo 1:7"),
            ("1 Tess 5:17", "1 Tessalonicenses 5:17"),
            ("2 Crôn 7:14", "2 Crônicas 7:14"),
            ("Êxo 20:3", "Êxodo 20:3"),
            ("Abdias 1:15", "Obadias 1:15"),
            ("Habacuc 3:17", "Habacuque 3:17"),
            ("segunda carta aos Coríntios 5:17", "2 Coríntios 5:17"),
            ("primeira de João 4 8", "1 João 4:8"),
            ("1.ª Carta de São Pedro 5:7", "1 Pedro 5:7"),
            ("Evangelho segundo São Mateus 5:3", "Mateus 5:3"),
            ("Sl 22(23), 1", "Salmos 23:1"),
            ("Os 11,1-4.8", "Oseias 11:1-4,8"),
            ("2 Co 5,20-6,2", "2 Coríntios 5:20-6:2"),
        ],
    )
    def test_resolves(self, text, expected):
        match = reading(text)
        assert match.error is None and match.reference.format() == expected

    @pytest.mark.parametrize(
        "text,name",
        [
            ("2 Esdras 1:1", "2 Esdras"),
            ("3 Mc 1:1", "3 Macabeus"),
            ("Carta de Jeremias 1:1", "Carta de Jeremias"),
            ("Tobias 1:1", "Tobias"),
            ("Judite 8:1", "Judite"),
            ("Sabedoria 3:1", "Sabedoria"),
            ("Sirácida 1:1", "Eclesiástico"),
            ("Baruc 3:9", "Baruque"),
            ("4 Macabeus 1:1", "4 Macabeus"),
            ("1 Esdras 1:1", "1 Esdras"),
            ("Ester grega 1:1", "Ester grega"),
            ("Adições a Daniel 1:1", "Adições a Daniel"),
            ("Oração de Manassés 1:1", "Oração de Manassés"),
            ("Bel e o Dragão 1:1", "Bel e o Dragão"),
        ],
    )
    def test_deuterocanonical_books_are_named_and_refused(self, text, name):
        match = reading(text)
        assert match.reference is None and match.error.startswith(f"{name} {DEUTERO_REASON}")

    @pytest.mark.parametrize("text", ["Est 13,9", "Dn 3,57", "Daniel 13", "Dn 14,1"])
    def test_greek_additions_in_catholic_numbering_are_refused(self, text):
        match = reading(text)
        assert "Adições a" in match.error and "deuterocanônicas" in match.error


# --- A number no form takes is never dropped --------------------------------------------------------------


class TestLooseNumbers:
    @pytest.mark.parametrize("text", ["4 João 3:16", "IV João 1:1", "5 Mc 1:1", "4ª João 1:1", "Leia 4. João 3:16"])
    def test_refused_with_a_reason_never_read_without_the_number(self, text):
        [match] = find_references(text)
        assert match.reference is None
        assert "livro não reconhecido" in match.error
        assert text.endswith(match.text)

    def test_a_list_marker_opening_a_line_is_not_a_number_of_the_book(self):
        found = find_references("Leia:\n4. João 3:16\n5. Romanos 8:28")
        assert [m.reference.format() for m in found] == ["João 3:16", "Romanos 8:28"]

    def test_item_1_of_a_list_is_read_as_1_joao_only_where_that_exists(self):
        assert [m.reference.format() for m in find_references("1. João 4:8")] == ["1 João 4:8"]
        assert [m.reference.format() for m in find_references("1. João 14:6")] == ["João 14:6"]

    @pytest.mark.parametrize("text", ["Tenho 4 filhos. João 3:16 diz", "Em 2024. Romanos 8:28", "Sl 23 e 91 João 3:16"])
    def test_numbers_of_the_sentence_are_not_prefixes(self, text):
        assert find_references(text)[-1].reference.book.code in ("JHN", "ROM")


# --- The table itself ----------------------------------------------------------------------------------


class TestTable:
    def test_a_form_two_books_share_is_refused_when_the_table_loads(self, tmp_path, monkeypatch):
        table = tmp_path / "book_names.tsv"
        table.write_text("GEN\tname\tGênesis\nEXO\tabbr\tGenesis\n", encoding="utf-8")
        monkeypatch.setattr(book_names, "TABLE", table)
        book_names.table_lines.cache_clear()
        book_names._build.cache_clear()
        try:
            with pytest.raises(ValueError, match="já é uma forma de GEN"):
                book_names.forms()
        finally:
            book_names.table_lines.cache_clear()
            book_names._build.cache_clear()

    def test_roman_numerals_keep_their_space_so_i_sa_is_not_isaias(self):
        assert alias_key("I Sa") == "i sa" and alias_key("Isa") == "isa"
        assert reading("I Sa 1:1").reference.book.code == "1SA"
        assert reading("Isa 40:31").reference.book.code == "ISA"

    def test_everyday_words_stay_words(self):
        for text in ("deu 3 reais", "num 2 dias", "o mar 3 vezes", "comprei 1 par 40", "tia 2 vezes", "pr 3"):
            assert find_references(text) == [], text


# --- Every refusal says why (the CLI and API lookup) ---------------------------------------------------------


class TestReasons:
    @pytest.mark.parametrize(
        "text,reason",
        [
            ("Hezequias 3:16", "Hezequias: livro não reconhecido."),
            ("asdfgh", "Nenhuma referência bíblica reconhecida no texto (livro não reconhecido)."),
            ("4 Reis 1:1", "4 Reis: livro não reconhecido."),
            ("Coríntios 13:4", "Coríntios: livro não reconhecido (falta o número: 1 Coríntios ou 2 Coríntios?)."),
            ("João 30:1", "João tem 21 capítulos; o capítulo 30 não existe."),
            ("Mateus 5:99", "Mateus 5 tem 48 versículos; o versículo 99 não existe."),
            ("Leia Romanos", "Romanos: falta o capítulo (por exemplo, Romanos 1 ou Romanos 1:1)."),
            ("Tobias", f"Tobias {DEUTERO_REASON} (é um livro deuterocanônico)."),
        ],
    )
    def test_not_found_carries_a_reason(self, almeida, text, reason):
        result = lookup(text, almeida, explain_all=True)
        assert result.found is False
        assert [entry.reason for entry in result.not_found] == [reason]

    def test_found_references_and_reasons_side_by_side(self, mini_bible):
        result = lookup("Sl 23:1 e Hezequias 3:16", mini_bible, explain_all=True)
        assert [r.reference for r in result.references] == ["Salmos 23:1"]
        assert result.not_found == (Unmatched("Hezequias 3:16", "Hezequias: livro não reconhecido."),)

    def test_chat_lookup_explains_nothing_extra(self, mini_bible):
        assert lookup("bom dia, Hezequias 3:16", mini_bible).not_found == ()

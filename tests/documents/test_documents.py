"""Tests for pastor.documents: readers per file type, chunking, references and the folder scan."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pastor.documents import (
    DOC_REF_PATTERN,
    FileResult,
    doc_ref,
    is_citable,
    parse_doc_ref,
    parse_document,
    read_folder,
    split_spans,
    split_text,
)
from pastor.documents.text import markdown_sections
from tests.support.helpers import FIXTURES as _FIXTURES
from tests.support.helpers import ROOT

FIXTURES = _FIXTURES / "docs"
EXAMPLE = ROOT / "corpus" / "docs" / "example"
CAP = 4096  # bytes: every fixture is below it except quebrados/grande.txt


@pytest.fixture(scope="module")
def scan():
    return read_folder(FIXTURES, chunk_size=800, chunk_overlap=100, max_bytes=CAP)


@pytest.fixture(scope="module")
def by_path(scan) -> dict[str, FileResult]:
    return {r.path: r for r in scan.results}


def parse(name: str, text: str, size: int = 800, overlap: int = 100) -> FileResult:
    return parse_document(name, text.encode("utf-8"), chunk_size=size, chunk_overlap=overlap)


def words_of(text: str) -> list[str]:
    return text.split()


# ---------------------------------------------------------------------------------------------
# Chunking
# ---------------------------------------------------------------------------------------------

PROSE = (
    "Primeira frase aqui. Segunda frase um pouco maior que a outra. Terceira!\n\n"
    "Novo parágrafo com mais texto e palavras. E outra frase final."
)


class TestChunking:
    def test_short_text_is_one_verbatim_chunk(self):
        assert split_text("  Uma frase só.  ", 800, 100) == ["Uma frase só."]

    def test_blank_text_has_no_chunks(self):
        assert split_text(" \n\n ", 800, 100) == []

    def test_chunks_respect_size_and_are_verbatim_slices(self):
        for start, end in split_spans(PROSE, 60, 20):
            assert end - start <= 60
            assert PROSE[start:end] == PROSE[start:end].strip()

    def test_cuts_between_sentences_without_overlap(self):
        assert split_text(PROSE, 60, 0) == [
            "Primeira frase aqui.",
            "Segunda frase um pouco maior que a outra. Terceira!",
            "Novo parágrafo com mais texto e palavras.",
            "E outra frase final.",
        ]

    def test_prefers_paragraph_break_when_chunk_stays_half_full(self):
        text = "Um dois três quatro cinco seis.\n\nSete oito. Nove dez onze doze treze."
        # Both a paragraph and a sentence end fit in 50 characters; the paragraph wins.
        assert split_text(text, 50, 0)[0] == "Um dois três quatro cinco seis."

    def test_overlap_repeats_the_end_of_the_previous_chunk(self):
        chunks = split_spans(PROSE, 60, 20)
        assert len(chunks) > 2
        for (_, end), (start, _) in zip(chunks, chunks[1:], strict=False):
            shared = end - start
            assert 0 < shared <= 20
            assert PROSE[start - 1].isspace()  # starts at a word boundary

    def test_overlap_prefers_a_sentence_start(self):
        text = "Alfa beta gama delta. Épsilon zeta. Eta teta iota capa lambda mi ni."
        first, second = split_text(text, 40, 25)[:2]
        assert first == "Alfa beta gama delta. Épsilon zeta."
        assert second.startswith("Épsilon zeta.")

    def test_zero_overlap_covers_every_word_once(self):
        chunks = split_text(PROSE, 45, 0)
        assert words_of(" ".join(chunks)) == words_of(PROSE)

    def test_long_sentence_is_split_between_words(self):
        sentence = " ".join(f"palavra{i}" for i in range(40)) + "."
        chunks = split_text(sentence, 50, 10)
        assert len(chunks) > 1
        tokens = set(sentence.split())
        for chunk in chunks:
            assert set(chunk.split()) <= tokens  # no word was cut

    def test_only_a_word_longer_than_the_size_is_cut(self):
        text = "a" * 130 + " fim"
        assert split_text(text, 50, 0) == ["a" * 50, "a" * 50, "a" * 30 + " fim"]

    def test_hard_cut_also_overlaps(self):
        spans = split_spans("b" * 120, 50, 10)
        assert spans == [(0, 50), (40, 90), (80, 120)]

    @pytest.mark.parametrize("size,overlap", [(0, 0), (50, 50), (50, -1)])
    def test_invalid_settings_raise(self, size, overlap):
        with pytest.raises(ValueError):
            split_text("texto", size, overlap)

    @settings(max_examples=150, deadline=None)
    @given(
        words=st.lists(st.text(alphabet="abcçãéõ", min_size=1, max_size=30), min_size=1, max_size=80),
        seps=st.lists(st.sampled_from([" ", " ", ". ", "\n", "\n\n", "! "]), min_size=80, max_size=80),
        size=st.integers(min_value=20, max_value=200),
        ratio=st.floats(min_value=0, max_value=0.9),
    )
    def test_properties(self, words, seps, size, ratio):
        text = "".join(w + s for w, s in zip(words, seps, strict=False))
        overlap = int(size * ratio)
        spans = split_spans(text, size, overlap)
        assert spans[0][0] == 0 and spans[-1][1] == len(text.rstrip())
        for (s1, e1), (s2, e2) in zip(spans, spans[1:], strict=False):
            assert s1 < s2 and e1 < e2  # chunks move forward
            assert e1 - s2 <= overlap  # never more shared text than the overlap
            assert text[e1:s2].strip() == ""  # nothing between two chunks is lost
        for start, end in spans:
            assert 0 < end - start <= size
            inside_word = (start > 0 and not text[start - 1].isspace()) or (end < len(text) and not text[end].isspace())
            if inside_word:  # only possible when a word (with its punctuation) is longer than the chunk
                assert max(len(w) for w in text.split()) > size


# ---------------------------------------------------------------------------------------------
# Markdown and plain text
# ---------------------------------------------------------------------------------------------


class TestMarkdown:
    def test_one_part_one_chunk_per_section(self, by_path):
        result = by_path["estatuto.md"]
        assert (result.error, result.parts, len(result.chunks)) == (None, 1, 5)
        assert [c.ref for c in result.chunks] == [f"estatuto.md#p0-c{i}" for i in range(5)]

    def test_heading_path_prefixes_search_text_and_titles(self, by_path):
        chunks = by_path["estatuto.md"].chunks
        assert [c.title for c in chunks] == [
            "Estatuto",
            "Estatuto › Da denominação › Art. 1",
            "Estatuto › Da denominação › Art. 2",
            "Estatuto › Da assembleia",
            "Estatuto › Finanças",
        ]
        for chunk in chunks:
            assert chunk.search_text == f"{chunk.title}: {chunk.text}"

    def test_chunk_text_is_verbatim(self, by_path):
        source = (FIXTURES / "estatuto.md").read_text(encoding="utf-8")
        for chunk in by_path["estatuto.md"].chunks:
            assert chunk.text in source

    def test_heading_without_body_joins_the_next_section(self, by_path):
        art1 = by_path["estatuto.md"].chunks[1]
        assert art1.text.startswith("## Da denominação\n\n### Art. 1\n\nA associação")

    def test_code_block_lines_are_not_headings_and_setext_is(self, by_path):
        chunks = by_path["estatuto.md"].chunks
        assert "# isto é código" in chunks[3].text and chunks[3].title == "Estatuto › Da assembleia"
        assert chunks[4].text.startswith("Finanças\n--------")

    def test_long_section_chunks_keep_their_heading_path(self):
        body = " ".join(f"Frase número {i} sobre a Bíblia." for i in range(30))
        result = parse("fe.md", f"# Declaração de fé\n\n## Sobre a Bíblia\n\n{body}\n\n## Outro\n\nFim.", 200, 40)
        bible = [c for c in result.chunks if c.title == "Declaração de fé › Sobre a Bíblia"]
        assert len(bible) > 3
        assert all(c.search_text.startswith("Declaração de fé › Sobre a Bíblia: ") for c in bible)
        assert all(len(c.text) <= 200 for c in result.chunks)
        assert [c.index for c in result.chunks] == list(range(len(result.chunks)))
        assert result.chunks[-1].title == "Declaração de fé › Outro"

    def test_sibling_headings_replace_each_other_in_the_path(self):
        sections = markdown_sections("# A\n\n## B\n\nx\n\n## C\n\ny\n\n# D\n\nz")
        assert [trail for trail, _ in sections] == [["A", "B"], ["A", "C"], ["D"]]

    def test_front_matter_dashes_are_not_a_heading(self):
        sections = markdown_sections("---\ntitulo: x\n---\n\nTexto.")
        assert [trail for trail, _ in sections] == [[]]

    def test_heading_markup_is_cleaned(self):
        sections = markdown_sections("## **Sobre** a [Bíblia](http://x) ##\n\ntexto")
        assert sections[0][0] == ["Sobre a Bíblia"]

    def test_file_without_headings_uses_its_name_as_context(self, by_path):
        (chunk,) = by_path["sub/grupos/jovens.md"].chunks
        assert chunk.ref == "sub/grupos/jovens.md#p0-c0"
        assert chunk.search_text.startswith("jovens: Sem títulos")

    def test_text_file_is_one_part(self, by_path):
        result = by_path["avisos.txt"]
        assert (result.parts, [c.text for c in result.chunks]) == (
            1,
            ["Avisos da semana.\n\nO ensaio do coral será no sábado."],
        )
        assert result.chunks[0].search_text.startswith("avisos: ")

    def test_bom_and_crlf_are_accepted(self):
        result = parse_document("a.txt", "\ufeffLinha um.\r\nLinha dois.\r\n".encode("utf-8"))
        assert result.error is None
        assert result.chunks[0].text == "Linha um.\nLinha dois."


# ---------------------------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------------------------


class TestCsv:
    def test_one_part_per_row_with_header_names(self, by_path):
        result = by_path["agenda.csv"]
        assert (result.error, result.parts) == (None, 3)
        assert [c.text for c in result.chunks] == [
            "culto: Celebração; dia: Domingo; horário: 10h",
            "culto: Oração, louvor e ceia; dia: Quarta-feira; horário: 19h30",  # quoted comma
            "culto: Jovens; dia: Sábado",  # empty value left out
        ]
        assert [c.ref for c in result.chunks] == ["agenda.csv#p0-c0", "agenda.csv#p1-c0", "agenda.csv#p2-c0"]

    def test_titles_give_the_file_line(self, by_path):
        # Line 3 of the file is blank: the rows are on lines 2, 4 and 5.
        assert [c.title for c in by_path["agenda.csv"].chunks] == [
            "agenda › linha 2",
            "agenda › linha 4",
            "agenda › linha 5",
        ]

    def test_semicolon_header_switches_the_delimiter(self, by_path):
        result = by_path["ministerios.csv"]
        assert result.parts == 2
        assert result.chunks[0].text == (
            "ministério: Diaconia; responsável: Equipe de diáconos; observação: Ajuda a famílias, com discrição"
        )

    def test_ragged_row_is_a_file_error(self, by_path):
        result = by_path["quebrados/irregular.csv"]
        assert result.chunks == [] and result.parts == 0
        assert result.error == "linha 3: 3 campos, mas o cabeçalho tem 2; confira separadores e aspas"

    def test_long_row_is_chunked(self):
        text = "nome,texto\nRegra," + '"' + "Uma frase longa de regra. " * 20 + '"\n'
        result = parse("regras.csv", text, 120, 20)
        assert result.parts == 1 and len(result.chunks) > 3
        assert [c.ref for c in result.chunks][:2] == ["regras.csv#p0-c0", "regras.csv#p0-c1"]


# ---------------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------------


class TestJson:
    def test_array_gives_one_part_per_element(self, by_path):
        result = by_path["faq.json"]
        assert result.parts == 3
        assert [c.text for c in result.chunks] == [
            "pergunta: Quem pode participar?; resposta: Todas as pessoas.; publica: sim",
            "pergunta: Há estacionamento?; detalhes.vagas: 20; detalhes.coberto: não",  # null left out
            "Texto solto no meio da lista.",
        ]
        assert result.chunks[1].title == "faq › item 2"

    def test_object_gives_one_part_per_key_holding_objects_then_the_rest(self, by_path):
        chunks = by_path["igreja.json"].chunks
        assert [(c.ref, c.title) for c in chunks] == [
            ("igreja.json#p0-c0", "igreja › endereco"),
            ("igreja.json#p1-c0", "igreja › lideranca"),
            ("igreja.json#p2-c0", "igreja"),
        ]
        assert chunks[0].text == "rua: Rua Fictícia, 1; cidade: Vale Sereno; geo.bairro: Centro"
        assert chunks[1].text == (
            "funcao: pastor titular; contato: secretaria\n\nfuncao: diaconia; horarios: terça, quinta"
        )
        assert chunks[2].text == "nome: Igreja de Teste; fundacao: 1990; tags: acolhimento, família"
        assert chunks[0].search_text.startswith("igreja › endereco: rua:")

    def test_nested_lists_of_objects_are_indexed(self):
        result = parse("x.json", '[{"culto": "Domingo", "horarios": [{"h": "10h"}, {"h": "18h"}]}]')
        assert result.chunks[0].text == "culto: Domingo; horarios[0].h: 10h; horarios[1].h: 18h"

    def test_objects_of_a_key_split_into_chunks_between_objects(self):
        items = ",".join(f'{{"pergunta": "Pergunta {i}?", "resposta": "Resposta {i}."}}' for i in range(10))
        result = parse("faq.json", f'{{"perguntas": [{items}]}}', 120, 0)
        assert result.parts == 1 and len(result.chunks) > 1
        for chunk in result.chunks:
            assert chunk.text.startswith("pergunta:") and chunk.text.endswith(".")

    def test_invalid_json_is_a_file_error(self, by_path):
        result = by_path["quebrados/invalido.json"]
        assert result.chunks == []
        assert result.error.startswith("JSON inválido na linha 3, coluna 1")


# ---------------------------------------------------------------------------------------------
# Errors are per file
# ---------------------------------------------------------------------------------------------


class TestFileErrors:
    @pytest.mark.parametrize(
        "path,message",
        [
            ("quebrados/binario.txt", "arquivo binário"),
            ("quebrados/latin1.md", "não está em UTF-8"),
            ("quebrados/vazio.txt", "arquivo vazio"),
            ("quebrados/grande.txt", "arquivo grande demais"),
            ("quebrados/invalido.json", "JSON inválido"),
            ("quebrados/irregular.csv", "cabeçalho"),
        ],
    )
    def test_broken_file_has_an_error_and_no_chunks(self, by_path, path, message):
        result = by_path[path]
        assert message in result.error
        assert (result.chunks, result.parts) == ([], 0)

    def test_other_files_parse_normally(self, scan):
        good = [r for r in scan.results if not r.path.startswith("quebrados/")]
        assert len(good) == 7
        assert all(r.ok and r.chunks for r in good)
        assert {r.path for r in scan.errors} == {
            f"quebrados/{n}"
            for n in ("binario.txt", "latin1.md", "vazio.txt", "grande.txt", "invalido.json", "irregular.csv")
        }

    def test_oversize_file_is_not_read(self, by_path):
        result = by_path["quebrados/grande.txt"]
        assert result.size == (FIXTURES / "quebrados/grande.txt").stat().st_size > CAP
        assert result.sha256 == ""
        assert "PASTOR_DOC_MAX_BYTES" in result.error

    def test_the_same_file_is_fine_under_a_larger_cap(self):
        scan = read_folder(FIXTURES / "quebrados", max_bytes=10_000)
        assert next(r for r in scan.results if r.path == "grande.txt").ok

    def test_whitespace_only_file_is_empty(self):
        assert parse_document("a.md", b" \n\t\n").error == "arquivo vazio"

    def test_sha256_is_of_the_raw_bytes(self, by_path):
        data = (FIXTURES / "quebrados/latin1.md").read_bytes()
        assert by_path["quebrados/latin1.md"].sha256 == hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------------------------
# Folder scan
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def docs(tmp_path) -> Path:
    folder = tmp_path / "docs"
    shutil.copytree(FIXTURES, folder)
    return folder


def shas(scan) -> dict[str, str]:
    return {r.path: r.sha256 for r in scan.results}


class TestFolder:
    def test_paths_are_relative_with_slashes_and_sorted(self, scan):
        paths = [r.path for r in scan.results]
        assert paths == sorted(paths)
        assert "sub/grupos/jovens.md" in paths

    def test_other_extensions_are_skipped_and_hidden_files_ignored(self, scan):
        assert scan.skipped == ["logo.png"]
        assert ".oculto.md" not in {r.path for r in scan.results}

    def test_missing_folder_means_no_documents(self, tmp_path):
        for folder in (tmp_path / "nao-existe", None):
            empty = read_folder(folder, known={"a.md": "x"})
            assert (empty.results, empty.unchanged, empty.skipped, empty.deleted) == ([], [], [], ["a.md"])

    def test_known_files_unchanged_changed_deleted_and_new(self, docs):
        first = read_folder(docs, max_bytes=CAP)
        known = {path: sha for path, sha in shas(first).items() if sha}
        (docs / "avisos.txt").write_text("Aviso novo.", encoding="utf-8")
        (docs / "faq.json").unlink()
        (docs / "novo.md").write_text("# Novo\n\nTexto.", encoding="utf-8")
        second = read_folder(docs, max_bytes=CAP, known=known)
        assert second.deleted == ["faq.json"]
        assert sorted(r.path for r in second.results) == ["avisos.txt", "novo.md", "quebrados/grande.txt"]
        assert "estatuto.md" in second.unchanged and "quebrados/vazio.txt" in second.unchanged
        assert len(second.unchanged) == len(known) - 2  # all but the changed and the deleted
        assert next(r for r in second.results if r.path == "avisos.txt").chunks[0].text == "Aviso novo."

    def test_unchanged_files_are_not_parsed(self, docs, monkeypatch):
        known = {path: sha for path, sha in shas(read_folder(docs, max_bytes=CAP)).items() if sha}
        import pastor.documents.folder as folder_module

        monkeypatch.setattr(folder_module, "parse_document", lambda *a, **k: pytest.fail("parsed"))
        again = read_folder(docs, max_bytes=CAP, known=known)
        assert [r.path for r in again.results] == ["quebrados/grande.txt"]

    def test_file_link_leaving_the_folder_is_not_read(self, docs, tmp_path):
        secret = tmp_path / "segredo.txt"
        secret.write_text("CONTEUDO SECRETO", encoding="utf-8")
        os.symlink(secret, docs / "atalho.txt")
        os.symlink(tmp_path, docs / "pasta-fora")
        result = read_folder(docs, max_bytes=CAP)
        assert "atalho.txt" in result.skipped and "pasta-fora" in result.skipped
        assert not any("SECRETO" in c.text for c in result.chunks)
        assert not any(r.path.startswith(("atalho", "pasta-fora")) for r in result.results)

    def test_links_inside_the_folder_are_followed_once(self, docs):
        os.symlink(docs / "avisos.txt", docs / "avisos-link.txt")
        os.symlink(docs, docs / "sub" / "volta")  # a loop back to the root
        result = read_folder(docs, max_bytes=CAP)
        paths = [r.path for r in result.results]
        assert "avisos-link.txt" in paths
        assert not any(p.startswith("sub/volta/") for p in paths)

    def test_folder_given_through_a_link_is_read(self, docs, tmp_path):
        os.symlink(docs, tmp_path / "link-docs")
        assert len(read_folder(tmp_path / "link-docs", max_bytes=CAP).results) == 13

    def test_chunk_settings_are_used(self, docs):
        small = read_folder(docs, chunk_size=60, chunk_overlap=10, max_bytes=CAP)
        default = read_folder(docs, max_bytes=CAP)
        assert len(small.chunks) > len(default.chunks)
        assert all(len(c.text) <= 60 for c in small.chunks)


# ---------------------------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------------------------


class TestReferences:
    def test_parse_exact_reference(self):
        assert parse_doc_ref("example/faq.json#p2-c0") == ("example/faq.json", 2, 0)
        assert parse_doc_ref(" estatuto.md#p0-c3 ") == ("estatuto.md", 0, 3)
        assert parse_doc_ref("Declaração-de-fé.MD#p1-c12") == ("Declaração-de-fé.MD", 1, 12)

    @pytest.mark.parametrize(
        "text",
        [
            "estatuto.md",
            "estatuto.md#p0",
            "estatuto.pdf#p0-c1",
            "estatuto.md#p0-c1 e mais",
            "estatuto.md#px-c1",
            "João 3:16",
            "",
            "/etc/x.md#p0-c0",
        ],
    )
    def test_rejects_anything_else(self, text):
        assert parse_doc_ref(text) is None

    def test_finds_references_inside_an_answer(self):
        answer = (
            "Segundo a declaração (example/declaracao-de-fe.md#p0-c1) e o [faq.json#p3-c0], "
            "além de João 3:16, veja estatuto.md#p0-c3. Não: http://x/a.md#p0-c1, b.md#p0-c1x."
        )
        found = [m.group(0) for m in DOC_REF_PATTERN.finditer(answer)]
        assert found == ["example/declaracao-de-fe.md#p0-c1", "faq.json#p3-c0", "estatuto.md#p0-c3"]

    def test_spans_locate_the_reference_exactly(self):
        text = "Veja agenda.csv#p10-c2."
        match = DOC_REF_PATTERN.search(text)
        assert text[match.start() : match.end()] == "agenda.csv#p10-c2"
        assert (match.group("file"), match.group("part"), match.group("chunk")) == ("agenda.csv", "10", "2")

    def test_every_chunk_reference_round_trips(self, scan):
        for chunk in scan.chunks:
            assert chunk.ref == doc_ref(chunk.file, chunk.part, chunk.index)
            assert parse_doc_ref(chunk.ref) == (chunk.file, chunk.part, chunk.index)
            assert is_citable(chunk.ref)

    def test_file_names_with_spaces_are_not_citable(self):
        assert not is_citable("Declaração de fé.md#p0-c0")


# ---------------------------------------------------------------------------------------------
# The example folder shipped with the project
# ---------------------------------------------------------------------------------------------


class TestExample:
    def test_example_parses_without_errors(self):
        scan = read_folder(EXAMPLE.parent, chunk_size=800, chunk_overlap=100, max_bytes=2_000_000)
        by = {r.path: r for r in scan.results}
        assert set(by) >= {"example/declaracao-de-fe.md", "example/agenda.csv", "example/faq.json", "example/sobre.txt"}
        assert scan.errors == [] and scan.skipped == []
        assert all(r.chunks for r in scan.results)
        assert by["example/agenda.csv"].parts == 7
        assert by["example/faq.json"].parts == 6
        titles = {c.title for c in by["example/declaracao-de-fe.md"].chunks}
        assert "Declaração de fé › Sobre a Bíblia" in titles
        assert all(re.fullmatch(r"example/[\w.-]+#p\d+-c\d+", c.ref) for c in scan.chunks)


class TestCompressed:
    def test_a_gzip_copy_reads_like_the_file(self, tmp_path):
        import gzip

        plain = (EXAMPLE / "faq.json").read_bytes()
        a = parse_document("faq.json", plain)
        b = parse_document("faq.json.gz", gzip.compress(plain))
        assert b.error is None and [c.text for c in b.chunks] == [c.text for c in a.chunks]
        assert b.chunks[0].ref.startswith("faq.json.gz#p0-c")  # cited by the file's own name

    def test_a_tiny_archive_cannot_expand_past_the_cap(self):
        import gzip

        bomb = gzip.compress(b"a" * 50_000)
        result = parse_document("muito.txt.gz", bomb, max_bytes=10_000)
        assert result.error and "depois de descompactado" in result.error and len(bomb) < 10_000

    def test_a_broken_archive_is_an_error_for_that_file(self):
        assert parse_document("x.csv.gz", b"\x1f\x8bnao-e-gzip").error == "arquivo .gz corrompido ou truncado"


def test_a_long_run_of_empty_headings_is_one_section_with_every_heading():
    """80k headings in a row with no text (bench/bench_abuse.py times it): one section, nothing lost."""
    from pastor.documents.text import markdown_sections

    text = "# h\n" * 80_000 + "corpo"
    ((trail, body),) = markdown_sections(text)
    assert trail == ["h"] and body.count("# h") == 80_000 and body.endswith("corpo")

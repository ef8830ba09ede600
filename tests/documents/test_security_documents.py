"""Documents cannot exhaust the machine: per-file limits, any parsing failure is that file's error."""

from __future__ import annotations

from pastor.documents import read_folder
from pastor.documents.folder import parse_document
from pastor.web import render


def million_rows() -> bytes:
    return ("nome\n" + "a\n" * 999_997).encode()  # 2 MB: under the default PASTOR_DOC_MAX_BYTES


def deep_json(depth: int = 100_000) -> bytes:
    return ("[" * depth + "]" * depth).encode()


class TestPerFileLimits:
    def test_a_million_row_csv_is_a_per_file_error(self):
        result = parse_document("grande.csv", million_rows(), max_parts=5000)
        assert not result.ok and result.chunks == []
        assert "mais de 5000 partes" in result.error and "PASTOR_DOC_MAX_PARTS" in result.error

    def test_a_json_array_over_the_part_limit_is_an_error(self):
        data = ("[" + ",".join('{"a": 1}' for _ in range(50)) + "]").encode()
        result = parse_document("lista.json", data, max_parts=10)
        assert not result.ok and "mais de 10 partes" in result.error

    def test_chunks_are_capped_per_file(self):
        text = ("Uma frase sobre a igreja e a comunidade. " * 2000).encode()
        result = parse_document("longo.txt", text, chunk_size=100, chunk_overlap=10, max_chunks=50)
        assert not result.ok and "mais de 50 trechos" in result.error

    def test_within_the_limits_nothing_changes(self):
        result = parse_document("pequeno.csv", b"nome,valor\na,1\nb,2\n", max_parts=2)
        assert result.ok and result.parts == 2


class TestParsingFailures:
    def test_deep_json_nesting_is_a_per_file_error(self):
        result = parse_document("fundo.json", deep_json())
        assert not result.ok and "aninhada demais" in result.error

    def test_a_reader_bug_is_a_per_file_error(self, monkeypatch):
        from pastor.documents.text import TextReader

        def broken(self, text, path):
            raise IndexError("bug")

        monkeypatch.setattr(TextReader, "parts", broken)
        result = parse_document("quebra.txt", b"texto")
        assert not result.ok and "IndexError" in result.error

    def test_other_files_are_still_indexed(self, tmp_path):
        (tmp_path / "fundo.json").write_bytes(deep_json())
        (tmp_path / "grande.csv").write_bytes(("nome,valor\n" + "a,1\n" * 20_000).encode())
        (tmp_path / "avisos.md").write_text("# Avisos\n\nCulto às 19h no domingo.", encoding="utf-8")
        scan = read_folder(tmp_path, max_parts=1000)
        results = {r.path: r for r in scan.results}
        assert results["avisos.md"].ok and results["avisos.md"].chunks
        assert not results["fundo.json"].ok and not results["grande.csv"].ok


class TestStatusTab:
    def test_per_file_errors_are_listed(self, tmp_path):
        from pastor.index.doc_index import DocumentSource
        from pastor.web.status_model import documents_json
        from tests.support.core_fixtures import settings_for

        docs = tmp_path / "docs"
        docs.mkdir()
        (docs / "fundo.json").write_bytes(deep_json(5000))
        (docs / "ok.md").write_text("Culto no domingo.", encoding="utf-8")
        source = DocumentSource(settings_for(tmp_path / "data", PASTOR_DOCS_DIR=str(docs)), None)
        source.refresh()
        shown = render.details_markdown({"documents": documents_json(source.status())})
        assert "Documentos com erro" in shown and "fundo.json" in shown and "aninhada demais" in shown
        assert "ok.md" not in shown.split("Documentos com erro")[1]
        assert str(tmp_path) not in shown  # file names only

"""Tests for pastor.index.doc_index: church documents indexed incrementally, per-file errors, search by reference."""

from __future__ import annotations

import re

import pytest

from pastor.documents import read_folder
from pastor.index.doc_index import TABLE, DocumentFile, DocumentSource, RefreshReport
from pastor.index.verse_index import embed_text
from tests.support.core_fixtures import BROKEN_DOCS, GOOD_DOCS, HashEmbedder, settings_for

DOC_REF = re.compile(r"^[\w./-]+\.(md|txt|csv|json)#p\d+-c\d+$")


@pytest.fixture
def settings(tmp_path, docs_dir):
    return settings_for(tmp_path / "data", PASTOR_DOCS_DIR=str(docs_dir))


def source(settings, embedder=None) -> DocumentSource:
    return DocumentSource(settings, embedder if embedder is not None else HashEmbedder())


def expected_chunks(docs_dir) -> dict[str, list[str]]:
    """file → chunk refs, as the document readers produce them."""
    return {r.path: [c.ref for c in r.chunks] for r in read_folder(docs_dir).results}


def files(docs: DocumentSource) -> dict[str, DocumentFile]:
    return {f.path: f for f in docs.status().files}


def table_refs(docs: DocumentSource) -> list[str]:
    return docs._db().open_table(TABLE).to_arrow().column("ref").to_pylist()


class TestFirstIndexing:
    def test_counts_and_per_file_state(self, settings, docs_dir):
        docs = source(settings)
        summary = docs.refresh()
        assert summary == RefreshReport(files=11, read=11, unchanged=0, deleted=0, errors=4)
        chunks = expected_chunks(docs_dir)
        state = files(docs)
        for name in GOOD_DOCS:
            assert (state[name].state, state[name].error) == ("indexed", None)
            assert state[name].chunks == len(chunks[name]) > 0
        assert docs.status().chunks == sum(len(chunks[n]) for n in GOOD_DOCS)
        assert sorted(table_refs(docs)) == sorted(ref for n in GOOD_DOCS for ref in chunks[n])
        assert docs.status().folder == docs_dir.name  # never an absolute path
        assert not hasattr(state["avisos.txt"], "sha256")

    def test_broken_files_show_their_error_while_the_rest_index(self, settings):
        docs = source(settings)
        docs.refresh()
        state = files(docs)
        for name in BROKEN_DOCS:
            assert state[name].state == "error" and state[name].chunks == 0
        assert "binário" in state["quebrados/binario.txt"].error
        assert "JSON inválido" in state["quebrados/invalido.json"].error
        assert "cabeçalho" in state["quebrados/irregular.csv"].error
        assert "UTF-8" in state["quebrados/latin1.md"].error
        assert docs.lexical.search("sede Vale Sereno", 3)[0][0].startswith("estatuto.md#p0-c")

    def test_too_big_file_is_an_error_without_reading_it(self, tmp_path, docs_dir):
        (docs_dir / "grande.txt").write_text("Texto longo. " * 500, encoding="utf-8")
        settings = settings_for(tmp_path / "data", PASTOR_DOCS_DIR=str(docs_dir), PASTOR_DOC_MAX_BYTES="5000")
        docs = source(settings)
        docs.refresh()
        assert "grande demais" in files(docs)["grande.txt"].error
        assert files(docs)["estatuto.md"].state == "indexed"

    def test_every_chunk_is_embedded_once_per_file(self, settings, docs_dir):
        embedder = HashEmbedder()
        source(settings, embedder).refresh()
        assert embedder.calls == len(GOOD_DOCS)  # one batch per file with chunks
        searched = [c.search_text for r in read_folder(docs_dir).results for c in r.chunks]
        assert sorted(embedder.texts) == sorted(embed_text(t) for t in searched)

    def test_missing_folder_means_no_documents(self, tmp_path):
        docs = source(settings_for(tmp_path / "data", PASTOR_DOCS_DIR=str(tmp_path / "nao-ha")))
        assert docs.refresh().files == 0
        assert docs.status().chunks == 0 and docs.lexical is None and not docs.index.ready


class TestIncremental:
    def test_nothing_changed_embeds_nothing(self, settings):
        source(settings).refresh()
        embedder = HashEmbedder()
        again = source(settings, embedder)
        summary = again.refresh()
        assert embedder.calls == 0
        assert (summary.read, summary.unchanged) == (0, 11)
        assert again.index.ready and again.status().chunks == 18

    def test_only_the_changed_file_is_embedded(self, settings, docs_dir):
        source(settings).refresh()
        (docs_dir / "avisos.txt").write_text(
            "Avisos da semana.\n\nO retiro de jovens será em julho.\n", encoding="utf-8"
        )
        embedder = HashEmbedder()
        docs = source(settings, embedder)
        summary = docs.refresh()
        assert (summary.read, summary.unchanged) == (1, 10)
        assert embedder.calls == 1
        assert all("retiro" in t or "avisos" in t for t in embedder.texts)
        assert docs.lexical.search("retiro julho", 1)[0][0] == "avisos.txt#p0-c0"
        assert not docs.lexical.search("coral", 5)  # the old text is gone
        assert "coral" not in docs.text("avisos.txt#p0-c0")
        assert sorted(table_refs(docs)) == sorted(set(table_refs(docs)))  # no duplicates left

    def test_deleted_file_disappears(self, settings, docs_dir):
        docs = source(settings)
        docs.refresh()
        assert any(ref.startswith("estatuto.md#") for ref in table_refs(docs))
        (docs_dir / "estatuto.md").unlink()
        summary = docs.refresh()
        assert summary.deleted == 1
        assert "estatuto.md" not in files(docs)
        assert not any(ref.startswith("estatuto.md#") for ref in table_refs(docs))
        assert docs.text("estatuto.md#p0-c0") is None
        assert all(not ref.startswith("estatuto.md") for ref, _ in docs.lexical.search("sede Vale Sereno", 10))

    def test_repaired_file_is_indexed(self, settings, docs_dir):
        docs = source(settings)
        docs.refresh()
        (docs_dir / "quebrados/invalido.json").write_text(
            '{"pergunta": "Tem culto?", "resposta": "Sim"}', encoding="utf-8"
        )
        docs.refresh()
        assert files(docs)["quebrados/invalido.json"].state == "indexed"
        assert docs.text("quebrados/invalido.json#p0-c0") is not None

    def test_file_name_with_a_quote_is_replaced_not_duplicated(self, settings, docs_dir):
        (docs_dir / "d'água.txt").write_text("Primeira versão.", encoding="utf-8")
        docs = source(settings)
        docs.refresh()
        (docs_dir / "d'água.txt").write_text("Segunda versão.", encoding="utf-8")
        docs.refresh()
        rows = [r for r in table_refs(docs) if r.startswith("d'água.txt")]
        assert rows == ["d'água.txt#p0-c0"]
        assert docs.text("d'água.txt#p0-c0") == "Segunda versão."

    def test_open_serves_the_stored_index_without_reading_files(self, settings, docs_dir):
        source(settings).refresh()
        (docs_dir / "avisos.txt").unlink()  # only a refresh would notice
        embedder = HashEmbedder()
        docs = source(settings, embedder)
        docs.open()
        assert embedder.calls == 0
        assert docs.status().chunks == 18 and docs.index.ready
        assert docs.text("avisos.txt#p0-c0") is not None

    def test_open_ignores_an_index_of_another_embedder(self, settings):
        source(settings).refresh()
        docs = source(settings, HashEmbedder(dim=32, name="outro"))
        docs.open()
        assert docs.status().chunks == 0 and not docs.index.ready

    def test_other_embedder_reindexes_everything(self, settings):
        source(settings).refresh()
        other = HashEmbedder(dim=32, name="outro")
        docs = source(settings, other)
        assert docs.refresh().read == 11
        assert other.calls == len(GOOD_DOCS)
        assert docs.index.matrix.shape == (18, 32)


class TestSearch:
    @pytest.fixture
    def docs(self, settings):
        docs = source(settings)
        docs.refresh()
        return docs

    def test_lexical_hits_are_chunk_references(self, docs):
        hits = docs.lexical.search("ensaio do coral", 5)
        assert hits[0][0] == "avisos.txt#p0-c0"
        assert all(DOC_REF.match(ref) for ref, _ in hits)

    def test_vector_hits_are_chunk_references(self, docs):
        vector = docs.embedder.encode([embed_text(docs.text("avisos.txt#p0-c0"))])[0]
        hits = docs.index.vector_search(vector, 3)
        assert len(hits) == 3 and all(DOC_REF.match(ref) for ref, _ in hits)
        assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)

    def test_text_by_reference(self, docs):
        assert "coral" in docs.text("avisos.txt#p0-c0")
        assert docs.text("avisos.txt#p9-c9") is None

    def test_without_an_embedder_only_lexical(self, settings):
        docs = DocumentSource(settings, None)
        docs.refresh()
        assert not docs.index.ready and docs.index.vector_search([0.0], 3) == []
        assert docs.lexical.search("ensaio do coral", 1)[0][0] == "avisos.txt#p0-c0"


class TestModernizeSetting:
    """`PASTOR_MODERNIZE` applies to documents as to verses and queries, and is part of the manifest key."""

    def test_off_embeds_the_text_as_written(self, tmp_path):
        folder = tmp_path / "docs"
        folder.mkdir()
        (folder / "sermao.md").write_text("# Sermão\n\nO peccado e a graça de Christo.\n", encoding="utf-8")
        embedder = HashEmbedder()
        source(
            settings_for(tmp_path / "data", PASTOR_DOCS_DIR=str(folder), PASTOR_MODERNIZE="false"), embedder
        ).refresh()
        assert embedder.texts and all("peccado" in text for text in embedder.texts)
        assert embed_text("peccado", modernize=True) != "peccado"  # the setting matters for this text

    def test_changing_it_reembeds_every_document(self, tmp_path, docs_dir):
        data = tmp_path / "data"
        source(settings_for(data, PASTOR_DOCS_DIR=str(docs_dir))).refresh()
        embedder = HashEmbedder()
        summary = source(
            settings_for(data, PASTOR_DOCS_DIR=str(docs_dir), PASTOR_MODERNIZE="false"), embedder
        ).refresh()
        assert summary.unchanged == 0 and summary.read == 11
        assert embedder.texts

"""Tests for pastor.index.engine: loading, status, background indexing and answering while vectors are off."""

from __future__ import annotations

import pytest

from pastor.index.engine import Engine
from pastor.search.embedders.embedder import EmbedderError
from pastor.search.modes import SearchMode as Mode
from pastor.search.prominence import ATTRIBUTION
from pastor.search.rows import build_rows
from pastor.web.status_model import search_status_json as status_json
from pastor.wiring import build_engine
from tests.support.core_fixtures import EXTRA, EXTRA_ALIGNED, FAKE_MODEL, MINI, MINI_VERSES, PROMINENCE

FORGIVE = "Pedro perguntou quantas vezes devo perdoar meu irmão"  # MAT 18:21 almost word for word
REFERENCE = "o que diz João 3:16?"


def answers_without_vectors(engine: Engine) -> None:
    """What the app must still do while vectors are off: references and keyword search."""
    assert engine.retriever.search(REFERENCE).mode == Mode.REFERENCE
    result = engine.retriever.search(FORGIVE)
    assert result.mode == Mode.LEXICAL_FALLBACK
    assert result.results[0].id == "MAT 18:21"


# -- status ----------------------------------------------------------------------------------------
class TestStatus:
    def test_ready_engine(self, engine):
        status = status_json(engine.status())
        assert status["state"] == "complete"
        assert status["ready"] is True and status["vectors_ready"] is True and status["bm25_ready"] is True
        assert status["embedder"] == {"name": "fake-bow-64", "dim": 64}
        assert status["index"] == {"state": "complete", "rows": MINI_VERSES, "total": MINI_VERSES, "error": None}
        assert status["progress"] == {"done": MINI_VERSES, "total": MINI_VERSES}
        assert status["corpus"]["file"] == "mini.usfx.xml" and status["corpus"]["verses"] == MINI_VERSES
        assert "differences" not in status["corpus"]
        assert status["extra_corpora"] == [] and status["errors"] == []
        assert "documents" not in status

    def test_prominence_off_when_the_setting_is_empty(self, engine):
        assert status_json(engine.status())["prominence"] == {
            "enabled": False,
            "detail": "desligado (PASTOR_PROMINENCE vazio)",
        }

    def test_prominence_on(self, make_engine):
        engine = make_engine(index=False, PASTOR_PROMINENCE=str(PROMINENCE), PASTOR_PROMINENCE_WEIGHT="0.01")
        assert status_json(engine.status())["prominence"] == {
            "enabled": True,
            "file": "expected_prominence.tsv",
            "verses": 24,
            "weight": 0.01,
        }
        assert engine.retriever.prior("JHN 3:16") == engine.resources.prominence.prior("JHN 3:16", 0.01)

    def test_prominence_off_when_the_file_is_missing(self, make_engine, tmp_path):
        status = status_json(make_engine(index=False, PASTOR_PROMINENCE=str(tmp_path / "nao-ha.tsv")).status())
        assert status["prominence"]["enabled"] is False
        assert "não encontrado" in status["prominence"]["detail"]
        assert status["errors"] == []

    def test_prominence_off_with_the_error_when_the_file_is_broken(self, make_engine, tmp_path):
        broken = tmp_path / "quebrado.tsv"
        broken.write_text("isto não é uma tabela\n", encoding="utf-8")
        engine = make_engine(index=False, PASTOR_PROMINENCE=str(broken))
        status = status_json(engine.status())
        assert status["prominence"] == {"enabled": False, "detail": "erro ao carregar; veja os erros"}
        assert any(e.startswith("prominência:") and "cabeçalho" in e for e in status["errors"])
        assert engine.retriever.search(REFERENCE).mode == Mode.REFERENCE

    def test_extra_translation(self, make_engine):
        engine = make_engine(PASTOR_EXTRA_CORPORA=str(EXTRA))
        status = status_json(engine.status())
        [extra] = status["extra_corpora"]
        assert (extra["file"], extra["verses"], extra["aligned"]) == ("mini_extra.usfx.xml", 8, EXTRA_ALIGNED)
        assert status["index"]["rows"] == status["index"]["total"] == MINI_VERSES + EXTRA_ALIGNED
        # BM25 reads the extra wording too ("Jeová" is only in the extra translation).
        hits = engine.retriever.search("Jeová", gated=False, off={"vector"}).results
        assert hits[0].id == "PSA 23:1"

    def test_an_extra_that_is_the_main_text_is_not_loaded_twice(self, make_engine):
        engine = make_engine(index=False, PASTOR_EXTRA_CORPORA=str(MINI))
        assert engine.resources.extras == [] and status_json(engine.status())["extra_corpora"] == []

    def test_credits_follow_the_data_in_use(self, make_engine, tmp_path):
        folder = tmp_path / "dados"
        folder.mkdir()
        (folder / "mini.usfx.xml").write_bytes(MINI.read_bytes())
        (folder / "extra.usfx.xml").write_bytes(EXTRA.read_bytes())
        (folder / "NOTICE.md").write_text(
            "## Mini\n- File: `mini.usfx.xml.gz`\n- Credit: Texto: Mini\n\n"
            "## Extra\n- File: `extra.usfx.xml`\n- Credit: Busca: Extra, CC BY 4.0\n",
            encoding="utf-8",
        )
        main = str(folder / "mini.usfx.xml")
        assert make_engine(index=False, PASTOR_CORPUS=main).credits() == ["Texto: Mini"]
        engine = make_engine(
            index=False,
            PASTOR_CORPUS=main,
            PASTOR_EXTRA_CORPORA=str(folder / "extra.usfx.xml"),
            PASTOR_PROMINENCE=str(PROMINENCE),
        )
        # Any prominence table is derived from OpenBible's cross references: its credit travels with it.
        assert engine.credits() == ["Texto: Mini", "Busca: Extra, CC BY 4.0", ATTRIBUTION]
        assert status_json(engine.status())["extra_corpora"][0]["credit"] == "Busca: Extra, CC BY 4.0"

    def test_documents_in_status_when_a_folder_is_set(self, make_engine, docs_dir):
        status = status_json(make_engine(PASTOR_DOCS_DIR=str(docs_dir)).status())
        assert status["documents"]["folder"] == docs_dir.name  # a name, never an absolute path
        assert status["documents"]["chunks"] > 0

    def test_documents_are_served_at_start_up_without_re_reading(self, make_engine, docs_dir, fake_models):
        first = make_engine(PASTOR_DOCS_DIR=str(docs_dir))
        chunks = status_json(first.status())["documents"]["chunks"]
        embedder = fake_models[FAKE_MODEL]
        embedder.reset()
        again = make_engine(index=False, PASTOR_DOCS_DIR=str(docs_dir))
        assert status_json(again.status())["documents"]["chunks"] == chunks > 0
        verses = {row.search_text for row in build_rows(again.resources.bible)}
        assert embedder.calls == 1 and set(embedder.texts) <= verses  # only the verse vectors' content check
        hits = again.retriever.search("sede da igreja em Vale Sereno", source="docs").results
        assert hits and hits[0].kind == "doc"

    def test_missing_corpus_is_a_corpus_error(self, make_settings, fake_models, tmp_path):
        from pastor.bible.usfx import CorpusError

        with pytest.raises(CorpusError):
            build_engine(make_settings(PASTOR_CORPUS=str(tmp_path / "nao-ha.usfx.xml")))


# -- before and during indexing --------------------------------------------------------------------
class TestWhileVectorsAreNotReady:
    def test_not_indexed_yet(self, make_engine):
        engine = make_engine(index=False)
        status = status_json(engine.status())
        assert (status["state"], status["vectors_ready"], status["bm25_ready"]) == ("missing", False, True)
        assert status["index"] == {"state": "missing", "rows": 0, "total": MINI_VERSES, "error": None}
        answers_without_vectors(engine)

    def test_background_indexing(self, make_engine, fake_models):
        embedder = fake_models[FAKE_MODEL]
        embedder.block_on_call = 2  # the second batch waits until the test releases it
        engine = make_engine(index=False)
        try:
            assert engine.start_indexing() is True
            assert embedder.entered.wait(30)
            status = status_json(engine.status())
            assert engine.indexing
            assert (status["state"], status["vectors_ready"]) == ("indexing", False)
            assert status["index"]["state"] == "indexing"
            assert status["index"]["rows"] == status["progress"]["done"] == 8
            assert status["index"]["total"] == MINI_VERSES
            answers_without_vectors(engine)
            assert engine.start_indexing() is False  # one build at a time
            assert engine.start_indexing(rebuild=True) is False
        finally:
            embedder.release.set()
            engine.indexer.thread.join(30)
        assert status_json(engine.status())["state"] == "complete"
        assert engine.retriever.search(FORGIVE).mode == Mode.RAG
        assert len(embedder.texts) == MINI_VERSES + 1  # every verse once, then the one query after

    def test_complete_only_when_what_follows_the_vectors_is_ready(self, make_engine, tmp_path, monkeypatch):
        """Issue 22: no "complete" while the query adapter, trained after the vectors, is not."""
        import threading

        from pastor.index import pipeline

        entered, release, real = threading.Event(), threading.Event(), pipeline.load_adapter

        def slow_training(*args, **kwargs):
            entered.set()
            release.wait(30)
            return real(*args, **kwargs)

        monkeypatch.setattr(pipeline, "load_adapter", slow_training)
        engine = make_engine(index=False, PASTOR_ADAPTER_QUESTIONS=str(tmp_path / "perguntas.jsonl"))
        try:
            assert engine.start_indexing() is True
            assert entered.wait(30)
            status = status_json(engine.status())
            assert status["index"]["state"] == "complete" and status["vectors_ready"]
            assert (status["state"], status["pending"]) == ("indexing", ["adaptador de consulta"])
            assert status["adapter"]["detail"] == "em treinamento (o índice vetorial está pronto)"
        finally:
            release.set()
            engine.indexer.thread.join(30)
        status = status_json(engine.status())
        assert (status["state"], status["pending"]) == ("complete", [])
        assert status["adapter"]["detail"].startswith("erro:")  # the question file does not exist

    def test_stop_then_resume(self, make_engine, fake_models):
        embedder = fake_models[FAKE_MODEL]
        embedder.block_on_call = 2
        engine = make_engine(index=False)
        engine.start_indexing()
        assert embedder.entered.wait(30)
        engine.indexer.cancel.set()  # what stop_indexing does first; the blocked batch still finishes
        embedder.release.set()
        engine.stop_indexing()
        assert not engine.indexing
        status = status_json(engine.status())
        assert (status["state"], status["index"]["rows"]) == ("partial", 16)
        answers_without_vectors(engine)

        embedder.reset()
        assert engine.start_indexing(background=False) is True
        assert status_json(engine.status())["state"] == "complete"
        assert len(embedder.texts) == MINI_VERSES - 16  # only what was missing

    def test_rebuild_recomputes(self, engine, fake_models):
        embedder = fake_models[FAKE_MODEL]
        embedder.reset()
        assert engine.start_indexing(rebuild=True, background=False)
        assert len(embedder.texts) == MINI_VERSES

    def test_second_start_after_completion_recomputes_nothing(self, engine, fake_models):
        embedder = fake_models[FAKE_MODEL]
        embedder.reset()
        assert engine.start_indexing(background=False)
        assert embedder.calls == 0

    def test_reload_opens_the_complete_index(self, engine, make_settings, fake_models):
        fake_models[FAKE_MODEL].reset()
        again = Engine(make_settings()).load()
        assert status_json(again.status())["state"] == "complete" and status_json(again.status())["vectors_ready"]
        # Issue 29: no build ran in this process, and the progress is still the table's (it said 0 / 0).
        assert status_json(again.status())["progress"] == {"done": MINI_VERSES, "total": MINI_VERSES}
        assert fake_models[FAKE_MODEL].calls == 1  # the content check's sample; nothing rebuilt

    def test_the_vectors_can_follow_the_keywords(self, engine, make_settings, fake_models):
        """The app's start: texts, BM25 and prior first, with no model loaded; then the embedder and the
        vectors on disk in a second engine over the same texts, the first left as it was."""
        fake_models[FAKE_MODEL].reset()
        first = Engine(make_settings()).load(vectors=False)
        assert first.resources.embedder is None and first.resources.index is None
        assert first.health.get("embedder").state.value == "starting"
        answers_without_vectors(first)
        full = first.with_vectors()
        assert full.resources.bible is first.resources.bible and full.resources.lexical is first.resources.lexical
        # read from disk: the one call is the content check's sample, nothing re-embedded
        assert full.health.get("embedder").state.value == "ok" and fake_models[FAKE_MODEL].calls == 1
        assert full.retriever.vectors_ready and full.retriever.search(FORGIVE).mode == Mode.RAG
        assert first.resources.embedder is None  # the first engine keeps serving unchanged until replaced


# -- embedder failures -----------------------------------------------------------------------------
class TestEmbedderFailures:
    def test_embedder_that_cannot_load_turns_vectors_off(self, make_engine, monkeypatch):
        import pastor.search.embedders as embedders

        def refuse(name):
            raise EmbedderError(f"Não foi possível carregar o modelo de embeddings '{name}'.")

        monkeypatch.setattr(embedders, "load_embedder", refuse)
        engine = make_engine(index=False, EMBEDDING_MODEL="modelo-falso")
        status = status_json(engine.status())
        assert status["state"] == "error"
        assert status["embedder"]["name"] == "modelo-falso" and status["embedder"]["dim"] is None
        assert "modelo-falso" in status["embedder"]["error"]
        assert status["vectors_ready"] is False and status["index"] is None
        assert any(e.startswith("modelo de embeddings:") for e in status["errors"])
        assert engine.start_indexing() is False
        answers_without_vectors(engine)

    def test_documents_still_index_for_keyword_search(self, make_engine, monkeypatch, docs_dir):
        import pastor.search.embedders as embedders

        def refuse(name):
            raise EmbedderError("modelo indisponível")

        monkeypatch.setattr(embedders, "load_embedder", refuse)
        engine = make_engine(index=False, PASTOR_DOCS_DIR=str(docs_dir))
        assert engine.start_indexing(background=False) is True  # documents only
        status = status_json(engine.status())
        assert status["state"] == "error" and status["documents"]["chunks"] > 0
        result = engine.retriever.search("sede da igreja em Vale Sereno", source="docs")
        assert result.mode == Mode.LEXICAL_FALLBACK
        assert result.results[0].id.startswith("estatuto.md#")

    def test_bogus_model_name_has_no_silent_fallback(self, make_engine, tmp_path, monkeypatch):
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        bogus = str(tmp_path / "modelo-que-nao-existe")
        engine = make_engine(index=False, EMBEDDING_MODEL=bogus)  # goes to the real loader
        assert engine.resources.embedder is None and engine.resources.index is None  # no other model was loaded
        status = status_json(engine.status())
        assert status["state"] == "error"
        assert status["embedder"]["name"] == bogus
        assert "Não foi possível carregar o modelo de embeddings" in status["embedder"]["error"]
        assert status["vectors_ready"] is False
        assert engine.start_indexing() is False
        answers_without_vectors(engine)

    def test_failure_while_indexing_is_shown(self, make_engine, fake_models, capsys):
        fake_models[FAKE_MODEL].fail_on_call = 2
        engine = make_engine(index=False)
        engine.start_indexing(background=False)
        status = status_json(engine.status())
        assert status["state"] == "error"
        assert status["index"]["error"].startswith("falha ao indexar:")
        assert status["index"]["rows"] == 8
        assert any(e.startswith("indexação:") for e in status["errors"])
        answers_without_vectors(engine)


# -- sources and topics wired at construction -------------------------------------------------------
class TestWiring:
    def test_documents_are_passed_to_the_retriever_at_construction(self, make_engine, tmp_path):
        from tests.support.core_fixtures import copy_docs

        engine = make_engine(index=False, PASTOR_DOCS_DIR=str(copy_docs(tmp_path / "docs")))
        assert engine.retriever.extra_sources == (engine.resources.docs,)
        assert make_engine(index=False).retriever.extra_sources == ()

    def test_topics_are_built_by_the_indexer_and_reported(self, make_engine, tmp_path):
        nave = tmp_path / "nave.csv"
        nave.write_text('section,subject,entry\nF,FORGIVENESS,"-OF ENEMIES MAT 6:14; EPH 4:32"\n', encoding="utf-8")
        engine = make_engine(index=False, PASTOR_TOPICS=str(nave))
        assert status_json(engine.status())["topics"] == {
            "enabled": False,
            "detail": "aguardando a indexação dos temas",
        }
        assert engine.start_indexing(background=False)
        topics = status_json(engine.status())["topics"]
        assert topics["enabled"] is True and topics["entries"] >= 1
        hits = engine.retriever.search("forgiveness of enemies", k=25, gated=False).results
        assert {"MAT 6:14", "EPH 4:32"} <= {h.id for h in hits if h.rank_in("topic") is not None}

    def test_topics_off_when_the_setting_is_empty(self, engine):
        assert engine.resources.topics is None and status_json(engine.status())["topics"]["enabled"] is False

"""Search never silently degrades: the same hybrid results before, during and after a rebuild,
after a failed one (any error, a full disk) and from a read-only data directory."""

from __future__ import annotations

import errno
import threading

import numpy as np
import pyarrow as pa
import pytest

from pastor.index import verse_index as index_module
from pastor.index.verse_index import READ_ONLY_NOTICE, VerseIndex
from pastor.search.bm25 import LexicalIndex
from pastor.search.modes import SearchMode as Mode
from pastor.search.retrieval import Retriever
from pastor.web.schemas import search_json
from pastor.web.status_model import search_status_json as status_json
from tests.support.core_fixtures import HashEmbedder
from tests.support.helpers import retriever_over
from tests.support.mounts import fill, read_only_view, small_disk, used_bytes

CHURCH = "Onde fica a sede da igreja em Vale Sereno?"  # answered by the church's documents
QUESTIONS = (
    "Pedro perguntou quantas vezes devo perdoar meu irmão",
    "estou com medo do futuro",
    "Deus amou o mundo e deu seu filho",
    "a ansiedade pelo dia de amanhã",
)


def make_retriever(bible, data_dir, embedder=None) -> Retriever:
    index = VerseIndex(data_dir, embedder or HashEmbedder(), batch_size=8)
    lexical = LexicalIndex([v.id for v in bible.verses], [v.text for v in bible.verses])
    return retriever_over(bible, embedder=index.embedder, index=index, lexical=lexical)


def answers(retriever: Retriever) -> list[dict]:
    return [search_json(retriever.search(q)) for q in QUESTIONS]


def assert_hybrid(results: list[dict]) -> None:
    """The questions are answered from vectors and keywords together, not keywords alone."""
    assert [r["mode"] for r in results[:2]] == [Mode.RAG, Mode.RAG]
    assert all(any(h["vector_rank"] is not None for h in r["results"]) for r in results)


@pytest.fixture
def built(tmp_path, mini_bible):
    retriever = make_retriever(mini_bible, tmp_path / "data")
    assert retriever.signal("vector").index.build(mini_bible).state == "complete"
    before = answers(retriever)
    assert_hybrid(before)
    return retriever, before


def beside_files(index: VerseIndex) -> list[str]:
    """What a rebuild leaves beside the live table: the other table and its manifest."""
    other = index_module.BESIDE[index.serving["table"]]
    found = [p.name for p in (index.dir / "lancedb").glob(f"{other}.lance")]
    found += [p.name for p in index.dir.glob(f"{other}.*")]
    return found + ([index.next_path.name] if index.next_path.exists() else [])


class TestDuringARebuild:
    def test_the_same_hybrid_results_while_the_new_table_fills(self, built, mini_bible):
        retriever, before = built
        index, embedder = retriever.signal("vector").index, retriever.signal("vector").index.embedder
        embedder.block_on_call = embedder.calls + 2  # the rebuild's second batch waits for the test
        worker = threading.Thread(target=index.build, args=(mini_bible,), kwargs={"rebuild": True})
        worker.start()
        try:
            assert embedder.entered.wait(10)
            assert index.status.state == "indexing" and "calibration" not in index.status.manifest
            assert answers(retriever) == before
        finally:
            embedder.release.set()
            worker.join(10)
        assert index.status.state == "complete"
        assert answers(retriever) == before  # the same vectors again, now from the other table
        assert index.serving["table"] == "verses_b" and beside_files(index) == []


class TestAfterAFailedRebuild:
    def test_any_error_keeps_the_old_index_serving_and_removes_the_new_table(self, built, mini_bible):
        retriever, before = built
        index, embedder = retriever.signal("vector").index, retriever.signal("vector").index.embedder
        embedder.fail_on_call = embedder.calls + 3  # two batches of the new table are committed first
        with pytest.raises(Exception, match="falha simulada"):
            index.build(mini_bible, rebuild=True)
        assert answers(retriever) == before
        assert index.status.state == "complete"
        assert "a reindexação falhou" in index.status.error and "anterior continua em uso" in index.status.error
        assert beside_files(index) == []

    def test_a_write_refused_for_space_mid_build(self, built, mini_bible, monkeypatch):
        """The write layer raising ENOSPC as the OS does (the test below uses a real full disk)."""
        retriever, before = built
        writes = []

        def full_after_two(path, data):
            writes.append(path)
            if len(writes) > 2:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
            return real(path, data)

        real = index_module.write_json
        monkeypatch.setattr(index_module, "write_json", full_after_two)
        with pytest.raises(OSError):
            retriever.signal("vector").index.build(mini_bible, rebuild=True)
        assert answers(retriever) == before
        assert "No space left on device (manifest.next.json)" in retriever.signal("vector").index.status.error
        assert beside_files(retriever.signal("vector").index) == []

    def test_a_full_disk_gets_its_space_back(self, tmp_path, mini_bible):
        with small_disk(tmp_path / "disk", 4096) as disk:
            retriever = make_retriever(mini_bible, disk / "data")
            retriever.signal("vector").index.build(mini_bible)
            before = answers(retriever)
            assert_hybrid(before)
            filler = fill(disk)
            used = used_bytes(disk)
            with pytest.raises(Exception):  # noqa: B017 (LanceDB and Arrow raise their own types on a full disk)
                retriever.signal("vector").index.build(mini_bible, rebuild=True)
            assert answers(retriever) == before
            assert "a reindexação falhou" in retriever.signal("vector").index.status.error
            assert beside_files(retriever.signal("vector").index) == [] and used_bytes(disk) <= used
            filler.unlink()  # space returns: the next rebuild completes
            assert retriever.signal("vector").index.build(mini_bible, rebuild=True).state == "complete"
            assert answers(retriever) == before


class TestReadOnlyDataDirectory:
    def test_the_existing_index_serves_read_only(self, built, tmp_path, mini_bible):
        _, before = built
        with read_only_view(tmp_path / "data", tmp_path / "readonly") as data:
            retriever = make_retriever(mini_bible, data)
            assert retriever.signal("vector").index.open(mini_bible).state == "complete"
            status = retriever.signal("vector").index.build(mini_bible)
            assert status.state == "complete" and retriever.signal("vector").index.notice == READ_ONLY_NOTICE
            assert answers(retriever) == before
            with pytest.raises(OSError):
                (data / "probe").write_text("x")  # the mount really refuses writes, root's too

    def test_without_an_index_it_says_why(self, tmp_path, mini_bible):
        (tmp_path / "empty").mkdir()
        with read_only_view(tmp_path / "empty", tmp_path / "readonly") as data:
            retriever = make_retriever(mini_bible, data)
            with pytest.raises(OSError):
                retriever.signal("vector").index.build(mini_bible)
            assert retriever.signal("vector").index.status.state == "error"
            assert "Read-only file system" in retriever.signal("vector").index.status.error
            assert str(tmp_path) not in retriever.signal("vector").index.status.error


class TestTheEngine:
    """What `/search` serves (`engine.retriever`) and what the status tab shows."""

    def test_a_rebuild_then_a_failed_one(self, make_engine, embedder):
        engine = make_engine()
        before = answers(engine.retriever)
        assert_hybrid(before)
        embedder.block_on_call = embedder.calls + 1
        assert engine.start_indexing(rebuild=True)
        assert embedder.entered.wait(10)
        assert status_json(engine.status())["state"] == "indexing" and status_json(engine.status())["vectors_ready"]
        assert answers(engine.retriever) == before
        embedder.fail_on_call = embedder.calls + 2  # the blocked batch goes through, the next one fails
        embedder.release.set()
        engine.indexer.thread.join(10)
        status = status_json(engine.status())
        assert answers(engine.retriever) == before
        assert status["state"] == "complete" and "anterior continua em uso" in status["index"]["error"]
        assert any(e.startswith("indexação: falha simulada") for e in status["errors"])

    def test_a_read_only_data_directory(self, make_engine, make_settings, tmp_path, fake_models, docs_dir):
        from pastor.index.engine import Engine

        first = make_engine(PASTOR_DOCS_DIR=str(docs_dir))
        before = answers(first.retriever)
        church = search_json(first.retriever.search(CHURCH))
        assert any(hit["kind"] == "doc" for hit in church["results"])
        with read_only_view(make_settings().data_dir, tmp_path / "readonly") as data:
            engine = Engine(make_settings(PASTOR_DATA_DIR=str(data), PASTOR_DOCS_DIR=str(docs_dir))).load()
            assert engine.start_indexing(background=False)
            status = status_json(engine.status())
            assert status["state"] == "complete" and status["index_notice"] == READ_ONLY_NOTICE
            assert status["errors"] == [] and status["documents"]["read_only"] is True
            assert answers(engine.retriever) == before
            assert search_json(engine.retriever.search(CHURCH)) == church


class TestBadVectorsOnDisk:
    """A vector file or table of the right shape but wrong content is refused with its reason, never served."""

    def test_a_bad_copy_is_refused_and_made_again_from_the_table(self, built, tmp_path, mini_bible, caplog):
        _, before = built
        mirror = tmp_path / "data" / "index" / "verses.vectors.npy"
        good = np.load(mirror)
        cases = {
            "zero-filled": (lambda: np.save(mirror, np.zeros_like(good)), "vetores zerados"),
            "noise": (lambda: np.save(mirror, unit_noise(good.shape)), "resumo SHA-256"),
            "NaN": (lambda: np.save(mirror, np.full_like(good, np.nan)), "NaN"),
            "truncated rows": (lambda: np.save(mirror, good[:20]), "truncados: 20 linhas"),
            "truncated file": (lambda: mirror.write_bytes(mirror.read_bytes()[:300]), "ilegível"),
        }
        wrong = []
        for name, (damage, reason) in cases.items():
            damage()
            caplog.clear()
            retriever = make_retriever(mini_bible, tmp_path / "data")
            index = retriever.signal("vector").index
            status = index.open(mini_bible)
            refusals = [r.getMessage() for r in caplog.records if "recusados" in r.getMessage()]
            served = (status.state, index.ready, answers(retriever) == before, np.array_equal(np.load(mirror), good))
            if served != ("complete", True, True, True) or reason not in (index.notice or "") or len(refusals) != 1:
                wrong.append((name, served, index.notice, refusals))
        assert wrong == []
        assert "em uso os vetores da tabela do índice" in index.notice

    def test_bad_vectors_in_the_table_too_are_rebuilt_from_the_corpus(self, built, tmp_path, mini_bible):
        _, before = built
        index = built[0].signal("vector").index
        table = index.tables.open("verses", create=False).to_arrow()
        zeros = pa.FixedSizeListArray.from_arrays(pa.array(np.zeros(table.num_rows * 64, np.float32)), 64)
        index.tables.db().create_table("verses", data=table.set_column(8, "vector", zeros), mode="overwrite")
        np.save(index.dir / "verses.vectors.npy", np.zeros((table.num_rows, 64), np.float32))
        retriever = make_retriever(mini_bible, tmp_path / "data")
        reopened = retriever.signal("vector").index
        status = reopened.open(mini_bible)
        assert status.state == "partial" and not reopened.ready and "vetores zerados" in status.error
        assert reopened.build(mini_bible).state == "complete"  # what the app's background build does at start
        assert "índice corrompido (25 de 25 vetores zerados)" in reopened.notice and "reconstruído" in reopened.notice
        assert answers(retriever) == before

    def test_a_build_whose_embedder_writes_zeros_is_refused_and_nothing_served(self, tmp_path, mini_bible):
        class Zeros(HashEmbedder):
            def _encode(self, texts):
                return np.zeros((len(texts), self.dim), np.float32)

        index = make_retriever(mini_bible, tmp_path / "data", Zeros()).signal("vector").index
        with pytest.raises(index_module.IndexBuildError, match="os vetores gerados foram recusados"):
            index.build(mini_bible)
        assert index.status.state == "error" and "25 de 25 vetores zerados" in index.status.error
        assert not index.ready and index.tables.open("verses", create=False) is None


def unit_noise(shape) -> np.ndarray:
    noise = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    return noise / np.linalg.norm(noise, axis=1, keepdims=True)

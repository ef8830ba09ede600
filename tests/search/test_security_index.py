"""Index integrity under faults: one builder per data dir, rebuilds beside the live index, corruption rebuilt."""

from __future__ import annotations

import glob
import math
import shutil
import threading

import numpy as np
import pytest

from pastor.index.buildlock import BuildLock
from pastor.index.verse_check import SAMPLE_SIZE
from pastor.index.verse_index import WAITING_NOTICE, VerseIndex, embed_text
from pastor.web.status_model import search_status_json as status_json
from tests.support.core_fixtures import MINI_VERSES, HashEmbedder
from tests.support.helpers import wait_for

BATCH = 8
BATCHES = math.ceil(MINI_VERSES / BATCH)


def new_index(tmp_path, embedder=None) -> VerseIndex:
    return VerseIndex(tmp_path / "data", embedder or HashEmbedder(), batch_size=BATCH)


def stored_ids(index: VerseIndex) -> list[str]:
    return index._open_table(create=False).to_arrow().column("id").to_pylist()


def search(index: VerseIndex, text: str = "Deus amou o mundo") -> list[tuple[str, float]]:
    return index.vector_search(HashEmbedder().encode([embed_text(text)])[0], 3)


class TestOneBuilderPerDataDir:
    def test_two_builders_started_together_leave_one_complete_index(self, tmp_path, mini_bible):
        first = HashEmbedder(block_on_call=2)  # holds the lock mid-build until released
        second = HashEmbedder()
        a, b = new_index(tmp_path, first), new_index(tmp_path, second)
        results = {}
        one = threading.Thread(target=lambda: results.setdefault("a", a.build(mini_bible)))
        one.start()
        assert first.entered.wait(30)
        two = threading.Thread(target=lambda: results.setdefault("b", b.build(mini_bible)))
        two.start()
        wait_for(lambda: b.notice == WAITING_NOTICE, 30, "o segundo construtor não esperou o lock")
        first.release.set()
        one.join(60)
        two.join(60)
        assert results["a"].state == results["b"].state == "complete"
        # The second found the first's complete index: nothing embedded twice, only the content check's sample.
        assert second.calls == 1 and len(second.texts) == min(SAMPLE_SIZE, MINI_VERSES)
        assert sorted(stored_ids(b)) == sorted(v.id for v in mini_bible.verses)
        assert b.ready and b.notice is None

    def test_a_cancelled_waiter_gives_up_without_building(self, tmp_path, mini_bible):
        cancel = threading.Event()
        index = new_index(tmp_path)
        with BuildLock(index.dir):
            done = threading.Thread(target=index.build, args=(mini_bible,), kwargs={"cancel": cancel})
            done.start()
            wait_for(lambda: index.notice == WAITING_NOTICE, 30, "o construtor não esperou o lock")
            cancel.set()
            done.join(30)
        assert not done.is_alive() and index.embedder.calls == 0


class TestRebuildBeside:
    def test_search_keeps_its_vectors_during_a_rebuild(self, tmp_path, mini_bible):
        new_index(tmp_path).build(mini_bible)
        embedder = HashEmbedder(block_on_call=3)  # call 1: the open's content check; 2: the first batch
        index = new_index(tmp_path, embedder)
        assert index.open(mini_bible).state == "complete"
        before = search(index)
        rebuild = threading.Thread(target=index.build, args=(mini_bible,), kwargs={"rebuild": True})
        rebuild.start()
        assert embedder.entered.wait(30)  # mid-rebuild: one batch in the new table
        assert index.ready and search(index) == before
        assert index.status.state == "indexing" and index.status.rows == BATCH
        embedder.release.set()
        rebuild.join(60)
        assert index.status.state == "complete" and embedder.calls == 1 + BATCHES
        assert index.read_manifest()["table"] == "verses_b"  # swapped to the table built beside
        assert sorted(stored_ids(index)) == sorted(v.id for v in mini_bible.verses)
        assert not (index.dir / "lancedb" / "verses.lance").exists()  # the old one is gone after the swap
        assert new_index(tmp_path).open(mini_bible).state == "complete"

    def test_an_interrupted_rebuild_leaves_the_live_index_and_resumes(self, tmp_path, mini_bible):
        new_index(tmp_path).build(mini_bible)
        cancel = threading.Event()
        index = new_index(tmp_path)
        index.open(mini_bible)
        status = index.build(mini_bible, rebuild=True, cancel=cancel, progress=lambda done, total: cancel.set())
        assert status.state == "partial" and index.ready
        assert index.read_manifest()["state"] == "complete"  # the live manifest never changed
        rest = HashEmbedder()
        assert new_index(tmp_path, rest).build(mini_bible, rebuild=True).state == "complete"


class TestCorruption:
    def corrupt(self, index: VerseIndex, how: str) -> None:
        table = index.dir / "lancedb" / f"{index.read_manifest()['table']}.lance"
        if how == "truncated":
            fragment = sorted(glob.glob(str(table / "data" / "*.lance")))[0]
            with open(fragment, "r+b") as handle:
                handle.truncate(handle.seek(0, 2) // 2)
        else:
            shutil.rmtree(table / "_versions")

    def test_truncated_fragment_is_detected_and_rebuilt_while_search_works(self, tmp_path, mini_bible):
        self.check(tmp_path, mini_bible, "truncated", "ilegível")

    def test_missing_versions_is_detected_and_rebuilt(self, tmp_path, mini_bible):
        self.check(tmp_path, mini_bible, "versions", "ilegível")

    def check(self, tmp_path, mini_bible, how: str, reason: str) -> None:
        built = new_index(tmp_path)
        built.build(mini_bible)
        expected = search(built)
        self.corrupt(built, how)
        index = new_index(tmp_path)
        assert index.open(mini_bible).state == "complete"  # served from the numpy copy
        assert search(index) == expected
        status = index.build(mini_bible)  # what the app's background indexer does at start
        assert status.state == "complete"
        assert "índice corrompido" in index.notice and reason in index.notice and "reconstruído" in index.notice
        assert sorted(stored_ids(index)) == sorted(v.id for v in mini_bible.verses)
        assert index.table_problem(index.read_manifest()["table"], MINI_VERSES) is None
        assert search(index) == expected

    def test_corrupted_partial_table_without_numpy_copy_is_rebuilt_in_place(self, tmp_path, mini_bible):
        cancel = threading.Event()
        index = new_index(tmp_path)
        index.build(mini_bible, cancel=cancel, progress=lambda done, total: cancel.set())
        self.corrupt(index, "versions")
        assert new_index(tmp_path).build(mini_bible).state == "complete"

    def test_the_engine_status_shows_the_state_and_reason(self, make_engine, fake_models, tmp_path):
        engine = make_engine()
        self.corrupt(engine.resources.index, "truncated")
        reopened = make_engine(index=False)
        assert status_json(reopened.status())["vectors_ready"]
        assert reopened.start_indexing(background=False)
        status = status_json(reopened.status())
        assert status["index"]["state"] == "complete"
        assert "corrompido" in status["index_notice"]


def test_numpy_copy_is_named_after_its_table(tmp_path, mini_bible):
    index = new_index(tmp_path)
    index.build(mini_bible)
    matrix = np.load(index.dir / "verses.vectors.npy")
    assert matrix.shape == (MINI_VERSES, index.embedder.dim)


@pytest.mark.slow
def test_two_index_processes_on_one_data_dir_leave_one_complete_index(tmp_path):
    """`python -m pastor index` twice at once (the real model, the tiny corpus): the flock makes
    one wait for the other, and the second finds a complete index instead of adding rows again."""
    import json
    import os
    import subprocess
    import sys

    from tests.support.helpers import MINI_CORPUS, ROOT

    base = {k: v for k, v in os.environ.items() if not k.startswith(("PASTOR_", "LLM_", "EMBEDDING_"))}
    env = {
        **base,
        "PASTOR_CORPUS": str(MINI_CORPUS),
        "PASTOR_DATA_DIR": str(tmp_path / "data"),
        "PASTOR_DOCS_DIR": "",
        "PASTOR_PROMINENCE": "",
        "PASTOR_EXTRA_CORPORA": "",
        "PASTOR_TOPICS": "",
        "PASTOR_ADAPTER_QUESTIONS": "",
        "HF_HUB_OFFLINE": "1",
        "PASTOR_EMBED_BATCH": "4",
    }  # one translation: one row per verse
    command = [sys.executable, "-m", "pastor", "index", "--json"]
    runs = [
        subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], [err[-500:] for _, err in outputs]
    for out, _ in outputs:
        assert json.loads(out)["state"] == "complete"
    from pastor.search.embedders import load_embedder

    index = VerseIndex(tmp_path / "data", load_embedder("use-multilingual"))
    ids = stored_ids(index)
    assert len(ids) == len(set(ids)) == MINI_VERSES  # each verse once: nothing added twice

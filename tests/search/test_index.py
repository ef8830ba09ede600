"""Tests for pastor.index.verse_index: rows, manifest skip and rebuilds, resumable builds, states, calibration,
search."""

from __future__ import annotations

import math
import shutil
import threading

import numpy as np
import pytest

from pastor.bible.usfx import load_bible
from pastor.index.verse_check import SAMPLE_SIZE
from pastor.index.verse_index import VerseIndex, build_rows, embed_text
from pastor.search.embedders.embedder import EmbedderError
from tests.support.core_fixtures import EXTRA_ALIGNED, MINI, MINI_VERSES, ONE_BOOK, HashEmbedder

BATCH = 8
BATCHES = math.ceil(MINI_VERSES / BATCH)  # 4


def new_index(tmp_path, embedder=None, **options) -> VerseIndex:
    return VerseIndex(
        tmp_path / "data", embedder or HashEmbedder(), batch_size=options.pop("batch_size", BATCH), **options
    )


def query(embedder, text: str) -> np.ndarray:
    return embedder.encode([embed_text(text)])[0]


def table_rows(index: VerseIndex) -> list[dict]:
    return index._open_table(create=False).to_arrow().select(["id", "translation", "search_text"]).to_pylist()


# -- rows ------------------------------------------------------------------------------------------
class TestRows:
    def test_one_row_per_verse_then_aligned_extras_only(self, mini_bible, extra_bible):
        rows = build_rows(mini_bible, [extra_bible])
        assert len(rows) == MINI_VERSES + EXTRA_ALIGNED
        assert [r.id for r in rows[:MINI_VERSES]] == [v.id for v in mini_bible.verses]
        extras = rows[MINI_VERSES:]
        assert {r.translation for r in extras} == {extra_bible.name}
        assert "JHN 3:17" not in {r.id for r in rows}  # not in the main text: left out

    def test_search_text_is_the_folded_modern_verse(self, mini_bible):
        row = next(r for r in build_rows(mini_bible) if r.id == "JHN 3:16")
        assert row.text == mini_bible.by_id["JHN 3:16"].text
        assert row.search_text == embed_text(row.text)
        assert "unigenito" in row.search_text and "unigênito" not in row.search_text
        assert (row.book, row.book_name, row.chapter, row.verse) == ("JHN", "João", 3, 16)

    def test_window_adds_neighbours_of_the_same_chapter_only(self, mini_bible):
        rows = {r.id: r for r in build_rows(mini_bible, window=1)}
        text = mini_bible.by_id
        assert rows["MAT 18:22"].search_text == embed_text(f"{text['MAT 18:21'].text} {text['MAT 18:22'].text}")
        # MAT 5:4 sits next to MAT 6:14 in the list, but in another chapter.
        assert rows["MAT 5:4"].search_text == embed_text(text["MAT 5:4"].text)
        assert rows["GEN 1:1"].search_text == embed_text(text["GEN 1:1"].text)


# -- manifest: skip and rebuild --------------------------------------------------------------------
class TestManifest:
    def test_second_build_recomputes_nothing(self, tmp_path, mini_bible):
        first = HashEmbedder()
        assert new_index(tmp_path, first).build(mini_bible).state == "complete"
        assert first.calls == BATCHES and len(first.texts) == MINI_VERSES

        again = HashEmbedder()
        index = new_index(tmp_path, again)
        status = index.build(mini_bible)
        assert again.calls == 1  # the content check's sample, in one call (a rebuild takes BATCHES)
        assert (status.state, status.rows, status.total) == ("complete", MINI_VERSES, MINI_VERSES)
        assert index.ready

    def test_manifest_describes_the_build(self, tmp_path, mini_bible, extra_bible):
        embedder = HashEmbedder()
        index = new_index(tmp_path, embedder, window=1)
        index.build(mini_bible, [extra_bible])
        manifest = index.read_manifest()
        assert manifest["state"] == "complete"
        assert manifest["rows"] == manifest["total"] == MINI_VERSES + EXTRA_ALIGNED
        assert manifest["corpus"] == {"file": "mini.usfx.xml", "sha256": mini_bible.sha256, "verses": MINI_VERSES}
        assert manifest["extras"] == [{"file": "mini_extra.usfx.xml", "sha256": extra_bible.sha256}]
        assert manifest["embedder"] == {"name": embedder.name, "dim": 64}
        assert manifest["params"]["window"] == 1

    def test_changed_corpus_rebuilds(self, tmp_path, mini_bible):
        corpus = tmp_path / "mini.usfx.xml"
        shutil.copyfile(MINI, corpus)
        new_index(tmp_path).build(load_bible(corpus))
        corpus.write_text(
            corpus.read_text(encoding="utf-8").replace("nada me faltará", "nada faltará"), encoding="utf-8"
        )
        changed = load_bible(corpus)
        assert changed.sha256 != mini_bible.sha256

        embedder = HashEmbedder()
        index = new_index(tmp_path, embedder)
        assert index.inspect(changed).state == "partial"  # stale until rebuilt
        assert index.build(changed).state == "complete"
        assert embedder.calls == BATCHES
        assert index.read_manifest()["corpus"]["sha256"] == changed.sha256
        assert len(table_rows(index)) == MINI_VERSES  # the old rows were dropped, not kept beside

    def test_changed_embedder_name_rebuilds(self, tmp_path, mini_bible):
        new_index(tmp_path, HashEmbedder(name="modelo-a")).build(mini_bible)
        other = HashEmbedder(name="modelo-b")
        index = new_index(tmp_path, other)
        index.build(mini_bible)
        assert other.calls == BATCHES
        assert index.read_manifest()["embedder"]["name"] == "modelo-b"

    def test_changed_window_rebuilds_with_other_text(self, tmp_path, mini_bible):
        new_index(tmp_path, window=0).build(mini_bible)
        embedder = HashEmbedder()
        index = new_index(tmp_path, embedder, window=1)
        index.build(mini_bible)
        assert embedder.calls == BATCHES
        windowed = {r["id"]: r["search_text"] for r in table_rows(index)}["MAT 18:22"]
        assert "pedro perguntou" in windowed  # the neighbour MAT 18:21 is in the embedded text
        assert windowed in embedder.texts

    def test_added_extra_corpus_rebuilds(self, tmp_path, mini_bible, extra_bible):
        new_index(tmp_path).build(mini_bible)
        embedder = HashEmbedder()
        status = new_index(tmp_path, embedder).build(mini_bible, [extra_bible])
        assert len(embedder.texts) == status.total == MINI_VERSES + EXTRA_ALIGNED

    def test_rebuild_flag_recomputes_everything(self, tmp_path, mini_bible):
        new_index(tmp_path).build(mini_bible)
        embedder = HashEmbedder()
        index = new_index(tmp_path, embedder)
        assert index.build(mini_bible, rebuild=True).state == "complete"
        assert embedder.calls == BATCHES
        assert len(table_rows(index)) == MINI_VERSES


# -- interrupted builds ----------------------------------------------------------------------------
class TestResume:
    def test_cancelled_build_keeps_finished_batches_and_resumes(self, tmp_path, mini_bible):
        cancel = threading.Event()
        first = HashEmbedder()
        index = new_index(tmp_path, first)

        def progress(done, total):
            if done >= 2 * BATCH:
                cancel.set()

        status = index.build(mini_bible, progress=progress, cancel=cancel)
        assert (status.state, status.rows, status.total) == ("partial", 2 * BATCH, MINI_VERSES)
        assert first.calls == 2
        assert not index.ready and index.vector_search(query(first, "Deus"), 3) == []
        manifest = index.read_manifest()
        assert (manifest["state"], manifest["rows"]) == ("partial", 2 * BATCH)
        assert "calibration" not in manifest

        reopened = new_index(tmp_path)
        status = reopened.inspect(mini_bible)
        assert (status.state, status.rows, status.total, status.error) == ("partial", 2 * BATCH, MINI_VERSES, None)

        rest = HashEmbedder()
        resumed = new_index(tmp_path, rest)
        assert resumed.build(mini_bible).state == "complete"
        remaining = [r.search_text for r in build_rows(mini_bible)[2 * BATCH :]]
        assert rest.texts == remaining
        assert rest.calls == math.ceil(len(remaining) / BATCH)
        ids = [r["id"] for r in table_rows(resumed)]
        assert sorted(ids) == sorted(v.id for v in mini_bible.verses)  # each verse once

    def test_embedder_failure_mid_way_leaves_a_partial_index(self, tmp_path, mini_bible):
        failing = HashEmbedder(fail_on_call=3)
        index = new_index(tmp_path, failing)
        with pytest.raises(EmbedderError):
            index.build(mini_bible)
        assert index.status.state == "error"
        assert index.status.error.startswith("falha ao indexar:")
        assert "falha simulada" in index.status.error
        assert index.status.rows == 2 * BATCH
        manifest = index.read_manifest()
        assert manifest["state"] == "partial" and manifest["rows"] == 2 * BATCH
        assert len(table_rows(index)) == 2 * BATCH

        rest = HashEmbedder()  # same name and dim: the manifest still matches
        resumed = new_index(tmp_path, rest)
        status = resumed.build(mini_bible)
        assert (status.state, status.rows) == ("complete", MINI_VERSES)
        assert len(rest.texts) == MINI_VERSES - 2 * BATCH
        assert resumed.read_manifest()["state"] == "complete"

    def test_cancel_before_the_first_batch_embeds_nothing(self, tmp_path, mini_bible):
        cancel = threading.Event()
        cancel.set()
        embedder = HashEmbedder()
        status = new_index(tmp_path, embedder).build(mini_bible, cancel=cancel)
        assert (status.state, status.rows) == ("partial", 0)
        assert embedder.calls == 0


# -- states ----------------------------------------------------------------------------------------
class TestStates:
    def test_missing_before_any_build(self, tmp_path, mini_bible):
        index = new_index(tmp_path)
        status = index.open(mini_bible)
        assert (status.state, status.rows, status.total, status.error) == ("missing", 0, MINI_VERSES, None)
        assert not index.ready

    def test_the_total_before_a_build_is_the_rows_the_build_makes(self, tmp_path, mini_bible, extra_bible):
        """Issue 29: not verses × translations (an extra's verse outside the main numbering is not indexed)."""
        assert len(extra_bible.verses) + MINI_VERSES != MINI_VERSES + EXTRA_ALIGNED  # the fixture has such a verse
        before = new_index(tmp_path).open(mini_bible, [extra_bible])
        built = new_index(tmp_path).build(mini_bible, [extra_bible])
        assert (before.state, before.total) == ("missing", built.rows) and built.rows == MINI_VERSES + EXTRA_ALIGNED

    def test_indexing_while_building_with_counts(self, tmp_path, mini_bible):
        index = new_index(tmp_path)
        seen = []
        index.build(
            mini_bible,
            progress=lambda done, total: seen.append(
                (index.status.state, index.status.rows, index.status.total, done, total)
            ),
        )
        assert [s[0] for s in seen] == ["indexing"] * BATCHES
        assert [s[1] for s in seen] == [8, 16, 24, 25]
        assert all(s[1] == s[3] and s[2] == s[4] == MINI_VERSES for s in seen)

    def test_complete_index_opens_embedding_only_the_checked_sample(self, tmp_path, mini_bible):
        new_index(tmp_path).build(mini_bible)
        embedder = HashEmbedder()
        index = new_index(tmp_path, embedder)
        status = index.open(mini_bible)
        assert (status.state, status.rows, status.total, status.error) == ("complete", MINI_VERSES, MINI_VERSES, None)
        assert index.ready and embedder.calls == 1 and len(embedder.texts) == min(SAMPLE_SIZE, MINI_VERSES)

    def test_total_counts_only_aligned_extra_verses(self, tmp_path, mini_bible, extra_bible):
        new_index(tmp_path).build(mini_bible, [extra_bible])
        status = new_index(tmp_path).open(mini_bible, [extra_bible])
        assert (status.state, status.rows, status.total) == ("complete", 32, 32)

    def test_lost_table_keeps_serving_its_numpy_copy_until_the_build_replaces_it(self, tmp_path, mini_bible):
        index = new_index(tmp_path)
        index.build(mini_bible)
        shutil.rmtree(index.dir / "lancedb")
        reopened = new_index(tmp_path)
        assert reopened.open(mini_bible).state == "complete" and reopened.ready
        assert reopened.build(mini_bible).state == "complete"
        assert "índice corrompido" in reopened.notice and "não existe" in reopened.notice
        assert len(table_rows(reopened)) == MINI_VERSES

    def test_changed_parameters_are_reported_before_rebuilding(self, tmp_path, mini_bible):
        new_index(tmp_path, window=0).build(mini_bible)
        status = new_index(tmp_path, window=2).inspect(mini_bible)
        assert status.state == "partial"
        assert "reconstruído" in status.error


# -- calibration -----------------------------------------------------------------------------------
class TestCalibration:
    def test_stored_in_the_manifest(self, tmp_path, mini_bible):
        index = new_index(tmp_path)
        index.build(mini_bible)
        calibration = index.read_manifest()["calibration"]
        assert set(calibration) == {"pairs", "mean", "std", "p50", "p95", "p99"}
        assert calibration["pairs"] > 3000  # most of the 4000 draws join two books
        assert calibration["std"] > 0
        assert -1 <= calibration["mean"] <= calibration["p95"] <= calibration["p99"] <= 1
        assert calibration == index.calibrate()  # seeded: the same figures every time

    def test_pairs_come_from_different_books(self, tmp_path, mini_bible):
        index = new_index(tmp_path)
        index.build(mini_bible)
        # One axis per book: same-book pairs would have cosine 1, different-book pairs have 0.
        books = sorted({verse_id.split()[0] for verse_id in index.vectors.ids})
        index.vectors.matrix = np.eye(64, dtype=np.float32)[[books.index(i.split()[0]) for i in index.vectors.ids]]
        calibration = index.calibrate()
        assert calibration["mean"] == calibration["p99"] == 0.0

    def test_single_book_corpus_still_completes(self, tmp_path):
        bible = load_bible(ONE_BOOK)
        index = new_index(tmp_path, batch_size=2)
        status = index.build(bible)
        assert status.state == "complete"
        calibration = index.read_manifest()["calibration"]
        assert calibration["pairs"] > 0 and np.isfinite(calibration["mean"])


# -- search ----------------------------------------------------------------------------------------
class TestVectorSearch:
    def test_best_match_first_with_cosine_scores(self, tmp_path, mini_bible):
        embedder = HashEmbedder()
        index = new_index(tmp_path, embedder)
        index.build(mini_bible)
        hits = index.vector_search(query(embedder, mini_bible.by_id["MAT 11:28"].text), 5)
        assert len(hits) == 5
        assert hits[0][0] == "MAT 11:28" and hits[0][1] == pytest.approx(1.0, abs=1e-5)
        scores = [score for _, score in hits]
        assert scores == sorted(scores, reverse=True)

    def test_ids_are_unique_across_translations(self, tmp_path, mini_bible, extra_bible):
        embedder = HashEmbedder()
        index = new_index(tmp_path, embedder)
        index.build(mini_bible, [extra_bible])
        hits = index.vector_search(query(embedder, extra_bible.by_id["PSA 23:1"].text), 10)
        ids = [h[0] for h in hits]
        assert ids[0] == "PSA 23:1" and hits[0][1] == pytest.approx(1.0, abs=1e-5)
        assert len(ids) == len(set(ids)) == 10
        everything = index.vector_search(query(embedder, "Deus"), 100)
        assert sorted(h[0] for h in everything) == sorted(v.id for v in mini_bible.verses)

    def test_many_translations_still_give_n_distinct_ids(self, tmp_path, mini_bible, extra_bible):
        embedder = HashEmbedder()
        index = new_index(tmp_path, embedder)
        # Seven copies of one wording: the two verses asked for fill the top 14 rows by themselves.
        index.build(mini_bible, [extra_bible] * 7)
        asked = f"{extra_bible.by_id['PSA 23:1'].text} {extra_bible.by_id['PSA 46:1'].text}"
        hits = index.vector_search(query(embedder, asked), 3)
        assert {h[0] for h in hits[:2]} == {"PSA 23:1", "PSA 46:1"}
        assert len({h[0] for h in hits}) == len(hits) == 3

    def test_no_vectors_before_a_complete_build(self, tmp_path):
        embedder = HashEmbedder()
        assert new_index(tmp_path, embedder).vector_search(query(embedder, "Deus"), 5) == []


class TestRealEmbedder:
    def test_use_multilingual_index_finds_the_verse_by_meaning(self, tmp_path, mini_bible, real_embedder):
        index = VerseIndex(tmp_path / "data", real_embedder, batch_size=16)
        status = index.build(mini_bible)
        assert status.state == "complete"
        assert index.read_manifest()["embedder"] == {"name": real_embedder.name, "dim": 512}
        hits = index.vector_search(query(real_embedder, "quem é o meu pastor?"), 3)
        assert hits[0][0] == "PSA 23:1"
        calibration = index.read_manifest()["calibration"]
        assert hits[0][1] > calibration["p99"]

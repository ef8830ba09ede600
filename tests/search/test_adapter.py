"""The query adapter: the map itself, its training, its cache, and how search and the engine use it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pastor.index.engine_status import AdapterStatus
from pastor.search.adapter import AdapterStore, QueryAdapter, Training, fit, fold_adapters, train, verse_matrix
from pastor.search.modes import SearchMode as Mode
from pastor.search.questions import Question

FEAR = "estou com medo do futuro"
QUICK = Training(passes=60, temperature=0.1, l2=0.0, learning_rate=0.05)


def unit(v):
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v)


def question_file(tmp_path, rows) -> str:
    path = tmp_path / "perguntas.jsonl"
    path.write_text(
        "".join(json.dumps({"question": q, "gold": g, "topic": "t"}, ensure_ascii=False) + "\n" for q, g in rows),
        encoding="utf-8",
    )
    return str(path)


# A question whose words match one verse while its gold is another: the adapter must learn the move.
TRAINING_ROWS = [
    (FEAR, ["PHP 4:6"]),
    ("medo do amanhã", ["PHP 4:6"]),
    ("tenho medo", ["PHP 4:6"]),
    ("perdoar meu irmão", ["COL 3:13"]),
    ("quantas vezes perdoar", ["COL 3:13"]),
]


class TestMap:
    def test_zero_matrix_is_the_identity(self):
        adapter = QueryAdapter(np.zeros((3, 3)))
        assert np.allclose(adapter.apply(unit([1, 2, 2])), unit([1, 2, 2]))

    def test_moves_and_renormalises(self):
        matrix = np.zeros((2, 2), dtype=np.float32)
        matrix[0, 1] = 1.0  # the first coordinate also pushes toward the second
        moved = QueryAdapter(matrix).apply(unit([1, 0]))
        assert np.allclose(moved, unit([1, 1])) and np.isclose(np.linalg.norm(moved), 1.0)

    def test_a_map_that_cancels_the_vector_returns_it_unchanged(self):
        assert np.allclose(QueryAdapter(-np.eye(2)).apply(unit([1, 0])), unit([1, 0]))


class TestVerseMatrix:
    def test_one_unit_row_per_id_the_mean_of_its_copies(self):
        ids, matrix = verse_matrix(["A", "B", "A"], np.array([[1, 0], [0, 1], [0, 1]], dtype=np.float32))
        assert ids == ["A", "B"]
        assert np.allclose(matrix, [unit([1, 1]), [0, 1]])


class TestFit:
    def test_learns_to_send_each_question_to_its_gold_verse(self):
        rng = np.random.default_rng(1)
        verses = np.array([unit(v) for v in rng.normal(size=(12, 8))])
        # Each question sits on verse i but its gold is verse i + 6: the plain cosine is wrong.
        questions = np.array([unit(verses[i] + 0.05 * rng.normal(size=8)) for i in range(6)])
        gold = [[i + 6] for i in range(6)]
        adapter = QueryAdapter(fit(questions, gold, verses, QUICK))
        before = [int(np.argmax(verses @ q)) for q in questions]
        after = [int(np.argmax(verses @ adapter.apply(q))) for q in questions]
        assert before == list(range(6))
        assert after == [i + 6 for i in range(6)]

    def test_no_passes_leave_the_identity(self):
        verses = np.eye(3, dtype=np.float32)
        matrix = fit(verses[:1], [[2]], verses, Training(passes=0))
        assert not matrix.any()

    def test_questions_without_gold_are_skipped(self):
        verses = np.eye(3, dtype=np.float32)
        matrix = fit(verses[:2], [[], [2]], verses, QUICK)
        assert int(np.argmax(verses @ QueryAdapter(matrix).apply(verses[1]))) == 2

    def test_same_seed_same_map(self):
        verses = np.eye(4, dtype=np.float32)
        first = fit(verses[:2], [[2], [3]], verses, QUICK)
        assert np.array_equal(first, fit(verses[:2], [[2], [3]], verses, QUICK))


class TestStore:
    KEY = {"version": "x", "embedder": {"name": "m", "dim": 2}}

    def test_round_trip(self, tmp_path):
        store = AdapterStore(tmp_path)
        store.save(self.KEY, QueryAdapter(np.eye(2), {"questions": 3}))
        loaded = store.load(self.KEY)
        assert np.array_equal(loaded.matrix, np.eye(2)) and loaded.info == {"questions": 3}

    def test_another_key_is_a_miss(self, tmp_path):
        store = AdapterStore(tmp_path)
        store.save(self.KEY, QueryAdapter(np.eye(2)))
        assert store.load({**self.KEY, "version": "y"}) is None

    @pytest.mark.parametrize("damage", ["truncated", "wrong shape", "not finite"])
    def test_a_damaged_file_is_a_miss(self, tmp_path, damage):
        store = AdapterStore(tmp_path)
        matrix = {"wrong shape": np.eye(3), "not finite": np.full((2, 2), np.nan)}.get(damage, np.eye(2))
        store.save(self.KEY, QueryAdapter(matrix))
        if damage == "truncated":
            path = store.dir / "adapter.npy"
            path.write_bytes(path.read_bytes()[:40])
        assert store.load(self.KEY) is None

    def test_no_cache_is_a_miss(self, tmp_path):
        assert AdapterStore(tmp_path).load(self.KEY) is None


class TestTrainOnTheIndex:
    def test_moves_a_question_to_the_verses_its_file_names(self, engine):
        retriever = engine.retriever
        questions = [Question(q, tuple(g)) for q, g in TRAINING_ROWS]
        adapter = train(retriever, questions, QUICK, file="perguntas.jsonl")
        assert adapter.info["questions"] == 5 and adapter.info["file"] == "perguntas.jsonl"
        plain = retriever.encoder.vector(FEAR)
        assert engine.resources.index.vector_search(plain, 1)[0][0] == "MAT 6:34"  # the words of the question
        assert engine.resources.index.vector_search(adapter.apply(plain), 1)[0][0] == "PHP 4:6"

    def test_a_file_with_no_gold_in_the_index_is_refused(self, engine):
        with pytest.raises(ValueError, match="nenhuma pergunta"):
            train(engine.retriever, [Question(FEAR, ("GEN 50:26",))], QUICK)

    def test_fold_adapters_never_search_a_question_with_a_map_that_saw_it(self, engine, monkeypatch):
        import pastor.search.adapter as module

        seen = []  # per training: the gold rows it learned from (one distinct gold verse per question)

        def record(questions, gold, verses, training=None):
            seen.append({row for rows in gold for row in rows})
            return np.zeros((2, 2))

        monkeypatch.setattr(module, "fit", record)
        ids = verse_matrix(engine.resources.index.vectors.ids, engine.resources.index.vectors.matrix)[0]
        questions = [Question(f"q{i}", (ids[i],)) for i in range(12)]
        adapters = fold_adapters(engine.retriever, questions, folds=5)
        assert len(seen) == 5 and len({id(a) for a in adapters.values()}) == 5
        for i, q in enumerate(questions):
            assert i not in seen[adapters[q.question].info["fold"]]
        assert sorted(adapters) == sorted(q.question for q in questions)


class TestSearch:
    @pytest.fixture
    def adapted(self, engine):
        """The engine's retriever with an adapter that sends the fear question to PHP 4:6."""
        questions = [Question(q, tuple(g)) for q, g in TRAINING_ROWS]
        engine.retriever.signal("vector").use_adapter(train(engine.retriever, questions, QUICK))
        return engine.retriever

    def test_the_vector_list_follows_the_adapted_question(self, adapted):
        hits = adapted.search(FEAR, diversify=False, gated=False, off={"lexical", "topic"}).results
        plain = adapted.search(FEAR, diversify=False, gated=False, off={"lexical", "topic", "adapter"}).results
        assert hits[0].id == "PHP 4:6" and plain[0].id == "MAT 6:34"

    def test_scores_stay_plain_cosines(self, adapted):
        """The per-hit gate and relevance labels are calibrated on the plain question's cosine."""
        hits = adapted.search(FEAR, gated=False, off={"lexical", "topic"}).results
        cosines = adapted.signal("vector").cosines([h.id for h in hits], adapted.encoder.vector(FEAR))
        assert all(h.score_in("vector") == pytest.approx(cosines[h.id]) for h in hits)

    def test_the_gates_decide_as_without_the_adapter(self, adapted):
        for question in (FEAR, "receita de bolo de chocolate", "perdoar meu irmão"):
            on, off = adapted.search(question), adapted.search(question, off={"adapter"})
            assert (on.mode, on.reason) == (off.mode, off.reason)

    def test_the_adapted_vector_list_weighs_adapter_weight(self, adapted):
        from pastor.search.signals import Query

        vector, question = adapted.signal("vector"), adapted.encoder.vector(FEAR)
        assert vector.candidates(Query(FEAR, FEAR, vector=question), 5).weight == vector.adapter_weight == 2.0
        assert vector.candidates(Query(FEAR, FEAR, frozenset({"adapter"}), question), 5).weight == 1.0

    def test_an_adapter_of_another_dimension_is_ignored(self, engine):
        engine.retriever.signal("vector").use_adapter(QueryAdapter(np.zeros((3, 3))))
        assert engine.retriever.search(FEAR).mode == Mode.RAG


class TestEngine:
    def test_trained_after_the_vectors_and_shown_in_status(self, make_engine, tmp_path):
        engine = make_engine(PASTOR_ADAPTER_QUESTIONS=question_file(tmp_path, TRAINING_ROWS))
        status = engine.status().adapter
        assert status == AdapterStatus(True, file="perguntas.jsonl", questions=5, weight=2.0)
        assert (engine.settings.data_dir / "adapter" / "adapter.npy").is_file()

    def test_a_restart_loads_the_cached_map_without_training(self, make_engine, tmp_path, monkeypatch):
        path = question_file(tmp_path, TRAINING_ROWS)
        first = make_engine(PASTOR_ADAPTER_QUESTIONS=path)
        import pastor.search.adapter as module

        monkeypatch.setattr(module, "fit", lambda *a, **k: pytest.fail("trained again"))
        again = make_engine(index=False, PASTOR_ADAPTER_QUESTIONS=path)
        assert np.array_equal(again.retriever.adapter.matrix, first.retriever.adapter.matrix)

    def test_a_changed_question_file_retrains(self, make_engine, tmp_path):
        path = question_file(tmp_path, TRAINING_ROWS)
        first = make_engine(PASTOR_ADAPTER_QUESTIONS=path).retriever.adapter
        question_file(tmp_path, TRAINING_ROWS[:3])
        again = make_engine(PASTOR_ADAPTER_QUESTIONS=path).retriever.adapter
        assert again.info["questions"] == 3 and first.info["questions"] == 5

    def test_a_reindex_in_the_running_app_picks_up_a_changed_file(self, make_engine, tmp_path):
        path = question_file(tmp_path, TRAINING_ROWS)
        engine = make_engine(PASTOR_ADAPTER_QUESTIONS=path)
        question_file(tmp_path, TRAINING_ROWS[:3])
        assert engine.start_indexing(background=False)
        assert engine.retriever.adapter.info["questions"] == 3

    def test_a_rebuild_searches_through_the_old_adapter_until_the_new_one_is_trained(
        self, make_engine, tmp_path, monkeypatch
    ):
        import pastor.index.adapter_setup as setup

        path = question_file(tmp_path, TRAINING_ROWS)
        engine = make_engine(PASTOR_ADAPTER_QUESTIONS=path)
        old = engine.retriever.adapter
        question_file(tmp_path, TRAINING_ROWS[:3])
        real, seen = setup.train_adapter, []

        def training(retriever, questions, **info):  # what a search meets while the new map is learned
            seen.append((retriever.adapter, retriever.search(FEAR).mode))
            return real(retriever, questions, **info)

        monkeypatch.setattr(setup, "train_adapter", training)
        assert engine.start_indexing(rebuild=True, background=False)
        assert seen == [(old, Mode.RAG)]
        assert engine.retriever.adapter is not old and engine.retriever.adapter.info["questions"] == 3

    def test_off_when_no_file_is_set(self, engine):
        assert engine.retriever.adapter is None
        assert engine.status().adapter == AdapterStatus(False, "desligado (PASTOR_ADAPTER_QUESTIONS vazio)")

    @pytest.mark.parametrize(
        "content, reason",
        [
            (None, "não encontrado: ruim.jsonl"),
            ('{"question": "x"\n', "linha 1"),
            (json.dumps({"question": FEAR, "gold": ["GEN 50:26"], "topic": "t"}) + "\n", "nenhuma pergunta"),
        ],
    )
    def test_a_bad_file_leaves_search_unadapted_and_says_why(self, make_engine, tmp_path, content, reason):
        path = tmp_path / "ruim.jsonl"
        if content is not None:
            path.write_text(content, encoding="utf-8")
        engine = make_engine(PASTOR_ADAPTER_QUESTIONS=str(path))
        status = engine.status().adapter
        assert not status.enabled and reason in status.detail
        assert engine.retriever.adapter is None and engine.retriever.search(FEAR).results
        assert "/" not in status.detail  # file names only, never the server's paths

    def test_a_fifo_is_refused_at_once_instead_of_blocking_the_start(self, make_engine, tmp_path):
        import os

        fifo = tmp_path / "perguntas.jsonl"
        os.mkfifo(fifo)  # no writer: reading it would wait forever (and keep /ready at 503)
        engine = make_engine(PASTOR_ADAPTER_QUESTIONS=str(fifo))
        status = engine.status().adapter
        assert not status.enabled and "não é um arquivo comum" in status.detail
        assert str(tmp_path) not in status.detail

    def test_an_oversized_file_is_refused(self, make_engine, tmp_path):
        from pastor.search import questions as evaluation

        path = tmp_path / "enorme.jsonl"
        with open(path, "wb") as handle:
            handle.truncate(evaluation.MAX_QUESTION_BYTES + 1)  # sparse: costs no disk
        engine = make_engine(PASTOR_ADAPTER_QUESTIONS=str(path))
        status = engine.status().adapter
        assert not status.enabled and "enorme.jsonl: grande demais" in status.detail

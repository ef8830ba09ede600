"""Tests for retrieval metrics, question-set loading, the runner and the shipped gold sets."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest

from pastor.config import ROOT
from pastor.evaluation import ranking as evaluation
from pastor.evaluation.ranking import (
    Evaluation,
    evaluate,
    evaluate_modes,
    format_table,
    hit_at_k,
    mrr_at_k,
    ndcg_at_k,
    percentile,
    recall_at_k,
)
from pastor.search.questions import Question, QuestionSetError, load_questions

SETS = {
    "devset": ROOT / "sets" / "retrieval" / "devset.jsonl",
    "testset": ROOT / "sets" / "retrieval" / "testset.jsonl",
}
ALMEIDA = ROOT / "corpus" / "por-almeida1911.usfx.xml.gz"  # shipped with the repository

L2, L3, L5 = 1.0, 1 / math.log2(3), 1 / math.log2(5)  # discounts at ranks 1, 2, 4


# --- Metrics on hand-computed examples ------------------------------------------------------


class TestMetrics:
    ranked = ["A", "B", "C", "D"]

    def test_two_gold_at_ranks_two_and_four(self):
        gold = {"B", "D"}
        assert hit_at_k(self.ranked, gold, 4) == 1.0
        assert recall_at_k(self.ranked, gold, 4) == 1.0
        assert mrr_at_k(self.ranked, gold, 4) == 0.5
        assert ndcg_at_k(self.ranked, gold, 4) == pytest.approx((L3 + L5) / (L2 + L3))

    def test_cutoff_hides_later_gold(self):
        gold = {"B", "D"}
        assert recall_at_k(self.ranked, gold, 2) == 0.5
        assert ndcg_at_k(self.ranked, gold, 2) == pytest.approx(L3 / (L2 + L3))
        assert hit_at_k(self.ranked, {"D"}, 3) == 0.0
        assert mrr_at_k(self.ranked, {"D"}, 3) == 0.0

    def test_perfect_ranking_scores_one(self):
        gold = ["A", "B"]
        assert ndcg_at_k(self.ranked, gold, 10) == pytest.approx(1.0)
        assert mrr_at_k(self.ranked, gold, 10) == 1.0

    def test_ideal_dcg_is_capped_at_k(self):
        # Three gold but k=2: two hits at the top are already perfect.
        assert ndcg_at_k(["A", "B", "C"], {"A", "B", "Z"}, 2) == pytest.approx(1.0)
        assert recall_at_k(["A", "B", "C"], {"A", "B", "Z"}, 2) == pytest.approx(2 / 3)

    def test_gold_given_as_list_with_repeats_counts_distinct_ids(self):
        assert recall_at_k(["A"], ["A", "A", "B"], 5) == 0.5


class TestMetricEdgeCases:
    @pytest.mark.parametrize("metric", [hit_at_k, recall_at_k, mrr_at_k, ndcg_at_k])
    def test_empty_ranking_scores_zero(self, metric):
        assert metric([], {"A"}, 5) == 0.0

    @pytest.mark.parametrize("metric", [hit_at_k, recall_at_k, mrr_at_k, ndcg_at_k])
    def test_gold_absent_scores_zero(self, metric):
        assert metric(["X", "Y", "Z"], {"A", "B"}, 3) == 0.0

    @pytest.mark.parametrize("metric", [hit_at_k, recall_at_k, mrr_at_k, ndcg_at_k])
    def test_empty_gold_scores_zero(self, metric):
        assert metric(["A"], set(), 3) == 0.0

    def test_duplicate_gold_in_ranking_counts_once(self):
        ranked, gold = ["B", "B", "A"], {"B", "C"}
        assert recall_at_k(ranked, gold, 3) == 0.5
        assert mrr_at_k(ranked, gold, 3) == 1.0
        assert ndcg_at_k(ranked, gold, 3) == pytest.approx(L2 / (L2 + L3))

    def test_duplicates_use_up_slots(self):
        ranked = ["X", "X", "B"]
        assert hit_at_k(ranked, {"B"}, 2) == 0.0
        assert mrr_at_k(ranked, {"B"}, 3) == pytest.approx(1 / 3)

    def test_k_larger_than_ranking(self):
        ranked, gold = ["A"], {"A", "B"}
        assert hit_at_k(ranked, gold, 10) == 1.0
        assert recall_at_k(ranked, gold, 10) == 0.5
        assert ndcg_at_k(ranked, gold, 10) == pytest.approx(L2 / (L2 + L3))

    @pytest.mark.parametrize("metric", [hit_at_k, recall_at_k, mrr_at_k, ndcg_at_k])
    def test_k_below_one_is_rejected(self, metric):
        with pytest.raises(ValueError, match="k deve ser"):
            metric(["A"], {"A"}, 0)


class TestPercentile:
    def test_interpolates_between_values(self):
        assert percentile([4.0, 1.0, 3.0, 2.0], 50) == pytest.approx(2.5)
        assert percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)

    def test_single_value(self):
        assert percentile([7.0], 95) == 7.0

    def test_empty_is_rejected(self):
        with pytest.raises(ValueError):
            percentile([], 50)


# --- Loading question sets ------------------------------------------------------------------


def _write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "perguntas.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps({"question": "medo", "gold": ["ISA 41:10", "2TI 1:7"], "topic": "fear"})


class TestLoadQuestions:
    def test_reads_valid_lines_and_skips_blank_ones(self, tmp_path):
        path = _write(tmp_path, GOOD, "", json.dumps({"question": "paz", "gold": ["JHN 14:27"]}))
        questions = load_questions(path)
        assert questions == [Question("medo", ("ISA 41:10", "2TI 1:7"), "fear"), Question("paz", ("JHN 14:27",), "")]

    def test_bad_json_names_the_line(self, tmp_path):
        path = _write(tmp_path, GOOD, "", '{"question": "medo", "gold": [')
        with pytest.raises(QuestionSetError, match=r"perguntas\.jsonl, linha 3: JSON inválido"):
            load_questions(path)

    @pytest.mark.parametrize(
        "row, message",
        [
            ({"gold": ["ISA 41:10"]}, "falta o campo 'question'"),
            ({"question": "   ", "gold": ["ISA 41:10"]}, "falta o campo 'question'"),
            ({"question": "medo"}, "falta o campo 'gold'"),
            ({"question": "medo", "gold": []}, "falta o campo 'gold'"),
            ({"question": "medo", "gold": "ISA 41:10"}, "falta o campo 'gold'"),
            ({"question": "medo", "gold": ["ISA 41:10", "ISA 41:10"]}, "repetido"),
            ({"question": "medo", "gold": ["ISA 41:10"], "topic": 3}, "'topic'"),
            (["medo", ["ISA 41:10"]], "objeto JSON"),
        ],
    )
    def test_missing_or_wrong_fields(self, tmp_path, row, message):
        path = _write(tmp_path, GOOD, json.dumps(row))
        with pytest.raises(QuestionSetError, match=rf"linha 2: .*{re.escape(message)}"):
            load_questions(path)

    @pytest.mark.parametrize(
        "verse_id", ["JHN3:16", "jhn 3:16", "JHN 3", "JHN 3:0", " JHN 3:16", "João 3:16", "JHN 3:16-18", 316]
    )
    def test_malformed_verse_id(self, tmp_path, verse_id):
        path = _write(tmp_path, json.dumps({"question": "medo", "gold": ["ISA 41:10", verse_id]}))
        with pytest.raises(QuestionSetError, match="linha 1: id de versículo malformado"):
            load_questions(path)

    def test_unknown_book_code(self, tmp_path):
        path = _write(tmp_path, json.dumps({"question": "medo", "gold": ["XYZ 1:1"]}))
        with pytest.raises(QuestionSetError, match="linha 1: livro desconhecido 'XYZ'"):
            load_questions(path)

    def test_missing_file(self, tmp_path):
        with pytest.raises(QuestionSetError, match="não encontrado"):
            load_questions(tmp_path / "nada.jsonl")

    def test_empty_file(self, tmp_path):
        path = _write(tmp_path, "")
        with pytest.raises(QuestionSetError, match="nenhuma pergunta"):
            load_questions(path)


# --- Runner ---------------------------------------------------------------------------------

QUESTIONS = [Question("medo", ("ISA 41:10", "PSA 27:1")), Question("paz", ("JHN 14:27",))]
RANKINGS = {
    "medo": ["PSA 27:1", "X 1:1", "ISA 41:10"],  # both gold, ranks 1 and 3
    "paz": ["X 1:1"] * 7 + ["JHN 14:27"],  # gold at rank 8: outside hit@6, inside @10
}


def _fake_clock(monkeypatch, durations_s):
    """perf_counter returning start/end pairs so each search 'takes' the given seconds."""
    ticks, now = [], 0.0
    for duration in durations_s:
        ticks += [now, now + duration]
        now += duration + 1.0
    clock = itertools.chain(ticks, itertools.count(now))  # later callers get a sane clock
    monkeypatch.setattr(evaluation.time, "perf_counter", lambda: next(clock))


class TestEvaluate:
    def test_means_over_questions(self):
        result = evaluate(RANKINGS.__getitem__, QUESTIONS, k=6)
        assert set(result.metrics()) == {"hit@6", "recall@10", "mrr@10", "ndcg@10"}
        assert result.n == 2
        assert result.metrics()["hit@6"] == 0.5
        assert result.metrics()["recall@10"] == 1.0
        assert result.metrics()["mrr@10"] == pytest.approx((1 + 1 / 8) / 2)
        ndcg_medo = (L2 + 1 / math.log2(4)) / (L2 + L3)
        ndcg_paz = 1 / math.log2(9)
        assert result.metrics()["ndcg@10"] == pytest.approx((ndcg_medo + ndcg_paz) / 2)

    def test_hit_key_follows_k(self):
        result = evaluate(RANKINGS.__getitem__, QUESTIONS, k=8)
        assert "hit@8" in result.metrics() and "hit@6" not in result.metrics()
        assert result.metrics()["hit@8"] == result.hit == 1.0

    def test_latency_percentiles_in_milliseconds(self, monkeypatch):
        _fake_clock(monkeypatch, [0.010, 0.030])
        result = evaluate(RANKINGS.__getitem__, QUESTIONS)
        assert result.p50_ms == pytest.approx(20.0)
        assert result.p95_ms == pytest.approx(29.0)

    def test_calls_search_once_per_question_with_its_text(self):
        seen = []
        evaluate(lambda q: seen.append(q) or [], QUESTIONS)
        assert seen == ["medo", "paz"]

    def test_accepts_any_iterable_ranking(self):
        result = evaluate(lambda q: iter(RANKINGS[q]), QUESTIONS)
        assert result.metrics()["recall@10"] == 1.0

    def test_no_questions_is_rejected(self):
        with pytest.raises(ValueError, match="nenhuma pergunta"):
            evaluate(lambda q: [], [])


class TestEvaluateModes:
    def test_one_result_per_mode_in_order(self):
        searchers = {"hybrid": RANKINGS.__getitem__, "vector": lambda q: [], "lexical": lambda q: ["JHN 14:27"]}
        results = evaluate_modes(searchers, QUESTIONS, k=6)
        assert list(results) == ["hybrid", "vector", "lexical"]
        assert results["hybrid"].metrics()["recall@10"] == 1.0
        assert results["vector"].metrics()["hit@6"] == 0.0
        assert results["lexical"].metrics()["hit@6"] == 0.5


class TestFormatTable:
    def test_markdown_rows_per_mode(self):
        results = {
            "hybrid": Evaluation(2, 6, hit=0.5, recall=1.0, mrr=0.5625, ndcg=0.61, p50_ms=20.0, p95_ms=29.04),
            "lexical": Evaluation(2, 6, hit=0.0, recall=0.0, mrr=0.0, ndcg=0.0, p50_ms=1.0, p95_ms=1.5),
        }
        lines = format_table(results).splitlines()
        assert lines[0] == ("| modo | n | hit@6 | recall@10 | mrr@10 | ndcg@10 | p50 (ms) | p95 (ms) |")
        assert lines[1] == "|---|---:|---:|---:|---:|---:|---:|---:|"
        assert lines[2] == "| hybrid | 2 | 0.500 | 1.000 | 0.562 | 0.610 | 20.0 | 29.0 |"
        assert lines[3].startswith("| lexical | 2 | 0.000 |")
        assert len(lines) == 4

    def test_table_from_real_run(self):
        table = format_table(evaluate_modes({"vector": RANKINGS.__getitem__}, QUESTIONS, k=3))
        assert "hit@3" in table.splitlines()[0]
        assert table.splitlines()[2].startswith("| vector | 2 | 0.500 | 1.000 |")


# --- The shipped question sets --------------------------------------------------------------


@pytest.fixture(scope="module")
def almeida():
    from pastor.bible.usfx import load_bible

    return load_bible(ALMEIDA)


@pytest.fixture(scope="module")
def sets():
    return {name: load_questions(path) for name, path in SETS.items()}


# Words people type without their accents (não, ninguém, oração…), as in real messages.
UNACCENTED = {
    "nao",
    "ninguem",
    "oracao",
    "solidao",
    "vicio",
    "divorcio",
    "preguica",
    "preocupacao",
    "familia",
    "unico",
    "ate",
    "alguem",
    "to",
    "sera",
}


def _normal(text: str) -> str:
    from pastor.text.fold import fold

    return " ".join(re.sub(r"[^\w\s]", " ", fold(text)).split())


class TestShippedSets:
    def test_sizes(self, sets):
        assert len(sets["devset"]) >= 150
        assert len(sets["testset"]) >= 100

    @pytest.mark.parametrize("name", SETS)
    def test_every_gold_id_exists_in_almeida_1911(self, sets, almeida, name):
        missing = [(q.question, g) for q in sets[name] for g in q.gold if g not in almeida.by_id]
        assert missing == []

    @pytest.mark.parametrize("name", SETS)
    def test_two_to_eight_gold_per_question_and_a_topic(self, sets, name):
        bad = [q.question for q in sets[name] if not 2 <= len(q.gold) <= 8 or not q.topic]
        assert bad == []

    def test_no_question_in_both_sets(self, sets):
        dev = {_normal(q.question) for q in sets["devset"]}
        shared = [q.question for q in sets["testset"] if _normal(q.question) in dev]
        assert shared == []

    @pytest.mark.parametrize("name", SETS)
    def test_no_repeated_question_within_a_set(self, sets, name):
        normal = [_normal(q.question) for q in sets[name]]
        assert len(normal) == len(set(normal))

    @pytest.mark.parametrize("name", SETS)
    def test_no_question_names_an_explicit_reference(self, sets, name):
        from pastor.bible.references import find_references

        named = [q.question for q in sets[name] if any(m.reference is not None for m in find_references(q.question))]
        assert named == []

    @pytest.mark.parametrize("name", SETS)
    def test_mix_of_short_long_and_unaccented_questions(self, sets, name):
        questions = [q.question for q in sets[name]]
        short = [q for q in questions if len(q.split()) <= 2]
        long = [q for q in questions if len(q.split()) >= 10]
        unaccented = [q for q in questions if set(_normal(q).split()) & UNACCENTED and not re.search(r"[À-ÿ]", q)]
        assert len(short) >= 5 and len(long) >= 5 and len(unaccented) >= 3

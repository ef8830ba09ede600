"""Tests for pastor.search.fusion: reciprocal rank fusion with de-duplication, weights and a prior."""

from __future__ import annotations

import pytest

from pastor.search.fusion import rrf

VECTOR = [("A", 0.9), ("B", 0.8), ("C", 0.7)]
LEXICAL = [("C", 12.0), ("D", 9.0)]


def by_id(fused):
    return {f.id: f for f in fused}


class TestScores:
    def test_score_is_the_sum_of_reciprocal_ranks(self):
        fused = by_id(rrf(VECTOR, LEXICAL, k=60))
        assert fused["A"].score == pytest.approx(1 / 61)
        assert fused["C"].score == pytest.approx(1 / 63 + 1 / 61)
        assert fused["D"].score == pytest.approx(1 / 62)

    def test_ranks_and_raw_scores_are_kept_per_list(self):
        fused = by_id(rrf(VECTOR, LEXICAL, k=60))
        c = fused["C"]
        assert (c.rank_in("vector"), c.score_in("vector"), c.rank_in("lexical"), c.score_in("lexical")) == (
            3,
            0.7,
            1,
            12.0,
        )
        a = fused["A"]
        assert (a.rank_in("vector"), a.rank_in("lexical"), a.score_in("lexical")) == (1, None, None)
        assert fused["D"].rank_in("vector") is None

    def test_an_id_in_both_lists_wins_over_single_list_ids(self):
        # B (vector rank 2) and D (lexical rank 2) tie and are ordered by id.
        assert [f.id for f in rrf(VECTOR, LEXICAL, k=60)] == ["C", "A", "B", "D"]

    def test_k_flattens_the_rank_differences(self):
        steep = by_id(rrf([("A", 1.0), ("B", 0.5)], [], k=1))
        flat = by_id(rrf([("A", 1.0), ("B", 0.5)], [], k=1000))
        assert steep["A"].score / steep["B"].score > flat["A"].score / flat["B"].score

    def test_empty_lists_fuse_to_nothing(self):
        assert rrf([], []) == []

    def test_ties_are_broken_by_id(self):
        assert [f.id for f in rrf([("B", 1.0)], [("A", 1.0)])] == ["A", "B"]


class TestDeduplication:
    def test_an_id_repeated_in_one_list_keeps_its_first_rank(self):
        # Rows of two translations of one verse arrive as the same id twice.
        fused = by_id(rrf([("A", 0.9), ("A", 0.8), ("B", 0.7)], [], k=60))
        assert fused["A"].rank_in("vector") == 1 and fused["A"].score_in("vector") == 0.9
        assert fused["A"].score == pytest.approx(1 / 61)
        assert fused["B"].rank_in("vector") == 2  # the duplicate does not take a rank
        assert len(fused) == 2

    def test_each_id_appears_once_in_the_result(self):
        fused = rrf([("A", 1), ("B", 1), ("A", 1)], [("B", 1), ("B", 1), ("C", 1)])
        ids = [f.id for f in fused]
        assert sorted(ids) == ["A", "B", "C"]


class TestWeights:
    def test_lexical_weight_scales_the_lexical_share(self):
        fused = by_id(rrf(VECTOR, LEXICAL, k=60, lexical_weight=0.3))
        assert fused["D"].score == pytest.approx(0.3 / 62)
        assert fused["C"].score == pytest.approx(1 / 63 + 0.3 / 61)

    def test_vector_weight_zero_leaves_lexical_order(self):
        fused = rrf(VECTOR, LEXICAL, vector_weight=0.0)
        assert [f.id for f in fused][:2] == ["C", "D"]

    def test_low_lexical_weight_lets_vectors_lead(self):
        assert rrf(VECTOR, LEXICAL, k=60, lexical_weight=1.0)[0].id == "C"
        assert rrf(VECTOR, LEXICAL, k=60, lexical_weight=0.01)[0].id == "A"


class TestPrior:
    def test_prior_is_added_and_recorded(self):
        prior = {"B": 0.05}.get
        fused = by_id(rrf(VECTOR, LEXICAL, k=60, prior=lambda i: prior(i, 0.0)))
        assert fused["B"].prior == 0.05
        assert fused["B"].score == pytest.approx(1 / 62 + 0.05)
        assert fused["A"].prior == 0.0

    def test_prior_can_reorder_close_candidates(self):
        plain = [f.id for f in rrf(VECTOR, [], k=60)]
        boosted = [f.id for f in rrf(VECTOR, [], k=60, prior=lambda i: 0.001 if i == "B" else 0.0)]
        assert plain[:2] == ["A", "B"] and boosted[:2] == ["B", "A"]


class TestNamedLists:
    def test_any_signal_fuses_with_its_weight_and_reports_its_rank(self):
        from pastor.search.fusion import Candidates, fuse

        fused = by_id(
            fuse([Candidates("vector", 1.0, VECTOR), Candidates("topic", 2.0, [("D", 3.0), ("A", 1.0)])], k=60)
        )
        assert fused["D"].score == pytest.approx(2 / 61)
        assert (fused["A"].rank_in("vector"), fused["A"].rank_in("topic"), fused["A"].score_in("topic")) == (1, 2, 1.0)
        assert fused["A"].score == pytest.approx(1 / 61 + 2 / 62)

    def test_one_hit_type_to_the_api(self):
        from pastor.web.schemas import hit_json

        hit = rrf(VECTOR, LEXICAL, k=60, prior=lambda i: 0.1234567)[0]
        data = hit_json(hit)
        assert "prior" not in data and data["score"] == round(hit.score, 6)
        assert data["topic_rank"] is None and data["kind"] == "verse"
        assert not any(key.startswith("xref") for key in data)

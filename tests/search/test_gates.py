"""Tests for pastor.search.gates (modes from evidence, per-hit gate) and pastor.text.pastoral_vocabulary (pastoral
vocabulary)."""

from __future__ import annotations

import pytest

from pastor.search.gates import Calibration, Evidence, Gate
from pastor.search.modes import SearchMode as Mode
from pastor.text.pastoral_vocabulary import is_pastoral

# An unrelated-pair band like a real model's: mean 0.2, std 0.1, so z = (cos - 0.2) / 0.1.
BAND = Calibration(mean=0.2, std=0.1)
GATE = Gate(best_z=3.5, hit_z=2.0, lexical_coverage=0.67, lexical_min_terms=1, pastoral_z=1.0)


def evidence(cosine=None, coverage=0.0, terms=3, pastoral=False) -> Evidence:
    return Evidence(best_cosine=cosine, lexical_coverage=coverage, lexical_terms=terms, pastoral=pastoral)


class TestCalibration:
    def test_z_score(self):
        assert BAND.z(0.55) == pytest.approx(3.5)
        assert BAND.z(0.2) == 0.0

    def test_zero_std_gives_zero(self):
        assert Calibration(0.3, 0.0).z(0.99) == 0.0


class TestModes:
    def test_rag_when_the_best_vector_stands_out(self):
        mode, reason = GATE.decide(evidence(cosine=0.56), BAND)
        assert mode == Mode.RAG
        assert "0.560" in reason and "z=3.6" in reason

    def test_just_below_the_bar_is_not_rag(self):
        mode, _ = GATE.decide(evidence(cosine=0.54), BAND)
        assert mode == Mode.NO_EVIDENCE

    def test_pastoral_message_gets_the_lower_bar(self):
        mode, reason = GATE.decide(evidence(cosine=0.31, pastoral=True), BAND)
        assert mode == Mode.RAG
        assert reason.startswith("tema pastoral")

    def test_pastoral_still_needs_some_similarity(self):
        mode, _ = GATE.decide(evidence(cosine=0.29, pastoral=True), BAND)
        assert mode == Mode.NO_EVIDENCE

    def test_lexical_fallback_on_weak_vectors_and_word_overlap(self):
        mode, reason = GATE.decide(evidence(cosine=0.3, coverage=0.67), BAND)
        assert mode == Mode.LEXICAL_FALLBACK
        assert "67%" in reason and "fraca" in reason

    def test_no_evidence_on_weak_vectors_and_little_overlap(self):
        mode, reason = GATE.decide(evidence(cosine=0.3, coverage=0.5), BAND)
        assert mode == Mode.NO_EVIDENCE
        assert "pouca sobreposição" in reason

    def test_lexical_needs_enough_query_terms(self):
        gate = Gate(lexical_min_terms=2)
        assert gate.decide(evidence(cosine=0.3, coverage=1.0, terms=1), BAND)[0] == Mode.NO_EVIDENCE
        assert gate.decide(evidence(cosine=0.3, coverage=1.0, terms=2), BAND)[0] == Mode.LEXICAL_FALLBACK

    def test_vectors_unavailable_falls_back_to_lexical(self):
        mode, reason = GATE.decide(evidence(cosine=None, coverage=1.0), BAND)
        assert mode == Mode.LEXICAL_FALLBACK
        assert "índice vetorial indisponível" in reason

    def test_vectors_unavailable_and_no_overlap_is_no_evidence(self):
        mode, reason = GATE.decide(evidence(cosine=None, coverage=0.2), BAND)
        assert mode == Mode.NO_EVIDENCE
        assert "índice vetorial indisponível" in reason

    def test_no_calibration_means_vectors_cannot_decide(self):
        # A perfect cosine without the model's band proves nothing.
        assert GATE.decide(evidence(cosine=1.0, coverage=0.0), None)[0] == Mode.NO_EVIDENCE
        assert GATE.decide(evidence(cosine=1.0, coverage=0.9), None)[0] == Mode.LEXICAL_FALLBACK

    def test_pastoral_without_vectors_is_no_rag(self):
        assert GATE.decide(evidence(cosine=None, pastoral=True), BAND)[0] == Mode.NO_EVIDENCE

    def test_pastoral_without_vectors_takes_keyword_hits_with_some_overlap(self):
        # "Estou com medo do futuro" while the first index is built: half its words are in the verse.
        mode, reason = GATE.decide(evidence(cosine=None, coverage=0.5, pastoral=True), BAND)
        assert mode == Mode.LEXICAL_FALLBACK and "tema pastoral" in reason
        assert GATE.decide(evidence(cosine=None, coverage=0.5, pastoral=False), BAND)[0] == Mode.NO_EVIDENCE
        assert GATE.decide(evidence(cosine=None, coverage=0.2, pastoral=True), BAND)[0] == Mode.NO_EVIDENCE

    def test_pastoral_with_weak_vectors_keeps_the_vector_rules(self):
        assert GATE.decide(evidence(cosine=0.25, coverage=0.5, pastoral=True), BAND)[0] == Mode.NO_EVIDENCE

    def test_modes_are_the_five_names(self):
        assert (Mode.REFERENCE, Mode.RAG, Mode.LEXICAL_FALLBACK, Mode.CONVERSATIONAL, Mode.NO_EVIDENCE) == (
            "reference",
            "rag",
            "lexical_fallback",
            "conversational",
            "no_evidence",
        )


class TestPerHitGate:
    def test_hit_above_the_band_is_kept(self):
        assert GATE.keep_vector_hit(0.41, BAND)

    def test_hit_inside_the_band_is_dropped(self):
        assert not GATE.keep_vector_hit(0.39, BAND)

    def test_no_score_or_no_calibration_is_dropped(self):
        assert not GATE.keep_vector_hit(None, BAND)
        assert not GATE.keep_vector_hit(0.99, None)


class TestPastoralTopics:
    @pytest.mark.parametrize(
        "message",
        [
            "Estou com muito medo do futuro",
            "Sinto uma tristeza enorme desde que perdi meu emprego",
            "Como posso perdoar meu irmão?",
            "Minha mãe está doente",  # short word `mae`, accent folded
            "Tenho fé, mas ando ansioso",
            "Brigas no casamento",
            "Como orar melhor?",
            "ANSIEDADE e DEPRESSÃO",
        ],
    )
    def test_pastoral_messages(self, message):
        assert is_pastoral(message)

    @pytest.mark.parametrize(
        "message",
        [
            "Qual a receita de feijoada?",  # `fe` is a whole word only
            "Como trocar o pneu do carro?",
            "Quanto é 2 + 2?",
            "Qual a capital da Austrália?",
            "",
        ],
    )
    def test_other_messages(self, message):
        assert not is_pastoral(message)

    def test_prefix_must_start_the_word(self):
        assert not is_pastoral("desamor")  # `amor` inside a word does not count
        assert is_pastoral("amorosamente")

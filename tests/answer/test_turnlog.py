"""Tests for pastor.answer.turnlog: one JSON line per turn, feedback, rotation by size, no keys in the log."""

from __future__ import annotations

import json

import pytest

from pastor.answer.turnlog import KEEP_ROTATED, Feedback, TurnLog

SECRET = "sk-teste-CHAVE-SECRETA-0123456789"


def turn(turn_id: str, **fields) -> dict:
    return {"turn_id": turn_id, "question": "Como perdoar?", "mode": "rag", **fields}


class TestWrite:
    def test_one_json_line_per_turn(self, tmp_path):
        log = TurnLog(tmp_path / "logs")
        log.write(turn("a1"))
        log.write(turn("a2", answer="Perdoe como Deus perdoou você (Efésios 4:32)."))
        lines = (tmp_path / "logs" / "turns.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == 2
        first, second = map(json.loads, lines)
        assert (first["type"], first["turn_id"], first["mode"]) == ("turn", "a1", "rag")
        assert second["answer"].endswith("(Efésios 4:32).")
        assert first["timestamp"][:2] == "20" and "T" in first["timestamp"]

    def test_text_is_kept_readable(self, tmp_path):
        log = TurnLog(tmp_path)
        log.write(turn("a1", answer="Coração aflito"))
        assert "Coração aflito" in log.path.read_text(encoding="utf-8")  # not \u-escaped

    def test_read_returns_records_oldest_first(self, tmp_path):
        log = TurnLog(tmp_path)
        for i in range(3):
            log.write(turn(f"t{i}"))
        assert [r["turn_id"] for r in log.read()] == ["t0", "t1", "t2"]


class TestSecrets:
    @pytest.mark.parametrize("var", ["OPENAI_API_KEY", "GROQ_API_KEY", "ANTHROPIC_API_KEY"])
    def test_keys_from_the_environment_are_never_written(self, tmp_path, monkeypatch, var):
        monkeypatch.setenv(var, SECRET)
        log = TurnLog(tmp_path)
        log.write(turn("a1", question=f"minha chave é {SECRET}", error={"message": f"auth {SECRET}"}))
        text = log.path.read_text(encoding="utf-8")
        assert SECRET not in text
        assert text.count("[removido]") == 2

    def test_short_values_are_not_treated_as_keys(self, tmp_path, monkeypatch):
        monkeypatch.setenv("OPENAI_API_KEY", "abc")  # would blank every "abc" in the log
        log = TurnLog(tmp_path)
        log.write(turn("a1", answer="abc"))
        assert log.read()[0]["answer"] == "abc"


class TestFeedback:
    def test_attached_to_a_logged_turn(self, tmp_path):
        log = TurnLog(tmp_path)
        log.write(turn("a1"))
        record = log.feedback("a1", "down", "faltou um versículo")
        assert record == Feedback("a1", "down", "faltou um versículo", record.timestamp)
        assert log.read()[-1] == {
            "type": "feedback",
            "timestamp": record.timestamp,
            "turn_id": "a1",
            "rating": "down",
            "comment": "faltou um versículo",
        }

    def test_without_text_logging_the_rating_returned_holds_no_comment_either(self, tmp_path):
        log = TurnLog(tmp_path, log_text=False)
        log.write(turn("a1"))
        record = log.feedback("a1", "up", "sou a Joana, da rua 7")
        assert (record.turn_id, record.rating, record.comment) == ("a1", "up", "")
        assert "comment" not in log.read()[-1]

    def test_one_rating_per_turn_a_second_one_replaces_it(self, tmp_path):
        log = TurnLog(tmp_path)
        log.write(turn("a1"))
        log.write(turn("b2"))
        log.feedback("a1", "up", "ajudou")
        log.feedback("b2", "down")
        log.feedback("a1", "down")
        ratings = [(r["turn_id"], r["rating"], r["comment"]) for r in log.read() if r["type"] == "feedback"]
        assert ratings == [("a1", "down", "ajudou"), ("b2", "down", "")]
        assert [r["turn_id"] for r in log.read() if r["type"] == "turn"] == ["a1", "b2"]

    def test_found_in_the_file_by_a_new_instance(self, tmp_path):
        TurnLog(tmp_path).write(turn("a1"))
        later = TurnLog(tmp_path)  # e.g. after a restart
        assert later.knows("a1") and not later.knows("zz")
        assert later.feedback("a1", "up").turn_id == "a1"

    def test_unknown_turn(self, tmp_path):
        with pytest.raises(KeyError, match="não encontrada"):
            TurnLog(tmp_path).feedback("nao-existe", "up")

    def test_invalid_rating(self, tmp_path):
        log = TurnLog(tmp_path)
        log.write(turn("a1"))
        with pytest.raises(ValueError, match="Avaliação inválida"):
            log.feedback("a1", "meh")

    def test_comment_is_capped(self, tmp_path):
        log = TurnLog(tmp_path)
        log.write(turn("a1"))
        assert len(log.feedback("a1", "up", "x" * 5000).comment) == 1000


class TestRotation:
    def record_size(self, tmp_path) -> int:
        probe = TurnLog(tmp_path / "probe")
        probe.write(turn("t000", answer="x" * 200))
        return probe.path.stat().st_size

    def test_rotates_by_size_and_keeps_a_few_files(self, tmp_path):
        size = self.record_size(tmp_path)
        log = TurnLog(tmp_path / "logs", max_bytes=size * 3)
        for i in range(30):
            log.write(turn(f"t{i:03d}", answer="x" * 200))
        current = log.path.stat().st_size
        assert current <= size * 3
        rotated = sorted(p.name for p in (tmp_path / "logs").glob("turns.*.jsonl"))
        assert rotated == [f"turns.{i}.jsonl" for i in range(1, KEEP_ROTATED + 1)]
        assert all(p.stat().st_size <= size * 3 for p in (tmp_path / "logs").iterdir())
        ids = [r["turn_id"] for r in log.read()]
        assert ids == sorted(ids) and ids[-1] == "t029"  # oldest first, newest kept
        assert len(ids) == 3 * (KEEP_ROTATED + 1)  # the oldest files were dropped

    def test_feedback_reaches_a_rotated_turn(self, tmp_path):
        size = self.record_size(tmp_path)
        log = TurnLog(tmp_path / "logs", max_bytes=size * 2)
        for i in range(5):
            log.write(turn(f"t{i:03d}", answer="x" * 200))
        later = TurnLog(tmp_path / "logs", max_bytes=size * 2)
        assert not any('"t000"' in line for line in log.path.read_text().splitlines())
        assert later.feedback("t000", "up").turn_id == "t000"

"""Tests for pastor.health: typed health records, their reasons and since when they hold."""

from __future__ import annotations

from pastor.health import HealthBoard, State


def test_a_failure_has_a_reason_until_the_component_is_fine_again():
    board = HealthBoard()
    assert board.reason("adapter") is None and board.records() == []
    board.fail("adapter", "adaptador de consulta", "arquivo de perguntas vazio")
    assert board.reason("adapter") == "arquivo de perguntas vazio"
    assert board.messages() == ["adaptador de consulta: arquivo de perguntas vazio"]
    board.ok("adapter", "adaptador de consulta")
    assert board.reason("adapter") is None and board.messages() == []
    assert board.get("adapter").state is State.OK


def test_since_is_kept_while_the_state_and_reason_hold():
    board = HealthBoard()
    first = board.fail("embedder", "modelo de embeddings", "modelo ausente")
    assert board.fail("embedder", "modelo de embeddings", "modelo ausente").since == first.since
    other = board.fail("embedder", "modelo de embeddings", "outro motivo")
    assert other.reason == "outro motivo" and other.since >= first.since


def test_failures_are_listed_oldest_first_and_as_plain_data():
    board = HealthBoard()
    board.fail("topics", "temas", "cache ilegível")
    board.set("corpus", "corpus", State.STARTING)
    board.fail("indexing", "indexação", "disco cheio")
    assert [r.component for r in board.failures()] == ["topics", "indexing"]
    record = board.get("corpus").as_dict()
    assert record["state"] == "starting" and set(record) == {"component", "label", "state", "reason", "since"}

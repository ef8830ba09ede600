"""The turn log under faults and for privacy: read-only or full disks, partial lines, text off, retention."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta

import pytest

from pastor.answer.chat import ChatService
from pastor.answer.checks import InputError, check_message
from pastor.answer.turnlog import TurnLog
from pastor.providers.fake import FakeProvider

QUESTION = "Meu nome é Joana Silva, moro na Rua das Flores 12 e estou com medo do futuro"


@pytest.fixture
def chat_for(engine):
    def make(log: TurnLog, provider=None) -> ChatService:
        return ChatService(engine.retriever, engine.resources.bible, provider or FakeProvider(chunk=5), turnlog=log)

    return make


class TestStorageFaults:
    def test_a_read_only_log_folder_still_gives_the_answer(self, tmp_path, chat_for):
        (tmp_path / "logs").write_text("não é uma pasta")  # every write under it fails, as read-only
        log = TurnLog(tmp_path / "logs" / "turnos")
        final = chat_for(log).ask("o que diz João 3:16?")
        assert final.done and "João 3:16" in final.answer and final.result.error is None
        assert log.warning and "só na memória" in log.warning
        assert [r["turn_id"] for r in log.memory] == [final.turn_id]
        assert log.feedback(final.turn_id, "up").rating == "up"  # feedback still finds it

    def test_the_status_tab_shows_the_warning(self, tmp_path):
        from pastor.web.runtime import Runtime
        from tests.support.app_fixtures import app_settings

        runtime = Runtime(app_settings(tmp_path / "data"))
        runtime.turnlog = TurnLog(tmp_path / "nada" / "logs")
        (tmp_path / "nada").write_text("arquivo")
        runtime.turnlog.write({"turn_id": "t1"})
        assert "só na memória" in runtime.status()["storage_warning"]

    def test_a_full_disk_never_leaves_a_partial_line(self, tmp_path, monkeypatch):
        log = TurnLog(tmp_path)
        log.write({"turn_id": "antes", "question": "inteira"})
        real_write = os.write

        def half(fd, data):  # ENOSPC after part of the line, as a full disk does
            return real_write(fd, data[: len(data) // 2])

        monkeypatch.setattr(os, "write", half)
        log.write({"turn_id": "cortada", "question": "x" * 500})
        monkeypatch.setattr(os, "write", real_write)
        log.write({"turn_id": "depois"})
        lines = log.path.read_text(encoding="utf-8").splitlines()
        # The cut line was taken back; the record waited in memory and went first, whole, once
        # the disk took lines again.
        assert [json.loads(line)["turn_id"] for line in lines] == ["antes", "cortada", "depois"]
        assert json.loads(lines[1])["question"] == "x" * 500
        assert log.warning is None and not log.memory

    def test_a_lone_surrogate_is_cleaned_not_a_crash(self, tmp_path, chat_for):
        assert check_message("oi \ud800 tudo bem?", 100) == "oi \ufffd tudo bem?"
        with pytest.raises(InputError, match="inválidos"):
            check_message("\ud800\udfff", 100)
        log = TurnLog(tmp_path)
        final = chat_for(log).ask("o que diz João 3:16? \ud800")
        assert final.done and log.read()[0]["turn_id"] == final.turn_id

    def test_the_log_itself_survives_a_surrogate(self, tmp_path):
        log = TurnLog(tmp_path)
        log.write({"turn_id": "s1", "question": "a\ud800b"})
        assert log.read()[0]["question"] == "a?b"


class TestPrivacy:
    def test_log_text_off_stores_no_question_and_no_answer(self, tmp_path, chat_for):
        log = TurnLog(tmp_path, log_text=False)
        final = chat_for(log).ask(QUESTION)
        log.feedback(final.turn_id, "down", "Joana achou a resposta fria")
        text = log.path.read_text(encoding="utf-8")
        for private in ("Joana", "Flores", "medo", final.answer[:30]):
            assert private not in text
        turn, feedback = log.read()
        assert set(turn) <= {
            "type",
            "timestamp",
            "turn_id",
            "mode",
            "retrieved",
            "citations",
            "removed_citations",
            "provider",
            "model",
            "latency",
        }
        assert turn["turn_id"] == final.turn_id and turn["mode"] == final.result.mode
        assert all(set(r) == {"id", "score"} for r in turn["retrieved"])
        assert feedback["rating"] == "down" and "comment" not in feedback

    def test_log_text_on_keeps_the_text_for_local_use(self, tmp_path, chat_for):
        log = TurnLog(tmp_path)
        chat_for(log).ask(QUESTION)
        assert log.read()[0]["question"] == QUESTION

    def test_settings_reach_the_log(self, tmp_path):
        from pastor.wiring import build_turnlog
        from tests.support.core_fixtures import settings_for

        log = build_turnlog(settings_for(tmp_path, PASTOR_LOG_TEXT="false", PASTOR_LOG_RETENTION_DAYS="7"))
        assert (log.log_text, log.retention_days) == (False, 7)


class TestRetention:
    def test_old_lines_and_old_rotated_files_are_removed(self, tmp_path):
        log = TurnLog(tmp_path, max_bytes=1024, retention_days=30)
        for i in range(12):
            log.write({"turn_id": f"t{i}", "question": "q" * 200})
        assert log._files()[1:]  # rotated files exist
        assert log.prune(datetime.now(UTC) + timedelta(days=29)) == 0
        assert log.knows("t0")
        removed = log.prune(datetime.now(UTC) + timedelta(days=31))
        assert removed > 0 and log.read() == [] and log._files() == []
        assert not log.knows("t0")  # the feedback index forgets removed turns

    def test_only_lines_older_than_the_retention_go(self, tmp_path):
        log = TurnLog(tmp_path, retention_days=1)
        old = (datetime.now(UTC) - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%S%z")
        log.write({"turn_id": "velho", "timestamp": old})  # the record's own timestamp wins
        log.write({"turn_id": "novo"})
        assert log.prune() == 1
        assert [r["turn_id"] for r in log.read()] == ["novo"]

    def test_the_first_write_after_start_prunes_even_soon_after_boot(self, tmp_path, monkeypatch):
        import pastor.answer.turnlog as turnlog

        old = (datetime.now(UTC) - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%S%z")
        TurnLog(tmp_path).write({"turn_id": "velho", "timestamp": old})  # an earlier run, no retention
        monkeypatch.setattr(turnlog.time, "monotonic", lambda: 10.0)  # ten seconds of uptime
        log = TurnLog(tmp_path, retention_days=1)
        log.write({"turn_id": "novo"})
        assert [r["turn_id"] for r in log.read()] == ["novo"]


class TestFeedbackIndex:
    def test_feedback_reads_the_log_once_not_per_call(self, tmp_path, monkeypatch):
        import pastor.answer.turnlog as turnlog

        first = TurnLog(tmp_path)
        for i in range(5):
            first.write({"turn_id": f"a{i}"})
        later = TurnLog(tmp_path)  # after a restart
        reads = []
        real = turnlog._lines
        monkeypatch.setattr(turnlog, "_lines", lambda path: reads.append(path) or real(path))
        for i in range(5):
            later.feedback(f"a{i}", "up")  # first ratings: no file read beyond the one index pass
        assert len(reads) == 1
        later.write({"turn_id": "a5"})
        assert later.knows("a5") and len(reads) == 1
        later.feedback("a0", "down")  # a second rating is one more event: nothing is read or rewritten
        assert len(reads) == 1
        assert [r["rating"] for r in later.read() if r["type"] == "feedback"] == ["down", "up", "up", "up", "up"]


@pytest.mark.integration  # the whole app on the real embedder, its data folder read-only
class TestUnwritableDataDir:
    def test_the_app_still_answers_with_the_whole_data_dir_unwritable(self, tmp_path, fake_models):
        """Index, BM25 cache and turn log all fail to write (a regular file stands where the data
        dir should be, which fails for root too, unlike a chmod): keyword search and the chat still
        answer, and the status tab says why."""
        from pastor.web.runtime import Runtime
        from tests.support.app_fixtures import SpyProvider, app_settings

        (tmp_path / "bloqueado").write_text("não é uma pasta")
        settings = app_settings(tmp_path / "bloqueado" / "data", EMBEDDING_MODEL="fake-bow")
        runtime = Runtime(settings, provider=SpyProvider(chunk=5)).start(background=False)
        runtime.engine.stop_indexing(30)  # the background build fails at once: nothing to write to
        assert runtime.phase == "ready"
        final = runtime.chat.ask("o que diz João 3:16?")
        assert final.done and "João 3:16" in final.answer and final.result.error is None
        status = runtime.status()
        assert "só na memória" in status["storage_warning"]
        assert any("indexação" in e for e in status["errors"])
        assert str(tmp_path) not in json.dumps(status, ensure_ascii=False)


class TestAppendOnly:
    def test_a_comment_appends_one_line_and_never_rewrites_the_log(self, tmp_path, monkeypatch):
        log = TurnLog(tmp_path)
        for i in range(50):
            log.write({"turn_id": f"t{i}", "answer": "resposta " * 50})
        log.feedback("t1", "up")
        before = log.path.read_bytes()
        replaced = []
        monkeypatch.setattr(os, "replace", lambda *a: replaced.append(a))
        log.feedback("t1", "down", "faltou o contexto")
        after = log.path.read_bytes()
        assert after.startswith(before) and after[len(before) :].count(b"\n") == 1 and replaced == []
        (rating,) = [r for r in log.read() if r["type"] == "feedback"]
        assert (rating["rating"], rating["comment"]) == ("down", "faltou o contexto")
        log.feedback("t1", "up")  # a later thumb without a comment keeps what the person wrote
        (rating,) = [r for r in log.read() if r["type"] == "feedback"]
        assert (rating["rating"], rating["comment"]) == ("up", "faltou o contexto")
        assert [r["rating"] for r in log.events() if r["type"] == "feedback"] == ["up", "down", "up"]

    def test_modes_stay_private_across_every_write(self, tmp_path):
        import stat

        log = TurnLog(tmp_path / "logs", max_bytes=600, retention_days=1)
        old = (datetime.now(UTC) - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%S%z")
        log.write({"turn_id": "velho", "timestamp": old})
        for i in range(8):
            log.write({"turn_id": f"t{i}", "answer": "x" * 100})
            log.feedback(f"t{i}", "up", "bom")
        log.prune()
        files = list((tmp_path / "logs").iterdir())
        assert len(files) > 2
        assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o600}
        assert stat.S_IMODE((tmp_path / "logs").stat().st_mode) == 0o700

    def test_turns_held_in_memory_are_written_when_space_returns(self, tmp_path, monkeypatch):
        log = TurnLog(tmp_path)
        real_open = os.open

        def full(path, *args, **kwargs):
            raise OSError(28, "No space left on device", str(path))

        monkeypatch.setattr(os, "open", full)
        for i in range(3):
            log.write({"turn_id": f"cheio{i}"})
        log.feedback("cheio1", "up", "obrigado")
        assert len(log.memory) == 4 and "só na memória" in log.warning
        monkeypatch.setattr(os, "open", real_open)
        log.write({"turn_id": "depois"})
        assert [(r["type"], r["turn_id"]) for r in log.events()] == [
            ("turn", "cheio0"),
            ("turn", "cheio1"),
            ("turn", "cheio2"),
            ("feedback", "cheio1"),
            ("turn", "depois"),
        ]
        assert not log.memory and log.warning is None

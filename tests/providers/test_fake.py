"""The fake provider: chunking, cycling, queue, scripted failures, echo and bookkeeping."""

from __future__ import annotations

import json
import threading

import pytest

from pastor.providers import ProviderError
from pastor.providers.fake import FakeProvider, echo

MESSAGES = [{"role": "user", "content": "Estou triste."}]
SYSTEM = (
    "Responda com carinho.\n"
    "[FONTE 1] João 3:16 — Porque Deus amou o mundo de tal maneira\n"
    "[FONTE 2] Salmos 23:1 — O Senhor é o meu pastor, nada me faltará\n"
    "[FONTE 3] Romanos 8:28 — E sabemos que todas as coisas contribuem"
)


def responses_file(tmp_path, items) -> object:
    path = tmp_path / "respostas.json"
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    return path


class TestChunking:
    def test_stream_splits_into_chunks_of_the_configured_size(self):
        fake = FakeProvider(chunk=3)
        fake.enqueue("abcdefgh")
        assert list(fake.stream("", MESSAGES)) == ["abc", "def", "gh"]

    def test_chunks_join_back_to_the_reply(self):
        fake = FakeProvider(chunk=1)
        fake.enqueue("Paz a você")
        assert "".join(fake.stream("", MESSAGES)) == "Paz a você"

    def test_cancel_stops_the_stream_between_chunks(self):
        fake = FakeProvider(chunk=2, delay=0.01)
        fake.enqueue("abcdefgh")
        cancel = threading.Event()
        stream = fake.stream("", MESSAGES, cancel=cancel)
        assert next(stream) == "ab"
        cancel.set()
        assert list(stream) == []


class TestResponseSources:
    def test_file_responses_cycle(self, tmp_path):
        fake = FakeProvider(responses=responses_file(tmp_path, ["um", "dois"]))
        assert [fake.complete("", MESSAGES) for _ in range(3)] == ["um", "dois", "um"]

    def test_queue_takes_priority_over_the_file(self, tmp_path):
        fake = FakeProvider(responses=responses_file(tmp_path, ["do arquivo"]))
        fake.enqueue("primeiro", "segundo")
        replies = ["".join(fake.stream("", MESSAGES)), fake.complete("", MESSAGES), fake.complete("", MESSAGES)]
        assert replies == ["primeiro", "segundo", "do arquivo"]

    def test_echo_quotes_the_sources_of_the_system_prompt(self):
        reply = "".join(FakeProvider().stream(SYSTEM, MESSAGES))
        assert reply.startswith("Veja o que diz João 3:16: «Porque Deus amou o mundo de tal maneira»")
        assert "Salmos 23:1" in reply
        assert "Romanos 8:28" not in reply  # two sources at most keep the echo short

    def test_echo_without_sources_cites_nothing(self):
        reply = echo("Responda com carinho.")
        assert reply and "Veja o que diz" not in reply and "«" not in reply

    def test_echo_accepts_plain_hyphen_and_verse_ranges(self):
        assert echo("[FONTE 1] João 3:16-17 - Porque Deus") == "Veja o que diz João 3:16-17: «Porque Deus»"


class TestScriptedFailures:
    def test_error_item_fails_the_stream_with_its_kind(self, tmp_path):
        fake = FakeProvider(responses=responses_file(tmp_path, [{"error": "timeout"}]))
        with pytest.raises(ProviderError) as caught:
            list(fake.stream("", MESSAGES))
        assert caught.value.kind == "timeout"
        assert caught.value.provider == "fake"

    def test_error_item_with_text_streams_it_before_failing(self):
        fake = FakeProvider(chunk=4)
        fake.enqueue({"error": "stream", "text": "Começo da"})
        received = []
        with pytest.raises(ProviderError) as caught:
            for delta in fake.stream("", MESSAGES):
                received.append(delta)
        assert "".join(received) == "Começo da"
        assert caught.value.kind == "stream"

    def test_complete_raises_scripted_errors(self):
        fake = FakeProvider()
        fake.enqueue({"error": "rate_limit"})
        with pytest.raises(ProviderError) as caught:
            fake.complete("", MESSAGES)
        assert caught.value.kind == "rate_limit"

    @pytest.mark.parametrize("content", ["not json", "[]", '{"a": 1}', '[{"error": "explodiu"}]', "[3]"])
    def test_invalid_file_is_a_config_error(self, tmp_path, content):
        path = tmp_path / "respostas.json"
        path.write_text(content, encoding="utf-8")
        with pytest.raises(ProviderError) as caught:
            FakeProvider(responses=path)
        assert caught.value.kind == "config"
        assert "PASTOR_FAKE_RESPONSES" in caught.value.user_message

    def test_missing_file_is_a_config_error(self, tmp_path):
        with pytest.raises(ProviderError) as caught:
            FakeProvider(responses=tmp_path / "nao-existe.json")
        assert caught.value.kind == "config"


class TestBookkeeping:
    def test_calls_count_stream_and_complete(self):
        fake = FakeProvider()
        assert fake.calls == 0
        list(fake.stream(SYSTEM, MESSAGES))
        fake.complete(SYSTEM, MESSAGES)
        assert fake.calls == 2

    def test_a_stream_counts_when_requested_even_if_not_consumed(self):
        fake = FakeProvider()
        fake.stream(SYSTEM, MESSAGES)
        assert fake.calls == 1

    def test_records_the_last_system_and_messages(self):
        fake = FakeProvider()
        assert fake.last_system is None and fake.last_messages is None
        fake.complete("sem fontes", MESSAGES)
        assert fake.last_system == "sem fontes"
        assert fake.last_messages == MESSAGES

    def test_check_is_always_reachable(self):
        assert FakeProvider().check() == {"reachable": True, "detail": "respostas simuladas (fake)"}


def test_a_bad_responses_path_is_named_by_its_file_only(tmp_path):
    """The message reaches /status and the page: the server's folders stay private."""
    with pytest.raises(ProviderError) as caught:
        FakeProvider(responses=tmp_path / "segredo" / "respostas.json")
    assert "respostas.json" in caught.value.user_message and str(tmp_path) not in caught.value.user_message

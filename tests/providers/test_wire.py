"""Wire-level tests: each SDK adapter against a loopback server speaking that provider's protocol."""

from __future__ import annotations

import logging
import threading
import traceback
from dataclasses import dataclass

import pytest

from pastor.config import Settings
from pastor.providers import ProviderError, load_provider
from tests.support.helpers import free_port
from tests.support.loopback_servers import AnthropicProtocol, LoopbackServer, OllamaProtocol, OpenAIProtocol, Script

KEY = "sk-LEAKCHECK-0123456789abcdef"
SYSTEM = "Você é um pastor. [FONTE 1] João 3:16 — Porque Deus amou o mundo"
MESSAGES = [{"role": "user", "content": "Estou com medo."}]
REPLY = "Olá, irmão. Paz!"


@dataclass
class Wire:
    name: str
    protocol: object
    openai_prefix: str = ""

    def provider(self, url: str, timeout: float = 5.0):
        """The provider built by the factory, pointed at the loopback server."""
        settings = Settings.from_env(
            {"LLM_PROVIDER": self.name, "LLM_TIMEOUT": str(timeout), "OLLAMA_HOST": url, "OPENAI_BASE_URL": f"{url}/v1"}
        )
        env = {
            "OPENAI_API_KEY": KEY,
            "GROQ_API_KEY": KEY,
            "ANTHROPIC_API_KEY": KEY,
            "GROQ_BASE_URL": url,
            "ANTHROPIC_BASE_URL": url,
            "HF_TOKEN": KEY,
            "HF_BASE_URL": f"{url}/v1",  # on a Space: the router's URL, the default of the provider
        }
        return load_provider(settings, env)


WIRES = [
    Wire("openai", OpenAIProtocol("/v1", "gpt-4o-mini")),
    Wire("groq", OpenAIProtocol("/openai/v1", "llama-3.1-8b-instant")),
    Wire("anthropic", AnthropicProtocol("claude-haiku-4-5")),
    Wire("ollama", OllamaProtocol("qwen2.5:1.5b")),
    Wire("huggingface", OpenAIProtocol("/v1", "Qwen/Qwen2.5-7B-Instruct")),
]
KEYED = [wire for wire in WIRES if wire.name != "ollama"]


@pytest.fixture(params=WIRES, ids=lambda wire: wire.name)
def wire(request):
    return request.param


@pytest.fixture
def server(wire):
    with LoopbackServer(wire.protocol) as srv:
        yield srv


def opening(wire: Wire) -> int:
    """How many frames precede the first text delta in this protocol."""
    return len(wire.protocol.opening())


def failure_of(call) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        call()
    return caught.value


# --- normal traffic ------------------------------------------------------------------------------


class TestNormalTraffic:
    def test_stream_yields_the_deltas_in_order(self, wire, server):
        provider = wire.provider(server.url)
        assert list(provider.stream(SYSTEM, MESSAGES)) == ["Olá", ", irmão", ". Paz!"]
        assert provider.calls == 1

    def test_stream_request_carries_model_system_and_messages(self, wire, server):
        provider = wire.provider(server.url)
        list(provider.stream(SYSTEM, MESSAGES))
        (request,) = server.requests
        assert request.path == wire.protocol.stream_path
        assert request.body["model"] == provider.model
        assert request.body["stream"] is True
        if wire.name == "anthropic":
            assert request.body["system"] == SYSTEM
            assert request.body["messages"] == MESSAGES
        else:
            assert request.body["messages"] == [{"role": "system", "content": SYSTEM}, *MESSAGES]

    @pytest.mark.parametrize("wire", KEYED, ids=lambda wire: wire.name)
    def test_key_is_sent_in_a_header(self, wire, server):
        list(wire.provider(server.url).stream(SYSTEM, MESSAGES))
        # The header name is the SDK's business (x-api-key or Authorization); the key must be sent.
        assert any(KEY in value for value in server.requests[0].headers.values())

    def test_complete_returns_the_whole_reply_without_streaming(self, wire, server):
        provider = wire.provider(server.url)
        assert provider.complete(SYSTEM, MESSAGES, max_tokens=50) == REPLY
        body = server.requests[0].body
        assert not body.get("stream")
        limit = body["options"]["num_predict"] if wire.name == "ollama" else body["max_tokens"]
        assert limit == 50
        assert provider.calls == 1

    def test_check_lists_models(self, wire, server):
        status = wire.provider(server.url).check()
        assert status["reachable"] is True
        assert "conectado" in status["detail"]
        assert server.requests[0].path.split("?")[0] == wire.protocol.models_path

    def test_ollama_without_the_model_is_not_ready(self, wire, server):
        if wire.name != "ollama":
            pytest.skip("only Ollama lists the models pulled on the server")
        from pastor.providers.ollama_provider import OllamaProvider

        status = OllamaProvider(model="ainda-nao:1b", base_url=server.url, timeout=5).check()
        assert status["reachable"] is False  # every answer would fail until the pull ends
        assert "ainda não foi baixado" in status["detail"] and "ollama pull ainda-nao:1b" in status["detail"]


# --- failures before the reply -------------------------------------------------------------------


class TestFailuresBeforeTheReply:
    def test_no_server_is_unreachable(self, wire):
        url = f"http://127.0.0.1:{free_port()}"
        error = failure_of(lambda: list(wire.provider(url).stream(SYSTEM, MESSAGES)))
        assert error.kind == "unreachable"
        assert error.provider == wire.name
        assert "Não foi possível falar com o modelo" in error.user_message

    def test_no_server_makes_check_report_unreachable(self, wire):
        status = wire.provider(f"http://127.0.0.1:{free_port()}").check()
        assert status == {"reachable": False, "detail": status["detail"]}
        assert "Não foi possível falar" in status["detail"]

    @pytest.mark.parametrize(
        "status, kind", [(401, "auth"), (429, "rate_limit"), (500, "bad_response"), (404, "config")]
    )
    def test_error_status_maps_to_kind(self, wire, server, status, kind):
        server.script = Script(status=status)
        error = failure_of(lambda: list(wire.provider(server.url).stream(SYSTEM, MESSAGES)))
        assert error.kind == kind
        assert error.user_message and "scripted" not in error.user_message

    def test_complete_maps_errors_too(self, wire, server):
        server.script = Script(status=429)
        assert failure_of(lambda: wire.provider(server.url).complete(SYSTEM, MESSAGES)).kind == "rate_limit"

    def test_slow_headers_hit_the_timeout(self, wire, server):
        server.script = Script(stall_headers=True)
        error = failure_of(lambda: list(wire.provider(server.url, timeout=0.5).stream(SYSTEM, MESSAGES)))
        assert error.kind == "timeout"
        assert "0.5 s" in error.user_message


# --- failures in the middle of the reply ---------------------------------------------------------


class TestFailuresMidStream:
    def _consume(self, provider) -> tuple[list[str], ProviderError]:
        received: list[str] = []
        with pytest.raises(ProviderError) as caught:
            for delta in provider.stream(SYSTEM, MESSAGES):
                received.append(delta)
        return received, caught.value

    def test_socket_closed_mid_chunked_body_is_a_stream_error(self, wire, server):
        server.script = Script(cut_after=opening(wire) + 1)
        received, error = self._consume(wire.provider(server.url))
        assert received == ["Olá"]
        assert error.kind == "stream"

    def test_clean_eof_before_the_end_marker_is_a_stream_error(self, wire, server):
        server.script = Script(cut_after=opening(wire) + 2, chunked=False)
        received, error = self._consume(wire.provider(server.url))
        assert received == ["Olá", ", irmão"]
        assert error.kind == "stream"

    def test_error_event_in_the_stream_is_a_stream_error(self, wire, server):
        server.script = Script(fail_after=opening(wire) + 1)
        received, error = self._consume(wire.provider(server.url))
        assert received == ["Olá"]
        assert error.kind == "stream"
        # Raised by the SDK on the error event, not by our missing-end-marker check.
        assert "Error" in error.detail

    def test_stall_mid_stream_hits_the_timeout(self, wire, server):
        server.script = Script(stall_after=opening(wire) + 1)
        received, error = self._consume(wire.provider(server.url, timeout=0.5))
        assert received == ["Olá"]
        assert error.kind == "timeout"


# --- cancellation --------------------------------------------------------------------------------


class TestCancellation:
    def test_cancel_event_closes_the_connection(self, wire, server):
        server.script = Script(trickle=True, delay=0.05)
        cancel = threading.Event()
        stream = wire.provider(server.url).stream(SYSTEM, MESSAGES, cancel=cancel)
        assert next(stream) == "Olá"
        cancel.set()
        assert list(stream) == []
        assert server.client_gone.wait(3)

    def test_closing_the_generator_closes_the_connection(self, wire, server):
        server.script = Script(trickle=True, delay=0.05)
        stream = wire.provider(server.url).stream(SYSTEM, MESSAGES)
        assert next(stream) == "Olá"
        stream.close()
        assert server.client_gone.wait(3)

    def test_uncancelled_trickle_keeps_the_connection_open(self, wire, server):
        # The control case: without cancel the server keeps writing successfully.
        server.script = Script(trickle=True, delay=0.02, deltas=("Olá",))
        stream = wire.provider(server.url).stream(SYSTEM, MESSAGES)
        received = [next(stream) for _ in range(5)]
        assert received == ["Olá", ".", ".", ".", "."]
        assert not server.client_gone.is_set()
        stream.close()

    def test_already_cancelled_makes_no_request(self, wire, server):
        cancel = threading.Event()
        cancel.set()
        assert list(wire.provider(server.url).stream(SYSTEM, MESSAGES, cancel=cancel)) == []
        assert server.requests == []


# --- secrets -------------------------------------------------------------------------------------


class TestKeysNeverLeak:
    @pytest.mark.parametrize("wire", KEYED, ids=lambda wire: wire.name)
    @pytest.mark.parametrize("status", [401, 500])
    def test_key_echoed_by_the_server_stays_out_of_errors_and_logs(self, wire, status, caplog):
        caplog.set_level(logging.DEBUG)
        with LoopbackServer(wire.protocol, Script(status=status, echo_credentials=True)) as server:
            provider = wire.provider(server.url)
            stream_error = failure_of(lambda: list(provider.stream(SYSTEM, MESSAGES)))
            complete_error = failure_of(lambda: provider.complete(SYSTEM, MESSAGES))
            status_report = provider.check()
        for error in (stream_error, complete_error):
            # The SDK exception (which quotes the key) must not even be chained.
            assert error.__cause__ is None and error.__context__ is None
            texts = [str(error), repr(error), error.user_message, error.detail, *traceback.format_exception(error)]
            assert not [text for text in texts if KEY in text]
        assert KEY not in str(status_report) and KEY not in repr(provider)
        assert KEY not in caplog.text
        assert any(r.name == "pastor.providers" for r in caplog.records)

    @pytest.mark.parametrize("wire", KEYED, ids=lambda wire: wire.name)
    def test_auth_message_names_the_variable(self, wire, server):
        server.script = Script(status=401)
        provider = wire.provider(server.url)
        error = failure_of(lambda: list(provider.stream(SYSTEM, MESSAGES)))
        assert provider.key_var in error.user_message and provider.key_var.endswith(("_API_KEY", "_TOKEN"))

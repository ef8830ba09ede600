"""The provider factory, the `none` provider, and the mapping of exceptions to error kinds."""

from __future__ import annotations

import httpx
import pytest
from ollama import ResponseError

import pastor.providers as providers
from pastor.config import Settings
from pastor.providers import PROVIDERS, ProviderError, load_provider
from pastor.providers.failures import classify, describe, safe_url
from pastor.providers.none import NoneProvider
from pastor.providers.ollama_provider import OllamaProvider
from pastor.providers.provider import ProviderError as BaseProviderError
from tests.support.helpers import free_port

KEY = "sk-LEAKCHECK-factory-987654"
MESSAGES = [{"role": "user", "content": "oi"}]


def settings(**env) -> Settings:
    return Settings.from_env({key.upper(): str(value) for key, value in env.items()})


# --- factory -------------------------------------------------------------------------------------


class TestFactory:
    @pytest.mark.parametrize(
        "name, cls, model",
        [
            ("ollama", "OllamaProvider", "qwen2.5:1.5b"),
            ("openai", "OpenAIProvider", "gpt-4o-mini"),
            ("groq", "GroqProvider", "llama-3.1-8b-instant"),
            ("anthropic", "AnthropicProvider", "claude-haiku-4-5"),
            ("huggingface", "HuggingFaceProvider", "Qwen/Qwen2.5-7B-Instruct"),
            ("local", "LocalProvider", "Qwen/Qwen2.5-0.5B-Instruct"),
            ("fake", "FakeProvider", "fake"),
            ("none", "NoneProvider", ""),
        ],
    )
    def test_each_name_builds_its_provider_with_the_default_model(self, name, cls, model):
        provider = load_provider(settings(llm_provider=name), env={})
        assert type(provider).__name__ == cls
        assert provider.name == name
        assert provider.model == model
        assert provider.calls == 0

    def test_the_default_is_the_automatic_choice(self, tmp_path):
        # No key, no Ollama on a closed port: the local model, never started by building it.
        closed = settings(ollama_host=f"http://127.0.0.1:{free_port()}", pastor_data_dir=tmp_path)
        provider = load_provider(closed, env={})
        assert provider.name == "local" and provider.choice.automatic
        assert "nenhum Ollama" in provider.choice.reason and provider.store.state().phase == "idle"

    def test_llm_model_overrides_the_default(self):
        provider = load_provider(settings(llm_provider="groq", llm_model="llama-3.3-70b-versatile"), env={})
        assert provider.model == "llama-3.3-70b-versatile"

    def test_timeout_comes_from_settings(self):
        assert load_provider(settings(llm_provider="openai", llm_timeout=7.5), env={}).timeout == 7.5

    def test_unknown_name_is_a_config_error_listing_valid_names(self):
        from pastor.config import ConfigError

        with pytest.raises(ConfigError) as caught:
            settings(llm_provider="gemini")
        for name in PROVIDERS:
            assert name in str(caught.value)

    def test_base_urls_come_from_settings_and_env(self):
        env = {"GROQ_BASE_URL": "http://groq.local", "ANTHROPIC_BASE_URL": "http://claude.local"}
        base = dict(ollama_host="http://gpu:11434", openai_base_url="http://compat:8000/v1")
        env["HF_BASE_URL"] = "http://router.local/v1"
        remote = [name for name in PROVIDERS if name not in ("fake", "none", "local")]
        urls = {name: load_provider(settings(llm_provider=name, **base), env=env).base_url for name in remote}
        assert urls == {
            "ollama": "http://gpu:11434",
            "openai": "http://compat:8000/v1",
            "groq": "http://groq.local",
            "anthropic": "http://claude.local",
            "huggingface": "http://router.local/v1",
        }

    def test_the_hugging_face_router_is_the_default_url_of_its_provider(self):
        provider = load_provider(settings(llm_provider="huggingface"), env={"HF_TOKEN": "hf_x"})
        assert provider.base_url == "https://router.huggingface.co/v1" and provider.key_var == "HF_TOKEN"

    def test_fake_settings_reach_the_fake(self, tmp_path):
        path = tmp_path / "r.json"
        path.write_text('["abcdef"]', encoding="utf-8")
        fake = load_provider(
            settings(llm_provider="fake", pastor_fake_responses=path, pastor_fake_chunk=4, pastor_fake_delay=0), env={}
        )
        assert list(fake.stream("", MESSAGES)) == ["abcd", "ef"]

    def test_keys_are_read_from_dotenv_with_the_environment_winning(self, tmp_path, monkeypatch):
        (tmp_path / ".env").write_text("OPENAI_API_KEY=from-dotenv\nGROQ_API_KEY=from-dotenv\n", encoding="utf-8")
        monkeypatch.setattr(providers, "ROOT", tmp_path)
        monkeypatch.setenv("GROQ_API_KEY", "from-environment")
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        assert load_provider(settings(llm_provider="openai"))._api_key == "from-dotenv"
        assert load_provider(settings(llm_provider="groq"))._api_key == "from-environment"


class TestMissingKeys:
    @pytest.mark.parametrize("name", ["openai", "groq", "anthropic"])
    def test_missing_key_is_a_config_error_naming_the_variable_and_never_a_fallback(self, name):
        provider = load_provider(settings(llm_provider=name), env={})
        assert provider.name == name
        variable = f"{name.upper()}_API_KEY"
        for call in (lambda: list(provider.stream("", MESSAGES)), lambda: provider.complete("", MESSAGES)):
            with pytest.raises(ProviderError) as caught:
                call()
            assert caught.value.kind == "config"
            assert variable in caught.value.user_message
        status = provider.check()
        assert status["reachable"] is False and variable in status["detail"]

    @pytest.mark.parametrize("name", ["openai", "groq", "anthropic"])
    def test_key_is_absent_from_repr_and_messages(self, name):
        provider = load_provider(settings(llm_provider=name), env={f"{name.upper()}_API_KEY": KEY})
        assert KEY not in repr(provider)
        for kind in ("auth", "config", "unreachable", "timeout"):
            assert KEY not in provider.error(kind).user_message


# --- none ----------------------------------------------------------------------------------------


class TestNoneProvider:
    def test_refuses_to_generate(self):
        provider = NoneProvider()
        with pytest.raises(ProviderError) as caught:
            provider.stream("", MESSAGES)
        assert caught.value.kind == "config"
        with pytest.raises(ProviderError):
            provider.complete("", MESSAGES)

    def test_check_explains_verses_only_answers(self):
        assert NoneProvider().check() == {"reachable": True, "detail": "sem modelo (respostas só com versículos)"}


# --- error mapping -------------------------------------------------------------------------------


class _StatusError(Exception):
    def __init__(self, status_code: int) -> None:
        super().__init__(f"status {status_code} for {KEY}")
        self.status_code = status_code


def _wrapped(outer: Exception, inner: Exception) -> Exception:
    outer.__cause__ = inner
    return outer


REQUEST = httpx.Request("POST", "http://127.0.0.1/")


class TestClassify:
    @pytest.mark.parametrize(
        "status, kind",
        [
            (401, "auth"),
            (403, "auth"),
            (429, "rate_limit"),
            (404, "config"),
            (504, "timeout"),
            (500, "bad_response"),
            (503, "bad_response"),
            (400, "bad_response"),
        ],
    )
    def test_http_status(self, status, kind):
        assert classify(_StatusError(status), started=False)[0] == kind

    def test_timeouts_anywhere_in_the_chain(self):
        assert classify(httpx.ReadTimeout("slow", request=REQUEST), started=True) == ("timeout", None)
        assert classify(_wrapped(RuntimeError("sdk"), httpx.ConnectTimeout("slow")), started=False)[0] == "timeout"

    def test_connection_refused_is_unreachable(self):
        assert classify(httpx.ConnectError("refused"), started=False)[0] == "unreachable"
        assert classify(ConnectionError("Failed to connect to Ollama"), started=False)[0] == "unreachable"

    def test_protocol_errors_depend_on_whether_the_reply_had_started(self):
        cut = _wrapped(RuntimeError("APIConnectionError"), httpx.RemoteProtocolError("incomplete chunked read"))
        assert classify(cut, started=True)[0] == "stream"
        assert classify(cut, started=False)[0] == "unreachable"

    def test_ollama_response_errors(self):
        assert classify(ResponseError('{"error": "model not found"}', 404), started=False) == ("config", 404)
        assert classify(ResponseError("error mid-stream"), started=True) == ("stream", None)

    def test_anything_else(self):
        assert classify(ValueError("bad json"), started=True)[0] == "stream"
        assert classify(ValueError("bad json"), started=False)[0] == "bad_response"


class TestMessages:
    def test_describe_keeps_class_names_and_status_only(self):
        text = describe(_wrapped(_StatusError(401), ValueError(KEY)))
        assert text == "_StatusError <- ValueError (HTTP 401)"

    def test_safe_url_drops_credentials(self):
        assert safe_url("http://user:secret@host:11434/v1") == "http://host:11434"
        assert safe_url("http://host:11434") == "http://host:11434"

    def test_safe_url_drops_path_and_query_which_may_hold_a_key(self):
        assert safe_url("https://gw.example/key/abc123/v1?api-key=zzz") == "https://gw.example"

    def test_unreachable_names_the_host(self):
        message = OllamaProvider(base_url="http://localhost:11434").error("unreachable").user_message
        assert message.startswith("Não foi possível falar com o modelo (ollama em http://localhost:11434).")

    def test_ollama_missing_model_suggests_pulling_it(self):
        message = OllamaProvider(base_url="http://localhost:11434").error("config", 404).user_message
        assert "ollama pull qwen2.5:1.5b" in message

    def test_timeout_names_the_limit_and_the_setting(self):
        message = OllamaProvider(timeout=2.5).error("timeout").user_message
        assert "2.5 s" in message and "LLM_TIMEOUT" in message

    def test_error_kinds_are_validated(self):
        with pytest.raises(ValueError):
            ProviderError("kaboom", "x")
        assert ProviderError is BaseProviderError
        assert repr(ProviderError("auth", "Recusado.", "groq")) == (
            "ProviderError(kind='auth', provider='groq', message='Recusado.')"
        )

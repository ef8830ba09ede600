"""Chat model providers, chosen by `LLM_PROVIDER` (or automatically when it is empty); never swapped later."""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module

from pastor.config import ROOT, Settings, read_dotenv
from pastor.providers.choice import Choice, choose
from pastor.providers.provider import Provider, ProviderError

# How long the automatic choice waits for Ollama at start: a local server answers in milliseconds.
OLLAMA_PROBE_TIMEOUT = 2.0

# name -> (module, class); imported on demand because some SDKs take seconds to import.
PROVIDERS = {
    "ollama": ("pastor.providers.ollama_provider", "OllamaProvider"),
    "openai": ("pastor.providers.openai_provider", "OpenAIProvider"),
    "groq": ("pastor.providers.groq_provider", "GroqProvider"),
    "anthropic": ("pastor.providers.anthropic_provider", "AnthropicProvider"),
    "huggingface": ("pastor.providers.huggingface_provider", "HuggingFaceProvider"),
    "local": ("pastor.providers.local_provider", "LocalProvider"),
    "fake": ("pastor.providers.fake", "FakeProvider"),
    "none": ("pastor.providers.none", "NoneProvider"),
}

__all__ = ["PROVIDERS", "Choice", "Provider", "ProviderError", "load_provider"]


def _environment() -> dict[str, str]:
    # Keys may live in `.env` as well as in the process environment (which wins).
    return {**read_dotenv(ROOT / ".env"), **os.environ}


def _options(name: str, settings: Settings, env: Mapping[str, str]) -> dict:
    """The keyword arguments of provider `name` beyond model and timeout."""
    if name == "ollama":
        return {"base_url": settings.ollama_host}
    if name == "openai":
        return {"api_key": env.get("OPENAI_API_KEY"), "base_url": settings.openai_base_url or None}
    if name == "groq":
        return {"api_key": env.get("GROQ_API_KEY"), "base_url": env.get("GROQ_BASE_URL") or None}
    if name == "huggingface":
        return {"api_key": env.get("HF_TOKEN"), "base_url": env.get("HF_BASE_URL") or None}
    if name == "local":
        return {
            "data_dir": settings.data_dir,
            "dtype": settings.local_dtype,
            "max_new_tokens": settings.local_max_tokens,
            "temperature": settings.local_temperature,
            "max_prompt_tokens": settings.local_max_prompt_tokens,
        }
    if name == "anthropic":
        return {"api_key": env.get("ANTHROPIC_API_KEY"), "base_url": env.get("ANTHROPIC_BASE_URL") or None}
    if name == "fake":
        return {"responses": settings.fake_responses, "chunk": settings.fake_chunk, "delay": settings.fake_delay}
    return {}


def _model(name: str, settings: Settings) -> str:
    # The local model has its own setting: LLM_MODEL names a server's model, PASTOR_LOCAL_MODEL a hub id or folder.
    return settings.local_model if name == "local" else settings.llm_model


def build(name: str, settings: Settings, env: Mapping[str, str], *, timeout: float | None = None) -> Provider:
    """Provider `name` with its options from settings and keys from `env`."""
    module, cls = PROVIDERS[name]
    provider_cls = getattr(import_module(module), cls)
    return provider_cls(
        model=_model(name, settings), timeout=timeout or settings.llm_timeout, **_options(name, settings, env)
    )


def ollama_answers(settings: Settings, env: Mapping[str, str]) -> bool:
    """Whether an Ollama server answers at OLLAMA_HOST with the model (the automatic choice's second step)."""
    return bool(build("ollama", settings, env, timeout=OLLAMA_PROBE_TIMEOUT).check()["reachable"])


def load_provider(settings: Settings, env: Mapping[str, str] | None = None) -> Provider:
    """The provider named by `settings.llm_provider`, or the automatic choice when it is empty; keys are
    read from `env` (default: .env + environment). `provider.choice` says which and why."""
    name = settings.llm_provider.strip().lower()
    if name and name not in PROVIDERS:
        valid = ", ".join(PROVIDERS)
        raise ProviderError("config", f"LLM_PROVIDER: provedor desconhecido {name!r}. Use um destes: {valid}.", name)
    env = _environment() if env is None else env
    choice = choose(name, env, lambda: ollama_answers(settings, env))
    provider = build(choice.name, settings, env)
    provider.choice = choice
    return provider

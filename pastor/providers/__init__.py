"""Chat model providers, chosen by `LLM_PROVIDER`; `load_provider` never falls back to another."""

from __future__ import annotations

import os
from importlib import import_module
from typing import Mapping

from pastor.config import ROOT, Settings, read_dotenv
from pastor.providers.base import Provider, ProviderError

# name -> (module, class); imported on demand because some SDKs take seconds to import.
PROVIDERS = {
    "ollama": ("pastor.providers.ollama_provider", "OllamaProvider"),
    "openai": ("pastor.providers.openai_provider", "OpenAIProvider"),
    "groq": ("pastor.providers.groq_provider", "GroqProvider"),
    "anthropic": ("pastor.providers.anthropic_provider", "AnthropicProvider"),
    "fake": ("pastor.providers.fake", "FakeProvider"),
    "none": ("pastor.providers.none", "NoneProvider"),
}

__all__ = ["PROVIDERS", "Provider", "ProviderError", "load_provider"]


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
    if name == "anthropic":
        return {"api_key": env.get("ANTHROPIC_API_KEY"), "base_url": env.get("ANTHROPIC_BASE_URL") or None}
    if name == "fake":
        return {"responses": settings.fake_responses, "chunk": settings.fake_chunk, "delay": settings.fake_delay}
    return {}


def load_provider(settings: Settings, env: Mapping[str, str] | None = None) -> Provider:
    """The provider named by `settings.llm_provider`; keys are read from `env` (default: .env + environment)."""
    name = settings.llm_provider.strip().lower()
    if name not in PROVIDERS:
        valid = ", ".join(PROVIDERS)
        raise ProviderError("config", f"LLM_PROVIDER: provedor desconhecido {name!r}. Use um destes: {valid}.", name)
    module, cls = PROVIDERS[name]
    provider_cls = getattr(import_module(module), cls)
    env = _environment() if env is None else env
    return provider_cls(model=settings.llm_model, timeout=settings.llm_timeout, **_options(name, settings, env))

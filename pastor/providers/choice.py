"""Which provider answers when LLM_PROVIDER is not set: an API with a key, else Ollama, else the local model."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

# In this order: a key the operator set is the clearest sign of intent.
API_KEYS = (("openai", "OPENAI_API_KEY"), ("groq", "GROQ_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY"))


@dataclass(frozen=True)
class Choice:
    """The provider to build and, in Portuguese, why it was chosen (shown on the status page)."""

    name: str
    reason: str
    automatic: bool


def choose(requested: str, env: Mapping[str, str], ollama_answers: Callable[[], bool]) -> Choice:
    """`requested` (LLM_PROVIDER) when set, never replaced; otherwise the first that can answer."""
    if requested:
        return Choice(requested, f"escolhido em LLM_PROVIDER={requested}", automatic=False)
    for name, var in API_KEYS:
        if env.get(var):
            return Choice(name, f"LLM_PROVIDER vazio e {var} definida", automatic=True)
    if ollama_answers():
        return Choice(
            "ollama", "LLM_PROVIDER vazio, nenhuma chave de API e o Ollama respondeu com o modelo", automatic=True
        )
    return Choice(
        "local",
        "LLM_PROVIDER vazio, nenhuma chave de API e nenhum Ollama com o modelo: modelo local dentro do app",
        automatic=True,
    )

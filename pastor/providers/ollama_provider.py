"""Ollama `/api/chat`, streamed as NDJSON through the `ollama` SDK."""

from __future__ import annotations

from typing import Any

from pastor.providers import failures as errors
from pastor.providers.provider import API_CHOICE, ProviderError, SDKProvider

CHECK_TIMEOUT = 5.0


class OllamaProvider(SDKProvider):
    name = "ollama"
    default_model = "qwen2.5:1.5b"

    def _make_client(self, api_key: str | None, timeout: float | None = None) -> Any:
        import ollama

        return ollama.Client(host=self.base_url, timeout=timeout or self.timeout)

    def hint(self, kind: str) -> str:
        if kind == "config":
            return f"Baixe-o com: ollama pull {self.model}"
        return ""

    def setup_hint(self) -> str:
        where = errors.safe_url(self.base_url) if self.base_url else "http://localhost:11434"
        return (
            f"Para respostas comentadas, instale e inicie o Ollama (https://ollama.com; esperado em {where}, "
            f"variável OLLAMA_HOST) e baixe o modelo: ollama pull {self.model}; ou {API_CHOICE}."
        )

    def _chat(self, system: str, messages: list[dict]) -> list[dict]:
        return [{"role": "system", "content": system}, *messages]

    def _open_stream(self, system: str, messages: list[dict]) -> Any:
        # A lazy generator over an httpx stream: closing it closes the response.
        return self.client().chat(model=self.model, messages=self._chat(system, messages), stream=True)

    def _read_event(self, part: Any) -> tuple[str, bool]:
        text = (part.message.content or "") if part.message else ""
        return text, bool(part.done)

    def _complete(self, system: str, messages: list[dict], max_tokens: int) -> str:
        reply = self.client().chat(
            model=self.model, messages=self._chat(system, messages), options={"num_predict": max_tokens}
        )
        return reply.message.content or ""

    def _check(self) -> str:
        # A short-lived client with a short timeout: the status page must answer quickly.
        with self._make_client(None, timeout=min(self.timeout, CHECK_TIMEOUT)) as client:
            names = {m.model for m in client.list().models}
        if self.model in names or f"{self.model}:latest" in names:
            return f"conectado; modelo {self.model} disponível"
        # Not ready: every answer would fail until the pull ends (with Docker, while ollama-pull runs).
        raise ProviderError(
            "config",
            f"conectado, mas o modelo {self.model} ainda não foi baixado (ollama pull {self.model})",
            provider=self.name,
        )

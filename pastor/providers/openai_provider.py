"""OpenAI chat completions (also any OpenAI-compatible server via OPENAI_BASE_URL)."""

from __future__ import annotations

from typing import Any

from pastor.providers.provider import SDKProvider

CHECK_TIMEOUT = 5.0


class OpenAIProvider(SDKProvider):
    name = "openai"
    default_model = "gpt-4o-mini"
    key_var = "OPENAI_API_KEY"

    def _make_client(self, api_key: str | None) -> Any:
        import openai

        return openai.OpenAI(api_key=api_key, base_url=self.base_url, timeout=self.timeout, max_retries=0)

    def _chat(self, system: str, messages: list[dict]) -> list[dict]:
        return [{"role": "system", "content": system}, *messages]

    def _open_stream(self, system: str, messages: list[dict]) -> Any:
        return self.client().chat.completions.create(
            model=self.model, messages=self._chat(system, messages), stream=True
        )

    def _read_event(self, chunk: Any) -> tuple[str, bool]:
        # Chunks without choices carry usage only; `finish_reason` marks the normal end.
        if not chunk.choices:
            return "", False
        choice = chunk.choices[0]
        text = (choice.delta.content or "") if choice.delta else ""
        return text, choice.finish_reason is not None

    def _complete(self, system: str, messages: list[dict], max_tokens: int) -> str:
        reply = self.client().chat.completions.create(
            model=self.model, messages=self._chat(system, messages), max_tokens=max_tokens
        )
        return (reply.choices[0].message.content or "") if reply.choices else ""

    def _check(self) -> str:
        listing = self.client().models.list(timeout=min(self.timeout, CHECK_TIMEOUT))
        models = [m.id for m in listing.data]
        if self.model in models:
            return f"conectado; modelo {self.model} disponível"
        return f"conectado, mas o modelo {self.model} não aparece na lista do servidor"

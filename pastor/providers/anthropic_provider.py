"""Anthropic messages API, streamed as server-sent events through the `anthropic` SDK."""

from __future__ import annotations

from typing import Any

from pastor.providers.provider import SDKProvider

CHECK_TIMEOUT = 5.0


class AnthropicProvider(SDKProvider):
    name = "anthropic"
    default_model = "claude-haiku-4-5"
    key_var = "ANTHROPIC_API_KEY"
    # The messages API requires a ceiling; pastoral answers are short.
    max_tokens = 1024

    def _make_client(self, api_key: str | None) -> Any:
        import anthropic

        return anthropic.Anthropic(api_key=api_key, base_url=self.base_url, timeout=self.timeout, max_retries=0)

    def _open_stream(self, system: str, messages: list[dict]) -> Any:
        return self.client().messages.create(
            model=self.model, system=system, messages=messages, max_tokens=self.max_tokens, stream=True
        )

    def _read_event(self, event: Any) -> tuple[str, bool]:
        if event.type == "content_block_delta" and event.delta.type == "text_delta":
            return event.delta.text, False
        return "", event.type == "message_stop"

    def _complete(self, system: str, messages: list[dict], max_tokens: int) -> str:
        reply = self.client().messages.create(model=self.model, system=system, messages=messages, max_tokens=max_tokens)
        return "".join(block.text for block in reply.content if block.type == "text")

    def _check(self) -> str:
        self.client().models.list(limit=1, timeout=min(self.timeout, CHECK_TIMEOUT))
        return "conectado"

"""Groq chat completions: the OpenAI protocol under /openai/v1, through the `groq` SDK."""

from __future__ import annotations

from typing import Any

from pastor.providers.openai_provider import OpenAIProvider


class GroqProvider(OpenAIProvider):
    name = "groq"
    default_model = "llama-3.1-8b-instant"
    key_var = "GROQ_API_KEY"

    def _make_client(self, api_key: str | None) -> Any:
        import groq

        return groq.Groq(api_key=api_key, base_url=self.base_url, timeout=self.timeout, max_retries=0)

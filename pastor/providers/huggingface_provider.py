"""Hugging Face's inference router: the OpenAI protocol at router.huggingface.co, keyed by HF_TOKEN."""

from __future__ import annotations

from pastor.providers.openai_provider import OpenAIProvider

ROUTER_URL = "https://router.huggingface.co/v1"


class HuggingFaceProvider(OpenAIProvider):
    # On a Space, HF_TOKEN is a secret of the Space; LLM_MODEL names any model the router serves.
    name = "huggingface"
    default_model = "Qwen/Qwen2.5-7B-Instruct"
    key_var = "HF_TOKEN"

    def __init__(
        self, model: str = "", timeout: float = 60.0, api_key: str | None = None, base_url: str | None = None
    ) -> None:
        super().__init__(model, timeout, api_key=api_key, base_url=base_url or ROUTER_URL)

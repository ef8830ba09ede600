"""No model at all: a marker for the chat layer, which then answers with the verses alone."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from pastor.providers.provider import Provider, ProviderError


class NoneProvider(Provider):
    name = "none"
    default_model = ""
    generates = False

    def _refuse(self) -> ProviderError:
        return ProviderError(
            "config", "Nenhum modelo configurado (LLM_PROVIDER=none): não há como gerar texto.", self.name
        )

    def stream(self, system: str, messages: list[dict], cancel: threading.Event | None = None) -> Iterator[str]:
        raise self._refuse()

    def complete(
        self, system: str, messages: list[dict], max_tokens: int = 200, cancel: threading.Event | None = None
    ) -> str:
        raise self._refuse()

    def check(self) -> dict:
        return {"reachable": True, "detail": "sem modelo (respostas só com versículos)"}

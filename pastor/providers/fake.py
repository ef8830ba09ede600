"""A deterministic provider for tests and demos: scripted, queued or echoed replies."""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from collections.abc import Iterator
from pathlib import Path

from pastor.providers.provider import KINDS, Provider, ProviderError

# How the chat layer lists sources in the prompt: "[FONTE 1] João 3:16 — Porque Deus…".
SOURCE_LINE = re.compile(r"^\[FONTE\s+\d+\]\s*(?P<ref>.+?)\s+[—–-]\s+(?P<text>.+?)\s*$", re.MULTILINE)


def echo(system: str) -> str:
    """A short Portuguese reply quoting the first sources found in the prompt text given."""
    sources = SOURCE_LINE.findall(system)
    if not sources:
        return "Estou aqui com você. Conte-me mais sobre o que está vivendo."
    first, *others = sources[:2]
    reply = f"Veja o que diz {first[0]}: «{first[1]}»"
    for ref, text in others:
        reply += f" E também {ref}: «{text}»"
    return reply


def load_responses(path: Path) -> list:
    """The scripted replies: a JSON list of strings or `{"error": kind, "text": partial}` objects."""
    try:
        items = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        # The file's name only: this message reaches /status and the page.
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else f"JSON inválido: {exc}"
        message = f"PASTOR_FAKE_RESPONSES: não foi possível ler {Path(path).name} ({why})."
        raise ProviderError("config", message, "fake") from None
    if not isinstance(items, list) or not items or not all(_valid(item) for item in items):
        raise ProviderError(
            "config", 'PASTOR_FAKE_RESPONSES: esperado uma lista JSON de textos ou objetos {"error": …}.', "fake"
        )
    return items


def _valid(item: object) -> bool:
    return isinstance(item, str) or (isinstance(item, dict) and item.get("error") in KINDS)


class FakeProvider(Provider):
    name = "fake"
    default_model = "fake"

    def __init__(
        self, model: str = "", timeout: float = 60.0, responses: Path | None = None, chunk: int = 3, delay: float = 0.0
    ) -> None:
        super().__init__(model, timeout)
        self.chunk = max(1, chunk)
        self.delay = delay
        self.responses = load_responses(responses) if responses else []
        self.queue: deque = deque()
        self.last_system: str | None = None
        self.last_messages: list[dict] | None = None
        self._cursor = 0
        self._lock = threading.Lock()

    def enqueue(self, *responses: str | dict) -> None:
        """Replies (or `{"error": kind}` items) used before the file or the echo, in order."""
        self.queue.extend(responses)

    def _next(self, system: str, messages: list[dict]) -> str | dict:
        # Queue first, then the file (cycled), then the echo.
        with self._lock:
            self.last_system, self.last_messages = system, list(messages)
            if self.queue:
                return self.queue.popleft()
            if self.responses:
                item = self.responses[self._cursor % len(self.responses)]
                self._cursor += 1
                return item
        # Sources may sit in the system prompt or in the last user message.
        return echo("\n".join([system] + [m.get("content", "") for m in messages[-1:]]))

    def stream(self, system: str, messages: list[dict], cancel: threading.Event | None = None) -> Iterator[str]:
        self.calls += 1
        item = self._next(system, messages)
        return self._chunks(item, cancel or threading.Event())

    def _chunks(self, item: str | dict, cancel: threading.Event) -> Iterator[str]:
        text = item if isinstance(item, str) else item.get("text", "")
        for start in range(0, len(text), self.chunk):
            # The delay doubles as a cancellable wait, like a slow real model.
            if start and self.delay and cancel.wait(self.delay):
                return
            if cancel.is_set():
                return
            yield text[start : start + self.chunk]
        if isinstance(item, dict):
            raise self.error(item["error"], detail="falha roteirizada")

    def complete(
        self, system: str, messages: list[dict], max_tokens: int = 200, cancel: threading.Event | None = None
    ) -> str:
        self.calls += 1
        item = self._next(system, messages)
        if isinstance(item, dict):
            raise self.error(item["error"], detail="falha roteirizada")
        return item

    def check(self) -> dict:
        return {"reachable": True, "detail": "respostas simuladas (fake)"}

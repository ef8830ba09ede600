"""A turn's stop signal for the provider: set by the turn's end, or by the person's Stop through its parent."""

from __future__ import annotations

import threading
import time

POLL = 0.05  # seconds between looks at the parent while waiting


class Halt(threading.Event):
    """An event that also counts as set once `parent` is: the provider sees the person's Stop at once,
    and the chat service can still stop it (deadline, failure) without touching the person's event,
    which the page reads to know the turn was replaced."""

    def __init__(self, parent: threading.Event | None = None) -> None:
        super().__init__()
        self.parent = parent

    def is_set(self) -> bool:
        return super().is_set() or (self.parent is not None and self.parent.is_set())

    def wait(self, timeout: float | None = None) -> bool:
        if self.parent is None:
            return super().wait(timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.is_set():
            left = POLL if deadline is None else min(POLL, deadline - time.monotonic())
            if left <= 0:
                return False
            super().wait(left)
        return True

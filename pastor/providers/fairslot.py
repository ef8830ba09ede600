"""One generation at a time per loaded model, handed out first come, first served."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

POLL = 0.1  # seconds between looks at the waiter's cancel event


class FairSlot:
    """A FIFO mutex: waiters are served in arrival order (a plain Lock lets a fast re-acquirer
    starve the others), and a waiter whose `cancel` is set leaves the queue at once."""

    def __init__(self) -> None:
        self._next_ticket = 0
        self._serving = 0
        self._abandoned: set[int] = set()
        self._changed = threading.Condition()

    @property
    def waiting(self) -> int:
        """Turns queued behind the one generating (for the status page)."""
        with self._changed:
            return max(0, self._next_ticket - self._serving - 1 - len(self._abandoned))

    @contextlib.contextmanager
    def hold(self, cancel: threading.Event) -> Iterator[bool]:
        """Yields True once this caller has the slot, False if `cancel` was set while queued."""
        if not self._wait_turn(cancel):
            yield False
            return
        try:
            yield True
        finally:
            self._release()

    def _wait_turn(self, cancel: threading.Event) -> bool:
        with self._changed:
            ticket = self._next_ticket
            self._next_ticket += 1
            while self._serving != ticket:
                if cancel.is_set():
                    self._abandoned.add(ticket)
                    return False
                self._changed.wait(POLL)
            return True

    def _release(self) -> None:
        with self._changed:
            self._serving += 1
            while self._serving in self._abandoned:  # skip those who gave up while queued
                self._abandoned.discard(self._serving)
                self._serving += 1
            self._changed.notify_all()

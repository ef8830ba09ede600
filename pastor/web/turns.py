"""The running turn of each browser session, so a new question or Stop can end it."""

from __future__ import annotations

import threading


class TurnCancel(threading.Event):
    """A turn's cancel event; `stopped` says why it was set: the person's Stop (the turn finishes, marked
    interrupted) or not (a new question or conversation: the page is left alone)."""

    stopped = False


class TurnRegistry:
    """One running turn per browser session: a new question or Stop sets the previous turn's
    cancel event, which makes the chat service close the provider's stream. The turn's latest
    update is kept so that Stop can still show the sources it had found."""

    def __init__(self):
        self._events: dict[str, TurnCancel] = {}
        self._latest: dict[str, object] = {}
        self._lock = threading.Lock()

    def begin(self, session: str) -> TurnCancel:
        event = TurnCancel()
        with self._lock:
            previous = self._events.get(session)
            self._events[session] = event
            self._latest.pop(session, None)
        if previous is not None:
            previous.set()
        return event

    def note(self, session: str, event: threading.Event, update) -> None:
        """Remember `update` as the latest of the session's running turn (ignored once it was replaced)."""
        with self._lock:
            if self._events.get(session) is event:
                self._latest[session] = update

    def latest(self, session: str):
        """The latest update of the session's running turn, or None."""
        with self._lock:
            return self._latest.get(session)

    def cancel(self, session: str, *, stopped: bool = True) -> bool:
        """End the running turn: by the person's Stop (`stopped`: it finishes, marked interrupted) or to
        clear the page (a new conversation: it leaves the page as it is)."""
        with self._lock:
            event = self._events.pop(session, None)
            self._latest.pop(session, None)
        if event is None:
            return False
        event.stopped = stopped  # read by the page's turn loop: finish the turn, or leave the page alone
        event.set()
        return True

    def end(self, session: str, event: threading.Event) -> None:
        with self._lock:
            if self._events.get(session) is event:
                del self._events[session]
                self._latest.pop(session, None)

"""One deadline for a whole turn: LLM_TIMEOUT bounds every model call of it together (the follow-up
rewrite and the reply), not only each byte of each call."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

from pastor.errors import PastorError

_END = object()
POLL = 0.1  # seconds between checks of the caller's cancel while the model is silent
T = TypeVar("T")


class DeadlineExceeded(PastorError):
    """The reply did not finish within the deadline."""


class Deadline:
    """The moment a turn must end by, shared by every model call of the turn."""

    def __init__(self, seconds: float):
        self.ends = time.monotonic() + seconds

    def left(self) -> float:
        return self.ends - time.monotonic()


def call_within(function: Callable[[], T], deadline: Deadline, *, cancel: threading.Event | None = None) -> T:
    """`function()` (a non-streaming model call) run in a worker thread; DeadlineExceeded once the
    deadline passes, however slowly the server trickles its reply. The abandoned call ends in its
    own thread (its transport's timeout, or the server finishing); its result is dropped."""
    if deadline.left() <= 0:
        raise DeadlineExceeded()
    outcome: queue.Queue = queue.Queue(maxsize=1)

    def run() -> None:
        try:
            outcome.put((True, function()))
        except BaseException as exc:  # handed to the caller's thread, which raises it
            outcome.put((False, exc))

    threading.Thread(target=run, daemon=True, name="pastor-call").start()
    while True:
        left = deadline.left()
        if left <= 0 or (cancel is not None and cancel.is_set()):
            raise DeadlineExceeded()
        try:
            ok, value = outcome.get(timeout=min(left, POLL))
        except queue.Empty:
            continue
        if not ok:
            raise value
        return value


def within(stream: Iterator[str], seconds: float | Deadline, *, cancel: threading.Event | None = None) -> Iterator[str]:
    """The items of `stream`, read in a worker thread; DeadlineExceeded once `seconds` have passed.

    A provider that trickles a byte every few seconds never trips a between-bytes timeout; here
    the caller stops waiting at the deadline whatever the provider does, and the worker closes the
    provider's stream (and so its HTTP response) at its next item, in its own thread as a generator
    requires. `cancel` (the person's Stop) ends the wait at once too. `seconds` may be the turn's
    `Deadline`, shared with the calls before this one; a deadline already past never opens the stream."""
    deadline = seconds if isinstance(seconds, Deadline) else Deadline(seconds)
    if deadline.left() <= 0:
        close = getattr(stream, "close", None)
        if close:
            close()
        raise DeadlineExceeded()
    items: queue.Queue = queue.Queue()
    stop = threading.Event()

    def pump() -> None:
        try:
            for item in stream:
                items.put(item)
                if stop.is_set():
                    break
        except BaseException as exc:  # handed to the caller's thread, which raises it
            items.put(exc)
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()
            items.put(_END)

    worker = threading.Thread(target=pump, daemon=True, name="pastor-reply")
    worker.start()
    try:
        while True:
            left = deadline.left()
            if left <= 0:
                raise DeadlineExceeded()
            if cancel is not None and cancel.is_set():
                return
            try:
                item = items.get(timeout=min(left, POLL))
            except queue.Empty:
                continue
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()

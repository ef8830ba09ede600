"""An overall deadline for a model's reply: LLM_TIMEOUT bounds the whole turn, not only each byte."""

from __future__ import annotations

import queue
import threading
import time
from typing import Iterator

_END = object()
POLL = 0.1  # seconds between checks of the caller's cancel while the model is silent


class DeadlineExceeded(Exception):
    """The reply did not finish within the deadline."""


def within(stream: Iterator[str], seconds: float, *, cancel: threading.Event | None = None) -> Iterator[str]:
    """The items of `stream`, read in a worker thread; DeadlineExceeded once `seconds` have passed.

    A provider that trickles a byte every few seconds never trips a between-bytes timeout; here
    the caller stops waiting at the deadline whatever the provider does, and the worker closes the
    provider's stream (and so its HTTP response) at its next item, in its own thread as a generator
    requires. `cancel` (the person's Stop) ends the wait at once too."""
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
    deadline = time.monotonic() + seconds
    try:
        while True:
            left = deadline - time.monotonic()
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

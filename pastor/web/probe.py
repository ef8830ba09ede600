"""The provider probe: `provider.check()` cached and refreshed in a thread, so the status page never waits long."""

from __future__ import annotations

import threading
import time

# "Verificar de novo" from any number of clients asks the model server at most once in this many seconds.
RECHECK_SECONDS = 5.0


class ProviderProbe:
    """`provider.check()` cached for `ttl` seconds and refreshed in a thread, so a slow or
    unreachable model server never stalls the status page. Checked once at start and again on
    demand ("Verificar de novo")."""

    def __init__(self, provider, *, ttl: float = 10.0, wait: float = 1.0, recheck_after: float = RECHECK_SECONDS):
        self.provider = provider
        self.ttl = ttl
        self.recheck_after = recheck_after
        self.wait = wait
        self._value: dict | None = None
        self._checked = 0.0
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> threading.Thread:
        """Start a check now (unless one runs) without waiting for it."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._refresh, daemon=True, name="pastor-probe")
                self._thread.start()
            return self._thread

    def get(self) -> dict:
        stale = self._value is None or time.monotonic() - self._checked > self.ttl
        thread = self.start() if stale else None
        if self._value is None and thread is not None:
            thread.join(self.wait)  # the first answer is worth a short wait
        return self._value or {"reachable": None, "detail": "verificando…"}

    def recheck(self, timeout: float = 15.0) -> dict:
        """A fresh check, waited for (the providers' own checks time out in a few seconds); one
        finished less than `recheck_after` seconds ago is fresh enough, so a burst of clicks or API
        calls costs the model server one request."""
        if self._value is not None and time.monotonic() - self._checked < self.recheck_after:
            return dict(self._value)
        before = self._checked
        self.start().join(timeout)
        checked = self._checked
        value = self._value  # `_refresh` sets it before `_checked`: a new check time means a value
        if checked == before or value is None:
            return {"reachable": None, "detail": "a verificação ainda não terminou; veja a aba Status"}
        return dict(value)

    def _refresh(self) -> None:
        try:
            value = self.provider.check()
        except Exception as exc:  # check() should never raise; a bug must not break the status page
            value = {"reachable": False, "detail": f"falha na verificação ({type(exc).__name__})"}
        self._value = {
            **value,
            "reachable": value.get("reachable"),
            "detail": str(value.get("detail", "")),
            "checked_at": time.strftime("%H:%M:%S"),
        }
        self._checked = time.monotonic()

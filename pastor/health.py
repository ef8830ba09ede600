"""Health as typed records: each component's state, the reason when it is not fine, and since when."""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass
from enum import Enum


class State(str, Enum):  # noqa: UP042 (a StrEnum prints "ok" where this prints "State.OK": logs would change)
    STARTING = "starting"  # being loaded now
    OK = "ok"
    ERROR = "error"


@dataclass(frozen=True)
class Health:
    """One component's health. `label` is the Portuguese name the status page shows."""

    component: str
    label: str
    state: State
    reason: str
    since: float  # wall-clock seconds (time.time()) when this state began

    def as_dict(self) -> dict:
        return {**asdict(self), "state": self.state.value}

    def message(self) -> str:
        return f"{self.label}: {self.reason}"


class HealthBoard:
    """The latest record of each component, written from loader and indexer threads alike."""

    def __init__(self):
        self._records: dict[str, Health] = {}
        self._lock = threading.Lock()

    def set(self, component: str, label: str, state: State, reason: str = "") -> Health:
        with self._lock:
            previous = self._records.get(component)
            if previous is not None and (previous.state, previous.reason) == (state, reason):
                record = previous
            else:
                record = Health(component, label, state, reason, time.time())
            self._records[component] = record
            return record

    def fail(self, component: str, label: str, reason: str) -> Health:
        return self.set(component, label, State.ERROR, reason)

    def ok(self, component: str, label: str) -> Health:
        return self.set(component, label, State.OK)

    def get(self, component: str) -> Health | None:
        with self._lock:
            return self._records.get(component)

    def reason(self, component: str) -> str | None:
        """The reason of a failed component, or None when it is not failing."""
        record = self.get(component)
        return record.reason if record is not None and record.state is State.ERROR else None

    def records(self) -> list[Health]:
        with self._lock:
            return sorted(self._records.values(), key=lambda r: r.since)

    def failures(self) -> list[Health]:
        return [r for r in self.records() if r.state is State.ERROR]

    def messages(self) -> list[str]:
        """ "label: reason" of every failing component, oldest first (the status page's error list)."""
        return [r.message() for r in self.failures()]

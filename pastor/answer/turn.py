"""A chat turn's state: what the page and API show (`TurnUpdate`) and what the service tracks (`Turn`)."""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass, field


@dataclass
class TurnUpdate:
    """What the UI/API shows: the validated answer so far, and at the end everything else."""

    turn_id: str
    answer: str
    done: bool = False
    mode: str = ""
    reason: str = ""
    query: str = ""  # what retrieval searched when a follow-up was rewritten; empty otherwise
    citations: list[str] = field(default_factory=list)
    removed_citations: list[str] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)
    provider: str = ""
    model: str = ""
    error: dict | None = None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Turn:
    """One turn in progress: the message, its clock, its timings and what retrieval found."""

    message: str
    update: TurnUpdate
    started: float = field(default_factory=time.perf_counter)
    timings: dict[str, float] = field(default_factory=dict)
    result: object | None = None  # the SearchResult, once retrieval ran

    @classmethod
    def start(cls, message: str, provider, replica: str = "") -> "Turn":
        """A new turn; its id names the replica that answers it, when there are several."""
        turn_id = f"{replica}-{uuid.uuid4().hex[:16]}" if replica else uuid.uuid4().hex[:16]
        update = TurnUpdate(turn_id, "", provider=provider.name, model=provider.model)
        return cls(message, update)

    def lap(self, name: str, since: float) -> None:
        """Record the milliseconds spent since `since` under `name`."""
        self.timings[name] = round((time.perf_counter() - since) * 1000, 1)

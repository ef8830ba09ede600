"""A chat turn's state: its typed outcome (`TurnResult`), what the page and API are sent (`TurnUpdate`)
and what the service tracks (`Turn`)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Any

from pastor.answer.turn_modes import Mode
from pastor.answer_filter.citations import Citation
from pastor.search.results import SearchResult, Source


@dataclass(frozen=True)
class TurnError:
    """Why a turn's answer is missing or cut: the provider's error kind (or `cancelled`), the
    Portuguese message, the provider, and whether the shown text is a partial answer."""

    type: str
    message: str
    provider: str = ""
    partial: bool = False


@dataclass(frozen=True)
class TurnResult:
    """Everything a turn produced besides its text: filled in as the turn goes (each change a new
    record, never an edit), final once `done`."""

    mode: Mode | None = None
    reason: str = ""
    query: str = ""  # what retrieval searched when a follow-up was rewritten; empty otherwise
    citations: list[str] = field(default_factory=list)  # supported citations, as shown
    citation_spans: list[Citation] = field(default_factory=list)  # where they sit in the answer, validated
    removed_citations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # Portuguese notes shown with the answer, never inside it
    sources: list[Source] = field(default_factory=list)  # cited first once the turn is done
    error: TurnError | None = None


@dataclass
class TurnUpdate:
    """What the UI/API shows: the validated answer so far and the turn's result so far."""

    turn_id: str
    answer: str
    done: bool = False
    result: TurnResult = field(default_factory=TurnResult)
    provider: str = ""
    model: str = ""

    def set(self, **changes) -> None:
        """Change fields of the result (it is frozen: a new one replaces it); sequences are copied."""
        copied: dict[str, Any] = {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in changes.items()}
        self.result = replace(self.result, **copied)


@dataclass
class Turn:
    """One turn in progress: the message, its clock, its timings and what retrieval found."""

    message: str
    update: TurnUpdate
    started: float = field(default_factory=time.perf_counter)
    timings: dict[str, float] = field(default_factory=dict)
    retrieval: SearchResult | None = None  # once retrieval ran
    kind: str = ""  # the route's kind (a need, a conversation's kind): the words of a reply without a model
    asked_before: int = 0  # the person's earlier messages: the same greeting later may read otherwise

    @classmethod
    def start(cls, message: str, provider, replica: str = "") -> Turn:
        """A new turn; its id names the replica that answers it, when there are several."""
        turn_id = f"{replica}-{uuid.uuid4().hex[:16]}" if replica else uuid.uuid4().hex[:16]
        update = TurnUpdate(turn_id, "", provider=provider.name, model=provider.model)
        return cls(message, update)

    @property
    def result(self) -> TurnResult:
        return self.update.result

    def lap(self, name: str, since: float) -> None:
        """Record the milliseconds spent since `since` under `name`."""
        self.timings[name] = round((time.perf_counter() - since) * 1000, 1)

"""One page session's conversation state (Gradio's `gr.State`), typed, and its form in the person's browser."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pastor.answer.history import NO_HISTORY, ROLES, History, Message

MAX_TURN_ID = 64  # a turn id is a short hex string; a longer one in the browser's copy is not one


@dataclass(frozen=True)
class Rated:
    """The last rating given in this conversation, which the optional comment goes with."""

    turn_id: str
    rating: str  # "up" | "down"


@dataclass(frozen=True)
class Conversation:
    """What a page session keeps between turns: the history the model and the follow-up rewrite see (checked
    again before each turn, like a client's), the turn id of each answer keyed by its index in the chat (what
    the like event reports), the last question as typed and its answer's mode (for regenerate) and the last
    rating (for its comment). Every change makes a new one (`dataclasses.replace`)."""

    history: History = NO_HISTORY
    turn_ids: Mapping[int, str] = field(default_factory=dict, hash=False)
    last: str = ""
    last_mode: str = ""
    rated: Rated | None = None

    @classmethod
    def from_browser(cls, kept: Mapping[str, Any], shown: int) -> Conversation:
        """The state from what the browser kept beside `shown` chat messages; whatever is malformed (another
        version, a hand edit) is dropped rather than trusted: messages that are not {role, content} text,
        turn ids not at the index of a message shown or not short strings. The rating is not kept."""
        items = kept.get("history")
        history = History(
            tuple(Message(m["role"], m["content"]) for m in items if is_message(m)) if isinstance(items, list) else ()
        )
        turn_ids = {}
        ids = kept.get("turn_ids")
        for index, turn_id in ids.items() if isinstance(ids, dict) else ():
            if (
                str(index).isdigit()
                and int(index) < shown
                and isinstance(turn_id, str)
                and 0 < len(turn_id) <= MAX_TURN_ID
            ):
                turn_ids[int(index)] = turn_id  # JSON made the keys strings; the like event gives ints
        last, last_mode = kept.get("last"), kept.get("last_mode")
        return cls(
            history, turn_ids, last if isinstance(last, str) else "", last_mode if isinstance(last_mode, str) else ""
        )

    def to_browser(self) -> dict[str, Any]:
        """What the browser keeps of it, beside the chat: history, turn ids (keyed by strings, as JSON has
        them), the last question and its mode."""
        return {
            "history": self.history.as_dicts(),
            "turn_ids": {str(index): turn_id for index, turn_id in self.turn_ids.items()},
            "last": self.last,
            "last_mode": self.last_mode,
        }

    def without_first(self, dropped: int) -> Conversation:
        """The state once the chat's first `dropped` messages are gone: each turn id moves with its answer,
        and those of the dropped answers go."""
        if not dropped:
            return self
        turn_ids = {index - dropped: turn_id for index, turn_id in self.turn_ids.items() if index >= dropped}
        return replace(self, turn_ids=turn_ids)


def is_message(message) -> bool:
    """A kept message the chat can show: a user's or the assistant's text, its metadata (if any) a mapping."""
    return (
        isinstance(message, dict)
        and message.get("role") in ROLES
        and isinstance(message.get("content"), str)
        and isinstance(message.get("metadata", {}), dict)
    )

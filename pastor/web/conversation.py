"""One page session's conversation state (Gradio's `gr.State`), typed, and its form in the person's browser."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pastor.answer.checks import InputError
from pastor.answer.history import NO_HISTORY, History
from pastor.answer.turn_modes import Mode
from pastor.errors import PastorError

# The chat messages a browser keeps and a restore shows (about twenty exchanges: a question, its answer, its
# sources): well under the browser's few MB of localStorage, and what a person scrolls back to.
KEPT_MESSAGES = 60
MAX_TURN_ID = 64  # a turn id is a short hex string (with its replica's name); a longer one is not one
# Bounds of a kept exchange: far above what a turn produces, so only another format or a hand edit meets them.
MAX_TEXT = 50_000
MAX_SOURCES = 64  # a reference turn shows at most 40 verses
MAX_NOTES = 8
SOURCE_KINDS = ("verse", "doc")
MODES = frozenset(mode.value for mode in Mode)


class Unreadable(PastorError, ValueError):
    """A kept conversation that is not in the shape this version writes; the message is a short fixed phrase."""


@dataclass(frozen=True)
class Rated:
    """The last rating given in this conversation, which the optional comment goes with."""

    turn_id: str
    rating: str  # "up" | "down"


@dataclass(frozen=True)
class Exchange:
    """One answered question as plain text, and what its answer stood on: the sources by kind and id (their text
    is read again from the Bible or the documents), the notes, the translation shown, whether the turn failed.
    What the browser keeps of the chat: a restore renders it again as a live answer is rendered."""

    question: str
    answer: str
    turn_id: str
    mode: str = ""
    sources: tuple[tuple[str, str], ...] = ()  # (kind, id), in the order shown
    notes: tuple[str, ...] = ()
    translation: str = ""
    failed: bool = False
    at: int = field(default=0, compare=False)  # the answer's place in this session's chat; never kept

    @property
    def shown(self) -> int:
        """Chat messages it takes: the question, the answer and, with sources, their accordion."""
        return 3 if self.sources else 2

    def as_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.answer,
            "turn_id": self.turn_id,
            "mode": self.mode,
            "sources": [[kind, source_id] for kind, source_id in self.sources],
            "notes": list(self.notes),
            "translation": self.translation,
            "failed": self.failed,
        }

    @classmethod
    def from_dict(cls, item: object) -> Exchange:
        """The exchange `as_dict` wrote; `Unreadable` for anything else, whole (nothing is half-trusted)."""
        if not isinstance(item, dict):
            raise Unreadable("troca malformada")
        question, answer, turn_id, mode, translation = (
            _text(item, key) for key in ("question", "answer", "turn_id", "mode", "translation")
        )
        if not 0 < len(turn_id) <= MAX_TURN_ID or (mode and mode not in MODES):
            raise Unreadable("turno ou modo malformado")
        return cls(
            question,
            answer,
            turn_id,
            mode,
            _sources(item.get("sources")),
            _notes(item.get("notes")),
            translation,
            _flag(item.get("failed")),
        )


def _text(item: dict, key: str) -> str:
    text = item.get(key)
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise Unreadable("texto malformado")
    return text


def _sources(items: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(items, list) or len(items) > MAX_SOURCES:
        raise Unreadable("fontes malformadas")
    pairs = tuple(tuple(pair) for pair in items if isinstance(pair, list))
    if len(pairs) != len(items) or not all(
        len(pair) == 2 and pair[0] in SOURCE_KINDS and isinstance(pair[1], str) and 0 < len(pair[1]) <= 200
        for pair in pairs
    ):
        raise Unreadable("fontes malformadas")
    return tuple((kind, source_id) for kind, source_id in pairs)


def _notes(items: object) -> tuple[str, ...]:
    if not isinstance(items, list) or len(items) > MAX_NOTES:
        raise Unreadable("notas malformadas")
    if not all(isinstance(note, str) and len(note) <= 1000 for note in items):
        raise Unreadable("notas malformadas")
    return tuple(items)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise Unreadable("marca malformada")
    return value


def recent(exchanges: Sequence[Exchange], max_messages: int) -> tuple[Exchange, ...]:
    """The most recent exchanges whose chat messages fit in `max_messages` (whole exchanges only)."""
    kept: list[Exchange] = []
    room = max_messages
    for exchange in reversed(exchanges):
        if exchange.shown > room:
            break
        kept.append(exchange)
        room -= exchange.shown
    return tuple(reversed(kept))


@dataclass(frozen=True)
class Conversation:
    """What a page session keeps between turns: the history the model and the follow-up rewrite see (checked
    again before each turn, like a client's), the turn id of each answer keyed by its index in the chat (what
    the like event reports), the answered exchanges in plain text (what the browser keeps), the last question
    as typed and its answer's mode (for regenerate) and the last rating (for its comment). Every change makes a
    new one (`dataclasses.replace`)."""

    history: History = NO_HISTORY
    turn_ids: Mapping[int, str] = field(default_factory=dict, hash=False)
    last: str = ""
    last_mode: str = ""
    rated: Rated | None = None
    exchanges: tuple[Exchange, ...] = ()

    @classmethod
    def from_browser(cls, kept: Mapping[str, Any], max_message_chars: int) -> Conversation:
        """The state a sealed value holds (its chat not yet placed: no turn ids); `Unreadable` when any part
        is not in the shape `to_browser` writes. The rating is not kept."""
        items = kept.get("exchanges")
        if not isinstance(items, list):
            raise Unreadable("conversa malformada")
        try:
            history = History.checked(kept.get("history"), max_message_chars)
        except InputError:
            raise Unreadable("histórico malformado") from None
        last, last_mode = kept.get("last"), kept.get("last_mode")
        if not isinstance(last, str) or not isinstance(last_mode, str) or len(last) > MAX_TEXT:
            raise Unreadable("última pergunta malformada")
        return cls(history, {}, last, last_mode, exchanges=tuple(Exchange.from_dict(item) for item in items))

    def to_browser(self, max_messages: int) -> dict[str, Any]:
        """What the browser keeps of it: history, the most recent exchanges that fit in `max_messages` chat
        messages, the last question and its mode."""
        return {
            "history": self.history.as_dicts(),
            "exchanges": [exchange.as_dict() for exchange in recent(self.exchanges, max_messages)],
            "last": self.last,
            "last_mode": self.last_mode,
        }

    def before(self, cut: int) -> Conversation:
        """The state without the chat from message `cut` on (regenerate): turn ids and exchanges placed there go."""
        return replace(
            self,
            turn_ids={index: turn_id for index, turn_id in self.turn_ids.items() if index < cut},
            exchanges=tuple(exchange for exchange in self.exchanges if exchange.at < cut),
        )

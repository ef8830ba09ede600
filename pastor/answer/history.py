"""The conversation before a turn: checked once where it enters, kept as typed messages, trimmed by one rule."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pastor.answer.checks import InputError

ROLES = ("user", "assistant")
# A client may send a long conversation; the prompt only ever uses its last turns (PASTOR_HISTORY_TURNS).
MAX_MESSAGES = 200
BAD_LIST = f"history deve ser uma lista de até {MAX_MESSAGES} mensagens {{role, content}}."
BAD_MESSAGE = "Cada mensagem de history deve ser {role: 'user' ou 'assistant', content: texto}."


@dataclass(frozen=True)
class Message:
    """One message of the conversation: who wrote it (`user` or `assistant`) and its text."""

    role: str
    content: str

    def as_dict(self) -> dict[str, str]:
        """The {role, content} shape of a provider's messages and of the page's saved state."""
        return {"role": self.role, "content": self.content}


@dataclass(frozen=True)
class History:
    """The messages before the new one, oldest first, each well-formed (see `checked`)."""

    messages: tuple[Message, ...] = ()

    @classmethod
    def checked(cls, items, max_message_chars: int) -> History:
        """A history as a client or the page's state sends it: None or a list of {role, content} with the
        `user`/`assistant` roles (other keys ignored). InputError, in Portuguese, naming what is wrong;
        each content is cut at twice the message limit (an answer is longer than a question), so a client
        cannot inflate the prompt."""
        if items is None:
            return cls()
        if isinstance(items, History):
            return items
        if not isinstance(items, list) or len(items) > MAX_MESSAGES:
            raise InputError(BAD_LIST)
        limit = 2 * max_message_chars
        messages = []
        for item in items:
            if not isinstance(item, dict) or item.get("role") not in ROLES or not isinstance(item.get("content"), str):
                raise InputError(BAD_MESSAGE)
            messages.append(Message(item["role"], item["content"][:limit]))
        return cls(tuple(messages))

    def __len__(self) -> int:
        return len(self.messages)

    def plus(self, *messages: Message) -> History:
        return History(self.messages + messages)

    def last(self, turns: int) -> History:
        """The last `turns` turns (a question and its answer each): what a conversation keeps."""
        return History(self.messages[-2 * turns :] if turns > 0 else ())

    def without_last(self, question: str) -> History:
        """The history before `question` was last asked: its answer too, or the question alone when it
        was kept without one (asked without a model). Unchanged when the history does not end with it."""
        asked = Message("user", question)
        if len(self.messages) >= 2 and self.messages[-2] == asked:
            return History(self.messages[:-2])
        if self.messages and self.messages[-1] == asked:
            return History(self.messages[:-1])
        return self

    def as_dicts(self) -> list[dict[str, str]]:
        return [m.as_dict() for m in self.messages]

    def has_question(self) -> bool:
        return any(m.role == "user" for m in self.messages)

    def previous_question(self, max_chars: int) -> str:
        """The person's last non-blank message on one line, cut at `max_chars` ("" when there is none)."""
        for message in reversed(self.messages):
            content = " ".join(message.content.split()) if message.role == "user" else ""
            if content:
                return content[:max_chars]
        return ""

    def exchanges(self, turns: int) -> list[dict[str, str]]:
        """The last `turns` exchanges as a strict provider takes them: alternating user/assistant messages
        starting with the user and ending with the assistant (so the new question follows), blank messages
        left out and consecutive ones of the same role joined."""
        joined = _alternating(m for m in self.messages if m.content.strip())
        while joined and joined[0]["role"] != "user":
            joined.pop(0)
        if joined and joined[-1]["role"] == "user":
            joined.pop()  # an unanswered question would break the alternation before the new one
        return joined[-2 * turns :] if turns > 0 else []


NO_HISTORY = History()  # a first message's history; frozen, so one shared value serves as a default


def _alternating(messages: Iterable[Message]) -> list[dict[str, str]]:
    joined: list[dict[str, str]] = []
    for message in messages:
        content = message.content.strip()
        if joined and joined[-1]["role"] == message.role:
            joined[-1] = {"role": message.role, "content": joined[-1]["content"] + "\n\n" + content}
        else:
            joined.append({"role": message.role, "content": content})
    return joined

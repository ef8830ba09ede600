"""A follow-up searched without a model: the previous question and the follow-up, searched together."""

from __future__ import annotations

# The previous question is cut to this many characters: it only has to carry the topic.
PREVIOUS_CHARS = 300


def previous_question(history: list[dict] | None) -> str:
    """The person's last message in the conversation ("" when there is none)."""
    for message in reversed(history or []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = " ".join(str(message.get("content") or "").split())
            if content:
                return content[:PREVIOUS_CHARS]
    return ""


def with_previous(history: list[dict] | None, message: str) -> str:
    """The follow-up with the question it follows, for the search: "e o que mais a Bíblia diz sobre
    isso?" after a message about betrayal searches betrayal too. The message alone without one."""
    previous = previous_question(history)
    return f"{previous} {message}" if previous else message

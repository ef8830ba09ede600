"""The conversation kept in the person's own browser (Gradio's BrowserState): what is saved, and checked on its
way back."""

from __future__ import annotations

from pastor.web.conversation import Conversation, is_message
from pastor.web.handlers import plain_messages

STORAGE_KEY = "pastor-online-conversa"
# Gradio encrypts the kept value with a key it sends to the page itself (in /config): it hides nothing from
# whoever can read this browser's storage. A fixed key therefore costs no secrecy, and lets the conversation
# outlive a restart of the app (Gradio's default, a random key per process, would lose it).
STORAGE_CIPHER_KEY = "pastor-online-v1"
# The chat as shown (answers, sources accordions) for about twenty exchanges: well under the browser's
# few MB of localStorage, and what a person scrolls back to.
MAX_MESSAGES = 60


def snapshot(chat, convo: Conversation | None) -> dict | None:
    """What the browser keeps after a turn: the chat as shown and the per-conversation state (the history the
    rewrite sees, the turn ids feedback needs). None when there is nothing to keep."""
    messages = plain_messages(chat)
    if not messages:
        return None
    dropped = max(0, len(messages) - MAX_MESSAGES)
    # The turn ids are keyed by the answer's place in the chat: they move with the messages kept.
    kept = (convo or Conversation()).without_first(dropped)
    return {"chat": messages[dropped:], **kept.to_browser()}


def restore(saved) -> tuple[list[dict], Conversation]:
    """(chat, conversation state) from what the browser kept; anything malformed (another version, a hand
    edit) is dropped rather than trusted, and the page starts empty."""
    if not isinstance(saved, dict):
        return [], Conversation()
    kept = saved.get("chat")
    chat = [_shown(m) for m in kept if is_message(m)] if isinstance(kept, list) else []
    return chat, Conversation.from_browser(saved, len(chat))


def forget() -> dict:
    """ "Nova conversa": the browser keeps an empty conversation (Gradio's BrowserState leaves a stored value in
    place when given None, so nothing would be forgotten)."""
    return {}


def _shown(message: dict) -> dict:
    """A kept message as the chat takes it: role, text and, for a sources accordion, its title and status."""
    metadata = {
        k: v for k, v in (message.get("metadata") or {}).items() if k in ("title", "status") and isinstance(v, str)
    }
    return {"role": message["role"], "content": message["content"], **({"metadata": metadata} if metadata else {})}

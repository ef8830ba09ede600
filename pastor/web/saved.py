"""The conversation kept in the person's own browser (Gradio's BrowserState): what is saved, and checked on its
way back."""

from __future__ import annotations

from pastor.web.handlers import new_conversation, plain_messages

STORAGE_KEY = "pastor-online-conversa"
# Gradio encrypts the kept value with a key it sends to the page itself (in /config): it hides nothing from
# whoever can read this browser's storage. A fixed key therefore costs no secrecy, and lets the conversation
# outlive a restart of the app (Gradio's default, a random key per process, would lose it).
STORAGE_CIPHER_KEY = "pastor-online-v1"
# The chat as shown (answers, sources accordions) for about twenty exchanges: well under the browser's
# few MB of localStorage, and what a person scrolls back to.
MAX_MESSAGES = 60
ROLES = ("user", "assistant")


def snapshot(chat, convo: dict | None) -> dict | None:
    """What the browser keeps after a turn: the chat as shown and the per-conversation state (the history the
    rewrite sees, the turn ids feedback needs). None when there is nothing to keep."""
    messages = plain_messages(chat)
    if not messages:
        return None
    convo = {**new_conversation(), **(convo or {})}
    dropped = max(0, len(messages) - MAX_MESSAGES)
    # The turn ids are keyed by the answer's place in the chat: they move with the messages kept.
    turn_ids = {str(int(i) - dropped): t for i, t in convo["turn_ids"].items() if int(i) >= dropped}  # JSON keys
    return {
        "chat": messages[dropped:],
        "history": convo["history"],
        "turn_ids": turn_ids,
        "last": convo["last"],
        "last_mode": convo["last_mode"],
    }


def restore(saved) -> tuple[list[dict], dict]:
    """(chat, conversation state) from what the browser kept; anything malformed (another version, a hand
    edit) is dropped rather than trusted, and the page starts empty."""
    if not isinstance(saved, dict):
        return [], new_conversation()
    chat = [_shown(m) for m in saved.get("chat") or [] if _message(m)] if isinstance(saved.get("chat"), list) else []
    kept = saved.get("history")
    history = (
        [{"role": m["role"], "content": m["content"]} for m in kept if _message(m)] if isinstance(kept, list) else []
    )
    turn_ids = {}
    for index, turn_id in (saved.get("turn_ids") or {}).items() if isinstance(saved.get("turn_ids"), dict) else ():
        if str(index).isdigit() and int(index) < len(chat) and isinstance(turn_id, str) and 0 < len(turn_id) <= 64:
            turn_ids[int(index)] = turn_id  # JSON made the keys strings; the like event gives ints
    convo = {
        **new_conversation(),
        "history": history,
        "turn_ids": turn_ids,
        "last": saved.get("last") if isinstance(saved.get("last"), str) else "",
        "last_mode": saved.get("last_mode") if isinstance(saved.get("last_mode"), str) else "",
    }
    return chat, convo


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


def _message(message) -> bool:
    return (
        isinstance(message, dict)
        and message.get("role") in ROLES
        and isinstance(message.get("content"), str)
        and isinstance(message.get("metadata", {}), dict)
    )

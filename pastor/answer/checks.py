"""Checks on a person's message before any work is done: plain functions, usable while the app loads."""

from __future__ import annotations

import re

from pastor.errors import PastorError

_SURROGATE = re.compile("[\ud800-\udfff]")


class InputError(PastorError, ValueError):
    """The user's message cannot be processed as sent; the message says why, in Portuguese."""


class CheckedMessage(str):
    """A message that passed `check_message`: the chat service takes it as it is, so the check runs once,
    where the message enters (the page, the API, or the service itself for the CLI)."""


def check_message(message, max_chars: int) -> CheckedMessage:
    """The message without surrounding blanks; InputError when it is empty or too long."""
    if isinstance(message, CheckedMessage) and len(message) <= max_chars:
        return message
    if not isinstance(message, str) or not message.strip():
        raise InputError("Escreva uma mensagem antes de enviar.")
    if len(message) > max_chars:
        raise InputError(
            f"Sua mensagem tem {len(message)} caracteres; o limite é {max_chars}. Resuma um pouco e envie de novo."
        )
    # A lone surrogate ("\ud800", from a broken client) cannot be encoded as UTF-8 anywhere
    # downstream (log, model, page): it becomes U+FFFD and the rest of the message is kept.
    message = _SURROGATE.sub("\ufffd", message)
    if not message.strip("\ufffd \t\r\n"):
        raise InputError("Sua mensagem tem apenas caracteres inválidos. Escreva o texto de novo.")
    return CheckedMessage(message.strip())

"""The reindex policy: who may start a rebuild from the web, and with which token."""

from __future__ import annotations

import hmac
import ipaddress
import os
from dataclasses import dataclass

from pastor.config import Settings

REINDEX_DISABLED = (
    "A reindexação pela web está desativada: o app está acessível pela rede e não há "
    "token. Para ativá-la, defina a variável REINDEX_TOKEN e reinicie o app."
)
BAD_TOKEN = "Token de reindexação incorreto. Confira o valor de REINDEX_TOKEN e tente de novo."
REPLICA_REFUSAL = (
    "Esta réplica não reindexa: o índice é construído e publicado pelo job `python -m pastor index` "
    "e as réplicas passam a usá-lo sozinhas."
)


@dataclass(frozen=True)
class Outcome:
    """The result of an operator action, with the Portuguese message to show."""

    ok: bool
    message: str


class ReindexPolicy:
    """Without a token, Reindex is on only for a loopback-only app: anyone who reaches a public
    address must not be able to start minutes of CPU work."""

    def __init__(self, settings: Settings):
        self.settings = settings

    def refusal(self) -> str | None:
        """Why Reindex is off, or None."""
        if self.settings.role == "replica":  # a replica never builds (issue 23)
            return REPLICA_REFUSAL
        if self.settings.reindex_token:
            return None
        if os.environ.get("SPACE_ID") or not loopback(self.settings.host):
            return REINDEX_DISABLED
        return None

    def check(self, token: str) -> Outcome | None:
        """A refusal (switched off, or a wrong token), or None when this request may reindex. The web checks it
        before the reindex rate limit, so a mistyped token does not lock out the next, right, try."""
        refusal = self.refusal()
        if refusal:
            return Outcome(False, refusal)
        expected = self.settings.reindex_token
        if expected and not hmac.compare_digest((token or "").encode(), expected.encode()):
            return Outcome(False, BAD_TOKEN)
        return None


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False

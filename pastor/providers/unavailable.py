"""A configured provider that could not be set up: the chat answers with the verses alone, status says why."""

from __future__ import annotations

from pastor.providers.none import NoneProvider
from pastor.providers.provider import ProviderError


class UnavailableProvider(NoneProvider):
    """Stands in for provider `name` when building it failed, so crisis replies, references, verses and
    conversation keep working; the operator reads `build_error.user_message` on the status page, members
    never do. (Not `error`: `Provider.error` and `Provider.failure` are the methods that word its errors.)"""

    generates = False

    def __init__(self, name: str, error: ProviderError) -> None:
        super().__init__()
        self.name = name or "automático"
        self.build_error = error

    def _refuse(self) -> ProviderError:
        return self.build_error

    def check(self) -> dict:
        return {"reachable": False, "detail": self.build_error.user_message}

    def setup_hint(self) -> str:
        return self.build_error.user_message

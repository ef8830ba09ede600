"""The per-deployment secret of the conversation kept in each browser, and the two keys drawn from it: one that
Gradio sends to the page to encrypt the stored value, one that only the server holds and seals it with."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from pastor.config import Settings
from pastor.errors import PastorError

log = logging.getLogger("pastor.web")

SECRET_FILE = "browser-secret"  # in the data directory, mode 0600, when PASTOR_BROWSER_SECRET is empty
MIN_SECRET = 16
# The stored format. Version 1 was the chat as shown (HTML), under a key written in the code: a value of that
# shape, or one this server did not seal, is dropped.
VERSION = 2


class Unsealed(PastorError, ValueError):
    """A kept value this server did not seal as it is; the message is a short fixed phrase for the log."""


@dataclass(frozen=True, repr=False)
class BrowserKeys:
    """`storage`: Gradio's BrowserState secret. Gradio hands it to every page that opens (in its config), so it
    keeps the value from other sites' eyes and nothing more. `seal_key` never leaves the server: whoever can
    write the browser's storage can put anything there, and the server shows only what it sealed itself."""

    storage: str
    seal_key: bytes

    @classmethod
    def from_secret(cls, secret: str) -> BrowserKeys:
        """Both keys from the deployment's secret, each for its own purpose (the page's says nothing of the seal's)."""
        master = secret.encode("utf-8")
        storage = hmac.new(master, b"pastor-online/browser-storage", hashlib.sha256).hexdigest()
        return cls(storage, hmac.new(master, b"pastor-online/conversation-seal", hashlib.sha256).digest())

    def sealed(self, payload: dict) -> dict:
        """What the browser keeps: the payload and the seal over it."""
        return {"version": VERSION, "saved": payload, "seal": self._seal(payload)}

    def opened(self, stored: object) -> dict:
        """The payload of a value this server sealed; `Unsealed` for anything else (another format, a value
        written by hand or by another deployment, a changed byte)."""
        if not isinstance(stored, dict) or stored.get("version") != VERSION:
            raise Unsealed("formato desconhecido")
        payload, seal = stored.get("saved"), stored.get("seal")
        if not isinstance(payload, dict) or not isinstance(seal, str):
            raise Unsealed("formato desconhecido")
        if not hmac.compare_digest(seal.encode("utf-8"), self._seal(payload).encode("ascii")):
            raise Unsealed("selo inválido")
        return payload

    def _seal(self, payload: dict) -> str:
        """HMAC-SHA256 of the payload's canonical JSON (sorted keys, ASCII): the same bytes after the browser's
        JSON round trip, whatever order its keys come back in."""
        try:
            text = json.dumps(payload, sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            raise Unsealed("formato desconhecido") from None
        return hmac.new(self.seal_key, text.encode("ascii"), hashlib.sha256).hexdigest()


def browser_keys(settings: Settings) -> BrowserKeys:
    """The keys of this deployment: from PASTOR_BROWSER_SECRET, or from the secret generated once into the data
    directory (replicas without a shared secret cannot read each other's conversations: the log says so)."""
    if settings.role == "replica" and not settings.browser_secret:
        log.warning("PASTOR_BROWSER_SECRET vazio numa réplica: conversas guardadas só voltam pela mesma réplica")
    return BrowserKeys.from_secret(settings.browser_secret or data_dir_secret(settings.data_dir))


def data_dir_secret(data_dir: Path) -> str:
    """The secret kept in `data_dir` (written once, 0600 from its first byte); a directory that cannot be
    written gets one for this process only, and conversations kept before a restart are then dropped."""
    path = data_dir / SECRET_FILE
    try:
        return _read(path) or _written(path)
    except OSError as exc:
        log.warning(
            "segredo do navegador não gravado em %s (%s): as conversas guardadas valem até o próximo reinício",
            SECRET_FILE,
            exc.strerror or type(exc).__name__,
        )
        return secrets.token_urlsafe(32)


def _written(path: Path) -> str:
    """A new secret put in place whole: written to a private draft, then linked to its name, so two processes
    starting at once agree on the first one and nobody ever reads half a secret."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
        try:
            os.link(draft, path)
            log.info("segredo do navegador gerado em %s", SECRET_FILE)
        except FileExistsError:
            if not _read(path):  # a file there that holds no secret (emptied by hand): replace it
                os.replace(draft, path)
    finally:
        draft.unlink(missing_ok=True)
    secret = _read(path)
    if not secret:
        raise OSError(0, "segredo ilegível")
    return secret


def _read(path: Path) -> str:
    """The secret in `path` ("" when absent or too short); a file others could read is made private first."""
    try:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return ""
    return text if len(text) >= MIN_SECRET else ""

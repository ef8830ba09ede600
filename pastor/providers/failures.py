"""Classify SDK and transport exceptions into error kinds, and word them in Portuguese."""

from __future__ import annotations

from types import ModuleType
from urllib.parse import urlsplit

import httpx

httpx2: ModuleType
try:  # openai and anthropic ship their own httpx fork; groq and ollama use httpx.
    import httpx2
except ImportError:  # pragma: no cover - depends on the installed SDK versions
    httpx2 = httpx

TIMEOUTS = (httpx.TimeoutException, httpx2.TimeoutException, TimeoutError)
CONNECTS = (httpx.ConnectError, httpx2.ConnectError, ConnectionRefusedError)
TRANSPORTS = (httpx.TransportError, httpx2.TransportError, OSError)

MESSAGES = {
    "unreachable": "Não foi possível falar com o modelo ({where}). Verifique se o servidor está rodando.",
    "auth": "O modelo ({where}) recusou o acesso. Verifique a chave em {key_var}.",
    "rate_limit": "O modelo ({where}) está recebendo pedidos demais agora. Espere um pouco e tente de novo.",
    "timeout": "O modelo ({where}) demorou mais de {timeout:g} s para responder. Tente de novo ou aumente LLM_TIMEOUT.",
    "stream": "A resposta do modelo ({where}) foi interrompida no meio. Tente de novo.",
    "bad_response": "O modelo ({where}) respondeu com um erro{status}. Tente de novo mais tarde.",
    "config": "O modelo {model!r} não foi encontrado ({where}). Verifique LLM_MODEL.",
}


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and its causes: SDKs wrap transport errors with `raise … from err`."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _status_kind(status: int) -> str:
    if status in (401, 403):
        return "auth"
    if status == 429:
        return "rate_limit"
    if status == 404:
        return "config"  # model not found (not pulled, misspelt, or wrong base URL)
    if status in (408, 504):
        return "timeout"
    # Below 400: an error event inside a 200 stream (Anthropic `error`, Ollama `{"error":…}`).
    return "stream" if status < 400 else "bad_response"


def classify(exc: BaseException, started: bool) -> tuple[str, int | None]:
    """(kind, HTTP status or None); `started` tells whether a reply stream was already open."""
    chain = _chain(exc)
    if any(isinstance(e, TIMEOUTS) for e in chain):
        return "timeout", None
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return _status_kind(status), (status if status >= 400 else None)
    # Ollama raises a bare ConnectionError when it cannot connect.
    if any(isinstance(e, CONNECTS) or type(e) is ConnectionError for e in chain):
        return "unreachable", None
    if any(isinstance(e, TRANSPORTS) for e in chain):
        return ("stream" if started else "unreachable"), None
    return ("stream" if started else "bad_response"), None


def describe(exc: BaseException) -> str:
    """A log-safe description: class names and status only, never the SDK's message text."""
    names = " <- ".join(type(e).__name__ for e in _chain(exc))
    status = getattr(exc, "status_code", None)
    return f"{names} (HTTP {status})" if isinstance(status, int) and status >= 400 else names


def message(kind: str, *, where: str, status: int | None, timeout: float, key_var: str | None, model: str) -> str:
    """The Portuguese message for `kind`."""
    if kind == "auth" and not key_var:
        return f"O modelo ({where}) recusou o acesso. Verifique a configuração do servidor."
    return MESSAGES[kind].format(
        where=where, status=f" (HTTP {status})" if status else "", timeout=timeout, key_var=key_var, model=model
    )


def safe_url(url: str) -> str:
    """Only the URL's scheme, host and port, for messages: no `user:password@`, and no path or
    query either (a base URL may carry a key there, e.g. `?api-key=…` or `/key/…/v1`)."""
    parsed = urlsplit(url)
    host = parsed.hostname or ""
    if not host:
        return "(endereço configurado)"
    host = f"[{host}]" if ":" in host else host
    port = f":{parsed.port}" if parsed.port else ""
    return f"{parsed.scheme}://{host}{port}" if parsed.scheme else f"{host}{port}"

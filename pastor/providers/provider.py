"""The provider interface: stream or complete a chat, check reachability, fail with `ProviderError`."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

from pastor.errors import PastorError
from pastor.providers import failures as errors
from pastor.providers.choice import Choice

log = logging.getLogger("pastor.providers")

# The Ollama model the README recommends: named in the operators' hints.
LOCAL_MODEL = "qwen2.5:1.5b"
API_CHOICE = (
    "escolha um provedor de API com LLM_PROVIDER (openai, groq, anthropic ou huggingface) e a chave "
    "correspondente (OPENAI_API_KEY, GROQ_API_KEY, ANTHROPIC_API_KEY ou HF_TOKEN)"
)
# The line members read above the verses when no model answers, in their own words: the how-to is for the
# operator only (the turn's reason, the status page, the log).
MEMBER_NOTICE = "deixo aqui alguns versículos que encontrei para você"

KINDS = ("unreachable", "auth", "rate_limit", "timeout", "stream", "bad_response", "config")


class ProviderError(PastorError):
    """A model call failed; `user_message` is Portuguese and never carries keys or SDK text."""

    def __init__(self, kind: str, user_message: str, provider: str = "", detail: str = "") -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown error kind {kind!r}")
        super().__init__(user_message)
        self.kind = kind
        self.user_message = user_message
        self.provider = provider
        # Only the SDK exception's class name and HTTP status (or a phrase of ours): safe for logs.
        self.detail = detail

    def __repr__(self) -> str:
        return f"ProviderError(kind={self.kind!r}, provider={self.provider!r}, message={self.user_message!r})"


class Provider:
    """Base provider. SDK variants override `_open_stream`, `_read_event`, `_complete` and `_check`."""

    name = "base"
    default_model = ""
    # Whether the provider writes text at all; the chat answers with the verses alone when it does not.
    generates = True
    # The environment variable holding the key, named in messages (never its value).
    key_var: str | None = None

    def __init__(self, model: str = "", timeout: float = 60.0) -> None:
        self.model = model or self.default_model
        self.timeout = timeout
        self.calls = 0
        # Which provider was chosen and why (set by `load_provider`; tests build providers directly).
        self.choice: Choice | None = None

    def start(self) -> None:
        """Prepare in the background what the provider needs before answering (the local model)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r})"

    @property
    def where(self) -> str:
        """Where the model lives, for messages: 'ollama em http://…'."""
        return self.name

    # --- public interface -------------------------------------------------------------------

    def stream(self, system: str, messages: list[dict], cancel: threading.Event | None = None) -> Iterator[str]:
        """Text deltas of the reply; setting `cancel` or closing the iterator closes the HTTP stream."""
        self.calls += 1
        return self._guarded_stream(system, list(messages), cancel or threading.Event())

    def complete(
        self, system: str, messages: list[dict], max_tokens: int = 200, cancel: threading.Event | None = None
    ) -> str:
        """The whole reply of a short, non-streaming call. `cancel` stops an in-process model at once; an
        HTTP call ends at its own timeout (the chat service stops waiting at the turn's deadline)."""
        self.calls += 1
        failure = None
        try:
            return self._complete(system, list(messages), max_tokens)
        except ProviderError:
            raise
        except Exception as exc:
            failure = self.failure(exc, started=False)
        # Raised outside `except` so the SDK exception (which may quote a key) is not chained.
        raise failure

    def check(self) -> dict:
        """{"reachable": bool, "detail": str}; never raises."""
        failure = None
        try:
            return {"reachable": True, "detail": self._check()}
        except ProviderError as exc:
            failure = exc
        except Exception as exc:
            failure = self.failure(exc, started=False, quiet=True)
        return {"reachable": False, "detail": failure.user_message}

    # --- errors ----------------------------------------------------------------------------

    def error(self, kind: str, status: int | None = None, detail: str = "") -> ProviderError:
        """A `ProviderError` of `kind` with this provider's Portuguese message."""
        message = errors.message(
            kind, where=self.where, status=status, timeout=self.timeout, key_var=self.key_var, model=self.model
        )
        hint = self.hint(kind)
        return ProviderError(kind, f"{message} {hint}".strip(), provider=self.name, detail=detail)

    def hint(self, kind: str) -> str:
        """Provider-specific advice appended to the message of `kind`."""
        return ""

    def live_status(self) -> dict:
        """Status fields that change faster than the cached check (the local model's download)."""
        return {}

    def member_notice(self) -> str:
        """The short line a member reads when this provider does not answer (no setup instructions)."""
        return MEMBER_NOTICE

    def setup_hint(self) -> str:
        """One actionable line for the operator when this provider does not answer (never a secret)."""
        return (
            f"Para respostas comentadas, confira LLM_PROVIDER ({self.name}) e a configuração do modelo, "
            f"inicie um modelo local (ollama pull {LOCAL_MODEL}) ou {API_CHOICE}."
        )

    def failure(self, exc: BaseException, started: bool, quiet: bool = False) -> ProviderError:
        """Map an SDK or transport exception to a `ProviderError`, and log it safely."""
        kind, status = errors.classify(exc, started)
        error = self.error(kind, status, detail=errors.describe(exc))
        # Status checks poll; only failed model calls deserve a warning.
        level = logging.DEBUG if quiet else logging.WARNING
        log.log(level, "provedor %s falhou: tipo=%s %s", self.name, kind, error.detail)
        return error

    # --- streaming loop shared by the SDK variants -----------------------------------------------

    def _guarded_stream(self, system: str, messages: list[dict], cancel: threading.Event) -> Iterator[str]:
        if cancel.is_set():
            return
        failure = None
        handle = None
        finished = False
        try:
            handle = self._open_stream(system, messages)
            for event in handle:
                text, done = self._read_event(event)
                finished = finished or done
                if cancel.is_set():
                    return
                if text:
                    yield text
                    # Checked again on resume so a cancel does not wait for the next chunk.
                    if cancel.is_set():
                        return
        except ProviderError:
            raise
        except Exception as exc:
            failure = self.failure(exc, started=handle is not None)
        finally:
            # Runs on normal end, error, cancel and GeneratorExit: the HTTP response is closed.
            if handle is not None:
                with contextlib.suppress(Exception):
                    self._close_stream(handle)
        if failure is not None:
            raise failure
        # A stream that ends without its end marker was cut (e.g. the server closed the socket).
        if not finished:
            raise self.error("stream", detail="a resposta terminou sem o marcador de fim")

    def _open_stream(self, system: str, messages: list[dict]) -> Any:
        raise NotImplementedError

    def _read_event(self, event: Any) -> tuple[str, bool]:
        """(text delta, whether this event marks the normal end of the reply)."""
        raise NotImplementedError

    def _close_stream(self, handle: Any) -> None:
        handle.close()

    def _complete(self, system: str, messages: list[dict], max_tokens: int) -> str:
        raise NotImplementedError

    def _check(self) -> str:
        raise NotImplementedError


class SDKProvider(Provider):
    """A provider backed by an official SDK client, built lazily (SDK imports are slow)."""

    def __init__(
        self, model: str = "", timeout: float = 60.0, api_key: str | None = None, base_url: str | None = None
    ) -> None:
        super().__init__(model, timeout)
        self.base_url = base_url or None
        self._api_key = api_key or None
        self._sdk_client: Any = None

    @property
    def where(self) -> str:
        return f"{self.name} em {errors.safe_url(self.base_url)}" if self.base_url else self.name

    def setup_hint(self) -> str:
        return (
            f"Para respostas comentadas, confira a chave {self.key_var} e a conexão com {self.where}, "
            f"ou use um modelo local: LLM_PROVIDER=ollama e ollama pull {LOCAL_MODEL}."
        )

    def client(self) -> Any:
        """The SDK client; a missing key is a `config` error naming the variable."""
        if self.key_var and not self._api_key:
            raise ProviderError(
                "config",
                f"Falta a chave de acesso para {self.name}: defina a variável de ambiente {self.key_var}.",
                provider=self.name,
                detail=f"{self.key_var} não definida",
            )
        if self._sdk_client is None:
            self._sdk_client = self._make_client(self._api_key)
        return self._sdk_client

    def _make_client(self, api_key: str | None) -> Any:
        raise NotImplementedError

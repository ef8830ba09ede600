"""What the web app serves from: engine, provider, chat service and turn log, loaded in the background."""

from __future__ import annotations

import copy
import hmac
import ipaddress
import logging
import os
import threading
import time
from dataclasses import dataclass

from pastor.config import Settings
from pastor.search.storage import describe
from pastor.web.ratelimit import RateLimiter, client_key

log = logging.getLogger("pastor.web")

STATUS_TTL = 1.0
# "Verificar de novo" from any number of clients asks the model server at most once in this many seconds.
RECHECK_SECONDS = 5.0

REINDEX_DISABLED = ("A reindexação pela web está desativada: o app está acessível pela rede e não há "
                    "token. Para ativá-la, defina a variável REINDEX_TOKEN e reinicie o app.")

WRONG_TOKEN = "Token de reindexação incorreto. Confira o valor de REINDEX_TOKEN e tente de novo."

LOADING_MESSAGE = ("O Pastor Online está iniciando (carregando a Bíblia e a busca). "
                   "Tente de novo em alguns segundos.")


@dataclass(frozen=True)
class Outcome:
    """The result of an operator action, with the Portuguese message to show."""

    ok: bool
    message: str


class ProviderProbe:
    """`provider.check()` cached for `ttl` seconds and refreshed in a thread, so a slow or
    unreachable model server never stalls the status page. Checked once at start and again on
    demand ("Verificar de novo")."""

    def __init__(self, provider, *, ttl: float = 10.0, wait: float = 1.0, recheck_after: float = RECHECK_SECONDS):
        self.provider = provider
        self.ttl = ttl
        self.recheck_after = recheck_after
        self.wait = wait
        self._value: dict | None = None
        self._checked = 0.0
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> threading.Thread:
        """Start a check now (unless one runs) without waiting for it."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._refresh, daemon=True, name="pastor-probe")
                self._thread.start()
            return self._thread

    def get(self) -> dict:
        stale = self._value is None or time.monotonic() - self._checked > self.ttl
        thread = self.start() if stale else None
        if self._value is None and thread is not None:
            thread.join(self.wait)  # the first answer is worth a short wait
        return self._value or {"reachable": None, "detail": "verificando…"}

    def recheck(self, timeout: float = 15.0) -> dict:
        """A fresh check, waited for (the providers' own checks time out in a few seconds); one
        finished less than `recheck_after` seconds ago is fresh enough, so a burst of clicks or API
        calls costs the model server one request."""
        if self._value is not None and time.monotonic() - self._checked < self.recheck_after:
            return dict(self._value)
        before = self._checked
        self.start().join(timeout)
        if self._checked == before:
            return {"reachable": None, "detail": "a verificação ainda não terminou; veja a aba Status"}
        return dict(self._value)

    def _refresh(self) -> None:
        try:
            value = self.provider.check()
        except Exception as exc:  # check() should never raise; a bug must not break the status page
            value = {"reachable": False, "detail": f"falha na verificação ({type(exc).__name__})"}
        self._value = {**value, "reachable": value.get("reachable"), "detail": str(value.get("detail", "")),
                       "checked_at": time.strftime("%H:%M:%S")}
        self._checked = time.monotonic()


class TurnRegistry:
    """One running turn per browser session: a new question or Stop sets the previous turn's
    cancel event, which makes the chat service close the provider's stream. The turn's latest
    update is kept so that Stop can still show the sources it had found."""

    def __init__(self):
        self._events: dict[str, threading.Event] = {}
        self._latest: dict[str, object] = {}
        self._lock = threading.Lock()

    def begin(self, session: str) -> threading.Event:
        event = threading.Event()
        with self._lock:
            previous = self._events.get(session)
            self._events[session] = event
            self._latest.pop(session, None)
        if previous is not None:
            previous.set()
        return event

    def note(self, session: str, event: threading.Event, update) -> None:
        """Remember `update` as the latest of the session's running turn (ignored once it was replaced)."""
        with self._lock:
            if self._events.get(session) is event:
                self._latest[session] = update

    def latest(self, session: str):
        """The latest update of the session's running turn, or None."""
        with self._lock:
            return self._latest.get(session)

    def cancel(self, session: str, *, stopped: bool = True) -> bool:
        """End the running turn: by the person's Stop (`stopped`: it finishes, marked interrupted) or to
        clear the page (a new conversation: it leaves the page as it is)."""
        with self._lock:
            event = self._events.pop(session, None)
            self._latest.pop(session, None)
        if event is None:
            return False
        event.stopped = stopped  # read by the page's turn loop: finish the turn, or leave the page alone
        event.set()
        return True

    def end(self, session: str, event: threading.Event) -> None:
        with self._lock:
            if self._events.get(session) is event:
                del self._events[session]
                self._latest.pop(session, None)


class Runtime:
    def __init__(self, settings: Settings, *, provider=None, engine=None):
        self.settings = settings
        self.engine = engine
        self.load_error: str | None = None
        self.provider = provider
        self.provider_error: str | None = None
        self.chat = None
        self.turnlog = None
        self.limiter = RateLimiter(settings.rate_limit_seconds)  # questions (chat)
        self.limiters = endpoint_limiters(settings.rate_limit_seconds)
        self.turns = TurnRegistry()
        self.probe: ProviderProbe | None = None
        self.started = time.time()
        self._loaded = threading.Event()
        self._status: tuple[float, dict] | None = None
        self._status_lock = threading.Lock()
        self._loader: threading.Thread | None = None

    # -- start-up ------------------------------------------------------------------------------
    def start(self, *, background: bool = True) -> "Runtime":
        """Load the provider at once and the engine in a thread, so the server is up in seconds."""
        from pastor.wiring import build_turnlog
        self.turnlog = build_turnlog(self.settings)
        self._load_provider()
        self._start_loader()
        if not background:
            self._loader.join()
        return self

    def _start_loader(self) -> None:
        self.load_error = None  # "loading" again until the loader says otherwise
        self._loaded.clear()
        self._loader = threading.Thread(target=self._load_engine, daemon=True, name="pastor-loader")
        self._loader.start()

    def _load_provider(self) -> None:
        from pastor.providers import ProviderError
        from pastor.wiring import build_provider
        if self.provider is None:
            try:
                self.provider = build_provider(self.settings)
            except ProviderError as exc:
                self.provider_error = exc.user_message
                return
        self.provider.start()  # the local model downloads/loads in the background
        self.probe = ProviderProbe(self.provider)
        self.probe.start()  # the status tab knows at once whether the model answers

    def _load_engine(self) -> None:
        from pastor.bible.usfx import CorpusError
        from pastor.wiring import build_engine
        try:
            engine = self.engine or build_engine(self.settings)
        except CorpusError as exc:
            self.load_error = str(exc)
            log.warning("corpus não carregado: %s", exc)
        except Exception as exc:  # the page must say why instead of crashing the server
            log.exception("engine failed to load")
            self.load_error = f"Falha ao carregar a busca: {describe(exc)}"
        else:
            self.load_error = None
            self._build_chat(engine)
            self.engine = engine  # last: the app counts as ready from here
            _warm_citation_patterns()
            if self.settings.background_index:
                engine.start_indexing()
        finally:
            self._loaded.set()

    def _build_chat(self, engine) -> None:
        if self.provider is None:
            return
        try:
            from pastor.wiring import build_chat
            self.chat = build_chat(self.settings, engine, self.provider, turnlog=self.turnlog)
        except Exception as exc:  # search and status still work; the chat says why it cannot
            log.exception("chat service failed to start")
            self.provider_error = f"Falha ao preparar a conversa: {describe(exc)}"

    def wait_loaded(self, timeout: float | None = None) -> bool:
        return self._loaded.wait(timeout)

    def stop(self) -> None:
        if self.engine is not None:
            self.engine.stop_indexing(timeout=10)

    # -- state ---------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """"loading", "error" (nothing can be searched) or "ready" (corpus and BM25 loaded)."""
        if self.engine is not None:
            return "ready" if self.engine.lexical is not None else "error"
        return "error" if self.load_error else "loading"

    def unavailable(self, need_chat: bool = False) -> str | None:
        """Why the search (or, with need_chat, the chat) cannot run now; None when it can."""
        if self.phase == "loading":
            return LOADING_MESSAGE
        if self.phase == "error":
            return f"O Pastor Online não consegue responder agora. {self.load_error or ''}".strip()
        if need_chat and self.chat is None:
            return f"O modelo de linguagem não está configurado corretamente. {self.provider_error or ''}".strip()
        return None

    def check_message(self, message) -> str:
        """The chat's validation (raises InputError), available even while loading."""
        from pastor.answer.checks import check_message
        return check_message(message, self.settings.max_message_chars)

    def client(self, request) -> str:
        """Who is asking, for the rate limits: the peer, or the forwarded client behind a trusted proxy."""
        return client_key(request, self.settings.trusted_proxies)

    def attributions(self) -> list[str]:
        """Credits the licences require for what is loaded now (each dataset carries its own)."""
        return self.engine.credits() if self.engine is not None else []

    def status(self) -> dict:
        """Everything the status page shows; never settings values, keys or URLs with credentials.

        Shared for STATUS_TTL seconds: every open page polls it, and the engine's status costs
        about 50 ms on the full corpus (it recounts the versification differences)."""
        with self._status_lock:
            now = time.monotonic()
            if self._status is None or now - self._status[0] > STATUS_TTL:
                self._status = (now, self._fresh_status())
            return copy.deepcopy(self._status[1])

    def _fresh_status(self) -> dict:
        data = self.engine.status() if self.engine is not None else _empty_status(self.phase)
        data["phase"] = self.phase
        data["corpus_error"] = self.load_error
        data["uptime_seconds"] = round(time.time() - self.started)
        data["llm"] = self._llm_status()
        data["attributions"] = self.attributions()
        data["storage_warning"] = self.turnlog.warning if self.turnlog is not None else None
        data["reindex_enabled"] = self.reindex_refusal() is None
        data["router"] = self.chat.router.active if self.chat is not None else "léxico + regras"
        return data

    def _llm_status(self) -> dict:
        if self.provider is None:
            return {"provider": self.settings.llm_provider, "model": self.settings.llm_model, "reachable": False,
                    "detail": self.provider_error or "não carregado"}
        check = self.probe.get() if self.probe else {"reachable": None, "detail": ""}
        return {**self._provider_identity(), **check, **self.provider.live_status()}

    def _provider_identity(self) -> dict:
        """Which provider answers, why it was chosen, and what to do when it does not (for the operator)."""
        choice = self.provider.choice
        return {"provider": self.provider.name, "model": self.provider.model,
                "choice": choice.reason if choice else "", "automatic": bool(choice and choice.automatic),
                "setup_hint": self.provider.setup_hint()}

    # -- operator actions ------------------------------------------------------------------------
    def check_provider(self) -> dict:
        """Ask the provider again now ("Verificar de novo"): {provider, model, reachable, detail, checked_at}."""
        if self.probe is None:
            return self._llm_status()
        started = time.monotonic()
        check = self.probe.recheck()
        elapsed = round(time.monotonic() - started, 3)
        with self._status_lock:
            self._status = None  # the next status read shows the new answer
        return {**self._provider_identity(), **check, "elapsed_seconds": elapsed}

    def reindex_refusal(self) -> str | None:
        """Why Reindex is off, or None. Without a token it is on only for a loopback-only app:
        anyone who reaches a public address must not be able to start minutes of CPU work."""
        if self.settings.reindex_token:
            return None
        if os.environ.get("SPACE_ID") or not _loopback(self.settings.host):
            return REINDEX_DISABLED
        return None

    def reindex_denied(self, token: str = "") -> str | None:
        """Why this request may not reindex at all (off here, or a wrong token), or None. Checked before the
        reindex rate limit, so a mistyped token does not lock out the next, right, try."""
        refusal = self.reindex_refusal()
        if refusal:
            return refusal
        expected = self.settings.reindex_token
        if expected and not hmac.compare_digest((token or "").encode(), expected.encode()):
            return WRONG_TOKEN
        return None

    def reindex(self, token: str = "") -> Outcome:
        """Rebuild the vector index in the background (beside the live one); refused while one runs.
        With the corpus missing at start, it looks for the corpus again instead."""
        denied = self.reindex_denied(token)
        if denied:
            return Outcome(False, denied)
        if self.engine is None and self.load_error and self._loaded.is_set():
            self._start_loader()  # a corpus file put in place after start is found without a restart
            return Outcome(True, "Procurando o corpus de novo. Acompanhe na aba Status.")
        problem = self.unavailable()
        if problem:
            return Outcome(False, problem)
        if self.engine.index is None:
            reason = self.engine.embedder_error or "modelo de embeddings não carregado"
            return Outcome(False, f"Não há índice vetorial para reconstruir: {reason}")
        if not self.engine.start_indexing(rebuild=True):
            return Outcome(False, "Já existe uma indexação em andamento. Aguarde ela terminar antes de pedir outra.")
        return Outcome(True, "Reindexação iniciada; a busca continua usando o índice atual até o novo ficar "
                             "pronto. Acompanhe o progresso na aba Status.")


def _warm_citation_patterns() -> None:
    """Build the book-name patterns (thousands of forms, about half a second) now, not on the first answer."""
    from pastor.answer.streaming import StreamingValidator
    validator = StreamingValidator(set())
    validator.feed("João 3:16")
    validator.finish()


def endpoint_limiters(seconds: float) -> dict[str, RateLimiter]:
    """Per-client limits of the other endpoints: searches cost an embedding like a question;
    lookups, feedback and status reads are cheap but still bounded; a model check may cost an
    upstream call; a reindex is minutes of CPU."""
    many = "Muitos pedidos seguidos."
    return {"search": RateLimiter(seconds, what=many), "lookup": RateLimiter(seconds / 3, what=many),
            "feedback": RateLimiter(seconds / 3, what=many), "status": RateLimiter(seconds / 3, what=many),
            "check_provider": RateLimiter(seconds * 3, what="O modelo foi verificado há pouco."),
            "reindex": RateLimiter(seconds * 20, what="Uma reindexação foi pedida há pouco.")}


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _empty_status(phase: str) -> dict:
    """The engine's status shape before (or without) an engine."""
    return {"state": phase, "ready": False, "vectors_ready": False, "corpus": None, "extra_corpora": [],
            "embedder": None, "index": None, "progress": {"done": 0, "total": 0}, "bm25_ready": False,
            "prominence": {"enabled": False, "detail": ""}, "errors": []}

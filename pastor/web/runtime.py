"""What the web app serves from: engine, provider, chat service and turn log, loaded in the background."""

from __future__ import annotations

import logging
import threading
import time

from pastor.answer.chat import ChatService
from pastor.answer.turnlog import TurnLog
from pastor.answer_filter.streaming import StreamingValidator
from pastor.bible.usfx import CorpusError
from pastor.care.router import Router
from pastor.config import Settings
from pastor.health import HealthBoard, State
from pastor.index.resources import LABELS as SEARCH_LABELS
from pastor.providers import ProviderError
from pastor.providers.unavailable import UnavailableProvider
from pastor.search.storage import describe
from pastor.web.probe import ProviderProbe
from pastor.web.ratelimit import QUESTION, RateLimiter, client_key
from pastor.web.ratelimit_redis import LimiterFactory, limiter_factory
from pastor.web.reindex import Outcome, ReindexPolicy
from pastor.web.replica import ReplicaIndex
from pastor.web.status_model import PROVIDER_LABEL, StatusCache, llm_status, provider_identity, runtime_status
from pastor.web.turns import TurnRegistry
from pastor.wiring import build_chat, build_engine, build_provider, build_router, build_turnlog

log = logging.getLogger("pastor.web")

# What a member reads when the chat itself could not be prepared; the operator's reason is on the status page.
CHAT_DOWN_MESSAGE = (
    "O Pastor Online não consegue conversar agora. Tente de novo em alguns minutos. "
    "Se você corre perigo, ligue 188 (CVV) ou 192 (SAMU) no Brasil, 112 em Portugal."
)
LOADING_MESSAGE = "O Pastor Online está iniciando (carregando a Bíblia e a busca). Tente de novo em alguns segundos."
# The runtime's own components on the status page (the engine records its own parts).
LABELS = {"corpus": "corpus", "provider": PROVIDER_LABEL, "chat": "conversa"}


class Runtime:
    """Loads the provider at once and the engine in a thread, then serves the page and the API from
    them; the probe, the status model, the reindex policy and the running turns are parts of it."""

    def __init__(self, settings: Settings, *, provider=None, engine=None):
        self.settings = settings
        self.engine = engine
        self.provider = provider
        self.health = HealthBoard()
        self.chat: ChatService | None = None
        self.turnlog: TurnLog | None = None
        make = limiter_factory(settings)  # in Redis when PASTOR_REDIS_URL is set (shared by replicas)
        self.limiter = make("question", settings.rate_limit_seconds, QUESTION)  # questions (chat)
        self.limiters = endpoint_limiters(settings.rate_limit_seconds, make)
        self.turns = TurnRegistry()
        self.probe: ProviderProbe | None = None
        self.replica: ReplicaIndex | None = None  # PASTOR_ROLE=replica: the published index it serves
        self.reindex_policy = ReindexPolicy(settings)
        self.status_cache = StatusCache(lambda: runtime_status(self))
        self.started = time.time()
        self._loaded = threading.Event()  # the loader has ended (or a replica adopted its first release)
        self._serving = threading.Event()  # the server is up (its lifespan called `start`)
        self._started = self._provider_started = self._stopped = False
        self._loader: threading.Thread | None = None
        self._router_thread: threading.Thread | None = None

    # -- start-up ------------------------------------------------------------------------------
    def start(self, *, background: bool = True, early: bool = False) -> Runtime:
        """Load the provider at once and the engine in a thread, so the server is up in seconds. `early` (app.py,
        before Gradio is imported): the corpus and BM25 load meanwhile, and what can wait (the local model, the
        embedder and vectors) waits for the server, which calls `start` again from its lifespan."""
        if not early:
            self._serving.set()
        if self._started:
            return self
        self._started = True
        self.turnlog = build_turnlog(self.settings)
        self._load_provider()
        if self.settings.role == "replica":  # the index comes published by the job, never built here
            self._start_provider()
            self.health.set("corpus", LABELS["corpus"], State.STARTING)
            self.replica = ReplicaIndex(self.settings, self.adopt).start()
            return self
        loader = self._start_loader()
        if not background:
            loader.join()
            self.wait_router()
        return self

    def _start_loader(self) -> threading.Thread:
        self.health.set("corpus", LABELS["corpus"], State.STARTING)  # "loading" until the loader says otherwise
        self._loaded.clear()
        self._loader = loader = threading.Thread(target=self._load_engine, daemon=True, name="pastor-loader")
        loader.start()
        return loader

    def _load_provider(self) -> None:
        if self.provider is None:
            try:
                self.provider = build_provider(self.settings)
            except ProviderError as exc:
                # The chat still starts, with the verses alone: a provider that cannot be built must never
                # take crisis replies, references or conversation down with it.
                log.warning("provedor de linguagem não configurado: %s", exc.user_message)
                self.health.fail("provider", LABELS["provider"], exc.user_message)
                self.provider = UnavailableProvider(self.settings.llm_provider, exc)
                return
        # Built is not answering: the status model records what the model does once it is checked.
        self.health.set("provider", LABELS["provider"], State.STARTING, "verificando…")
        self.probe = ProviderProbe(self.provider)
        self.probe.start()  # the status tab knows at once whether the model answers

    def _start_provider(self) -> None:
        """The provider's own preparation (the local model downloads and loads, seconds of CPU importing torch):
        started once the app can answer, so it never delays /ready."""
        if self.probe is not None and not self._provider_started:
            self._provider_started = True
            self.provider.start()
            self.status_cache.forget()

    def _load_engine(self) -> None:
        """The corpus, BM25 and prior first (the app is ready from there: crisis replies, references and keyword
        search), then, once the server is up, the embedder and what needs it, served by a second engine."""
        given = self.engine is not None
        try:
            engine = self.engine or build_engine(self.settings, vectors=False)
        except CorpusError as exc:
            self.health.fail("corpus", LABELS["corpus"], str(exc))
            log.warning("corpus não carregado: %s", exc)
        except Exception as exc:  # the page must say why instead of crashing the server
            log.exception("a busca não carregou")
            self.health.fail("corpus", LABELS["corpus"], f"Falha ao carregar a busca: {describe(exc)}")
        else:
            self._adopt(engine)
            if not given:
                self._serving.wait()
                _warm_citation_patterns()  # half a second of CPU that would otherwise slow the server's start
                self._start_provider()
                engine = self._with_vectors(engine)
            if self.settings.background_index and not self._stopped:
                engine.start_indexing()
        finally:
            self._start_provider()  # without a corpus the model still answers the status checks
            self._loaded.set()

    def _with_vectors(self, engine):
        """A second engine over the same texts and BM25 with the embedder, vectors, topics and documents loaded,
        served from when it is; the first keeps serving (by keywords) if that fails."""
        try:
            engine = engine.with_vectors()
        except Exception as exc:  # keyword search keeps serving; the status says why the vectors are off
            log.exception("o modelo de embeddings e os vetores não carregaram")
            engine.health.fail("embedder", SEARCH_LABELS["embedder"], describe(exc))
            return engine
        self._adopt(engine)
        return engine

    def adopt(self, engine) -> None:
        """Serve from `engine` from now on: at start, and when a replica has loaded a newer release
        (turns already running finish on the chat service they started with)."""
        self._adopt(engine)
        self._loaded.set()

    def _adopt(self, engine) -> None:
        self.health.ok("corpus", LABELS["corpus"])
        self._build_chat(engine)
        first = self.engine is None
        self.engine = engine  # last: the app counts as ready from here
        self.status_cache.forget()
        if first and self.replica is not None:
            _warm_citation_patterns()  # the loader warms them once the server is up

    def _build_chat(self, engine) -> None:
        """The chat answers at once with the crisis lexicon and rules; the trained router (tens of seconds on a
        cold cache) is built in a thread and takes over when it is ready, so nothing trained stands before /ready."""
        if self.provider is None:
            return
        try:
            chat = build_chat(self.settings, engine, self.provider, turnlog=self.turnlog, router=Router())
        except Exception as exc:  # search and status still work; the chat says why it cannot
            log.exception("o serviço de conversa não iniciou")
            self.health.fail("chat", LABELS["chat"], f"Falha ao preparar a conversa: {describe(exc)}")
            return
        self.chat = chat
        if getattr(engine.resources, "embedder", None) is None:
            return  # nothing to train on (yet: at start, the engine with the embedder follows)
        self._router_thread = threading.Thread(
            target=self._train_router, args=(engine, chat), daemon=True, name="pastor-router"
        )
        self._router_thread.start()

    def _train_router(self, engine, chat) -> None:
        try:
            chat.router = build_router(self.settings, engine)  # never raises: falls back to lexicon and rules
        except Exception:
            log.exception("o roteador treinado não carregou; seguem o léxico e as regras")
        self.status_cache.forget()

    def wait_router(self, timeout: float | None = None) -> bool:
        """Whether the trained router's build (started with the chat) has ended within `timeout`."""
        thread = self._router_thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def wait_loaded(self, timeout: float | None = None) -> bool:
        return self._loaded.wait(timeout)

    def stop(self) -> None:
        self._stopped = True
        if self.replica is not None:
            self.replica.stop()
        if self.engine is not None:
            self.engine.stop_indexing(timeout=10)

    # -- state ---------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """ "loading", "error" (nothing can be searched) or "ready" (corpus and BM25 loaded)."""
        if self.engine is not None:
            return "ready" if self.engine.resources.lexical is not None else "error"
        return "error" if self.health.reason("corpus") else "loading"

    def unavailable(self, need_chat: bool = False) -> str | None:
        """Why the search (or, with need_chat, the chat) cannot run now; None when it can."""
        if self.phase == "loading":
            return LOADING_MESSAGE
        if self.phase == "error":
            return f"O Pastor Online não consegue responder agora. {self.health.reason('corpus') or ''}".strip()
        if need_chat and self.chat is None:
            return CHAT_DOWN_MESSAGE
        return None

    def client(self, request) -> str:
        """Who is asking, for the rate limits: the peer, or the forwarded client behind a trusted proxy."""
        return client_key(request, self.settings.trusted_proxies)

    def attributions(self) -> list[str]:
        """Credits the licences require for what is loaded now (each dataset carries its own)."""
        return self.engine.credits() if self.engine is not None else []

    def status(self) -> dict:
        """Everything the status page shows (`web/status_model.py`), shared for a second."""
        return self.status_cache.get()

    # -- operator actions ------------------------------------------------------------------------
    def check_provider(self) -> dict:
        """Ask the provider again now ("Verificar de novo"): {provider, model, reachable, detail, checked_at}."""
        if self.probe is None:
            return llm_status(self)
        started = time.monotonic()
        check = self.probe.recheck()
        elapsed = round(time.monotonic() - started, 3)
        self.status_cache.forget()  # the next status read shows the new answer
        return {**provider_identity(self.provider), **check, "elapsed_seconds": elapsed}

    def reindex_refusal(self) -> str | None:
        """Why Reindex is off, or None (`ReindexPolicy`)."""
        return self.reindex_policy.refusal()

    def reindex(self, token: str = "") -> Outcome:
        """Rebuild the vector index in the background (beside the live one); refused while one runs.
        With the corpus missing at start, it looks for the corpus again instead."""
        refused = self.reindex_policy.check(token)
        if refused:
            return refused
        if self.engine is None and self.health.reason("corpus") and self._loaded.is_set():
            self._start_loader()  # a corpus file put in place after start is found without a restart
            return Outcome(True, "Procurando o corpus de novo. Acompanhe na aba Status.")
        problem = self.unavailable()
        if problem:
            return Outcome(False, problem)
        if self.engine.resources.index is None:
            reason = self.engine.health.reason("embedder") or "modelo de embeddings não carregado"
            return Outcome(False, f"Não há índice vetorial para reconstruir: {reason}")
        if not self.engine.start_indexing(rebuild=True):
            return Outcome(False, "Já existe uma indexação em andamento. Aguarde ela terminar antes de pedir outra.")
        return Outcome(
            True,
            "Reindexação iniciada; a busca continua usando o índice atual até o novo ficar "
            "pronto. Acompanhe o progresso na aba Status.",
        )


def _warm_citation_patterns() -> None:
    """Build the book-name patterns (thousands of forms, about half a second) now, not on the first answer."""
    validator = StreamingValidator(set())
    validator.feed("João 3:16")
    validator.finish()


def endpoint_limiters(seconds: float, make: LimiterFactory | None = None) -> dict[str, RateLimiter]:
    """Per-client limits of the other endpoints: searches cost an embedding like a question;
    lookups, feedback and status reads are cheap but still bounded; a model check may cost an
    upstream call; a reindex is minutes of CPU."""
    many = "Muitos pedidos seguidos."
    make = make or (lambda name, every, what: RateLimiter(every, what=what))
    return {
        "search": make("search", seconds, many),
        "lookup": make("lookup", seconds / 3, many),
        "feedback": make("feedback", seconds / 3, many),
        "status": make("status", seconds / 3, many),
        "check_provider": make("check_provider", seconds * 3, "O modelo foi verificado há pouco."),
        "reindex": make("reindex", seconds * 20, "Uma reindexação foi pedida há pouco."),
    }

"""The named API endpoints for `gradio_client`: chat, search, lookup, status, reindex and feedback."""

# No `from __future__ import annotations` here: Gradio reads the return annotations as objects to
# document each endpoint's output shape in `view_api()` (strings would show as "Any").
import logging
import threading
from collections.abc import Generator
from dataclasses import replace
from typing import Literal, cast

import gradio as gr

from pastor.answer.checks import InputError, check_message
from pastor.answer.history import History
from pastor.answer.turn import TurnUpdate
from pastor.answer.turn_modes import Mode
from pastor.bible.lookup import lookup
from pastor.bible.translations import UnknownTranslation
from pastor.search.signals import NAMES as SIGNALS
from pastor.web.ratelimit import RateLimited
from pastor.web.runtime import Runtime
from pastor.web.schemas import (
    ChatUpdate,
    FeedbackResult,
    LookupResult,
    ModelStatus,
    ReindexResult,
    SearchResult,
    Status,
    chat_json,
    plain_json,
    search_json,
)

log = logging.getLogger("pastor.web")

SOURCES = ("all", "bible", "docs")
MAX_K = 50
# A lookup may paste a reading plan longer than a chat message; the work stays capped by the
# lookup's own limits on references and verses (see `bible.lookup`).
MAX_LOOKUP_CHARS = 20_000

# What each mode of the final /chat update means, for the endpoint's own description (every mode is here:
# tests/web/test_api_shapes.py).
MODE_HELP = {
    Mode.CRISIS: "risco à vida ou à segurança de alguém agora: os números de ajuda primeiro, sem modelo",
    Mode.OUT_OF_SCOPE: "pedido de orientação médica, jurídica ou financeira: resposta fixa e acolhedora, sem modelo",
    Mode.CONVERSATIONAL: "cumprimento, agradecimento, pergunta sobre o assistente ou 'não entendi', sem busca",
    Mode.REFERENCE: "a mensagem cita uma passagem, consultada diretamente",
    Mode.RAG: "a busca achou versículos pelo sentido",
    Mode.LEXICAL_FALLBACK: "a busca achou versículos só por palavras-chave",
    Mode.NO_EVIDENCE: "a busca não achou passagens: resposta fixa que convida a contar mais, sem modelo",
    Mode.PROVIDER_UNAVAILABLE: "o modelo não respondeu: os versículos encontrados, sem comentário",
}
TRANSLATION_HELP = (
    "translation: o texto bíblico mostrado, 'almeida1911' (Almeida 1911, grafia de 1911) ou "
    "'blivre' (Bíblia Livre, grafia atual), quando carregados; vazio = o padrão do serviço "
    "(PASTOR_TRANSLATION). Ids, referências e citações são os mesmos em todas."
)

DESCRIPTIONS = {
    "chat": (
        "Conversa com o Pastor Online (streaming). Cada resultado parcial é "
        "{turn_id, answer, done: false} com a resposta já validada até ali; o último tem done: true "
        "e também mode, reason, query (a pergunta usada na busca, quando reescrita), citations, "
        "removed_citations, sources, provider, model, error e notes (observações sobre a resposta). "
        "history: lista opcional de {role: 'user'|'assistant', content}. "
        + TRANSLATION_HELP
        + " mode: "
        + "; ".join(f"{mode.value} ({help})" for mode, help in MODE_HELP.items())
        + "."
    ),
    "search": (
        "Busca versículos para uma pergunta: {mode, reason, results: [{id, reference, text, score, "
        + "".join(f"{name}_rank, {name}_score, " for name in SIGNALS)
        + "kind}], references, not_found}. k: 1 a 50; source: 'all', 'bible' ou 'docs'. "
        + TRANSLATION_HELP
    ),
    "lookup": (
        "Resolve referências bíblicas escritas no texto (ex.: 'João 3:16', 'Sl 23'): "
        "{found, references: [{reference, verses: [{id, reference, text}]}], not_found: [{text, reason}]}; "
        "reason diz por quê: livro não reconhecido, capítulo ou versículo inexistente, livro sem "
        "capítulo, livro deuterocanônico. Um capítulo ('Salmos 23', 'Jo 3') vem inteiro (até 200 "
        "versículos por pedido). " + TRANSLATION_HELP
    ),
    "status": (
        "Estado do serviço: índice (estado, progresso), corpus (arquivo, SHA-256, versículos), modelo de "
        "embeddings, BM25, modelo de linguagem (alcançável?), documentos (cada arquivo em 'file'), "
        "últimos erros. Nunca inclui chaves."
    ),
    "reindex": (
        "Reconstrói o índice vetorial em segundo plano. Pede o token quando REINDEX_TOKEN está definido; "
        "recusado se uma indexação já está em andamento."
    ),
    "check_provider": (
        "Verifica de novo, agora, se o modelo de linguagem responde: {provider, model, reachable, "
        "detail, checked_at}. Sem modelo, o chat mostra os versículos encontrados e como ativá-lo."
    ),
    "feedback": (
        "Registra a avaliação de uma resposta: turn_id (do chat), rating 'up' ou 'down', comentário "
        "opcional. Uma avaliação por resposta: avaliar de novo substitui a anterior."
    ),
}


def fail(message: str) -> gr.Error:
    """A refusal for the client: one log line, no traceback, never the client's input (messages
    name the parameter, not its value)."""
    log.warning("pedido recusado: %s", message[:200])
    return gr.Error(message, title="Pastor Online", print_exception=False)


class WebAPI:
    def __init__(self, runtime: Runtime):
        self.runtime = runtime

    def register(self) -> None:
        """Declare the endpoints inside the current `gr.Blocks` context."""
        gr.api(self.chat, api_name="chat", api_description=DESCRIPTIONS["chat"], concurrency_id="chat")
        gr.api(self.search, api_name="search", api_description=DESCRIPTIONS["search"])
        # Cheap reads and writes: never queued behind model calls.
        for name in ("lookup", "status", "check_provider", "reindex", "feedback"):
            gr.api(getattr(self, name), api_name=name, api_description=DESCRIPTIONS[name], concurrency_limit=None)

    # -- endpoints -------------------------------------------------------------------------------
    # `chat` is a generator; its annotation names the type of each yielded value, which is what
    # Gradio reads to describe the endpoint's output (so not `Iterator[ChatUpdate]`, hence the ignore).
    # `translation` comes after `request` so Python callers passing the request by position keep working;
    # Gradio injects the request by its type, so for API clients `translation` is the last parameter.
    def chat(  # type: ignore[misc]
        self,
        message: str,
        history: list[dict[str, str]] | None = None,
        request: gr.Request | None = None,
        translation: str = "",
    ) -> ChatUpdate:
        """Stream one grounded answer."""
        text = self._message(message)
        self._available(need_chat=True)
        translation = self._translation(translation)
        past = self._history(history)
        self._rate_limit(request, self.runtime.limiter)
        cancel = threading.Event()
        chat = self.runtime.chat
        assert chat is not None, "_available(need_chat=True) refuses the call while there is no chat service"
        # A generator (closed below); ChatService.turn is annotated as an Iterator.
        turn = cast(Generator[TurnUpdate, None, None], chat.turn(text, past, cancel, translation=translation))
        try:
            for update in turn:
                yield chat_json(update)
        finally:
            # Runs when the client cancels or goes away too: the model's stream is closed.
            cancel.set()
            turn.close()

    def search(
        self,
        question: str,
        k: int = 6,
        source: Literal["all", "bible", "docs"] = "all",
        request: gr.Request | None = None,
        translation: str = "",
    ) -> SearchResult:
        """Retrieve verses for a question."""
        question = self._text(question, "question")
        k = _integer(k, "k", 1, MAX_K)
        if source not in SOURCES:
            raise fail(f"source inválido. Use um destes: {', '.join(SOURCES)}.")
        self._available()
        translation = self._translation(translation)
        self._rate_limit(request, self.runtime.limiters["search"])
        engine = self.runtime.engine
        found = engine.retriever.search(question, k=k, source=source)
        found = replace(found, results=engine.translations.retext(found.results, translation))
        return plain_json(search_json(found))

    def lookup(self, text: str, request: gr.Request | None = None, translation: str = "") -> LookupResult:
        """Resolve Bible references written in the text (capped: see `bible.lookup`); a chapter comes whole.
        The cited Bible's numbering decides what exists; the text is the translation's."""
        text = self._text(text, "text", max(MAX_LOOKUP_CHARS, self.runtime.settings.max_message_chars))
        self._available()
        translation = self._translation(translation)
        self._rate_limit(request, self.runtime.limiters["lookup"])
        engine = self.runtime.engine
        found = engine.translations.retext_lookup(lookup(text, engine.resources.bible, explain_all=True), translation)
        return plain_json(found.as_dict())

    def status(self, request: gr.Request | None = None) -> Status:
        """The service's state."""
        self._rate_limit(request, self.runtime.limiters["status"])
        return plain_json(self.runtime.status())

    def check_provider(self, request: gr.Request | None = None) -> ModelStatus:
        """Check now whether the language model answers (upstream at most once per RECHECK_SECONDS)."""
        self._rate_limit(request, self.runtime.limiters["check_provider"])
        return plain_json(self.runtime.check_provider())

    def reindex(self, token: str = "", request: gr.Request | None = None) -> ReindexResult:
        """Rebuild the vector index in the background."""
        denied = self.runtime.reindex_policy.check(token if isinstance(token, str) else "")
        if denied:
            raise fail(denied.message)
        self._rate_limit(request, self.runtime.limiters["reindex"])
        outcome = self.runtime.reindex(token if isinstance(token, str) else "")
        if not outcome.ok:
            raise fail(outcome.message)
        return {"started": True, "message": outcome.message}

    def feedback(
        self, turn_id: str, rating: Literal["up", "down"], comment: str = "", request: gr.Request | None = None
    ) -> FeedbackResult:
        """Record thumbs up/down for an answer."""
        if not isinstance(turn_id, str) or not turn_id.strip() or len(turn_id) > 64:
            raise fail("Informe o turn_id da resposta (ele vem no resultado final do chat).")
        self._rate_limit(request, self.runtime.limiters["feedback"])
        if not isinstance(comment, str):
            raise fail("O comentário deve ser um texto.")
        if self.runtime.turnlog is None:
            raise fail("O registro de conversas não está disponível.")
        try:
            record = self.runtime.turnlog.feedback(turn_id.strip(), rating, comment)
        except (ValueError, KeyError) as exc:
            raise fail(str(exc.args[0]) if exc.args else "Avaliação inválida.") from None
        return {"ok": True, "turn_id": record.turn_id, "rating": record.rating}

    # -- validation ------------------------------------------------------------------------------
    def _message(self, message) -> str:
        try:
            return check_message(message, self.runtime.settings.max_message_chars)
        except InputError as exc:
            raise fail(str(exc)) from None

    def _history(self, history) -> History:
        """A client's history, checked once here (see `History.checked`); the service keeps the last turns."""
        try:
            return History.checked(history, self.runtime.settings.max_message_chars)
        except InputError as exc:
            raise fail(str(exc)) from None

    def _text(self, value, name: str, limit: int | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            raise fail(f"O parâmetro {name} deve ser um texto não vazio.")
        limit = limit or self.runtime.settings.max_message_chars
        if len(value) > limit:
            raise fail(f"O parâmetro {name} tem {len(value)} caracteres; o limite é {limit}.")
        return value.strip()

    def _translation(self, value) -> str:
        """The translation's key ("" = the default); an unknown one is refused, naming the loaded ones."""
        if value is None or value == "":
            return self.runtime.engine.translations.default
        try:
            return self.runtime.engine.translations.get(value).key
        except UnknownTranslation as exc:
            raise fail(str(exc)) from None

    def _available(self, need_chat: bool = False) -> None:
        problem = self.runtime.unavailable(need_chat=need_chat)
        if problem:
            raise fail(problem)

    def _rate_limit(self, request, limiter) -> None:
        try:
            limiter.hit(self.runtime.client(request))
        except RateLimited as exc:
            raise fail(str(exc)) from None


def _integer(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise fail(f"O parâmetro {name} deve ser um número inteiro.")
    if not low <= int(value) <= high:
        raise fail(f"O parâmetro {name} deve estar entre {low} e {high}.")
    return int(value)

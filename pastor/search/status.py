"""The search side's status for the Status tab and `/status`: what is loaded, its health, and the credits it owes."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pastor.config import Settings
from pastor.health import HealthBoard
from pastor.search.resources import SearchResources
from pastor.text.notice import credit_for


def search_status(settings: Settings, res: SearchResources, retriever, health: HealthBoard, *,
                  indexing: bool, progress: tuple[int, int]) -> dict:
    """The engine's part of the status (the runtime adds the provider, phase and uptime)."""
    bible, embedder = res.bible, res.embedder
    index = res.index.status if res.index is not None else None
    embedder_error = health.reason("embedder")
    state = "error" if embedder_error else (index.state if index else "missing")
    if indexing and state != "complete":
        state = "indexing"
    data = {
        "state": state,
        "ready": bool(bible) and (res.lexical is not None),
        "vectors_ready": bool(res.index and res.index.ready),
        "corpus": bible.stats() if bible else None,
        "extra_corpora": [{"file": b.path.name, "sha256": b.sha256, "verses": len(b.verses), "credit": b.credit}
                          for b in res.extras],
        "embedder": ({"name": embedder.name, "dim": embedder.dim} if embedder
                     else {"name": settings.embedding_model, "dim": None, "error": embedder_error}),
        "index": index.as_dict() if index else None,
        "index_notice": res.index.notice if res.index is not None else None,
        "progress": {"done": progress[0], "total": progress[1]},
        "bm25_ready": res.lexical is not None,
        "prominence": prominence_status(settings, res),
        "topics": topics_status(settings, res),
        "adapter": adapter_status(settings, retriever, health),
        "errors": health.messages(),
        "health": [r.as_dict() for r in health.records()],
    }
    if data["corpus"]:
        data["corpus"].pop("differences", None)
    if res.docs is not None:
        data["documents"] = res.docs.status()
    return data


def credits(settings: Settings, res: SearchResources) -> list[str]:
    """The attributions of the data in use now: each loaded dataset carries its own."""
    datasets = [res.bible, *res.extras, res.prominence]
    found = [d.credit for d in datasets if d is not None]
    if res.topics is not None:
        found += topic_credits(tuple(str(p) for p in settings.topics))
    return list(dict.fromkeys(c for c in found if c))


@lru_cache(maxsize=8)
def topic_credits(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The topical Bibles' credits, matched once: matching hashes their few MB of content, and
    the page asks for the credits under every answer."""
    return tuple(credit_for(p) for p in paths if Path(p).exists())


def topics_status(settings: Settings, res: SearchResources) -> dict:
    if res.topics is None:
        return {"enabled": False, "detail": "desligado (PASTOR_TOPICS vazio, arquivos ausentes ou sem modelo)"}
    if not res.topics.ready:
        return {"enabled": False, "detail": "aguardando a indexação dos temas"}
    return {"enabled": True, "entries": len(res.topics.labels), "weight": settings.topic_weight}


def adapter_status(settings: Settings, retriever, health: HealthBoard) -> dict:
    adapter = retriever.adapter if retriever is not None else None
    if adapter is not None:
        return {"enabled": True, "file": adapter.info.get("file"), "questions": adapter.info.get("questions"),
                "weight": settings.adapter_weight}
    if settings.adapter_questions is None:
        return {"enabled": False, "detail": "desligado (PASTOR_ADAPTER_QUESTIONS vazio)"}
    if health.reason("adapter"):
        return {"enabled": False, "detail": f"erro: {health.reason('adapter')}"}
    return {"enabled": False, "detail": "aguardando o índice vetorial"}


def prominence_status(settings: Settings, res: SearchResources) -> dict:
    if settings.prominence is None:
        return {"enabled": False, "detail": "desligado (PASTOR_PROMINENCE vazio)"}
    if not Path(settings.prominence).exists():
        return {"enabled": False, "detail": f"desligado: {Path(settings.prominence).name} não encontrado "
                                            "(veja a seção Corpus do README)"}
    if res.prominence is None:
        return {"enabled": False, "detail": "erro ao carregar; veja os erros"}
    return {"enabled": True, "file": Path(settings.prominence).name, "verses": len(res.prominence),
            "weight": settings.prominence_weight}

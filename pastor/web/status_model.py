"""The status model: everything the Status tab and `/status` show, built in one place and shared briefly."""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable
from dataclasses import fields

from pastor.health import HealthBoard, State
from pastor.index.doc_index import DocumentsStatus
from pastor.index.engine_status import EmbedderStatus, PartStatus, SearchStatus
from pastor.index.verse_manifest import IndexStatus

STATUS_TTL = 1.0


class StatusCache:
    """One fresh status shared for `ttl` seconds: every open page polls it, and the engine's status
    costs about 50 ms on the full corpus (it recounts the versification differences)."""

    def __init__(self, build: Callable[[], dict], ttl: float = STATUS_TTL):
        self.build = build
        self.ttl = ttl
        self._value: tuple[float, dict] | None = None
        self._lock = threading.Lock()

    def get(self) -> dict:
        with self._lock:
            now = time.monotonic()
            if self._value is None or now - self._value[0] > self.ttl:
                self._value = (now, self.build())
            return copy.deepcopy(self._value[1])

    def forget(self) -> None:
        """The next read builds a new status (after an operator action changed it)."""
        with self._lock:
            self._value = None


def runtime_status(runtime) -> dict:
    """Everything the status page shows; never settings values, keys or URLs with credentials."""
    engine = runtime.engine
    data = search_status_json(engine.status()) if engine is not None else empty_status(runtime.phase)
    data["phase"] = runtime.phase
    data["corpus_error"] = runtime.health.reason("corpus")
    data["uptime_seconds"] = round(time.time() - runtime.started)
    data["llm"] = llm_status(runtime)
    record_provider_health(runtime.health, data["llm"])
    data["attributions"] = runtime.attributions()
    data["storage_warning"] = runtime.turnlog.warning if runtime.turnlog is not None else None
    data["reindex_enabled"] = runtime.reindex_policy.refusal() is None
    data["router"] = runtime.chat.router.active if runtime.chat is not None else "léxico + regras"
    data["health"] = [r.as_dict() for r in runtime.health.records()] + data.get("health", [])
    data["replica"] = runtime.replica.status() if runtime.replica is not None else None
    return data


def search_status_json(status: SearchStatus) -> dict:
    """The engine's typed status as the Status tab and `/status` read it (the one place it is built)."""
    data = {
        "state": status.state,
        "pending": list(status.pending),
        "ready": status.ready,
        "vectors_ready": status.vectors_ready,
        "corpus": status.corpus,
        "extra_corpora": [
            {"file": e.file, "sha256": e.sha256, "verses": e.verses, "aligned": e.aligned, "credit": e.credit}
            for e in status.extra_corpora
        ],
        "embedder": embedder_json(status.embedder),
        "index": index_json(status.index) if status.index is not None else None,
        "index_notice": status.index_notice,
        "progress": {"done": status.progress[0], "total": status.progress[1]},
        "bm25_ready": status.bm25_ready,
        "prominence": part_json(status.prominence),
        "topics": part_json(status.topics),
        "adapter": part_json(status.adapter),
        "errors": list(status.errors),
        "health": [r.as_dict() for r in status.health],
    }
    if status.documents is not None:
        data["documents"] = documents_json(status.documents)
    return data


def index_json(index: IndexStatus) -> dict:
    """The verse table's build state (`/status` and `/ready`)."""
    return {"state": index.state, "rows": index.rows, "total": index.total, "error": index.error}


def part_json(part: PartStatus) -> dict:
    """On: `enabled` and the facts of its kind (file, weight…); off: `enabled` and why."""
    if not part.enabled:
        return {"enabled": False, "detail": part.detail}
    facts = [f.name for f in fields(part) if f.name not in ("enabled", "detail")]
    return {"enabled": True, **{name: getattr(part, name) for name in facts}}


def embedder_json(embedder: EmbedderStatus) -> dict:
    if embedder.loaded:
        return {"name": embedder.name, "dim": embedder.dim}
    return {"name": embedder.name, "dim": None, "error": embedder.error}


def documents_json(documents: DocumentsStatus) -> dict:
    return {
        "folder": documents.folder,
        "read_only": documents.read_only,
        "files": [
            {"path": f.path, "parts": f.parts, "chunks": f.chunks, "state": f.state, "error": f.error}
            for f in documents.files
        ],
        "chunks": documents.chunks,
    }


def llm_status(runtime) -> dict:
    provider = runtime.provider
    if provider is None:
        return {
            "provider": runtime.settings.llm_provider,
            "model": runtime.settings.llm_model,
            "reachable": False,
            "detail": runtime.health.reason("provider") or "não carregado",
            "state": State.ERROR.value,
        }
    check = runtime.probe.get() if runtime.probe else provider.check()
    llm = {**provider_identity(provider), **check, **provider.live_status()}
    llm["state"] = provider_state(llm).value
    if llm.get("reachable") is not False:
        llm["setup_hint"] = ""  # it answers (or is being checked): nothing to set up
    return llm


# The local model's phases on its way to answering (`providers/local_store.py`), as the health board words them
# (one reason per phase, so its `since` is when the phase began, not the last percent of a download).
PREPARING = {"idle": "aguardando início", "downloading": "baixando o modelo", "loading": "carregando o modelo"}
PROVIDER_LABEL = "modelo de linguagem"


def provider_state(llm: dict) -> State:
    """The model's one state: it answers (ok), it is being prepared or checked (starting), or it does not
    answer (error) — a local model retrying a failed download still fails until the hub answers."""
    reachable = llm.get("reachable")
    local = llm.get("local") or {}
    if reachable:
        return State.OK
    if reachable is None or (local.get("phase") in PREPARING and not local.get("retrying")):
        return State.STARTING
    return State.ERROR


def record_provider_health(health: HealthBoard, llm: dict) -> None:
    """The health board says of the model what its status says (it said "ok" once the provider was built,
    whatever the model did afterwards)."""
    state = State(llm["state"]) if "state" in llm else provider_state(llm)
    if state is State.OK:
        reason = ""
    elif state is State.STARTING:
        reason = PREPARING.get(str((llm.get("local") or {}).get("phase")), "verificando…")
    else:
        reason = str(llm.get("detail") or "o modelo não responde")
    health.set("provider", PROVIDER_LABEL, state, reason)


def provider_identity(provider) -> dict:
    """Which provider answers, why it was chosen, and what to do when it does not (for the operator)."""
    choice = provider.choice
    return {
        "provider": provider.name,
        "model": provider.model,
        "choice": choice.reason if choice else "",
        "automatic": bool(choice and choice.automatic),
        "setup_hint": provider.setup_hint(),
    }


def empty_status(phase: str) -> dict:
    """The engine's status shape before (or without) an engine."""
    return {
        "state": phase,
        "ready": False,
        "vectors_ready": False,
        "corpus": None,
        "extra_corpora": [],
        "embedder": None,
        "index": None,
        "progress": {"done": 0, "total": 0},
        "bm25_ready": False,
        "prominence": {"enabled": False, "detail": ""},
        "errors": [],
        "health": [],
    }

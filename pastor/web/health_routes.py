"""Health routes: `/live` (the process answers) and `/ready` (corpus and keyword search loaded)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from pastor.web.runtime import Runtime
from pastor.web.status_model import index_json


def readiness(runtime: Runtime) -> dict:
    """Ready means questions can be answered: corpus and BM25 loaded. Vectors are reported
    but not required, because the app answers by keywords while they are built (a replica excepted)."""
    engine = runtime.engine
    res = engine.resources if engine is not None else None
    index = index_json(res.index.status) if res is not None and res.index is not None else None
    vectors = bool(res is not None and res.index is not None and res.index.ready)
    replica = runtime.replica.status() if runtime.replica is not None else None
    return {
        # A replica is ready only when it searches with the published vectors: behind a balancer, a
        # replica answering by keywords alone would serve worse answers than its neighbours.
        "ready": runtime.phase == "ready" and (replica is None or (vectors and replica["release"] is not None)),
        "phase": runtime.phase,
        "bm25_ready": bool(res is not None and res.lexical is not None),
        "vectors": {"ready": vectors, "indexing": bool(engine is not None and engine.indexing), "index": index},
        "error": runtime.health.reason("corpus") or (replica or {}).get("error"),
        "replica": replica,
    }


def add_health_routes(app: FastAPI, runtime: Runtime) -> None:
    """Register the routes; call before mounting Gradio at `/`, which would shadow them."""

    @app.get("/live")
    def live() -> dict:
        return {"live": True}

    @app.get("/ready")
    def ready() -> JSONResponse:
        data = readiness(runtime)
        return JSONResponse(data, status_code=200 if data["ready"] else 503)

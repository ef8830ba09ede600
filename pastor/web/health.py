"""Health routes: `/live` (the process answers) and `/ready` (corpus and keyword search loaded)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from pastor.web.runtime import Runtime


def readiness(runtime: Runtime) -> dict:
    """Ready means questions can be answered: corpus and BM25 loaded. Vectors are reported
    but not required, because the app answers by keywords while they are built."""
    engine = runtime.engine
    index = engine.index.status.as_dict() if engine is not None and engine.index is not None else None
    return {
        "ready": runtime.phase == "ready",
        "phase": runtime.phase,
        "bm25_ready": bool(engine is not None and engine.lexical is not None),
        "vectors": {
            "ready": bool(engine is not None and engine.index is not None and engine.index.ready),
            "indexing": bool(engine is not None and engine.indexing),
            "index": index,
        },
        "error": runtime.health.reason("corpus"),
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

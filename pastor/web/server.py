"""The web server: the Gradio page and API mounted on FastAPI with health routes, run by uvicorn."""

from __future__ import annotations

import contextlib

import gradio as gr
from fastapi import FastAPI
from starlette.requests import Request

from pastor.config import Settings
from pastor.web.health_routes import add_health_routes
from pastor.web.http_guard import BodyLimit, RouteGuard
from pastor.web.i18n import portuguese
from pastor.web.launch import PORT_IN_USE, prepare
from pastor.web.page import CSS, HEAD, build_blocks
from pastor.web.ratelimit import Budget
from pastor.web.runtime import Runtime


def create_app(settings: Settings, *, provider=None, runtime: Runtime | None = None) -> tuple[FastAPI, Runtime]:
    """The ASGI app and its runtime (`runtime`, when given, may already be loading). The runtime starts with
    the server, loading the engine in a thread, so the page answers first and the corpus, BM25 and vectors
    follow."""
    runtime = runtime or Runtime(settings, provider=provider)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        runtime.start()
        yield
        runtime.stop()  # lets an index batch finish and its manifest be written

    app = FastAPI(title="Pastor Online", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    # Added last, so it runs first: a closed or over-budget request never reaches the body limit or Gradio.
    app.add_middleware(
        RouteGuard, budget=Budget(settings.requests_per_minute), client=lambda scope: runtime.client(Request(scope))
    )
    add_health_routes(app, runtime)
    demo = build_blocks(runtime)
    demo.queue(default_concurrency_limit=settings.concurrency)
    # run_history off: Gradio would otherwise keep users' messages in its run history.
    app = gr.mount_gradio_app(
        app,
        demo,
        path="/",
        css=CSS,
        head=HEAD,
        i18n=portuguese(),
        footer_links=["api"],
        run_history=False,
        ssr_mode=False,
        mcp_server=False,
        server_name=settings.host,
        server_port=settings.port,
    )
    return app, runtime


def start_message(settings: Settings) -> str:
    """The start log's line: an address a browser on this machine opens (not 0.0.0.0, which listens on
    every interface but is no place to go), and where the app listens when that is wider."""
    wildcard = {"0.0.0.0": "127.0.0.1", "::": "localhost"}.get(settings.host)
    host = wildcard or (f"[{settings.host}]" if ":" in settings.host else settings.host)
    listening = f"; ouvindo em {settings.host}, todos os endereços da máquina" if wildcard else ""
    return f"Pastor Online em http://{host}:{settings.port}/ (API: /?view=api; saúde: /live e /ready{listening})"


def serve(settings: Settings, runtime: Runtime | None = None) -> int:
    """Serve until stopped (with `runtime` when `launch.prepare` started it early); the exit status (0, or
    PORT_IN_USE when the address cannot be taken)."""
    import uvicorn

    runtime = runtime or prepare(settings)
    if runtime is None:
        return PORT_IN_USE
    app, _ = create_app(settings, runtime=runtime)
    print(start_message(settings), flush=True)
    # Open pages keep streaming connections; do not wait on them forever when stopping.
    # proxy_headers off: uvicorn would otherwise take X-Forwarded-For from any local peer as the
    # client address; `client_key` believes it only from PASTOR_TRUSTED_PROXIES.
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="warning",
        timeout_graceful_shutdown=5,
        proxy_headers=False,
    )
    return 0

"""Limits at the HTTP door, as ASGI middlewares: every route is either closed (Gradio's routes the
app never uses: uploads, media streams, dev tools) or counted against a per-client budget; request
bodies are capped (413 before a huge body is read, and in place of whatever the app answered)."""

from __future__ import annotations

import json
import logging
import math

from pastor.errors import PastorError

log = logging.getLogger("pastor.web")

TOO_LARGE = "O pedido é grande demais (limite de {limit} bytes). Envie uma mensagem menor."
TOO_MANY = "Muitos pedidos seguidos deste endereço. Aguarde {seconds} segundo(s) e tente de novo."
CLOSED = "Rota desativada neste app."

# Gradio routes this app has no use for, answered 404 before Gradio sees them. The app takes no
# files (no upload, so no temporary files), streams no media, has no login, no run history, no
# custom components, no proxied Spaces, no dev reload and no vibe editor.
CLOSED_ROUTES = (
    "/gradio_api/upload",
    "/gradio_api/upload_progress",
    "/gradio_api/process_recording",
    "/gradio_api/stream/",
    "/gradio_api/component_server",
    "/gradio_api/proxy=",
    "/gradio_api/custom_component/",
    "/gradio_api/file=",
    "/gradio_api/file/",
    "/gradio_api/runs",
    "/gradio_api/dev/",
    "/gradio_api/vibe-",
    "/gradio_api/undo-vibe-edit",
    "/gradio_api/user",
    "/gradio_api/token",
    "/gradio_api/mcp",
    "/login",
    "/logout",
    "/monitoring",
)


def closed(path: str) -> bool:
    """Whether a request path is one of the closed routes (with any sub-path)."""
    for route in CLOSED_ROUTES:
        if route.endswith(("/", "=", "-")):
            if path.startswith(route):
                return True
        elif path == route or path.startswith(route + "/"):
            return True
    return False


class RouteGuard:
    """Closed routes answer 404; every other request spends one unit of its client's `Budget`
    (429 with Retry-After when spent). `client(scope)` names the client as the rate limits do."""

    def __init__(self, app, budget, client):
        self.app = app
        self.budget = budget
        self.client = client

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        if closed(path):
            return await _answer(send, 404, {"error": CLOSED})
        wait = self.budget.take(self.client(scope))
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            # Debug only: a flood of refusals must not become a flood of log lines.
            log.debug("pedido recusado: orçamento de pedidos do cliente esgotado (%s)", path[:80])
            return await _answer(
                send, 429, {"error": TOO_MANY.format(seconds=seconds)}, [(b"retry-after", str(seconds).encode())]
            )
        return await self.app(scope, receive, send)


class BodyTooLarge(PastorError):
    pass


class BodyLimit:
    """Refuses bodies over `max_bytes`: at once when Content-Length says so, else while the body
    streams in (chunked uploads), so the app never buffers more than the cap. When the app catches
    the refusal itself (and would answer 500), its answer is dropped for the 413."""

    def __init__(self, app, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            return await self._refuse(send)
        seen = 0
        started = over = False

        async def limited_receive():
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    over = True
                    raise BodyTooLarge()
            return message

        async def tracking_send(message):
            nonlocal started
            if over and not started:
                return  # the app's own answer to the refusal (often a 500): the 413 replaces it
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            pass
        if over and not started:
            await self._refuse(send)

    async def _refuse(self, send) -> None:
        log.warning("pedido recusado: corpo acima de %d bytes", self.max_bytes)
        await _answer(send, 413, {"error": TOO_LARGE.format(limit=self.max_bytes)})


async def _answer(send, status: int, payload: dict, headers: list | None = None) -> None:
    body = json.dumps(payload, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})

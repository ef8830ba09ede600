"""A cap on HTTP request bodies: an ASGI middleware answering 413 before a huge body is read."""

from __future__ import annotations

import json
import logging

log = logging.getLogger("pastor.web")

TOO_LARGE = "O pedido é grande demais (limite de {limit} bytes). Envie uma mensagem menor."


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """Refuses bodies over `max_bytes`: at once when Content-Length says so, else while the body
    streams in (chunked uploads), so the app never buffers more than the cap."""

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
        started = False

        async def limited_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge()
            return message

        async def tracking_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send) -> None:
        log.warning("pedido recusado: corpo acima de %d bytes", self.max_bytes)
        body = json.dumps({"error": TOO_LARGE.format(limit=self.max_bytes)}, ensure_ascii=False).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json; charset=utf-8"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

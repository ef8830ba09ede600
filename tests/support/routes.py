"""Every HTTP route an ASGI app serves, with a sample path for each (for the route tests and the bench)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_PARAM = re.compile(r"\{([^}:]+)(?::[^}]+)?\}")
SAMPLES = {"api_name": "status", "size": "192"}  # any other parameter gets "x"


@dataclass(frozen=True)
class Served:
    method: str
    template: str  # as declared, e.g. /gradio_api/call/{api_name}
    path: str  # a concrete path for it

    def __str__(self) -> str:
        return f"{self.method} {self.template}"


def served_routes(app) -> list[Served]:
    """Walks mounts and included routers (FastAPI ≥ 0.120 wraps `include_router` in `_IncludedRouter`)."""
    found: list[Served] = []
    _walk(app.routes, "", found)
    return found


def _walk(routes, prefix: str, found: list[Served]) -> None:
    for route in routes:
        if hasattr(route, "original_router"):
            _walk(route.original_router.routes, prefix + (getattr(route.include_context, "prefix", "") or ""), found)
            continue
        inner = getattr(route, "app", None)
        if getattr(route, "methods", None) is None and inner is not None and hasattr(inner, "routes"):
            _walk(inner.routes, prefix + route.path, found)  # a Mount
            continue
        template = prefix + route.path
        path = _PARAM.sub(lambda m: SAMPLES.get(m.group(1), "x"), template)
        for method in sorted(getattr(route, "methods", None) or ["WEBSOCKET"]):
            found.append(Served(method, template, path))

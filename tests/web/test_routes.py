"""Every route the app serves is closed or limited: enumerated from the app itself, then proved one by one."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from pastor.web.http_guard import CLOSED, BodyLimit, closed
from pastor.web.ratelimit import Budget
from pastor.web.server import create_app
from tests.support.app_fixtures import app_settings
from tests.support.routes import served_routes


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The real ASGI app (not started: no route below needs the engine) with a budget of one
    request a minute per client, so the second request of a client is over it."""
    app, _ = create_app(
        app_settings(tmp_path_factory.mktemp("routes"), PASTOR_REQUESTS_PER_MINUTE="1", PASTOR_MAX_BODY_BYTES="4096")
    )
    return app


def test_every_route_is_closed_or_counted_against_the_budget(app):
    routes = served_routes(app)
    assert len(routes) > 60 and any(r.template == "/gradio_api/upload" for r in routes)
    outcomes = {}
    for number, route in enumerate(routes):
        assert route.method != "WEBSOCKET", f"{route}: a websocket route is neither closed nor counted"
        client = TestClient(
            app, client=(f"10.7.{number // 250}.{number % 250 + 1}", 4000), raise_server_exceptions=False
        )
        if closed(route.path):
            response = client.request(route.method, route.path)
            assert response.status_code == 404, route
            if route.method != "HEAD":
                assert response.json() == {"error": CLOSED}
            outcomes[str(route)] = "fechada"
            continue
        assert client.get("/live").status_code == 200  # spends this client's one request
        response = client.request(route.method, route.path)
        assert response.status_code == 429 and response.headers["retry-after"] == "60", route
        outcomes[str(route)] = "limitada"
    # The page's and the API's own routes stay open (and counted); the unused ones are closed.
    for needed in (
        "GET /",
        "GET /config",
        "POST /gradio_api/queue/join",
        "GET /gradio_api/queue/data",
        "POST /gradio_api/call/{api_name}",
        "GET /gradio_api/heartbeat/{session_hash}",
        "GET /live",
        "GET /ready",
        "GET /gradio_api/info",
    ):
        assert outcomes[needed] == "limitada", needed
    for unused in (
        "POST /gradio_api/upload",
        "GET /gradio_api/upload_progress",
        "POST /gradio_api/process_recording",
        "GET /gradio_api/file={path_or_url:path}",
        "POST /gradio_api/component_server",
    ):
        assert outcomes[unused] == "fechada", unused


def test_a_burst_of_uploads_leaves_no_file(app):
    from gradio.utils import get_upload_folder

    temp = Path(get_upload_folder())
    before = set(temp.rglob("*")) if temp.exists() else set()
    client = TestClient(app, client=("10.8.0.1", 4000), raise_server_exceptions=False)
    statuses = {
        client.post("/gradio_api/upload", files={"files": (f"f{i}.bin", b"x" * 3000)}).status_code for i in range(20)
    }
    chunked = client.post("/gradio_api/upload", content=iter([b"x" * 3000] * 4))
    assert statuses == {404} and chunked.status_code == 404
    assert (set(temp.rglob("*")) if temp.exists() else set()) == before


def test_an_over_limit_body_on_an_open_route_is_413(tmp_path):
    app, _ = create_app(app_settings(tmp_path, PASTOR_MAX_BODY_BYTES="4096"))
    client = TestClient(app, raise_server_exceptions=False)
    declared = client.post("/gradio_api/call/lookup", content=b"x" * 5000)
    streamed = client.post("/gradio_api/call/lookup", content=iter([b"x" * 3000] * 3))
    assert declared.status_code == streamed.status_code == 413


def test_an_app_that_catches_the_refusal_still_answers_413():
    """Gradio's upload route caught the refusal and answered 500 (issue 18); the 413 wins now."""

    async def swallow(request):
        try:
            await request.body()
        except Exception:
            return JSONResponse({"detail": "erro interno"}, status_code=500)
        return JSONResponse({"ok": True})

    app = BodyLimit(Starlette(routes=[Route("/eco", swallow, methods=["POST"])]), max_bytes=1000)
    client = TestClient(app, raise_server_exceptions=False)
    response = client.post("/eco", content=iter([b"x" * 600] * 3))
    assert response.status_code == 413 and "grande demais" in response.json()["error"]
    assert client.post("/eco", content=b"x" * 100).json() == {"ok": True}


class TestBudget:
    def test_a_burst_then_the_average_rate(self):
        now = [0.0]
        budget = Budget(60, burst=3, clock=lambda: now[0])
        assert [budget.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
        assert budget.take("a") == pytest.approx(1.0)  # one a second refills
        assert budget.take("b") == 0.0  # clients are apart
        now[0] = 1.0
        assert budget.take("a") == 0.0 and budget.take("a") > 0

    def test_forgets_clients_whose_bucket_refilled(self, monkeypatch):
        import pastor.web.ratelimit as ratelimit

        monkeypatch.setattr(ratelimit, "PRUNE_ABOVE", 10)
        now = [0.0]
        budget = Budget(60, burst=2, clock=lambda: now[0])
        for i in range(11):
            budget.take(f"c{i}")
        now[0] = 100.0
        budget.take("novo")
        for i in range(11):
            budget.take(f"x{i}")
        assert len(budget._buckets) <= 12

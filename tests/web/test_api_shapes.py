"""The named API as gradio_client sees it with documents on: plain JSON, typed outputs, the example client."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pastor.web.schemas import plain_json
from tests.support.app_fixtures import REINDEX_TOKEN, ROOT, LiveServer, app_settings, wait_vectors

DOCS = ROOT / "corpus" / "docs"  # the example documents (not indexed by default)


def keys(value) -> set[str]:
    """Every dict key at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in keys(item)}
    if isinstance(value, list):
        return {k for item in value for k in keys(item)}
    return set()


@pytest.fixture(scope="module")
def docs_server(tmp_path_factory):
    settings = app_settings(tmp_path_factory.mktemp("docs-app"), PASTOR_DOCS_DIR=str(DOCS), REINDEX_TOKEN=REINDEX_TOKEN)
    server = LiveServer(settings).start()
    wait_vectors(server.runtime)
    yield server
    server.stop()


class TestPlainJson:
    def test_path_keys_become_file_at_any_depth(self):
        value = {"documents": {"files": [{"path": "faq.json", "parts": 2}]}, "path": "x", "file": "y"}
        assert plain_json(value) == {
            "documents": {"files": [{"file": "faq.json", "parts": 2}]},
            "file_path": "x",
            "file": "y",
        }

    def test_other_values_are_unchanged(self):
        assert plain_json([1, "a", None, {"k": (1, 2)}]) == [1, "a", None, {"k": [1, 2]}]


def test_the_chat_endpoint_documents_every_mode():
    from pastor.answer.turn_modes import Mode
    from pastor.web.api import DESCRIPTIONS, MODE_HELP

    assert set(MODE_HELP) == set(Mode)
    assert all(f"{mode.value} (" in DESCRIPTIONS["chat"] for mode in Mode)


class TestWithDocuments:
    def test_status_works_through_gradio_client(self, docs_server):
        status = docs_server.client().predict(api_name="/status")
        assert status["documents"]["files"], status.get("documents")
        assert {f["file"] for f in status["documents"]["files"]} >= {"example/faq.json"}
        assert "path" not in keys(status)

    def test_search_over_documents_holds_no_path(self, docs_server):
        result = docs_server.client().predict("Qual o horário do culto?", 6, "all", api_name="/search")
        assert "path" not in keys(result)

    def test_every_endpoint_documents_its_output_shape(self, docs_server):
        api = docs_server.client().view_api(return_format="dict", print_info=False)
        for name, endpoint in api["named_endpoints"].items():
            returns = endpoint["returns"][0]
            assert returns["python_type"]["type"] != "Any", name
            assert returns["type"].get("type") == "object", (name, returns["type"])
        chat = api["named_endpoints"]["/chat"]["returns"][0]["type"]
        assert {"turn_id", "answer", "done", "sources", "citations"} <= set(chat["properties"])

    @pytest.mark.slow
    def test_the_example_client_exercises_every_endpoint(self, docs_server):
        done = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "client.py"), docs_server.url + "/", "--token", REINDEX_TOKEN],
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        for endpoint in ("/status", "/check_provider", "/lookup", "/search", "/chat (final)", "/feedback", "/reindex"):
            assert f"== {endpoint}" in done.stdout
        assert "OK: todos os endpoints responderam." in done.stdout

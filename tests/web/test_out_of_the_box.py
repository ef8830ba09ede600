"""Out of the box: `python app.py` with every default (only data folder and port changed) answers with the
shipped data, with or without a language model; the page's examples get verses before the vectors exist."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import httpx
import pytest

from pastor.answer.turn_modes import Mode
from pastor.care.openings import OPENINGS
from pastor.config import SECRET_VARS, SPEC, Settings
from pastor.index.engine import Engine
from pastor.web.page import EXAMPLES
from tests.support.helpers import ROOT, free_port, wait_for

pytestmark = pytest.mark.slow  # loads both shipped translations and starts the app in a subprocess

FEAR = "Estou com medo do futuro"
JOHN = "o que diz João 3:16?"
JOHN_316 = "Porque Deus amou ao mundo de tal maneira"  # the Bíblia Livre: the text shown by default


def default_env(data_dir, **changes: str) -> dict[str, str]:
    """The process environment without any of the app's settings: what a fresh clone runs with."""
    ours = {var for _, var, *_ in SPEC} | set(SECRET_VARS) | {"GROQ_BASE_URL", "ANTHROPIC_BASE_URL"}
    env = {k: v for k, v in os.environ.items() if k not in ours}
    env.update(PASTOR_DATA_DIR=str(data_dir), PASTOR_PORT=str(free_port()), HF_HUB_OFFLINE="1", **changes)
    return env


class App:
    """`python app.py` as a user starts it, stopped with Ctrl+C."""

    def __init__(self, env: dict[str, str]):
        self.url = f"http://127.0.0.1:{env['PASTOR_PORT']}"
        self.process = subprocess.Popen(
            [sys.executable, "app.py"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def get(self, path: str):
        try:
            return httpx.get(self.url + path, timeout=5)
        except httpx.HTTPError:
            return None

    def ready(self):
        wait_for(lambda: self.get("/live"), 120, "/live não respondeu")
        wait_for(
            lambda: (r := self.get("/ready")) is not None and r.status_code == 200,
            300,
            "/ready não ficou pronto (Bíblia e BM25)",
        )
        from gradio_client import Client

        self.client = Client(self.url + "/", verbose=False)
        return self

    def ask(self, message: str) -> dict:
        """One chat turn; the default rate limit (one question every 3 s) is waited out, not turned off."""
        from gradio_client.exceptions import AppError

        def attempt():
            try:
                return self.client.predict(message, [], api_name="/chat")
            except AppError as exc:
                if "Aguarde" in str(exc):
                    return None
                raise

        return wait_for(attempt, 60, f"o chat não respondeu a {message!r}", interval=0.5)

    def status(self) -> dict | None:
        """/status, or None while the per-client limit on it asks to wait: polling must not fail on the limit."""
        from gradio_client.exceptions import AppError

        try:
            return self.client.predict(api_name="/status")
        except AppError as exc:
            if "Aguarde" in str(exc):
                return None
            raise

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def start(tmp_path):
    apps = []

    def run(**changes: str) -> App:
        app = App(default_env(tmp_path / "data", **changes)).ready()
        apps.append(app)
        return app

    yield run
    for app in apps:
        app.stop()


def verses_only(final: dict) -> list[str]:
    assert final["sources"], final
    assert all(s["kind"] == "verse" for s in final["sources"]), final["sources"]  # no example church FAQ
    return [s["id"] for s in final["sources"]]


def test_no_model_anywhere_chooses_the_local_model_and_answers_with_verses(start):
    # A fresh machine: LLM_PROVIDER unset, no key, no Ollama, and the hub unreachable (HF_HUB_OFFLINE=1).
    app = start(OLLAMA_HOST=f"http://127.0.0.1:{free_port()}")
    llm = wait_for(
        lambda: (s := app.status()) is not None and s["llm"].get("local", {}).get("phase") == "failed" and s["llm"],
        120,
        "o modelo local não terminou de tentar o download",
        interval=1.0,
    )
    assert llm["provider"] == "local" and llm["automatic"] and llm["model"] == "Qwen/Qwen2.5-0.5B-Instruct"
    assert "nenhum Ollama" in llm["choice"] and "não foi possível baixar o modelo" in llm["detail"]
    assert "PASTOR_LOCAL_MODEL" in llm["setup_hint"]
    fear = app.ask(FEAR)
    assert fear["mode"] == Mode.PROVIDER_UNAVAILABLE and fear["error"] is None
    verses_only(fear)
    assert fear["answer"].split("\n")[0] in OPENINGS["fear"] and "modelo" not in fear["answer"]
    for setup in ("LLM_PROVIDER", "OPENAI_API_KEY", "PASTOR_LOCAL_MODEL"):
        assert setup not in fear["answer"] and setup in fear["reason"]  # the operator's, not the member's
    john = app.ask(JOHN)
    assert john["mode"] == Mode.PROVIDER_UNAVAILABLE and verses_only(john) == ["JHN 3:16"]
    assert JOHN_316 in john["answer"]
    check = app.client.predict(api_name="/check_provider")
    assert check["provider"] == "local" and check["reachable"] is False and check["elapsed_seconds"] >= 0

    # The topics (and their credits) come with the embedder, loaded right after /ready.
    loaded = lambda: (s := app.status()) is not None and s["embedder"]["dim"] and s  # noqa: E731
    status = wait_for(loaded, 120, "o embedder não carregou", interval=1.0)
    assert status["corpus"]["file"] == "por-almeida1911.usfx.xml.gz" and status["corpus"]["verses"] == 31101
    assert [e["file"] for e in status["extra_corpora"]] == ["por-blivre.usfx.xml.gz"]
    assert status["prominence"]["enabled"] is True and status["prominence"]["file"] == "verse_prominence.tsv.gz"
    assert "documents" not in status  # the example church is off by default
    credits = " · ".join(status["attributions"])
    assert "Almeida 1911" in credits and "Bíblia Livre" in credits and "OpenBible.info" in credits
    assert "Nave's Topical Bible" in credits and "Torrey's" in credits  # the topical retriever's data
    assert status["llm"]["reachable"] is False


def test_a_local_model_folder_answers_with_validated_citations(start, wired_model):
    from tests.support.model_fixtures import WIRED_REPLY

    app = start(OLLAMA_HOST=f"http://127.0.0.1:{free_port()}", PASTOR_LOCAL_MODEL=str(wired_model))
    wait_for(
        lambda: (s := app.status()) is not None and s["llm"]["reachable"],
        120,
        "o modelo local não carregou",
        interval=1.0,
    )
    updates = []

    def attempt():
        try:
            job = app.client.submit(FEAR, [], api_name="/chat")
            updates.extend(job)  # every streamed update
            return updates[-1]
        except Exception as exc:  # the rate limit of the previous test's app does not apply here
            raise AssertionError(exc) from exc

    fear = attempt()
    assert fear["provider"] == "local" and fear["mode"] in (Mode.RAG, Mode.LEXICAL_FALLBACK)
    assert "Não tenha medo do amanhã" in fear["answer"] and len(updates) > 2  # streamed
    assert "Hezequias" not in fear["answer"] and "Hezequias 3:16" in fear["removed_citations"]
    assert all(any(c == s["reference"] for s in fear["sources"]) for c in fear["citations"])
    assert WIRED_REPLY != fear["answer"]  # the invented reference never reached the reader


def test_with_a_model_the_same_start_answers_normally(start):
    app = start(LLM_PROVIDER="fake")  # echoes the sources it is given, as a model that quotes them
    fear = app.ask(FEAR)
    assert fear["mode"] in (Mode.LEXICAL_FALLBACK, Mode.RAG) and fear["error"] is None
    verses_only(fear)
    assert fear["citations"] and "ollama pull" not in fear["answer"]
    john = app.ask(JOHN)
    assert john["mode"] == Mode.REFERENCE and john["citations"] == ["João 3:16"]


def test_the_examples_get_verses_before_the_vectors_exist(tmp_path):
    engine = Engine(Settings.from_env({"PASTOR_DATA_DIR": str(tmp_path / "data")})).load()
    assert not engine.retriever.vectors_ready  # nothing built: the first minutes after install
    for example in EXAMPLES:
        result = engine.retriever.search(example)
        assert result.mode in (Mode.REFERENCE, Mode.LEXICAL_FALLBACK), (example, result.reason)
        assert result.results and all(h.kind == "verse" for h in result.results), example


def test_the_example_client_runs_as_the_readme_writes_it(start):
    """`python examples/client.py http://127.0.0.1:7860/` against the default app: /reindex is off there
    (a network address without REINDEX_TOKEN) and skipped; a call inside the rate limit waits, no traceback."""
    app = start(OLLAMA_HOST=f"http://127.0.0.1:{free_port()}")
    app.client.predict(api_name="/check_provider")  # the client's own check now falls inside the limit
    done = subprocess.run(
        [sys.executable, "examples/client.py", app.url + "/"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout[-3000:] + done.stderr[-3000:]
    assert "-- /check_provider: O modelo foi verificado há pouco. Aguarde" in done.stdout
    assert "== /reindex: pulado, desativado neste app" in done.stdout
    assert "OK: todos os endpoints responderam." in done.stdout

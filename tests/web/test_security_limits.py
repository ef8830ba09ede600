"""Abuse limits of the web layer: amplification caps, rate limits, body cap, deadlines, safe reindex, no leaks."""

from __future__ import annotations

import json
import logging
import shutil
import threading
from types import SimpleNamespace

import gradio as gr
import pytest
from fastapi import FastAPI, Request
from starlette.testclient import TestClient

from pastor.answer.chat import ChatService
from pastor.bible.translations import Translations
from pastor.health import HealthBoard
from pastor.index.resources import SearchResources
from pastor.web.api import WebAPI
from pastor.web.http_guard import BodyLimit
from pastor.web.reindex import REINDEX_DISABLED
from pastor.web.runtime import Runtime
from pastor.web.schemas import chat_json
from tests.support.app_fixtures import MINI_CORPUS, SpyProvider, app_settings
from tests.support.helpers import retriever_over, stub_search_status

AMPLIFICATION = "; ".join(["Sl 1-150"] * 500)


def request(host: str = "10.0.0.1", headers: dict | None = None):
    return SimpleNamespace(client=SimpleNamespace(host=host), headers=headers or {}, session_hash="s")


class StubEngine:
    """What the endpoints touch: a Bible, keyword search present, a retriever."""

    def __init__(self, bible):
        self.resources = SearchResources(bible, lexical=object())
        self.health = HealthBoard()
        self.health.fail("embedder", "modelo de embeddings", "sem vetores neste teste")
        self.retriever = retriever_over(bible, embedder=None, index=None, lexical=None)
        self.translations = Translations(bible)

    def status(self):
        return stub_search_status("missing")

    def stop_indexing(self, timeout=0):
        pass


def api_for(tmp_path, bible, **env) -> WebAPI:
    return WebAPI(Runtime(app_settings(tmp_path, **env), engine=StubEngine(bible)))


# == amplification ==================================================================================
class TestAmplification:
    def test_lookup_of_500_whole_psalters_stays_small_with_a_note(self, tmp_path, almeida):
        result = api_for(tmp_path, almeida).lookup(AMPLIFICATION, request())
        size = len(json.dumps(result, ensure_ascii=False).encode())
        assert size < 100_000
        assert result["truncated"] and "ficaram de fora" in result["note"]
        assert sum(len(r["verses"]) for r in result["references"]) == 200

    def test_distinct_references_are_capped_too(self, almeida):
        from pastor.bible.lookup import lookup

        text = "; ".join(f"Sl {n}:1" for n in range(1, 31))
        result = lookup(text, almeida, max_references=10)
        assert len(result.references) == 10 and "20 referências" in result.note

    def test_a_chat_turn_gets_at_most_40_verses_and_says_so(self, tmp_path, almeida):
        chat = ChatService(
            retriever_over(almeida, embedder=None, index=None, lexical=None), almeida, SpyProvider(chunk=50)
        )
        final = chat.ask(AMPLIFICATION[:4000])
        assert len(final.result.sources) == 40
        assert any("ficaram de fora" in note for note in final.result.notes)
        assert len(json.dumps(chat_json(final), ensure_ascii=False).encode()) < 100_000


# == rate limits ====================================================================================
class TestRateLimits:
    @pytest.mark.parametrize(
        "call",
        [
            lambda api, r: api.search("Deus é amor", 6, "all", r),
            lambda api, r: api.lookup("João 3:16", r),
            lambda api, r: api.reindex("", r),
        ],
        ids=["search", "lookup", "reindex"],
    )
    def test_a_second_request_too_soon_is_refused(self, tmp_path, mini_bible, call):
        api = api_for(tmp_path, mini_bible, PASTOR_RATE_LIMIT_SECONDS="30")
        try:
            call(api, request())
        except gr.Error:
            pass  # e.g. no vectors to rebuild: the first request was still counted
        with pytest.raises(gr.Error, match="Aguarde"):
            call(api, request())
        try:
            call(api, request(host="10.0.0.9"))  # another client is not affected
        except gr.Error as exc:
            assert "Aguarde" not in str(exc)

    def test_feedback_is_limited(self, tmp_path, mini_bible):
        from pastor.answer.turnlog import TurnLog

        api = api_for(tmp_path, mini_bible, PASTOR_RATE_LIMIT_SECONDS="30")
        api.runtime.turnlog = TurnLog(tmp_path / "logs")
        api.runtime.turnlog.write({"turn_id": "t1"})
        assert api.feedback("t1", "up", "", request())["ok"]
        with pytest.raises(gr.Error, match="Muitos pedidos"):
            api.feedback("t1", "up", "", request())

    def test_a_forged_forwarded_header_does_not_escape_the_limit(self, tmp_path, mini_bible):
        api = api_for(tmp_path, mini_bible, PASTOR_RATE_LIMIT_SECONDS="30")
        api.lookup("João 3:16", request(headers={"x-forwarded-for": "1.1.1.1"}))
        with pytest.raises(gr.Error, match="Aguarde"):
            api.lookup("João 3:16", request(headers={"x-forwarded-for": "2.2.2.2"}))

    def test_trusted_proxies_setting(self, tmp_path):
        settings = app_settings(tmp_path, PASTOR_TRUSTED_PROXIES="10.0.0.0/8, 127.0.0.1")
        assert settings.trusted_proxies == ("10.0.0.0/8", "127.0.0.1")
        assert app_settings(tmp_path).trusted_proxies == ()


# == request body cap ===============================================================================
class TestBodyLimit:
    @pytest.fixture
    def client(self):
        app = FastAPI()

        @app.post("/eco")
        async def eco(req: Request):
            return {"bytes": len(await req.body())}

        app.add_middleware(BodyLimit, max_bytes=1024)
        return TestClient(app)

    def test_a_declared_huge_body_is_refused_in_portuguese(self, client):
        response = client.post("/eco", content=b"x" * 5000)
        assert response.status_code == 413 and "grande demais" in response.json()["error"]

    def test_a_chunked_body_is_cut_while_it_streams(self, client):
        response = client.post("/eco", content=iter([b"x" * 600, b"x" * 600]))
        assert response.status_code == 413

    def test_a_small_body_passes(self, client):
        assert client.post("/eco", content=b"x" * 100).json() == {"bytes": 100}

    def test_the_app_installs_it(self, tmp_path):
        from pastor.web.server import create_app

        app, _ = create_app(app_settings(tmp_path, PASTOR_MAX_BODY_BYTES="2048"))
        assert any(m.cls is BodyLimit and m.kwargs["max_bytes"] == 2048 for m in app.user_middleware)


# == deadlines ======================================================================================
class TestDeadline:
    def test_a_trickling_model_is_cut_off_with_a_portuguese_message(self, mini_bible):
        provider = SpyProvider(chunk=1, delay=0.2)
        provider.enqueue("Deus está perto de você, leia João 3:16. " * 20)
        chat = ChatService(
            retriever_over(mini_bible, embedder=None, index=None, lexical=None), mini_bible, provider, deadline=0.5
        )
        final = chat.ask("o que diz João 3:16?")
        # Nothing the validator could release reached the reader: the verses, not an error.
        assert final.result.mode == "provider_unavailable" and "(timeout)" in final.result.reason
        assert "demorou mais de" in final.result.reason and "**João 3:16**" in final.answer
        assert provider.closed.wait(5)  # the model's stream is closed, not left running

    def test_llm_timeout_is_the_deadline(self, tmp_path, engine):
        from pastor.wiring import build_chat
        from tests.support.core_fixtures import settings_for

        chat = build_chat(settings_for(tmp_path, LLM_TIMEOUT="7"), engine, SpyProvider())
        assert chat.deadline == 7


# == safe reindex ===================================================================================
class TestReindexSafety:
    def runtime(self, tmp_path, **env) -> Runtime:
        return Runtime(app_settings(tmp_path, PASTOR_BACKGROUND_INDEX="false", **env))

    def test_refused_without_a_token_on_a_public_address(self, tmp_path):
        runtime = self.runtime(tmp_path, PASTOR_HOST="0.0.0.0")
        outcome = runtime.reindex("")
        assert not outcome.ok and outcome.message == REINDEX_DISABLED and "REINDEX_TOKEN" in outcome.message
        assert runtime.status()["reindex_enabled"] is False

    def test_refused_without_a_token_on_a_space(self, tmp_path, monkeypatch):
        monkeypatch.setenv("SPACE_ID", "igreja/pastor")
        assert self.runtime(tmp_path).reindex("").message == REINDEX_DISABLED

    def test_a_token_enables_it_anywhere(self, tmp_path):
        runtime = self.runtime(tmp_path, PASTOR_HOST="0.0.0.0", REINDEX_TOKEN="segredo-123")
        assert runtime.reindex_refusal() is None
        assert runtime.reindex("errado").message.startswith("Token de reindexação incorreto.")

    def test_loopback_needs_no_token(self, tmp_path):
        assert self.runtime(tmp_path, PASTOR_HOST="127.0.0.1").reindex_refusal() is None

    def test_the_button_is_disabled_with_the_reason(self, tmp_path):
        from pastor.web.page import build_blocks

        runtime = self.runtime(tmp_path, PASTOR_HOST="0.0.0.0")
        config = json.dumps(build_blocks(runtime).get_config_file(), ensure_ascii=False, default=str)
        assert "REINDEX_TOKEN" in config

    def test_a_corpus_put_in_place_after_start_is_found_by_reindex(self, tmp_path, fake_models):
        corpus = tmp_path / "corpus" / "mini.usfx.xml"
        runtime = Runtime(
            app_settings(
                tmp_path / "data",
                PASTOR_CORPUS=str(corpus),
                EMBEDDING_MODEL="fake-bow",
                PASTOR_BACKGROUND_INDEX="false",
            )
        )
        runtime.start(background=False)
        assert runtime.phase == "error"
        corpus.parent.mkdir()
        shutil.copyfile(MINI_CORPUS, corpus)
        assert runtime.reindex("").ok
        assert runtime.wait_loaded(60) and runtime.phase == "ready"
        assert runtime.unavailable() is None


# == what users and logs see ========================================================================
class TestNoLeaks:
    def test_a_refusal_is_one_log_line_without_traceback_or_input(self, tmp_path, mini_bible, caplog):
        api = api_for(tmp_path, mini_bible)
        secret = "<script>meu-segredo-pessoal</script>"
        with caplog.at_level(logging.INFO, logger="pastor.web"), pytest.raises(gr.Error) as raised:
            api.search("Deus é amor", 6, secret, request())
        assert secret not in str(raised.value)
        assert raised.value.print_exception is False  # Gradio prints no traceback
        records = [r for r in caplog.records if r.name == "pastor.web"]
        assert len(records) == 1 and records[0].exc_info is None
        assert secret not in records[0].getMessage()

    def test_status_holds_no_absolute_path_and_no_url_credentials(self, tmp_path):
        runtime = Runtime(
            app_settings(
                tmp_path,
                PASTOR_CORPUS=str(tmp_path / "falta.usfx.xml"),
                LLM_PROVIDER="openai",
                OPENAI_BASE_URL="http://usuario:senha-da-url@127.0.0.1:9/v1",
                PASTOR_BACKGROUND_INDEX="false",
            )
        )
        runtime.start(background=False)
        runtime.probe.get()
        if runtime.probe._thread is not None:
            runtime.probe._thread.join(10)
        text = json.dumps(runtime.status(), ensure_ascii=False)
        assert str(tmp_path) not in text and "falta.usfx.xml" in text
        assert "senha-da-url" not in text and "usuario" not in text
        assert str(tmp_path) not in runtime.unavailable()


def test_a_stop_during_a_silent_model_ends_the_wait(mini_bible):
    provider = SpyProvider(chunk=1, delay=5)
    provider.enqueue("Resposta lenta. João 3:16")
    chat = ChatService(retriever_over(mini_bible, embedder=None, index=None, lexical=None), mini_bible, provider)
    cancel = threading.Event()
    turn = chat.turn("o que diz João 3:16?", [], cancel)
    next(turn)
    cancel.set()
    final = list(turn)[-1]
    assert final.done and final.result.error.type == "cancelled"


def test_the_banner_says_search_keeps_its_vectors_during_a_rebuild():
    from pastor.web import render

    status = {
        "phase": "ready",
        "state": "indexing",
        "vectors_ready": True,
        "bm25_ready": True,
        "progress": {"done": 8, "total": 25},
        "index": {"rows": 8, "total": 25},
    }
    assert "as respostas continuam normalmente" in render.banner_markdown(status)
    assert "pelas palavras da mensagem" not in render.state_markdown(status)
    assert "pelas palavras da mensagem" in render.banner_markdown({**status, "vectors_ready": False})

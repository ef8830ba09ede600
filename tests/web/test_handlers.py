"""Unit tests of the web app's parts: rate limit, safe rendering, runtime, page handlers, API checks."""

from __future__ import annotations

import json
from types import SimpleNamespace

import gradio as gr
import pytest

pytest.register_assert_rewrite("app_fixtures")
from pastor.answer.history import BAD_MESSAGE  # noqa: E402
from pastor.health import HealthBoard  # noqa: E402
from pastor.index.resources import SearchResources  # noqa: E402
from pastor.search.prominence import ATTRIBUTION as OPENBIBLE_CREDIT  # noqa: E402
from pastor.web import chatview, render  # noqa: E402
from pastor.web.api import WebAPI  # noqa: E402
from pastor.web.probe import ProviderProbe  # noqa: E402
from pastor.web.ratelimit import RateLimited, RateLimiter, client_key  # noqa: E402
from pastor.web.runtime import Runtime  # noqa: E402
from pastor.web.turns import TurnRegistry  # noqa: E402
from tests.support.app_fixtures import SpyProvider, app_settings, free_port  # noqa: E402
from tests.support.helpers import stub_search_status  # noqa: E402

XSS = '<script>alert("x")</script> <img src=x onerror=alert(1)> ![rastreio](http://mal.example/p.png)'


def request(session: str = "sessao-1", host: str = "10.0.0.1", headers: dict | None = None):
    """What handlers read from a `gr.Request`."""
    return SimpleNamespace(session_hash=session, client=SimpleNamespace(host=host), headers=headers or {})


def assert_inert(markdown: str) -> None:
    """No live HTML from untrusted text: every `<` escaped, no Markdown image."""
    assert "<script" not in markdown and "<img" not in markdown
    assert "![" not in markdown


# == rate limit ===================================================================================
class TestRateLimiter:
    def test_second_question_inside_the_interval_is_refused_with_the_wait(self):
        now = [100.0]
        limiter = RateLimiter(3, clock=lambda: now[0])
        limiter.hit("1.2.3.4")
        now[0] += 1.2
        with pytest.raises(RateLimited) as refused:
            limiter.hit("1.2.3.4")
        assert refused.value.wait == pytest.approx(1.8)
        assert "Aguarde 2 segundos" in str(refused.value)

    def test_other_clients_and_later_questions_pass(self):
        now = [0.0]
        limiter = RateLimiter(3, clock=lambda: now[0])
        limiter.hit("a")
        limiter.hit("b")
        now[0] += 3.0
        limiter.hit("a")

    def test_a_refused_question_does_not_restart_the_interval(self):
        now = [0.0]
        limiter = RateLimiter(3, clock=lambda: now[0])
        limiter.hit("a")
        now[0] = 2.0
        with pytest.raises(RateLimited):
            limiter.hit("a")
        now[0] = 3.0
        limiter.hit("a")

    def test_zero_disables_the_limit(self):
        limiter = RateLimiter(0)
        for _ in range(5):
            limiter.hit("a")

    def test_one_second_is_singular(self):
        assert "Aguarde 1 segundo e" in str(RateLimited(0.3))

    def test_the_runtime_uses_the_configured_interval(self, tmp_path):
        settings = app_settings(tmp_path, PASTOR_RATE_LIMIT_SECONDS="7")
        assert Runtime(settings).limiter.seconds == 7


class TestClientKey:
    def test_the_socket_address_is_the_key(self):
        assert client_key(request(host="10.1.1.1", headers={"x-forwarded-for": "9.9.9.9"})) == "10.1.1.1"

    def test_a_space_alone_does_not_make_the_header_trusted(self, monkeypatch):
        monkeypatch.setenv("SPACE_ID", "user/pastor")
        assert client_key(request(host="10.1.1.1", headers={"x-forwarded-for": "9.9.9.9"})) == "10.1.1.1"

    def test_behind_a_trusted_proxy_the_forwarded_address_counts(self):
        sent = request(host="10.0.0.2", headers={"x-forwarded-for": "1.2.3.4, 9.9.9.9, 10.0.0.3"})
        # The last entry a trusted proxy did not add: the leftmost one is client-controlled.
        assert client_key(sent, ("10.0.0.0/8",)) == "9.9.9.9"


# == safe rendering ===============================================================================
class TestEscape:
    def test_html_and_images_from_a_model_are_inert(self):
        shown = render.escape(XSS)
        assert_inert(shown)
        assert "&lt;script>" in shown

    def test_blockquotes_and_bold_survive(self):
        assert render.escape("> Porque Deus amou — **João 3:16**") == "> Porque Deus amou — **João 3:16**"


class TestStatusRendering:
    def status(self, **changes) -> dict:
        base = {
            "state": "indexing",
            "phase": "ready",
            "bm25_ready": True,
            "corpus_error": None,
            "progress": {"done": 512, "total": 31102},
            "index": {"rows": 512, "total": 31102, "error": None},
            "corpus": {"file": "por-almeida1911.usfx.xml", "sha256": "ab" * 32, "verses": 31102},
            "embedder": {"name": "use-multilingual", "dim": 512},
            "prominence": {"enabled": False},
            "llm": {"provider": "fake", "model": "fake", "reachable": True, "detail": "ok"},
            "errors": ["indexação: disco | cheio"],
            "attributions": [],
        }
        return {**base, **changes}

    def test_indexing_shows_counts_and_progress(self):
        assert "Indexando" in render.state_markdown(self.status())
        assert "512 de 31.102 vetores (1%)" in render.state_markdown(self.status())
        assert "max='31102' value='512'" in render.progress_html(self.status())

    def test_the_vectors_done_with_the_adapter_pending_is_not_complete(self):
        status = self.status(
            progress={"done": 31102, "total": 31102},
            vectors_ready=True,
            pending=["temas", "adaptador de consulta"],
            adapter={"enabled": False, "detail": "em treinamento (o índice vetorial está pronto)"},
        )
        state = render.state_markdown(status)
        assert "Índice completo" not in state and "Reconstruindo" not in state
        assert "Concluindo a indexação — falta: temas, adaptador de consulta" in state
        assert "Índice completo" in render.state_markdown(self.status(state="complete", pending=[]))

    def test_the_credits_are_shown_once_and_separated(self):
        status = self.status(attributions=["Texto bíblico: A", "Referências cruzadas © OpenBible.info"])
        assert "Referências cruzadas" not in render.details_markdown(status)
        assert render.credits_html(status) == "<small>Texto bíblico: A · Referências cruzadas © OpenBible.info</small>"

    def test_details_list_corpus_embedder_bm25_llm_and_errors(self):
        details = render.details_markdown(self.status())
        for expected in (
            "por-almeida1911.usfx.xml",
            "ab" * 32,
            "31.102",
            "use-multilingual (dimensão 512)",
            "pronto",
            "fake / fake",
            "sim — ok",
            "- indexação: disco | cheio",
        ):
            assert expected in details

    def test_details_say_the_embedder_is_loading_while_keywords_answer(self):
        loading = render.details_markdown(self.status(embedder={"name": "use-multilingual", "dim": None}))
        assert "use-multilingual — carregando (a busca por palavras já responde)" in loading

    def test_details_show_the_topics_and_the_query_adapter(self):
        on = render.details_markdown(
            self.status(
                topics={"enabled": True, "entries": 11077, "weight": 1.5},
                adapter={"enabled": True, "file": "devset.jsonl", "questions": 271, "weight": 2.0},
            )
        )
        assert "| Temas (Nave, Torrey) | 11.077 entradas, peso 1.5 |" in on
        assert "| Adaptador de consulta | treinado com 271 perguntas de devset.jsonl |" in on
        off = render.details_markdown(
            self.status(adapter={"enabled": False, "detail": "desligado (PASTOR_ADAPTER_QUESTIONS vazio)"})
        )
        assert "| Adaptador de consulta | desligado (PASTOR_ADAPTER_QUESTIONS vazio) |" in off

    def test_the_local_model_shows_why_it_was_chosen_and_its_download(self):
        llm = {
            "provider": "local",
            "model": "Qwen/Qwen2.5-0.5B-Instruct",
            "reachable": False,
            "detail": "baixando Qwen/Qwen2.5-0.5B-Instruct do Hugging Face Hub: 45% (445 de 988 MB)",
            "choice": "LLM_PROVIDER vazio, nenhuma chave de API e nenhum Ollama com o modelo: modelo local",
            "setup_hint": "Modelo local Qwen/Qwen2.5-0.5B-Instruct: baixando… aponte PASTOR_LOCAL_MODEL",
        }
        details = render.details_markdown(self.status(llm={**llm, "local": {"phase": "downloading"}}))
        assert "| ⏳ Modelo de linguagem | local / Qwen/Qwen2.5-0.5B-Instruct |" in details  # prepared, not failed
        assert "| Por que este modelo | LLM_PROVIDER vazio, nenhuma chave de API" in details
        assert "ainda não — baixando Qwen/Qwen2.5-0.5B-Instruct do Hugging Face Hub: 45% (445 de 988 MB)" in details
        assert "| Como ativar as respostas comentadas | Modelo local" in details  # for the operator, here only
        ready = render.details_markdown(self.status(llm={**llm, "reachable": True, "detail": "carregado"}))
        assert "Como ativar" not in ready

    def test_a_missing_corpus_is_spelled_out(self):
        status = self.status(state="error", phase="error", corpus_error="Arquivo do corpus não encontrado: x.xml")
        assert "Arquivo do corpus não encontrado: x.xml" in render.state_markdown(status)
        assert "Arquivo do corpus não encontrado" in render.banner_markdown(status)

    def test_complete_index_has_no_banner(self):
        assert render.banner_markdown(self.status(state="complete")) == ""


# == runtime pieces ===============================================================================
class CountingProvider:
    name, model = "contador", "m"

    def __init__(self, fail: bool = False):
        self.calls = 0
        self.fail = fail

    def check(self):
        self.calls += 1
        if self.fail:
            raise RuntimeError("bug")
        return {"reachable": True, "detail": "ok"}


class TestProviderProbe:
    def test_the_check_is_cached(self):
        provider = CountingProvider()
        probe = ProviderProbe(provider, ttl=60)
        first = probe.get()
        assert first.pop("checked_at") and first == {"reachable": True, "detail": "ok"}
        probe.get()
        assert provider.calls == 1

    def test_checked_at_start_and_again_on_demand(self):
        provider = CountingProvider()
        probe = ProviderProbe(provider, ttl=60, recheck_after=0)
        probe.start().join(10)
        assert provider.calls == 1  # before anyone opened the status page
        assert probe.recheck()["reachable"] is True and provider.calls == 2  # the TTL does not hold it back

    def test_a_burst_of_rechecks_costs_the_model_server_one_call(self):
        provider = CountingProvider()
        probe = ProviderProbe(provider, ttl=60, recheck_after=60)
        probe.start().join(10)
        assert all(probe.recheck()["reachable"] for _ in range(30))
        assert provider.calls == 1

    def test_recheck_of_an_unreachable_model_says_so(self):
        from pastor.providers.ollama_provider import OllamaProvider

        probe = ProviderProbe(OllamaProvider(base_url=f"http://127.0.0.1:{free_port()}", timeout=5))
        result = probe.recheck()
        assert result["reachable"] is False and "ollama" in result["detail"]
        text = render.provider_check_markdown({"provider": "ollama", "model": "qwen2.5:1.5b", **result})
        assert text.startswith("⚠️ Modelo de linguagem ollama / qwen2.5:1.5b: não") and "só os versículos" in text

    def test_a_failing_check_is_reported_not_raised(self):
        assert ProviderProbe(CountingProvider(fail=True)).get()["reachable"] is False


class TestTurnRegistry:
    def test_a_new_turn_cancels_the_previous_one_of_the_same_session(self):
        turns = TurnRegistry()
        first = turns.begin("s")
        other = turns.begin("t")
        second = turns.begin("s")
        assert first.is_set() and not second.is_set() and not other.is_set()

    def test_cancel_sets_the_running_turn_once(self):
        turns = TurnRegistry()
        event = turns.begin("s")
        assert turns.cancel("s") and event.is_set()
        assert not turns.cancel("s")

    def test_an_ended_turn_is_not_cancelled_later(self):
        turns = TurnRegistry()
        event = turns.begin("s")
        turns.end("s", event)
        assert not turns.cancel("s") and not event.is_set()


class StubEngine:
    """Only what the runtime touches for status and reindex."""

    def __init__(self, started: bool = True):
        self.resources = SearchResources(None, lexical=object(), index=object())
        self.health = HealthBoard()
        self.started = started
        self.calls = []
        self.credits_in_use: list[str] = []

    def credits(self):
        return list(self.credits_in_use)

    def start_indexing(self, rebuild=False, background=True):
        self.calls.append(rebuild)
        return self.started

    def status(self):
        return stub_search_status("complete")

    def stop_indexing(self, timeout=0):
        pass


class TestRuntime:
    def runtime(self, tmp_path, engine=None, **env) -> Runtime:
        env.setdefault("PASTOR_BACKGROUND_INDEX", "false")
        return Runtime(app_settings(tmp_path, **env), engine=engine).start(background=False)

    def test_a_missing_corpus_leaves_the_app_up_and_says_what_is_missing(self, tmp_path):
        runtime = self.runtime(tmp_path, PASTOR_CORPUS=str(tmp_path / "nao-existe.usfx.xml"))
        assert runtime.phase == "error"
        assert "nao-existe.usfx.xml" in runtime.unavailable() and "PASTOR_CORPUS" in runtime.unavailable()
        status = runtime.status()
        assert status["state"] == "error" and "nao-existe.usfx.xml" in status["corpus_error"]
        corpus = next(r for r in status["health"] if r["component"] == "corpus")  # the same record, typed
        assert corpus["state"] == "error" and corpus["reason"] == status["corpus_error"] and corpus["since"] > 0

    def test_reindex_with_a_token_checks_it(self, tmp_path):
        engine = StubEngine()
        runtime = self.runtime(tmp_path, engine, REINDEX_TOKEN="segredo")
        assert runtime.reindex("errado").message.startswith("Token de reindexação incorreto.")
        assert engine.calls == []
        outcome = runtime.reindex("segredo")
        assert outcome.ok and engine.calls == [True]

    def test_a_wrong_token_does_not_lock_out_the_right_one(self, tmp_path):
        engine = StubEngine()
        runtime = self.runtime(tmp_path, engine, REINDEX_TOKEN="segredo", PASTOR_RATE_LIMIT_SECONDS="3")
        from pastor.web.handlers import Handlers

        handlers = Handlers(runtime)
        assert "Token de reindexação incorreto" in handlers.reindex("errado")
        assert "Token de reindexação incorreto" in handlers.reindex("errado de novo")  # no "pedida há pouco"
        assert handlers.reindex("segredo").startswith("✅ Reindexação iniciada") and engine.calls == [True]
        assert "pedida há pouco" in handlers.reindex("segredo")  # the started one is what the limit counts

    def test_reindex_without_a_configured_token_needs_none(self, tmp_path):
        assert self.runtime(tmp_path, StubEngine()).reindex("").ok

    def test_reindex_while_one_runs_is_refused(self, tmp_path):
        outcome = self.runtime(tmp_path, StubEngine(started=False)).reindex("")
        assert not outcome.ok and "em andamento" in outcome.message

    def test_status_never_holds_the_token_or_keys(self, tmp_path, monkeypatch):
        monkeypatch.setenv("OPENAI_API_KEY", "sk-chave-secreta-de-teste")
        runtime = self.runtime(
            tmp_path,
            StubEngine(),
            REINDEX_TOKEN="segredo-do-operador",
            LLM_PROVIDER="openai",
            OPENAI_BASE_URL="http://127.0.0.1:9/v1",
        )
        text = json.dumps(runtime.status(), ensure_ascii=False)
        assert "segredo-do-operador" not in text and "sk-chave-secreta-de-teste" not in text
        assert runtime.status()["llm"]["provider"] == "openai"

    def test_credits_are_the_engines_datasets_own(self, tmp_path):
        engine = StubEngine()
        runtime = self.runtime(tmp_path, engine)
        assert runtime.attributions() == []
        engine.credits_in_use = ["Texto bíblico: X", OPENBIBLE_CREDIT]
        assert runtime.attributions() == ["Texto bíblico: X", OPENBIBLE_CREDIT]
        assert Runtime(app_settings(tmp_path)).attributions() == []  # nothing loaded yet

    def test_an_unknown_provider_stops_the_start_naming_the_variable_and_the_choices(self, tmp_path):
        from pastor.config import ConfigError

        with pytest.raises(ConfigError) as caught:
            app_settings(tmp_path, LLM_PROVIDER="gpt")
        message = str(caught.value)
        assert message.startswith("LLM_PROVIDER") and "'gpt'" in message
        assert all(name in message for name in ("ollama", "openai", "local", "none"))

    def test_a_provider_that_cannot_be_built_leaves_crisis_replies_and_verses_working(self, tmp_path, monkeypatch):
        """Issue 29: a provider failing at start is the operator's problem, never the member's."""
        from pastor.providers import ProviderError
        from pastor.web import runtime as runtime_module
        from pastor.web.handlers import Handlers

        operator_text = "Falta a chave de acesso para openai: defina a variável de ambiente OPENAI_API_KEY."

        def broken(settings):
            raise ProviderError("config", operator_text, "openai")

        monkeypatch.setattr(runtime_module, "build_provider", broken)
        runtime = self.runtime(
            tmp_path, None, LLM_PROVIDER="openai", PASTOR_SEMANTIC_ROUTER="false", PASTOR_SCOPE_CLASSIFIER="false"
        )
        assert runtime.chat is not None and runtime.unavailable(need_chat=True) is None
        app = SimpleNamespace(runtime=runtime, handlers=Handlers(runtime))
        crisis = " ".join(contents(run_turn(app, "não aguento mais, quero sumir de vez")[-1][0]))
        verses = " ".join(contents(run_turn(app, "Salmos 23", session="outra")[-1][0]))
        assert "188" in crisis and "Salmos 23:1" in verses
        assert operator_text not in crisis + verses and "OPENAI_API_KEY" not in crisis + verses
        status = runtime.status()
        assert status["llm"]["reachable"] is False and operator_text in status["llm"]["detail"]
        assert any(r["component"] == "provider" and r["state"] == "error" for r in status["health"])

    def test_a_chat_that_cannot_start_tells_members_where_help_is_not_why(self, tmp_path):
        runtime = self.runtime(tmp_path, StubEngine())
        runtime.chat = None
        assert "188" in runtime.unavailable(need_chat=True) and "modelo" not in runtime.unavailable(need_chat=True)


# == page handlers on a real engine =================================================================
@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """A runtime on the tiny corpus without vectors (keyword search), loaded synchronously."""
    from pastor.web.handlers import Handlers

    provider = SpyProvider(chunk=4)
    settings = app_settings(tmp_path_factory.mktemp("units"), PASTOR_BACKGROUND_INDEX="false")
    runtime = Runtime(settings, provider=provider).start(background=False)
    assert runtime.phase == "ready", runtime.health.records()
    return SimpleNamespace(runtime=runtime, provider=provider, handlers=Handlers(runtime))


@pytest.fixture
def app(loaded):
    loaded.provider.reset()
    loaded.runtime.limiter = RateLimiter(0)
    yield loaded
    loaded.provider.reset()


def run_turn(app, message, chat=None, convo=None, session="s1"):
    from pastor.web.conversation import Conversation

    return list(app.handlers.respond(message, chat or [], convo or Conversation(), request(session)))


def contents(chat: list[dict]) -> list[str]:
    return [m["content"] for m in chat]


class TestRespond:
    def test_streams_after_a_preparing_state_then_shows_sources_and_mode(self, app):
        app.provider.enqueue("Não tenha medo: veja Isaías 41:10, Deus está com você.")
        outputs = run_turn(app, "Estou com medo do futuro")
        first_chat, first_box = outputs[0][0], outputs[0][1]
        assert first_box == "" and first_chat[-1]["content"] == chatview.PREPARING
        assert len(outputs) >= 4  # preparing, the model's first yield, chunks, final
        final_chat, _, mode, notice, convo = outputs[-1]
        answer = final_chat[1]["content"]
        turn_id = convo.turn_ids[1]
        assert f'<a class="pastor-cite" href="#{chatview.anchor(turn_id, "ISA 41:10")}"' in answer
        assert "pastor-copy" in answer and chatview.PREPARING not in answer
        assert final_chat[2]["metadata"]["title"].startswith("📖 Fontes consultadas")
        sources = final_chat[2]["content"]
        assert "Isaías 41:10" in sources and chatview.anchor(turn_id, "ISA 41:10") in sources
        assert "pontuação" not in sources.split("title=")[0]  # the number only in the tooltip
        assert "pastor-mode" in mode and "Versículos escolhidos pel" in mode and notice == gr.skip()
        assert convo.history.messages[-1].content.startswith("Não tenha medo")
        assert set(convo.turn_ids) == {1, 2}

    def test_model_html_never_reaches_the_page_as_html(self, app):
        app.provider.enqueue(XSS + " Veja João 3:16.")
        outputs = run_turn(app, "O que diz João 3:16? " + XSS)
        for chat, *_ in outputs:
            for message in chat:
                assert_inert(message["content"])
        # Gradio's own post-processing keeps it escaped too.
        shown = gr.Chatbot().postprocess(outputs[-1][0]).model_dump()
        assert "<script" not in json.dumps(shown) and "&lt;script" in json.dumps(shown)

    def test_a_long_message_is_refused_beside_the_input_and_nothing_else_changes(self, app):
        calls = app.provider.calls
        outputs = run_turn(app, "a" * 4001, chat=[{"role": "user", "content": "antes"}])
        assert len(outputs) == 1
        chat, box, mode, notice, convo = outputs[0]
        assert chat == box == mode == convo == gr.skip()  # the chat and the typed text stay
        assert "4001 caracteres" in notice and "4000" in notice and 'role="alert"' in notice
        assert app.provider.calls == calls

    def test_an_empty_message_is_refused_beside_the_input(self, app):
        notice = run_turn(app, "   ")[0][3]
        assert "Escreva uma mensagem" in notice

    def test_a_second_question_too_soon_is_refused_with_the_wait(self, app):
        app.runtime.limiter = RateLimiter(30)
        convo = run_turn(app, "Como perdoar quem me feriu?")[-1][4]
        ((chat, box, _, notice, kept),) = run_turn(app, "Como perdoar quem me feriu?", convo=convo)
        assert "Aguarde" in notice and chat == box == kept == gr.skip()

    def test_a_new_answer_clears_the_notice(self, app):
        assert run_turn(app, "Estou de luto pela minha mãe")[0][3] == ""

    def test_a_reference_mid_conversation_is_looked_up(self, app):
        convo = run_turn(app, "Como perdoar quem me feriu?")[-1][4]
        app.provider.enqueue("Como perdoar quem me feriu várias vezes?", "O Senhor é o meu pastor: Salmos 23:1.")
        final = run_turn(app, "Sl 23", convo=convo)[-1]
        assert "A passagem que você pediu" in final[2] and "busquei" not in final[2]

    def test_the_status_names_the_semantic_router_and_a_crisis_reply_is_marked_for_the_page(self, app):
        from pastor.web import chatview, render

        status = app.runtime.status()
        assert "semântico" in status["router"] and status["router"] in render.details_markdown(status)
        calls = app.provider.calls
        chat = run_turn(app, "minha amiga disse que vai pular da ponte hoje")[-1][0]
        answer = next(m["content"] for m in chat if m["role"] == "assistant" and "Ligue agora" in m["content"])
        assert answer.startswith(chatview.CRISIS_MARK + "**Ligue agora")
        assert app.provider.calls == calls  # no model call

    def test_a_rewritten_follow_up_shows_what_was_searched(self, app):
        convo = run_turn(app, "Como perdoar quem me feriu?")[-1][4]
        app.provider.enqueue("Como perdoar de novo quem me feriu?", "Perdoe como Deus perdoou: Efésios 4:32.")
        mode = run_turn(app, "e se ele repetir?", convo=convo)[-1][2]
        assert "busquei: “Como perdoar de novo quem me feriu?”" in mode

    def test_without_the_model_a_follow_up_is_searched_with_the_question_before(self, app):
        """Issue 22: a verses-only turn keeps the question (not the answer) for the next follow-up."""
        app.provider.enqueue({"error": "unreachable"})
        convo = run_turn(app, "Como perdoar quem me feriu?")[-1][4]
        assert convo.history.as_dicts() == [{"role": "user", "content": "Como perdoar quem me feriu?"}]
        app.provider.enqueue({"error": "unreachable"}, {"error": "unreachable"})  # the rewrite, then the reply
        chat, _, mode, _, convo = run_turn(app, "e se ele repetir?", convo=convo)[-1]
        assert "busquei: “Como perdoar quem me feriu? e se ele repetir?”" in mode
        assert [m.content for m in convo.history.messages] == ["Como perdoar quem me feriu?", "e se ele repetir?"]
        # ↻ asks the last question again without keeping it twice.
        app.provider.enqueue({"error": "unreachable"}, {"error": "unreachable"})
        final = list(app.handlers.regenerate(chat, convo, request()))[-1]
        assert [m.content for m in final[4].history.messages] == ["Como perdoar quem me feriu?", "e se ele repetir?"]

    def test_history_is_capped_at_the_configured_turns(self, app):
        from pastor.web.conversation import Conversation

        convo = Conversation()
        questions = [f"Estou cansado e sem descanso, dia {i}" for i in range(12)]
        for question in questions:
            convo = run_turn(app, question, convo=convo)[-1][4]
        assert len(convo.history) == 2 * app.runtime.settings.history_turns
        assert [m.content for m in convo.history.messages[::2]] == questions[2:]


class TestStop:
    @staticmethod
    def long_turn(app, session: str):
        """A turn whose model is writing a long answer slowly: (the handler's generator, the chat shown)."""
        from pastor.web.conversation import Conversation

        app.provider.delay = 0.05
        app.provider.enqueue("Deus está perto de você. " * 40)
        turn = app.handlers.respond("Estou com medo do futuro", [], Conversation(), request(session))
        chat = next(turn)[0]
        while not app.provider.opened.is_set():
            chat = next(turn)[0]
        return turn, chat

    def test_stop_sets_the_cancel_and_closing_the_handler_closes_the_model_stream(self, app):
        turn, _ = self.long_turn(app, "parar")
        chat = next(turn)[0]
        shown = app.handlers.stop(chat, request("parar"))
        assert app.provider.cancels[-1].is_set()
        assert shown[-2]["content"].endswith(chatview.INTERRUPTED)
        # The sources the turn had found stay visible under the interrupted answer.
        assert (
            shown[-1]["metadata"]["title"].startswith("📖 Fontes consultadas")
            and "pastor-source" in shown[-1]["content"]
        )
        turn.close()  # what Gradio's `cancels=` does to the running generator
        assert app.provider.closed.wait(5)

    def test_after_stop_the_turn_ends_itself_marked_with_its_sources(self, app):
        turn, chat = self.long_turn(app, "parar-2")
        app.handlers.stop(chat, request("parar-2"))
        last = list(turn)[-1][0]  # Stop no longer kills the turn: its own last update reaches the page
        answer, sources = last[-2]["content"], last[-1]
        assert chatview.INTERRUPTED in answer and "Deus está perto" in answer
        assert sources["metadata"]["title"].startswith("📖 Fontes consultadas")
        assert app.provider.closed.wait(5)

    def test_a_new_question_cancels_the_running_one(self, app):
        from pastor.web.conversation import Conversation

        app.provider.delay = 0.05
        app.provider.enqueue("Primeira resposta longa. " * 40, "Segunda resposta, Salmos 23:1.")
        first = app.handlers.respond("Estou com medo do futuro", [], Conversation(), request("mesma"))
        while not app.provider.opened.is_set():
            next(first)
        second = run_turn(app, "O Senhor é meu pastor?", session="mesma")
        assert app.provider.cancels[0].is_set()
        assert list(first) == []  # the old turn ends without touching the page
        assert "Segunda resposta" in second[-1][0][1]["content"]

    def test_stop_after_the_answer_changes_nothing(self, app):
        chat = run_turn(app, "Estou de luto pela minha mãe", session="fim")[-1][0]
        assert app.handlers.stop(chat, request("fim")) == chat


class TestRegenerate:
    def test_the_last_answer_is_replaced_and_leaves_the_history(self, app):
        from pastor.web.conversation import Conversation

        app.provider.enqueue("Primeira: Isaías 41:10.")
        chat, _, _, _, convo = run_turn(app, "Estou com medo do futuro")[-1]
        assert len(chat) == 3 and convo.last == "Estou com medo do futuro"
        app.provider.enqueue("Segunda: Salmos 23:4.")
        outputs = list(app.handlers.regenerate(chat, convo, request()))
        again, _, _, _, after = outputs[-1]
        assert [m["role"] for m in again] == ["user", "assistant", "assistant"]
        assert "Segunda" in again[1]["content"] and "Primeira" not in json.dumps(again)
        assert [m.content for m in after.history.messages] == ["Estou com medo do futuro", "Segunda: Salmos 23:4."]
        # The model saw no trace of the replaced answer.
        assert all("Primeira" not in m["content"] for m in app.provider.last_messages)
        assert after.turn_ids[1] != convo.turn_ids[1]
        assert list(app.handlers.regenerate([], Conversation(), request()))[0][3]  # nothing to regenerate

    def test_without_a_model_it_says_why_the_answer_would_not_change(self, tmp_path):
        from pastor.web.conversation import Conversation
        from pastor.web.handlers import SAME_WITHOUT_MODEL, Handlers

        runtime = Runtime(app_settings(tmp_path, LLM_PROVIDER="none", PASTOR_BACKGROUND_INDEX="false")).start(
            background=False
        )
        handlers = Handlers(runtime)
        chat, _, _, _, convo = list(handlers.respond("Estou com medo do futuro", [], Conversation(), request()))[-1]
        outputs = list(handlers.regenerate(chat, convo, request()))
        assert len(outputs) == 1 and SAME_WITHOUT_MODEL in outputs[0][3]
        assert outputs[0][0] == gr.skip()  # the answer stays as it is

    def test_a_model_that_was_down_and_still_is_gives_the_same_reason(self, app, monkeypatch):
        from pastor.web.handlers import SAME_WITHOUT_MODEL

        app.provider.enqueue({"error": "unreachable"})
        chat, _, _, _, convo = run_turn(app, "Estou com medo do futuro")[-1]
        assert convo.last_mode == "provider_unavailable"
        monkeypatch.setattr(app.runtime, "status", lambda: {"llm": {"reachable": False}})
        assert SAME_WITHOUT_MODEL in list(app.handlers.regenerate(chat, convo, request()))[0][3]
        monkeypatch.setattr(app.runtime, "status", lambda: {"llm": {"reachable": True}})  # back: ask again
        app.provider.enqueue("Agora com o modelo: Isaías 41:10.")
        again = list(app.handlers.regenerate(chat, convo, request()))[-1][0]
        assert "Agora com o modelo" in again[1]["content"]


class TestNewConversation:
    def test_resets_chat_mode_notice_history_and_turn_ids(self, app):
        from pastor.web.conversation import Conversation

        chat, mode, notice, convo, row = app.handlers.new_chat(request())
        assert chat == [] and mode == "" and notice == "" and convo == Conversation()
        assert row["visible"] is False

    def test_a_follow_up_after_it_is_not_rewritten_from_the_old_conversation(self, app):
        run_turn(app, "Como perdoar quem me feriu?")
        _, _, _, convo, _ = app.handlers.new_chat(request())
        calls = app.provider.calls
        mode = run_turn(app, "e se ele repetir?", convo=convo)[-1][2]
        assert "busquei" not in mode, mode
        assert app.provider.calls <= calls + 1  # the answer at most, no rewrite


class TestFeedback:
    def like(self, index, liked):
        return SimpleNamespace(index=index, liked=liked, value=None)

    def feedback(self, app, turn_id):
        return [r for r in app.runtime.turnlog.read() if r["type"] == "feedback" and r["turn_id"] == turn_id]

    def test_one_rating_per_turn_a_second_click_changes_it(self, app):
        convo = run_turn(app, "Como perdoar quem me feriu?")[-1][4]
        notice, convo, row = app.handlers.like(convo, self.like(1, False))
        assert "Obrigado" in notice and row["visible"] is True
        notice, convo, row = app.handlers.like(convo, self.like(1, True))
        records = self.feedback(app, convo.turn_ids[1])
        assert [r["rating"] for r in records] == ["up"]

    def test_a_comment_joins_the_rating(self, app):
        convo = run_turn(app, "Como perdoar quem me feriu?")[-1][4]
        _, convo, _ = app.handlers.like(convo, self.like(2, True))  # the sources accordion counts too
        notice, box, row = app.handlers.comment("Me ajudou muito", convo)
        assert "registrado" in notice and box == "" and row["visible"] is False
        (record,) = self.feedback(app, convo.turn_ids[1])
        assert record["rating"] == "up" and record["comment"] == "Me ajudou muito"

    def test_a_comment_without_a_rating_is_refused(self, app):
        from pastor.web.conversation import Conversation

        assert "Avalie" in app.handlers.comment("texto", Conversation())[0]

    def test_an_unknown_message_says_so(self, app):
        from pastor.web.conversation import Conversation

        notice, _, _ = app.handlers.like(Conversation(), self.like(5, True))
        assert "Não foi possível" in notice

    def test_ratings_from_the_page_are_limited_per_client(self, app, monkeypatch):
        """The page's own like/comment events write the log: limited as the API's /feedback is."""
        monkeypatch.setitem(app.runtime.limiters, "feedback", RateLimiter(60))
        convo = run_turn(app, "Como perdoar quem me feriu?")[-1][4]
        before = len(app.runtime.turnlog.events())
        _, convo, _ = app.handlers.like(convo, self.like(1, True), request(host="10.0.0.9"))
        notice, _, _ = app.handlers.comment("de novo", convo, request(host="10.0.0.9"))
        assert "Aguarde" in notice and len(app.runtime.turnlog.events()) == before + 1
        notice, _, _ = app.handlers.comment("outro endereço", convo, request(host="10.0.0.10"))
        assert "registrado" in notice

    def test_the_status_refresh_is_limited_per_client_and_skips_quietly(self, app, monkeypatch):
        monkeypatch.setitem(app.runtime.limiters, "status", RateLimiter(60))
        assert all(part != gr.skip() for part in app.handlers.refresh(request(host="10.0.0.12")))
        assert app.handlers.refresh(request(host="10.0.0.12")) == (gr.skip(),) * 5
        assert app.handlers.refresh(request(host="10.0.0.13"))[1] != gr.skip()

    def test_the_model_check_button_is_limited_per_client(self, app, monkeypatch):
        monkeypatch.setitem(app.runtime.limiters, "check_provider", RateLimiter(60))
        app.handlers.check_provider(request(host="10.0.0.11"))
        assert "Aguarde" in app.handlers.check_provider(request(host="10.0.0.11"))


class TestErrorPhase:
    def test_the_chat_itself_says_what_is_missing(self, tmp_path):
        from pastor.web.conversation import Conversation
        from pastor.web.handlers import Handlers

        runtime = Runtime(app_settings(tmp_path, PASTOR_CORPUS=str(tmp_path / "sumiu.xml"))).start(background=False)
        outputs = list(Handlers(runtime).respond("Olá", [], Conversation(), request()))
        chat, box = outputs[-1][0], outputs[-1][1]
        assert "sumiu.xml" in chat[-1]["content"] and "PASTOR_CORPUS" in chat[-1]["content"]
        assert box == gr.skip()  # the textbox keeps the text


class TestPlainMessages:
    def test_gradio_values_become_plain_messages(self):
        from pastor.web.handlers import plain_messages

        chatbot = gr.Chatbot()
        shown = [
            {"role": "user", "content": "Oi"},
            {"role": "assistant", "content": "Paz", "metadata": {"title": "Fontes", "status": "done"}},
        ]
        value = chatbot.preprocess(chatbot.postprocess(shown))
        assert plain_messages(value) == shown


# == API input checks ==============================================================================
class TestApiChecks:
    def test_a_bad_history_is_refused_with_the_checks_own_message(self, app):
        # The rule lives in `History.checked` (tests/answer/test_history.py); the API only turns its
        # InputError into the client's error.
        with pytest.raises(gr.Error) as refused:
            WebAPI(app.runtime)._history([{"role": "system", "content": "x"}])
        assert refused.value.message == BAD_MESSAGE

    def test_k_must_be_an_integer_in_range(self):
        from pastor.web.api import _integer

        assert _integer(3.0, "k", 1, 50) == 3
        for bad in (0, 51, 2.5, "3", True):
            with pytest.raises(gr.Error):
                _integer(bad, "k", 1, 50)

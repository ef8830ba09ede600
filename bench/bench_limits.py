"""Benchmark parts for issue 18 (run by bench/bench_abuse.py, or alone with `--only`): every call
bounded, every route limited or closed, an append-only turn log, linear ingestion, bounded inputs.

    python -m bench.bench_abuse --only rewrite routes comments markdown questions

Prints figures; asserts nothing."""

from __future__ import annotations

import collections
import json
import os
import tempfile
import threading
import time
from pathlib import Path

import httpx

from tests.support.helpers import MINI_CORPUS, free_port, wait_for
from tests.support.loopback_servers import LoopbackServer, OpenAIProtocol, Script


def show(name: str, text: str) -> None:
    print(f"{name:<44} {text}", flush=True)


# -- one deadline for the whole turn ---------------------------------------------------------------
def bench_rewrite(_corpus: Path) -> None:
    """A follow-up (so it is rewritten) against a server trickling the rewrite one byte every 2 s."""
    from pastor.answer.chat import ChatService
    from pastor.bible.usfx import load_bible
    from pastor.config import Settings
    from pastor.providers import load_provider
    from pastor.search.assembly import build_retriever
    from pastor.search.bm25 import LexicalIndex
    from pastor.search.retrieval import RetrievalConfig
    from pastor.search.signals import SignalInputs

    bible = load_bible(MINI_CORPUS)
    lexical = LexicalIndex([v.id for v in bible.verses], [v.text for v in bible.verses])
    retriever = build_retriever(RetrievalConfig.declared(), SignalInputs(bible, lexical=lexical))
    history = [
        {"role": "user", "content": "Pedro perguntou quantas vezes devo perdoar meu irmão"},
        {"role": "assistant", "content": "Setenta vezes sete."},
    ]
    with LoopbackServer(OpenAIProtocol(), Script(trickle_body=True, delay=2.0)) as server:
        settings = Settings.from_env(
            {"LLM_PROVIDER": "openai", "LLM_TIMEOUT": "10", "OPENAI_BASE_URL": f"{server.url}/v1"}
        )
        provider = load_provider(settings, {"OPENAI_API_KEY": "sk-bench-0123456789abcdef"})
        chat = ChatService(retriever, bible, provider, deadline=settings.llm_timeout)
        started = time.perf_counter()
        final = chat.ask("e depois?", history)
        seconds = time.perf_counter() - started
        sent, total = server.body_bytes
    show(
        "reescrita gotejando 1 byte/2 s, LLM_TIMEOUT=10",
        f"turno terminou em {seconds:.1f} s; erro={final.result.error and final.result.error.type}; "
        f"o servidor tinha enviado {sent} de {total} bytes; pedidos ao modelo: {len(server.requests)}",
    )


# -- every route limited or closed -----------------------------------------------------------------
def serve(settings):
    """The app on uvicorn in a thread, once loaded: (server, thread, app, runtime, url)."""
    import uvicorn

    from pastor.web.server import create_app

    app, runtime = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host=settings.host, port=settings.port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, 60, "o servidor não iniciou")
    runtime.wait_loaded(300)
    return server, thread, app, runtime, f"http://{settings.host}:{settings.port}"


def start(env: dict):
    """A test-sized app (tiny corpus, `app_env` defaults) with `env` on top."""
    from pastor.config import Settings
    from tests.support.app_fixtures import app_env

    server, thread, app, _, url = serve(
        Settings.from_env(app_env(Path(env.pop("data")), PASTOR_PORT=str(free_port()), **env))
    )
    return server, thread, app, url


def bench_routes(_corpus: Path) -> None:
    """40 concurrent requests on each route from its own client address (X-Forwarded-For from a
    trusted loopback proxy), with a budget of 60 a minute (bursts of 30); then, on an app with the
    default budget and limits, each named endpoint 50 times from one client, counting the calls
    /check_provider makes to the model server."""
    from tests.support.routes import served_routes

    os.environ.setdefault("OPENAI_API_KEY", "sk-bench-0123456789abcdef")  # the loopback model's key
    with tempfile.TemporaryDirectory(prefix="pastor-routes-") as tmp, LoopbackServer(OpenAIProtocol()) as model:
        common = {"PASTOR_TRUSTED_PROXIES": "127.0.0.1", "LLM_PROVIDER": "openai", "OPENAI_BASE_URL": f"{model.url}/v1"}
        server, thread, app, url = start({"data": f"{tmp}/a", "PASTOR_REQUESTS_PER_MINUTE": "60", **common})
        try:
            routes = served_routes(app)
            print(f"rotas servidas pelo app: {len(routes)} (orçamento: 60/min por cliente, rajada de 30)")
            for number, route in enumerate(routes):
                show(str(route)[:44], burst_route(url, route, f"10.20.{number // 250}.{number % 250 + 1}"))
        finally:
            server.should_exit = True
            thread.join(15)
        server, thread, app, url = start(
            {"data": f"{tmp}/b", "PASTOR_RATE_LIMIT_SECONDS": "3", "PASTOR_REQUESTS_PER_MINUTE": "600", **common}
        )
        try:
            bench_endpoints_burst(url, model)
        finally:
            server.should_exit = True
            thread.join(15)


def burst_route(url: str, route, client: str, count: int = 40) -> str:
    """`count` requests at once (threads), so the budget's refill during the burst is negligible."""
    from concurrent.futures import ThreadPoolExecutor

    timeout = httpx.Timeout(5.0, read=1.0)  # a stream (heartbeat) or a slow answer: "aberta >1 s", served

    def one(_):
        try:
            return httpx.request(
                route.method,
                url + route.path,
                timeout=timeout,
                headers={"x-forwarded-for": client},
                content=b"{}" if route.method == "POST" else None,
            ).status_code
        except httpx.ReadTimeout:
            return "aberta >1 s"
        except httpx.HTTPError as exc:
            return type(exc).__name__

    with ThreadPoolExecutor(count) as pool:
        statuses = collections.Counter(pool.map(one, range(count)))
    return ", ".join(f"{n}× {code}" for code, n in sorted(statuses.items(), key=str))


def bench_endpoints_burst(url: str, model) -> None:
    """Named endpoints called the way gradio_client calls them (POST, then read the event), 50 in
    a burst from one client each, at PASTOR_RATE_LIMIT_SECONDS=3 and the default route budget."""
    print("endpoints nomeados, 50 seguidos de um cliente (PASTOR_RATE_LIMIT_SECONDS=3, orçamento 600/min):")
    calls = {"status": [], "check_provider": [], "lookup": ["Jo 3:16"], "search": ["medo do futuro", 6, "all"]}
    for number, (name, data) in enumerate(calls.items()):
        before = len([r for r in model.requests if r.path.endswith("/models")])
        outcome = collections.Counter(call_endpoint(url, name, data, f"10.30.0.{number + 1}") for _ in range(50))
        upstream = len([r for r in model.requests if r.path.endswith("/models")]) - before
        extra = f"; chamadas ao servidor do modelo: {upstream}" if name == "check_provider" else ""
        show(f"/{name} × 50", ", ".join(f"{n}× {k}" for k, n in sorted(outcome.items())) + extra)
    show("evento da página ui_tick (status) × 50", page_tick_burst(url, "10.30.0.9"))


def page_tick_burst(url: str, client: str, count: int = 50) -> str:
    """The page's own status refresh called as the browser calls it (`/gradio_api/run/predict`
    with its fn_index): a refresh too soon comes back as 'skip' (the page keeps what it shows)."""
    headers = {"x-forwarded-for": client}
    tick = next(
        d for d in httpx.get(f"{url}/config", headers=headers).json()["dependencies"] if d.get("api_name") == "ui_tick"
    )
    outcome: collections.Counter = collections.Counter()
    for _ in range(count):
        answer = httpx.post(
            f"{url}/gradio_api/run/predict",
            headers=headers,
            timeout=30,
            json={"data": [], "fn_index": tick["id"], "session_hash": "bench", "event_data": None},
        )
        data = answer.json().get("data") if answer.status_code == 200 else None
        outcome[
            "servida"
            if data and isinstance(data[1], str)
            else "ignorada (cedo demais)"
            if data
            else f"HTTP {answer.status_code}"
        ] += 1
    return ", ".join(f"{n}× {k}" for k, n in sorted(outcome.items()))


def call_endpoint(url: str, name: str, data: list, client: str) -> str:
    headers = {"x-forwarded-for": client}
    posted = httpx.post(f"{url}/gradio_api/call/{name}", json={"data": data}, headers=headers, timeout=30)
    if posted.status_code != 200:
        return f"HTTP {posted.status_code}"
    event = posted.json()["event_id"]
    with httpx.stream("GET", f"{url}/gradio_api/call/{name}/{event}", headers=headers, timeout=30) as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
                if kind in ("complete", "error"):
                    return "servida" if kind == "complete" else "recusada"
    return "sem resposta"


# -- an append-only turn log -----------------------------------------------------------------------
def written_bytes() -> int:
    """Bytes this process passed to write() so far (/proc/self/io `wchar`)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


def bench_comments(_corpus: Path) -> None:
    from pastor.answer.turnlog import TurnLog

    with tempfile.TemporaryDirectory(prefix="pastor-log-") as tmp:
        log = TurnLog(Path(tmp), max_bytes=50_000_000)
        answer = "Deus está perto dos que têm o coração quebrantado (Salmos 34:18). " * 6
        turns = 0
        while not log.path.exists() or log.path.stat().st_size < 4_700_000:
            log.write({"turn_id": f"t{turns:08d}", "question": "Estou com medo do futuro", "answer": answer})
            turns += 1
        size = log.path.stat().st_size
        log.knows("t00000000")  # the id index, read once (measured in bench_feedback_index)
        before, started = written_bytes(), time.perf_counter()
        for i in range(100):
            log.feedback(f"t{i % 10:08d}", "up" if i % 2 else "down", f"comentário número {i}")
        seconds, written = time.perf_counter() - started, written_bytes() - before
        mode = oct(log.path.stat().st_mode & 0o777)
    show(
        f"100 comentários, log de {size / 1e6:.1f} MB ({turns} turnos)",
        f"{written / 1000:.1f} KB escritos em {seconds * 1000:.0f} ms; turns.jsonl {mode}",
    )


# -- linear ingestion and bounded inputs -------------------------------------------------------------
def bench_markdown(_corpus: Path) -> None:
    from pastor.documents.folder import parse_document
    from pastor.documents.text import markdown_sections

    for count in (10_000, 20_000, 40_000, 80_000):
        text = "# h\n" * count
        started = time.perf_counter()
        markdown_sections(text)
        show(f"markdown_sections, {count} títulos", f"{(time.perf_counter() - started) * 1000:.0f} ms")
    data = ("# h\n" * 475_000).encode()  # 1.9 MB, under the 2 MB document cap
    started = time.perf_counter()
    result = parse_document("titulos.md", data)
    show(
        f"documento .md de {len(data) / 1e6:.1f} MB só de títulos",
        f"{time.perf_counter() - started:.2f} s (leitura + trechos); {len(result.chunks)} trechos, "
        f"erro: {result.error}",
    )


def bench_questions(_corpus: Path) -> None:
    from pastor.search.questions import QuestionSetError, read_question_file

    with tempfile.TemporaryDirectory(prefix="pastor-questions-") as tmp:
        big, fifo = Path(tmp) / "enorme.jsonl", Path(tmp) / "fila.jsonl"
        with open(big, "wb") as handle:
            handle.truncate(1_000_000_000)  # sparse: 1 GB that costs no disk
        os.mkfifo(fifo)
        for name, path in (("arquivo de perguntas de 1 GB", big), ("arquivo de perguntas FIFO", fifo)):
            started = time.perf_counter()
            try:
                outcome = f"lido ({len(read_question_file(path))} bytes)"
            except QuestionSetError as exc:
                outcome = f"recusado: {exc}"
            show(name, f"{(time.perf_counter() - started) * 1000:.1f} ms; {outcome}")


LIMIT_BENCHES = {
    "rewrite": bench_rewrite,
    "routes": bench_routes,
    "comments": bench_comments,
    "markdown": bench_markdown,
    "questions": bench_questions,
}

if __name__ == "__main__":
    print(json.dumps(sorted(LIMIT_BENCHES)))

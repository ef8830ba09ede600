"""Benchmark: abusive inputs against the running app (prints sizes, times and RSS; asserts nothing).

    python -m bench.bench_abuse [--corpus corpus/por-almeida1911.usfx.xml.gz] [--only NAME ...]

Starts the app in this process (full corpus, fake model, keyword search: vectors are not needed
here), then sends: the amplification message ("Sl 1-150" × 500) to /lookup, /search and /chat; a
10 MB request body; and parses a 100 000-deep JSON document and a million-row CSV as the
documents indexer would. Also measures the turn-log feedback index on a full log.
Targets (issue 11): /lookup of the amplification message in < 1 s and < 100 KB.

Issue 18 adds (`bench_limits.py`): a follow-up whose rewrite trickles one byte every 2 s
(LLM_TIMEOUT=10) and when its turn ends; a burst on every route the app serves and on each named
endpoint, with the upstream calls of /check_provider; the bytes written by 100 comments on a 4.7 MB
turn log; Markdown with 80k headings; an oversized and a FIFO adapter question file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_limits import LIMIT_BENCHES, serve

ROOT = Path(__file__).resolve().parent.parent

AMPLIFICATION = "; ".join(["Sl 1-150"] * 500)


def default_corpus() -> Path:
    """The Almeida 1911 text shipped in the repository."""
    return ROOT / "corpus" / "por-almeida1911.usfx.xml.gz"


def rss_mb() -> tuple[float, float]:
    """(current, peak since the last reset) resident memory of this process, in MB."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM (Linux ≥ 4.0)
    except OSError:
        pass


def measure(name: str, action) -> None:
    reset_peak()
    started = time.perf_counter()
    try:
        outcome = action()
    except Exception as exc:  # a refusal is a result too
        outcome = f"recusado: {type(exc).__name__}: {str(exc)[:120]}"
    seconds = time.perf_counter() - started
    current, peak = rss_mb()
    print(f"{name:<34} {seconds * 1000:9.1f} ms  RSS {current:7.1f} MB (pico {peak:7.1f} MB)  {outcome}", flush=True)


def size(result) -> str:
    return f"{len(json.dumps(result, ensure_ascii=False).encode()):,} bytes".replace(",", ".")


def start_server(corpus: Path, data: Path):
    from pastor.config import Settings
    from tests.support.helpers import free_port

    env = {
        "PASTOR_CORPUS": str(corpus),
        "PASTOR_DATA_DIR": str(data),
        "PASTOR_DOCS_DIR": "",
        "PASTOR_PROMINENCE": "",
        "LLM_PROVIDER": "fake",
        "PASTOR_RATE_LIMIT_SECONDS": "0",
        "PASTOR_BACKGROUND_INDEX": "false",
        "PASTOR_HOST": "127.0.0.1",
        "PASTOR_PORT": str(free_port()),
        "EMBEDDING_MODEL": os.environ.get("EMBEDDING_MODEL", "use-multilingual"),
    }
    server, thread, _, runtime, url = serve(Settings.from_env(env))
    return server, thread, url, runtime


def bench_endpoints(url: str, max_body: int) -> None:
    import httpx
    from gradio_client import Client

    client = Client(url + "/", verbose=False)
    measure("/lookup amplificação", lambda: size(client.predict(AMPLIFICATION, api_name="/lookup")))
    measure(
        "/search amplificação (4000 car.)",
        lambda: size(client.predict(AMPLIFICATION[:4000], 6, "all", api_name="/search")),
    )

    def chat():
        job = client.submit(AMPLIFICATION[:4000], None, api_name="/chat")
        job.result(timeout=120)
        final = job.outputs()[-1]
        return f"{size(final)}, {len(final['sources'])} fontes"

    measure("/chat amplificação (4000 car.)", chat)
    measure("/chat mensagem de 4998 car.", lambda: size(client.predict(AMPLIFICATION, None, api_name="/chat")))
    body = b'{"data": ["' + b"x" * 10_000_000 + b'"]}'
    measure(
        "corpo de 10 MB em /lookup",
        lambda: (lambda r: f"HTTP {r.status_code}, {len(r.content)} bytes")(
            httpx.post(
                url + "/gradio_api/call/lookup", content=body, timeout=60, headers={"content-type": "application/json"}
            )
        ),
    )
    print(f"  (limite do corpo: PASTOR_MAX_BODY_BYTES = {max_body} bytes)")


def bench_documents() -> None:
    from pastor.documents.folder import parse_document

    deep = ("[" * 100_000 + "]" * 100_000).encode()
    rows = ("nome\n" + "a\n" * 999_997).encode()  # 2 MB: within PASTOR_DOC_MAX_BYTES
    for name, data in (("JSON com 100 000 níveis", deep), ("CSV de 1 milhão de linhas", rows)):
        measure(
            f"{name} ({len(data) / 1e6:.1f} MB)",
            lambda data=data, name=name: parse_document("x.json" if "JSON" in name else "x.csv", data).error,
        )


def bench_feedback_index(folder: Path) -> None:
    from pastor.answer.turnlog import KEEP_ROTATED, TurnLog

    log = TurnLog(folder, max_bytes=5_000_000)
    answer = "Deus está perto dos que têm o coração quebrantado (Salmos 34:18). " * 6
    lines = 0
    while len(log._files()) <= KEEP_ROTATED:
        log.write({"turn_id": f"t{lines:08d}", "question": "Estou com medo do futuro", "answer": answer})
        lines += 1
    later = TurnLog(folder)  # after a restart: the index is built on the first feedback
    measure(f"1º feedback, log cheio ({lines} turnos)", lambda: later.feedback("t00000100", "up").rating)
    measure("feedback seguinte", lambda: later.feedback(f"t{lines - 1:08d}", "down").rating)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument(
        "--only",
        nargs="*",
        choices=sorted(LIMIT_BENCHES),
        default=None,
        help="run only these issue-18 parts (skips the issue-11 ones)",
    )
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.only is not None:
        for name in args.only or sorted(LIMIT_BENCHES):
            LIMIT_BENCHES[name](args.corpus)
        return 0
    with tempfile.TemporaryDirectory(prefix="pastor-abuse-") as tmp:
        print(f"corpus: {args.corpus.name}; RSS inicial {rss_mb()[0]:.1f} MB", flush=True)
        started = time.perf_counter()
        server, thread, url, runtime = start_server(args.corpus, Path(tmp) / "data")
        print(
            f"app pronto em {time.perf_counter() - started:.1f} s (fase {runtime.phase}); RSS {rss_mb()[0]:.1f} MB",
            flush=True,
        )
        try:
            bench_endpoints(url, runtime.settings.max_body_bytes)
        finally:
            server.should_exit = True
            thread.join(15)
            runtime.stop()
        bench_documents()
        bench_feedback_index(Path(tmp) / "logs")
    for name in sorted(LIMIT_BENCHES):
        LIMIT_BENCHES[name](args.corpus)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: `python app.py` start-up on the full corpus and concurrent chats (prints figures, asserts nothing).

    python -m bench.bench_app [--corpus corpus/por-almeida1911.usfx.xml.gz] [--data-dir DIR]
                              [--runs 3] [--chats 20] [--fake-delay 0]
    python -m bench.bench_app --first-minutes [--runs 5] [--data-dir DIR]

Without --data-dir the vector index is built first (`python -m pastor index`, a few minutes on 2 cores)
in a temporary folder, so start-up is measured with an existing complete index.
Targets: page reachable (/live and / answer 200) in at most 10 s; 20 concurrent chats, no error.

--first-minutes: what a person running the app meets, with every default but LLM_PROVIDER=none: /live and /ready
of `runs` first starts, each on an empty data folder, then of `runs` restarts on a copy of the data folder with a
complete index (after one unmeasured start that leaves the caches a restart finds). Targets (2 quiet cores):
/ready at most 10 s on a first start, 5 s on a restart.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
CORPUS_FILE = "por-almeida1911.usfx.xml.gz"
REACHABLE_TARGET = 10.0
FIRST_READY_TARGET = 10.0  # an empty data folder
RESTART_READY_TARGET = 5.0  # a data folder with a complete index

# Settings a developer's shell may hold; the server gets only the ones given here.
APP_PREFIXES = ("PASTOR_", "LLM_", "EMBEDDING_", "OLLAMA_", "OPENAI_", "GROQ_", "ANTHROPIC_", "REINDEX_")

QUESTIONS = (
    "Estou com medo do futuro",
    "Como perdoar quem me feriu?",
    "Estou de luto pela minha mãe",
    "Sinto ansiedade com as dívidas e não durmo",
    "O que diz João 3:16?",
    "Me sinto sozinho e sem esperança",
    "Como ter paciência com meus filhos?",
    "Deus ouve as minhas orações?",
)


# -- helpers --------------------------------------------------------------------------------------
def default_corpus() -> Path:
    folder = os.environ.get("PASTOR_TEST_CORPUS_DIR") or "corpus"
    path = Path(folder).expanduser()
    return ((path if path.is_absolute() else ROOT / path) / CORPUS_FILE).resolve()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def default_env(data_dir: Path, port: int) -> dict[str, str]:
    """The app as a person starts it: no setting of ours but the data folder, the port and LLM_PROVIDER=none."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(APP_PREFIXES)}
    return {
        **base,
        "PYTHONUNBUFFERED": "1",
        "HF_HUB_OFFLINE": "1",
        "LLM_PROVIDER": "none",
        "PASTOR_DATA_DIR": str(data_dir),
        "PASTOR_HOST": "127.0.0.1",
        "PASTOR_PORT": str(port),
    }


def server_env(corpus: Path, data_dir: Path, port: int, fake_delay: float) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(APP_PREFIXES)}
    return {
        **base,
        "PYTHONUNBUFFERED": "1",
        "HF_HUB_OFFLINE": "1",
        "PASTOR_CORPUS": str(corpus),
        "PASTOR_DATA_DIR": str(data_dir),
        "PASTOR_DOCS_DIR": "",
        "EMBEDDING_MODEL": "use-multilingual",
        "LLM_PROVIDER": "fake",
        "PASTOR_FAKE_DELAY": str(fake_delay),
        "PASTOR_RATE_LIMIT_SECONDS": "0",
        "PASTOR_HOST": "127.0.0.1",
        "PASTOR_PORT": str(port),
    }


def get(url: str) -> httpx.Response | None:
    try:
        return httpx.get(url, timeout=5)
    except httpx.HTTPError:
        return None


# -- index ------------------------------------------------------------------------------------------
def build_index(corpus: Path, data_dir: Path) -> None:
    """`python -m pastor index` into data_dir; prints its summary."""
    env = server_env(corpus, data_dir, free_port(), 0.0)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pastor", "index", "--json"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"falha ao construir o índice (código {done.returncode}):\n{done.stderr[-2000:]}")
    summary = json.loads(done.stdout)
    rows = summary.get("rows") or 0
    print(
        f"índice construído: {rows} vetores em {seconds:.1f} s, processo inteiro com a carga do modelo "
        f"({rows / seconds:.0f} vetores/s; {summary.get('embedder')})\n"
    )


# -- (a) start-up --------------------------------------------------------------------------------------
class Server:
    """`python app.py` as a subprocess, its output in a log file."""

    def __init__(self, env: dict[str, str], log_path: Path):
        self.env = env
        self.url = f"http://127.0.0.1:{env['PASTOR_PORT']}"
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def start(self) -> float:
        with open(self.log_path, "wb") as log:
            started = time.monotonic()
            self.process = subprocess.Popen(
                [sys.executable, "app.py"], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        return started

    def wait(self, condition, timeout: float, what: str) -> float:
        """The monotonic time at which condition() first held."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"app.py terminou (código {self.process.returncode}):\n{self.log()}")
            if condition():
                return time.monotonic()
            time.sleep(0.05)
        raise SystemExit(f"{what} não respondeu em {timeout} s:\n{self.log()}")

    def ok(self, path: str) -> bool:
        response = get(self.url + path)
        return response is not None and response.status_code == 200

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-3000:]

    def stop(self) -> float:
        """SIGINT (graceful), then kill after 20 s; returns the seconds it took."""
        started = time.monotonic()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return time.monotonic() - started


def measure_startup(server: Server) -> dict[str, float]:
    """Seconds from the process start to /live, to the page, to /ready and to the vectors loaded (they follow
    /ready: the app answers by keywords meanwhile)."""
    started = server.start()
    live = server.wait(lambda: server.ok("/live"), 120, "/live")
    page = server.wait(lambda: server.ok("/"), 120, "a página /")
    ready = server.wait(lambda: server.ok("/ready"), 300, "/ready")
    vectors = server.wait(lambda: vectors_state(server) != "loading", 120, "os vetores")
    # A complete index is opened after the app counts as ready; anything else means a rebuild.
    if vectors_state(server) != "ready":
        index = get(server.url + "/ready").json()["vectors"]["index"]
        raise SystemExit(
            f"o índice em {server.env['PASTOR_DATA_DIR']} não está completo para este código e "
            f"estas configurações ({index}); o app começou a reconstruí-lo. "
            "Rode sem --data-dir, ou reconstrua com `python -m pastor index`."
        )
    return {"live": live - started, "page": page - started, "ready": ready - started, "vectors": vectors - started}


def vectors_state(server: Server) -> str:
    """ "ready" (a complete index serves), "indexing" (a build runs) or "loading" (neither yet)."""
    response = get(server.url + "/ready")
    vectors = response.json()["vectors"] if response is not None and response.status_code == 200 else {}
    return "ready" if vectors.get("ready") else "indexing" if vectors.get("indexing") else "loading"


def first_minutes(runs: int, data_dir: Path | None, corpus: Path, tmp: Path) -> dict[str, list[dict[str, float]]]:
    """/live and /ready of `runs` first starts (empty data folder) and `runs` restarts (a copy of a data folder
    with a complete index, after one unmeasured start), each server stopped once ready."""
    figures: dict[str, list[dict[str, float]]] = {"first": [], "restart": []}
    for run in range(runs):
        server = Server(default_env(tmp / f"empty-{run}", free_port()), tmp / f"first-{run}.log")
        figures["first"].append(timed_start(server))
    warm = tmp / "warm"
    if data_dir is None:
        build_index(corpus, warm)
    else:
        shutil.copytree(data_dir, warm)
    for run in range(runs + 1):
        server = Server(default_env(warm, free_port()), tmp / f"restart-{run}.log")
        timings = timed_start(server)
        if run:  # the first start on the copy writes the caches a restart reads
            figures["restart"].append(timings)
    return figures


def timed_start(server: Server) -> dict[str, float]:
    """Seconds from the process start to /live and to /ready; the server is stopped after."""
    started = server.start()
    try:
        live = server.wait(lambda: server.ok("/live"), 120, "/live")
        ready = server.wait(lambda: server.ok("/ready"), 300, "/ready")
    finally:
        server.stop()
    return {"live": live - started, "ready": ready - started}


def print_first_minutes(figures: dict[str, list[dict[str, float]]]) -> None:
    targets = {"first": FIRST_READY_TARGET, "restart": RESTART_READY_TARGET}
    labels = {"first": "primeira partida (pasta de dados vazia)", "restart": "reinício (índice completo)"}
    for kind, runs in figures.items():
        print(f"{labels[kind]}, {len(runs)}x:")
        for key in ("live", "ready"):
            print("  " + summary(f"/{key} 200", [t[key] for t in runs]))
        worst = max(t["ready"] for t in runs)
        verdict = "ok" if worst <= targets[kind] else "ACIMA DA META"
        print(f"  pior /ready: {worst:.2f} s (meta ≤ {targets[kind]:.0f} s: {verdict})")


# -- (b) concurrent chats -------------------------------------------------------------------------------
def concurrent_chats(url: str, count: int, timeout: float = 300.0) -> tuple[list[float], list[str], float]:
    """`count` users, each with its own gradio_client session, asking at the same moment.

    Returns end-to-end latencies (submit → final answer), errors and the wall time of the burst."""
    from gradio_client import Client

    clients = [Client(url + "/", verbose=False) for _ in range(count)]  # connecting is not timed
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(count + 1)

    def user(index: int) -> None:
        barrier.wait()
        started = time.monotonic()
        try:
            final = clients[index].submit(QUESTIONS[index % len(QUESTIONS)], None, api_name="/chat").result(timeout)
            problem = None if final.get("done") and not final.get("error") else f"resposta incompleta: {final}"
        except Exception as exc:  # a benchmark counts failures instead of stopping at the first
            problem = f"{type(exc).__name__}: {exc}"
        with lock:
            if problem:
                errors.append(problem)
            else:
                latencies.append(time.monotonic() - started)

    threads = [threading.Thread(target=user, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    barrier.wait()
    burst = time.monotonic()
    for thread in threads:
        thread.join(timeout + 30)
    return latencies, errors, time.monotonic() - burst


# -- report -------------------------------------------------------------------------------------------
def summary(label: str, values: list[float], unit: str = "s") -> str:
    return f"{label}: mediana {statistics.median(values):.2f} {unit}  min {min(values):.2f}  máx {max(values):.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus(), help="arquivo USFX (padrão: Almeida 1911)")
    parser.add_argument("--data-dir", type=Path, help="pasta de dados com o índice já construído (reutilizada)")
    parser.add_argument("--runs", type=int, default=3, help="partidas medidas do servidor")
    parser.add_argument("--chats", type=int, default=20, help="conversas simultâneas")
    parser.add_argument(
        "--fake-delay", type=float, default=0.0, help="pausa do modelo fake entre pedaços da resposta (s)"
    )
    parser.add_argument(
        "--first-minutes", action="store_true", help="só /live e /ready: primeiras partidas e reinícios, padrões"
    )
    args = parser.parse_args()
    if not args.corpus.is_file():
        raise SystemExit(f"corpus ausente: {args.corpus} (use --corpus ou PASTOR_TEST_CORPUS_DIR)")
    if args.first_minutes:
        with tempfile.TemporaryDirectory(prefix="bench-start-") as tmp:
            print(f"cpu: {os.cpu_count()}   carga antes: {os.getloadavg()}   python {sys.version.split()[0]}\n")
            print_first_minutes(first_minutes(args.runs, args.data_dir, args.corpus, Path(tmp)))
            print(f"\ncarga depois: {os.getloadavg()}")
        return 0

    with tempfile.TemporaryDirectory(prefix="bench-app-") as tmp:
        data_dir = args.data_dir or Path(tmp) / "data"
        print(
            f"corpus: {args.corpus.name}   dados: {data_dir}   cpu: {os.cpu_count()}   "
            f"python {sys.version.split()[0]}\n"
        )
        if args.data_dir is None:
            build_index(args.corpus, data_dir)

        timings, server, errors = [], None, []
        try:
            # (a) Start-up with the complete index, `runs` times; the last server stays up for (b).
            for run in range(args.runs):
                if server is not None:
                    server.stop()
                env = server_env(args.corpus, data_dir, free_port(), args.fake_delay)
                server = Server(env, Path(tmp) / f"app-{run}.log")
                timings.append(measure_startup(server))
            print(f"partida de `python app.py` com índice completo ({args.runs}x):")
            for key, label in (
                ("live", "/live 200"),
                ("page", "página / 200 (UI alcançável)"),
                ("ready", "/ready 200 (corpus e BM25 carregados)"),
                ("vectors", "vetores do índice completo carregados"),
            ):
                print("  " + summary(label, [t[key] for t in timings]))
            reachable = max(max(t["live"], t["page"]) for t in timings)
            verdict = "ok" if reachable <= REACHABLE_TARGET else "ACIMA DA META"
            print(f"  pior caso UI alcançável: {reachable:.2f} s (meta ≤ {REACHABLE_TARGET:.0f} s: {verdict})\n")

            # (b) Concurrent chats on the last server.
            latencies, errors, wall = concurrent_chats(server.url, args.chats)
            print(
                f"{args.chats} conversas simultâneas (gradio_client /chat, modelo fake, "
                f"atraso {args.fake_delay} s/pedaço, PASTOR_CONCURRENCY padrão):"
            )
            if latencies:
                p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
                print(
                    f"  ponta a ponta: p50 {p50:.2f} s  p95 {p95:.2f} s  máx {max(latencies):.2f} s   "
                    f"rajada inteira {wall:.2f} s"
                )
            print(f"  concluídas {len(latencies)} de {args.chats}; erros: {len(errors)}")
            for problem in errors[:5]:
                print(f"    - {problem[:300]}")
        finally:
            if server is not None:
                print(f"\nparada (SIGINT): {server.stop():.2f} s")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

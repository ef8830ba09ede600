"""Browser test support: the Debian Chromium, `python app.py` as a subprocess, a synthetic corpus."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from pastor.bible import canon
from tests.support.helpers import ARTIFACTS, ROOT  # noqa: E402,F401

# No network of its own, no first-run or update traffic: the page under test is the only peer.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Settings a developer's shell may hold; the app under test gets only the ones the test gives.
APP_PREFIXES = ("PASTOR_", "LLM_", "EMBEDDING_", "OLLAMA_", "OPENAI_", "GROQ_", "ANTHROPIC_", "REINDEX_")


# -- the browser ---------------------------------------------------------------------------------
def chromium_path() -> str | None:
    """PASTOR_CHROMIUM if set, else `chromium` on the PATH (Debian's package); None when absent."""
    configured = os.environ.get("PASTOR_CHROMIUM", "").strip()
    if configured:
        found = shutil.which(configured)
        return found if found else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing_browser_reason() -> str:
    configured = os.environ.get("PASTOR_CHROMIUM", "").strip()
    where = f"PASTOR_CHROMIUM={configured!r} não é executável" if configured else "`chromium` não está no PATH"
    return f"Chromium ausente ({where}); instale com `apt-get install chromium` ou defina PASTOR_CHROMIUM"


# -- the app as a subprocess --------------------------------------------------------------------------
class AppProcess:
    """`python app.py` with the given settings; its output goes to a log file read on failure."""

    def __init__(self, env: dict[str, str], log_path: Path):
        base = {k: v for k, v in os.environ.items() if not k.startswith(APP_PREFIXES)}
        self.env = {**base, **env, "PYTHONUNBUFFERED": "1"}
        self.url = f"http://{env['PASTOR_HOST']}:{env['PASTOR_PORT']}"
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def start(self) -> AppProcess:
        with open(self.log_path, "wb") as log:
            # The child keeps its own handle on the log; ours can close at once.
            self.process = subprocess.Popen(
                [sys.executable, "app.py"], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        return self

    def get(self, path: str) -> httpx.Response | None:
        try:
            return httpx.get(self.url + path, timeout=5)
        except httpx.HTTPError:
            return None

    def wait_ready(self, timeout: float = 180.0) -> None:
        """Until /ready answers 200; a process that exits or a timeout fails with the app's log."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"app.py terminou com código {self.process.returncode}:\n{self.log()}")
            response = self.get("/ready")
            if response is not None and response.status_code == 200:
                return
            time.sleep(0.2)
        raise AssertionError(f"/ready não ficou pronto em {timeout} s:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return "(sem log)"

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)  # uvicorn's graceful stop: the indexer is told to stop
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# -- a corpus big enough that indexing takes seconds ----------------------------------------------------
WORDS = (
    "Deus",
    "Senhor",
    "paz",
    "amor",
    "fé",
    "esperança",
    "medo",
    "coração",
    "caminho",
    "luz",
    "vida",
    "povo",
    "terra",
    "céu",
    "água",
    "pão",
    "casa",
    "filho",
    "pai",
    "mãe",
    "irmão",
    "palavra",
    "verdade",
    "graça",
    "perdão",
    "força",
    "alegria",
    "choro",
    "consolo",
    "justiça",
    "misericórdia",
    "oração",
    "descanso",
    "cuidado",
    "promessa",
    "servo",
    "rei",
    "monte",
    "rio",
    "campo",
    "noite",
    "dia",
    "guarda",
    "anda",
    "fala",
    "ouve",
    "ensina",
    "levanta",
    "sustenta",
    "chama",
    "abençoa",
    "salva",
)


def write_synthetic_usfx(path: Path, verses: int, seed: int = 7) -> Path:
    """A valid USFX of `verses` verses of made-up Portuguese text, in canonical book order."""
    rng = random.Random(seed)
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<usfx>", "<languageCode>por</languageCode>"]
    left = verses
    for book in canon.books():
        if left <= 0:
            break
        lines.append(f'<book id="{book.code}">')
        for chapter, count in enumerate(book.verse_counts, start=1):
            if left <= 0:
                break
            lines.append(f'<c id="{chapter}"/>')
            for number in range(1, min(count, left) + 1):
                text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 18)))
                lines.append(f'<v id="{number}"/>{text[0].upper()}{text[1:]}.<ve/>')
            left -= min(count, left)
        lines.append("</book>")
    lines.append("</usfx>")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path

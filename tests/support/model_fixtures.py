"""Tiny local models for the suite, built once per session (no network): one wired to a known reply, one
that never ends its reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.tiny_model import build_tiny_model, wire

# What the wired model writes, whatever it is asked: a supported citation (Mateus 6:34 is in the mini corpus
# and is what "Estou com medo do futuro" retrieves) and an invented book that the validator must remove.
WIRED_PIECES = [
    "Não tenha medo do amanhã",
    ": Jesus ensina em",
    " Mateus 6:34",
    " que cada dia basta",
    ". Também está escrito em",
    " Hezequias 3:16",
    " que Deus nunca falha",
    ".",
]
WIRED_REPLY = "".join(WIRED_PIECES)


@pytest.fixture(scope="session")
def wired_model(tmp_path_factory) -> Path:
    """A Qwen2-architecture model folder whose every reply is WIRED_REPLY."""
    folder = build_tiny_model(tmp_path_factory.mktemp("wired-model") / "model")
    wire(folder, WIRED_PIECES)
    return folder


ENDLESS_PIECES = ["Deus está contigo", " em cada passo", " do caminho;", " confia e descansa", " nele. "]


@pytest.fixture(scope="session")
def endless_model(tmp_path_factory) -> Path:
    """A Qwen2-architecture model folder that repeats ENDLESS_PIECES and never ends its reply."""
    folder = build_tiny_model(tmp_path_factory.mktemp("endless-model") / "model", seed=2)
    wire(folder, ENDLESS_PIECES, endless=True)
    return folder

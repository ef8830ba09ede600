"""The verse index's manifest: what a build was made from, and the status read from it.

`manifest.json` names the table being served and records the corpus, extras, embedder and parameters
it was built from; a rebuild beside a complete index records its progress in `manifest.next.json`
until the swap (see `VerseIndex`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pastor.bible.usfx import Bible
from pastor.text.datafile import logical_name

MANIFEST_VERSION = 1
TABLE = "verses"
# A rebuild beside a complete index fills the other table of the pair, then swaps.
BESIDE = {"verses": "verses_b", "verses_b": "verses"}

# How search text is derived from verse text; bump when that changes so old tables rebuild.
SEARCH_TEXT_VERSION = "modern-fold-1"


@dataclass
class IndexStatus:
    state: str  # "missing" | "indexing" | "complete" | "partial" | "error"
    rows: int = 0
    total: int = 0
    error: str | None = None
    manifest: dict = field(default_factory=dict)


def expected_manifest(
    bible: Bible, extras: Sequence[Bible], embedder: Any, *, window: int, modernize: bool
) -> dict[str, Any]:
    """The manifest fields a table built now from these texts and settings must carry."""
    return {
        "version": MANIFEST_VERSION,
        "corpus": {"file": logical_name(bible.path), "sha256": bible.sha256, "verses": len(bible.verses)},
        "extras": [{"file": logical_name(b.path), "sha256": b.sha256} for b in extras],
        "embedder": {"name": embedder.name, "dim": embedder.dim},
        "params": {"window": window, "search_text": SEARCH_TEXT_VERSION, "modernize": modernize, "metric": "cosine"},
    }


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest at `path`, or {} when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def matches(manifest: dict, expected: dict) -> bool:
    """Whether `manifest` carries every field of `expected` unchanged."""
    return all(manifest.get(k) == v for k, v in expected.items())

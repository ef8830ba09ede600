"""Start-up caches of BM25 tokens: the one shipped in corpus/ for the default texts, and the one beside the index."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from pastor.config import ROOT
from pastor.text.normalize import TOKENIZER_VERSION

# The default texts' tokens, computed ahead (`python -m pastor corpus --ship-tokens`) so a first start with an
# empty data folder does not tokenize 62k verses (8.7 s here) before /ready; its key names the texts' digests,
# the stemmer and the tokenizer version, so it is used only when all three are the running ones.
SHIPPED_TOKENS = ROOT / "corpus" / "bm25_tokens.json.gz"


def cache_key(bibles, stemmer: str) -> dict:
    """Cached tokens are valid for the same texts, stemmer and tokenizer version."""
    return {"texts": [b.sha256 for b in bibles], "stemmer": stemmer, "tokenizer": TOKENIZER_VERSION}


class TokenCache:
    """A gzip'd JSON file: tokenizing 31k verses took 3–7 s here, reading this file 0.1–0.2 s."""

    def __init__(self, data_dir: Path, path: Path | None = None):
        self.path = Path(path) if path is not None else Path(data_dir) / "index" / "tokens.json.gz"

    @classmethod
    def shipped(cls) -> TokenCache:
        return cls(ROOT, SHIPPED_TOKENS)

    def key(self) -> dict | None:
        """The key the file was written for, or None when it cannot be read."""
        data = self._read()
        return data.get("key") if data is not None else None

    def load(self, key: dict) -> tuple[list[str], list[list[str]]] | None:
        data = self._read()
        if data is None or data.get("key") != key:
            return None
        return data["ids"], [d.split(" ") if d else [] for d in data["docs"]]

    def _read(self) -> dict | None:
        try:
            with gzip.open(self.path, "rt", encoding="utf-8") as handle:
                return json.load(handle)
        except (OSError, ValueError, EOFError):
            return None

    def save(self, key: dict, ids: list[str], docs: list[list[str]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        # No name or time in the gzip header (as `gzip -9n`): the shipped file's bytes are reproducible.
        with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed:
            text = json.dumps({"key": key, "ids": ids, "docs": [" ".join(d) for d in docs]}, ensure_ascii=False)
            packed.write(text.encode("utf-8"))
        os.replace(tmp, self.path)  # atomic: a crash leaves the old cache or none

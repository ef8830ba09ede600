"""Start-up cache of BM25 tokens in the LanceDB database, so a restart does not re-tokenize the Bible."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow as pa

from .storage import connect, write_json

TABLE = "lexical"
# The tokenizer's source: any change to normalisation, stemming or stop-words invalidates the cache.
_SOURCES = ("normalize.py", "stemmer.py", "stopwords.py", "lexical.py")


def cache_key(bibles, stemmer: str) -> dict:
    here = Path(__file__).parent
    code = hashlib.sha256(b"".join((here / name).read_bytes() for name in _SOURCES)).hexdigest()
    return {"texts": [b.sha256 for b in bibles], "stemmer": stemmer, "tokenizer": code[:16]}


class TokenCache:
    def __init__(self, data_dir: Path):
        self.dir = Path(data_dir) / "index"
        self.key_path = self.dir / "lexical.json"

    def _db(self):
        return connect(self.dir)

    def load(self, key: dict) -> tuple[list[str], list[list[str]]] | None:
        try:
            if json.loads(self.key_path.read_text(encoding="utf-8")) != key:
                return None
            data = self._db().open_table(TABLE).to_arrow()
        except (OSError, ValueError, FileNotFoundError):
            return None
        return data.column("id").to_pylist(), [t.split(" ") if t else [] for t in data.column("tokens").to_pylist()]

    def save(self, key: dict, ids: list[str], docs: list[list[str]]) -> None:
        table = pa.table({"id": ids, "tokens": [" ".join(d) for d in docs]})
        self._db().create_table(TABLE, data=table, mode="overwrite")
        write_json(self.key_path, key)  # the key is written last: a crash leaves no stale match

"""The numpy mirror of a complete verse table: `<table>.vectors.npy` and `<table>.ids.json`.

A restart reads 64 MB of plain numpy instead of importing and opening LanceDB (importing lancedb
alone measured 3.5 s here); search runs on these vectors in memory (`VectorTable`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pastor.index.verse_check import VectorsRefused
from pastor.search.sources import VectorTable
from pastor.search.storage import save_array, write_json


class NumpyMirror:
    """The numpy copies of the tables under one index folder, named after their table."""

    def __init__(self, folder: Path):
        self.dir = folder

    def files(self, name: str) -> tuple[Path, Path]:
        """The vectors file and the ids file of table `name`."""
        return self.dir / f"{name}.vectors.npy", self.dir / f"{name}.ids.json"

    def save(self, name: str, vectors: VectorTable) -> None:
        matrix, id_file = self.files(name)
        save_array(matrix, vectors.matrix)
        write_json(id_file, vectors.ids)

    def load(self, name: str) -> VectorTable | None:
        """The copy of table `name` as it is on disk, None when there is none. What it holds is
        for the content check to judge (`verse_check.py`); a copy that cannot be read is refused."""
        vectors, id_file = self.files(name)
        if not (vectors.exists() or id_file.exists()):
            return None
        try:
            ids = json.loads(id_file.read_text(encoding="utf-8"))
            matrix = np.load(vectors, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise VectorsRefused(f"cópia dos vetores ilegível ({type(exc).__name__})") from exc
        if not isinstance(ids, list):
            raise VectorsRefused("cópia dos vetores ilegível (lista de ids inválida)")
        return VectorTable(ids, matrix)

    def remove(self, name: str) -> None:
        for path in self.files(name):
            path.unlink(missing_ok=True)

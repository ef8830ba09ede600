"""The numpy mirror of a complete verse table: `<table>.vectors.npy` and `<table>.ids.json`.

A restart reads 64 MB of plain numpy instead of importing and opening LanceDB (importing lancedb
alone measured 3.5 s here); search runs on these vectors in memory (`VectorTable`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pastor.search.sources import VectorTable
from pastor.search.storage import save_array, write_json


class NumpyMirror:
    """The numpy copies of the tables under one index folder, named after their table."""

    def __init__(self, folder: Path, dim: int):
        self.dir = folder
        self.dim = dim

    def files(self, name: str) -> tuple[Path, Path]:
        """The vectors file and the ids file of table `name`."""
        return self.dir / f"{name}.vectors.npy", self.dir / f"{name}.ids.json"

    def save(self, name: str, vectors: VectorTable) -> None:
        matrix, id_file = self.files(name)
        save_array(matrix, vectors.matrix)
        write_json(id_file, vectors.ids)

    def load(self, name: str, total: int | None) -> VectorTable | None:
        """The copy of table `name` when it holds `total` rows of this dimension, else None."""
        vectors, id_file = self.files(name)
        try:
            ids = json.loads(id_file.read_text(encoding="utf-8"))
            matrix = np.load(vectors)
        except (OSError, ValueError):
            return None
        if len(ids) != total or matrix.shape != (len(ids), self.dim):
            return None
        return VectorTable(ids, matrix)

    def remove(self, name: str) -> None:
        for path in self.files(name):
            path.unlink(missing_ok=True)

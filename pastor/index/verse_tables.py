"""The LanceDB tables of the verse index: the store the vectors are built into, batch by batch."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np

from pastor.search.rows import Row
from pastor.search.sources import VectorTable
from pastor.search.storage import connect, table_names


class VerseTables:
    """The verse tables (`verses`, `verses_b`) of the LanceDB database under one index folder."""

    def __init__(self, folder: Path, dim: int):
        self.dir = folder
        self.dim = dim

    def db(self) -> Any:
        return connect(self.dir)

    def schema(self) -> Any:
        import pyarrow as pa

        return pa.schema(
            [
                ("id", pa.string()),
                ("book", pa.string()),
                ("book_name", pa.string()),
                ("chapter", pa.int32()),
                ("verse", pa.int32()),
                ("translation", pa.string()),
                ("text", pa.string()),
                ("search_text", pa.string()),
                ("vector", pa.list_(pa.float32(), self.dim)),
            ]
        )

    def open(self, name: str, *, create: bool) -> Any:
        """Table `name`; when it does not exist, a new empty one with `create`, else None."""
        db = self.db()
        if name in table_names(db):
            return db.open_table(name)
        if not create:
            return None
        return db.create_table(name, schema=self.schema())

    def drop(self, name: str) -> None:
        """Remove a table, even when LanceDB can no longer open it."""
        db = self.db()
        try:
            if name in table_names(db):
                db.drop_table(name)
        except Exception:  # a corrupted table may refuse to be dropped: its folder goes instead
            pass
        shutil.rmtree(self.dir / "lancedb" / f"{name}.lance", ignore_errors=True)

    def problem(self, name: str, total: int | None) -> str | None:
        """Why the stored table cannot be trusted, or None. Reads the id column of every fragment,
        so a truncated data file or a lost `_versions` folder is found, not only a lost table."""
        try:
            table = self.open(name, create=False)
            if table is None:
                return "a tabela de vetores não existe"
            rows = table.search().select(["id"]).limit(None).to_arrow().num_rows
        except Exception as exc:
            return f"tabela ilegível ({type(exc).__name__})"
        if total is not None and rows != total:
            return f"a tabela tem {rows} linhas, esperado {total}"
        return None

    def arrow(self, batch: list[Row], vectors: np.ndarray) -> Any:
        """A batch of rows and their vectors as an Arrow table of this schema, for `table.add`."""
        import pyarrow as pa

        columns = {name: [getattr(r, name) for r in batch] for name in Row.__dataclass_fields__}
        flat = pa.array(np.asarray(vectors, dtype=np.float32).ravel())
        columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, self.dim)
        return pa.table(columns, schema=self.schema())

    def vectors(self, name: str) -> VectorTable:
        """Table `name`'s vectors for memory: exact search by one matrix product (see `VectorTable`)."""
        table = self.open(name, create=False)
        return VectorTable.from_arrow(table.to_arrow().select(["id", "vector"]), self.dim)

"""The verse vectors being served and the manifest they came from, swapped together."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pastor.search.sources import VectorTable


class ServedVectors:
    """What search reads: the vectors in memory and their manifest, whose calibration drives the gates.

    A build's progress is not here: this changes only when a complete table replaces the one served."""

    def __init__(self) -> None:
        self.vectors = VectorTable()  # the search side; LanceDB stays the store
        self.manifest: dict[str, Any] = {}

    def serve(self, vectors: VectorTable, manifest: dict[str, Any]) -> None:
        """Search from now on with `vectors`, gated by `manifest`'s calibration: swapped together."""
        self.vectors, self.manifest = vectors, manifest

    @property
    def ready(self) -> bool:
        return self.vectors.ready

    @property
    def calibration(self) -> dict | None:
        """The calibration of the vectors being served (not of a build in progress)."""
        return self.manifest.get("calibration")

    def vector_search(self, vector: np.ndarray, n: int) -> list[tuple[str, float]]:
        """Top-n verse ids by cosine, de-duplicated across translations (best row wins)."""
        return self.vectors.vector_search(vector, n)

    def scores_for(self, ids: Sequence[str], vector: np.ndarray) -> dict[str, float]:
        """The cosine of the query to each given verse id being served (ids without a row left out)."""
        return self.vectors.scores_for(ids, vector)

    def rows(self) -> tuple[list[str], np.ndarray | None]:
        """The ids and the matrix of the vectors being served (one row per verse and translation)."""
        return self.vectors.ids, self.vectors.matrix

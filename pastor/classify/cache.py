"""Trained classifiers kept under data/, keyed by the embedder, the training data and the code that trained them."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pastor.classify.linear import LinearClassifier

log = logging.getLogger(__name__)
CLASSIFIERS_DIR = "classifiers"  # under the data directory, beside the index


def cache_key(embedder_name: str, rows: Iterable[tuple[str, ...]], version: str) -> str:
    """A short hash of what a trained classifier depends on: another embedder, another labelled row or
    another version of the training code gives another key, so the classifiers are trained again."""
    digest = hashlib.sha256(f"{embedder_name}\n{version}\n".encode())
    for row in rows:
        digest.update(("\t".join(row) + "\n").encode())
    return digest.hexdigest()[:16]


@dataclass
class Trained:
    heads: dict[str, LinearClassifier]  # head name → classifier
    arrays: dict[str, np.ndarray] = field(default_factory=dict)  # what else the training made (example vectors)
    from_cache: bool = False  # read from the folder or from this process's memory, not trained now


# What this process trained or read, by (name, key): an app rebuilt in the same process (a reload, the tests'
# many apps) does not train again, even without a writable cache folder.
MEMORY: dict[tuple[str, str], Trained] = {}


def cached_heads(cache_dir: Path | None, name: str, key: str, train: Callable[[], Trained]) -> Trained:
    """The classifiers and arrays saved as `cache_dir/name-key`, or `train()`ed and saved there. Older keys of
    the same `name` are removed. Without `cache_dir`, or when it cannot be written, they are trained and kept
    in memory only."""
    if (name, key) in MEMORY:
        return MEMORY[name, key]
    folder = cache_dir / f"{name}-{key}" if cache_dir is not None else None
    trained = _read(folder) if folder is not None and (folder / "heads.json").is_file() else None
    if trained is None:
        trained = train()
        if folder is not None:
            _save(folder, name, trained)
    MEMORY[name, key] = Trained(trained.heads, trained.arrays, True)
    return trained


def _read(folder: Path) -> Trained | None:
    """The saved classifiers, or None when the folder is damaged: they are trained again, not trusted."""
    try:
        heads = json.loads((folder / "heads.json").read_text(encoding="utf-8"))["heads"]
        with np.load(folder / "arrays.npz") as arrays:
            return Trained({head: LinearClassifier.load(folder / head) for head in heads}, dict(arrays), True)
    except (OSError, ValueError, KeyError):
        log.warning("classificadores em cache ilegíveis em %s; treinando de novo", folder)
        return None


def _save(folder: Path, name: str, trained: Trained) -> None:
    """Written in a temporary folder and renamed, so a reader never sees half a cache."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=folder.parent))
        for head, classifier in trained.heads.items():
            classifier.save(staging / head)
        # Typed loosely on purpose: numpy's stub checks `**kwds` against `savez`'s `allow_pickle: bool` too.
        arrays: dict[str, Any] = dict(trained.arrays)
        np.savez(staging / "arrays.npz", **arrays)
        (staging / "heads.json").write_text(json.dumps({"heads": list(trained.heads)}), encoding="utf-8")
        for old in folder.parent.glob(f"{name}-*"):  # older keys, and this one when it was unreadable
            shutil.rmtree(old, ignore_errors=True)
        try:
            staging.rename(folder)
        except OSError:  # another process saved the same key first
            shutil.rmtree(staging, ignore_errors=True)
    except OSError:  # a read-only data directory: the classifiers still work, trained at each start
        log.warning("não foi possível guardar os classificadores em %s", folder, exc_info=True)

"""The project's data sets, each file kept once under `sets/` and listed in its manifest by role and digest."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from pastor.errors import PastorError

# The folder is `sets/`, not `datasets/`: on the path of `python app.py` that name would shadow the `datasets`
# package, and transformers, finding it, imports it and fails.
DATASETS = Path(__file__).resolve().parent.parent / "sets"
MANIFEST = DATASETS / "manifest.jsonl"
# train: what a component learns from; dev: read while building (thresholds, tuning); held_out: run once per
# round and reported as it came; retired: a held-out set already run and reported, now learnt from too.
ROLES = ("train", "dev", "held_out", "retired")
LEARNT_FROM = ("train", "retired")


class DatasetError(PastorError, ValueError):
    """The manifest or a file it lists is missing or malformed."""


@dataclass(frozen=True)
class Dataset:
    """One file of `sets/` as the manifest lists it."""

    path: str  # relative to sets/
    role: str  # one of ROLES
    author: str  # who wrote it (a blind helper's persona, the project, a public source)
    date: str
    sha256: str
    note: str  # its provenance note under sets/notes/, or a sentence

    @property
    def file(self) -> Path:
        return DATASETS / self.path


def manifest(path: Path = MANIFEST) -> list[Dataset]:
    """Every entry, in the manifest's order (training reads files in this order, so it is part of the data)."""
    if not path.is_file():
        raise DatasetError(f"manifesto dos dados ausente: {path}")
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = Dataset(**json.loads(line))
        except (json.JSONDecodeError, TypeError) as error:
            raise DatasetError(f"{path.name}, linha {number}: entrada inválida ({error})") from None
        if entry.role not in ROLES:
            raise DatasetError(f"{path.name}, linha {number}: papel {entry.role!r} (use {', '.join(ROLES)})")
        entries.append(entry)
    return entries


def files(folder: str, roles: tuple[str, ...], suffix: str = ".jsonl") -> list[Path]:
    """The files under `sets/<folder>/` with one of `roles`, in manifest order: retiring a set into
    training is one line of the manifest, not a copy."""
    return [
        d.file for d in manifest() if d.path.startswith(f"{folder}/") and d.role in roles and d.path.endswith(suffix)
    ]


def dataset(path: str) -> Path:
    """A listed file by its path under sets/ (an unlisted one is an error: each file is kept once, listed)."""
    for entry in manifest():
        if entry.path == path:
            return entry.file
    raise DatasetError(f"{path}: não está em sets/manifest.jsonl")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def problems() -> list[str]:
    """Every way the folder and its manifest disagree: a missing file, a changed digest, a file not listed."""
    entries = manifest()
    found = []
    for entry in entries:
        if not entry.file.is_file():
            found.append(f"{entry.path}: listado e ausente")
        elif digest(entry.file) != entry.sha256:
            found.append(f"{entry.path}: sha256 diferente do manifesto")
        if entry.note.startswith("notes/") and not (DATASETS / entry.note).is_file():
            found.append(f"{entry.path}: nota {entry.note} ausente")
    listed = {e.path for e in entries}
    for path in sorted(DATASETS.rglob("*")):
        rel = path.relative_to(DATASETS).as_posix()
        if path.is_file() and not rel.startswith("notes/") and rel != MANIFEST.name and rel not in listed:
            found.append(f"{rel}: fora do manifesto")
    return found

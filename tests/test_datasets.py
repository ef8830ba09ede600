"""The data sets: each file kept once under sets/, listed in the manifest with its author, role and digest."""

from __future__ import annotations

import subprocess

from pastor.datasets import DATASETS, ROLES, manifest, problems
from tests.support.helpers import ROOT


def test_every_file_is_listed_with_its_digest_and_every_listed_file_is_there():
    assert problems() == []


def test_every_entry_has_an_author_a_date_a_role_and_a_note():
    bad = [e.path for e in manifest() if not (e.author and e.date and e.note and e.role in ROLES)]
    assert bad == []


def test_no_data_file_is_kept_twice_in_the_repository():
    """A data file's bytes appear once in the tracked tree (a copy for training or for a bench is a second
    place to keep in step): every tracked file with the digest of a listed file is that file."""
    tracked = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True)
    by_blob: dict[str, list[str]] = {}
    for line in tracked.stdout.splitlines():
        meta, path = line.split("\t", 1)
        by_blob.setdefault(meta.split()[1], []).append(path)
    listed = {(DATASETS / e.path).relative_to(ROOT).as_posix() for e in manifest()}
    twice = [paths for paths in by_blob.values() if len(paths) > 1 and listed & set(paths)]
    assert twice == []


def test_no_top_level_folder_shadows_the_datasets_package():
    """A `datasets/` folder beside app.py is imported as the `datasets` package by transformers, and index
    builds fail (it happened twice): the data sets live in `sets/`."""
    assert not (ROOT / "datasets").exists()

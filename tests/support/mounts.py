"""Real storage faults for tests: a read-only bind mount and a small tmpfs that fills up.

Both need the mount privilege (root in the test container); without it the test is skipped, and
the fault-injection tests beside them still run."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import pytest


def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"sem permissão para montar ({done.stderr.strip()[:80]})")


@contextlib.contextmanager
def read_only_view(source: Path, target: Path):
    """`target` shows `source` through a read-only bind mount: every write fails with EROFS,
    root's included, as on a volume mounted read-only."""
    target.mkdir(parents=True, exist_ok=True)
    _mount("--bind", str(source), str(target))
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(target)], check=True, capture_output=True)
        yield target
    finally:
        subprocess.run(["umount", "--lazy", str(target)], check=True)


@contextlib.contextmanager
def small_disk(target: Path, size_kb: int):
    """A tmpfs of `size_kb` KB at `target`: writes past it fail with ENOSPC like a full disk."""
    target.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(target))
    try:
        yield target
    finally:
        subprocess.run(["umount", "--lazy", str(target)], check=True)


def fill(disk: Path) -> Path:
    """Write a filler file until the disk is full; returns it."""
    filler = disk / "filler.bin"
    with open(filler, "wb", buffering=0) as handle:
        with contextlib.suppress(OSError):
            while True:
                handle.write(b"\0" * 4096)
    return filler


def used_bytes(disk: Path) -> int:
    stats = os.statvfs(disk)
    return (stats.f_blocks - stats.f_bfree) * stats.f_frsize

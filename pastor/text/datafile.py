"""Data files read the same whether plain or gzip-compressed, identified by their uncompressed content."""

from __future__ import annotations

import gzip
import hashlib
import io
from pathlib import Path

GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: Path | str) -> bool:
    """By content, not by name: a renamed archive still opens, a `.gz` that is not one fails clearly."""
    with open(path, "rb") as handle:
        return handle.read(2) == GZIP_MAGIC


def open_binary(path: Path | str) -> gzip.GzipFile | io.BufferedReader:
    """The file's uncompressed bytes as a stream (gzip is detected by its magic number)."""
    return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")


def open_text(path: Path | str, encoding: str = "utf-8-sig") -> io.TextIOWrapper:
    """The file's text, decompressed when it is gzip; newlines are kept as written."""
    return io.TextIOWrapper(open_binary(path), encoding=encoding, newline="")


def read_bytes(path: Path | str, limit: int | None = None) -> bytes:
    """All uncompressed bytes, or at most `limit` + 1 of them (so a caller can tell it was over)."""
    with open_binary(path) as handle:
        return handle.read() if limit is None else handle.read(limit + 1)


def content_sha256(path: Path | str) -> str:
    """sha256 of the uncompressed content: `x.xml` and `x.xml.gz` with the same text agree, so an
    index built from one stays valid for the other."""
    digest = hashlib.sha256()
    with open_binary(path) as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def logical_name(path: Path | str) -> str:
    """The file name without a trailing `.gz`: `por-blivre.usfx.xml.gz` → `por-blivre.usfx.xml`."""
    name = Path(path).name
    return name[:-3] if name.lower().endswith(".gz") else name


def data_suffix(path: Path | str) -> str:
    """The extension that says what the data is, ignoring `.gz`: `faq.json.gz` → `.json`."""
    return Path(logical_name(path)).suffix.lower()

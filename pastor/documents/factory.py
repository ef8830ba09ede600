"""Reader factory: the reader for a file is chosen by its extension."""

from __future__ import annotations

from pathlib import PurePosixPath

from pastor.documents.base import Reader
from pastor.documents.jsondoc import JsonReader
from pastor.documents.tabular import CsvReader
from pastor.documents.text import MarkdownReader, TextReader

READERS: tuple[type[Reader], ...] = (MarkdownReader, TextReader, CsvReader, JsonReader)
EXTENSIONS = tuple(ext for reader in READERS for ext in reader.extensions)


def reader_for(path: str) -> Reader | None:
    """A reader for the file's extension (case-insensitive), or None for other files."""
    suffix = PurePosixPath(path).suffix.lower()
    for reader in READERS:
        if suffix in reader.extensions:
            return reader()
    return None

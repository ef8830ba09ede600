"""Reader factory: the reader for a file is chosen by its extension."""

from __future__ import annotations

from pastor.documents.document import Reader
from pastor.documents.jsondoc import JsonReader
from pastor.documents.tabular import CsvReader
from pastor.documents.text import MarkdownReader, TextReader
from pastor.text.datafile import data_suffix

READERS: tuple[type[Reader], ...] = (MarkdownReader, TextReader, CsvReader, JsonReader)
EXTENSIONS = tuple(ext for reader in READERS for ext in reader.extensions)


def reader_for(path: str) -> Reader | None:
    """A reader for the file's extension (case-insensitive, `.gz` ignored), or None for other files."""
    suffix = data_suffix(path)
    for reader in READERS:
        if suffix in reader.extensions:
            return reader()
    return None

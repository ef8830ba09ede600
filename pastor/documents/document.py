"""Document data types and the base reader: bytes checked and decoded, then split into parts."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from pastor.errors import PastorError


class DocumentError(PastorError, ValueError):
    """A file cannot be read as a document; the message is Portuguese and shown to the user."""


@dataclass(frozen=True)
class Chunk:
    ref: str  # "example/faq.json#p3-c0": the citation the model must copy exactly
    file: str  # path relative to the documents folder, "/" separators
    part: int
    index: int  # chunk index inside its part
    text: str  # verbatim slice of the part's text
    search_text: str  # text with its context prefix ("Declaração de fé › Sobre a Bíblia: …")
    title: str  # human label of where the chunk comes from


@dataclass
class FileResult:
    path: str  # relative to the documents folder, "/" separators
    sha256: str  # of the raw bytes; "" when the file was not read (over the size cap, unreadable)
    parts: int
    chunks: list[Chunk] = field(default_factory=list)
    error: str | None = None
    size: int = 0

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Section:
    """Text that is chunked on its own, with the context that prefixes its search text."""

    context: str
    text: str
    title: str = ""  # overrides the part's title for the chunks of this section


@dataclass(frozen=True)
class Part:
    """One citable unit of a file (a whole text, a CSV row, a JSON element or key)."""

    title: str
    sections: tuple[Section, ...]


def label(path: str) -> str:
    """A readable name for a file: its stem with separators as spaces ("declaracao de fe")."""
    stem = PurePosixPath(path).stem
    return " ".join(stem.replace("_", " ").replace("-", " ").split()) or stem


class Reader:
    """Base reader: decoding and content checks shared by every file type."""

    extensions: tuple[str, ...] = ()
    max_parts: int = 5000  # per file: a million-row CSV is an error, not gigabytes of parts

    def read(self, data: bytes, path: str) -> list[Part]:
        """Parts of the file; raises DocumentError with a Portuguese message."""
        return self.parts(decode(data), path)

    def parts(self, text: str, path: str) -> list[Part]:
        raise NotImplementedError

    def check_parts(self, count: int) -> None:
        """Stop reading as soon as a file has more parts than allowed."""
        if count > self.max_parts:
            raise DocumentError(
                f"mais de {self.max_parts} partes (linhas ou itens) neste arquivo; divida-o em "
                "arquivos menores ou ajuste PASTOR_DOC_MAX_PARTS"
            )


def decode(data: bytes) -> str:
    """UTF-8 text (BOM allowed), NFC-normalised with `\\n` line ends, or a DocumentError."""
    if b"\x00" in data:
        raise DocumentError("arquivo binário (contém bytes nulos); use um arquivo de texto")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentError(
            f"o arquivo não está em UTF-8 (byte inválido na posição {exc.start}); "
            "salve-o novamente com a codificação UTF-8"
        ) from None
    if not text.strip():
        raise DocumentError("arquivo vazio")
    # NFC so that accented words written on different systems match the same search terms.
    text = unicodedata.normalize("NFC", text)
    return text.replace("\r\n", "\n").replace("\r", "\n")

"""Scan the church's documents folder: safe walk, change detection by sha256, per-file results."""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from pastor.documents.chunking import split_text
from pastor.documents.document import Chunk, DocumentError, FileResult
from pastor.documents.factory import reader_for
from pastor.documents.refs import doc_ref


@dataclass
class FolderScan:
    results: list[FileResult] = field(default_factory=list)  # new or changed files, errors included
    unchanged: list[str] = field(default_factory=list)  # sha256 equal to the `known` one: not read
    deleted: list[str] = field(default_factory=list)  # in `known` but no longer a readable file
    skipped: list[str] = field(default_factory=list)  # other extensions, or links leaving the folder

    @property
    def chunks(self) -> list[Chunk]:
        return [chunk for result in self.results for chunk in result.chunks]

    @property
    def errors(self) -> list[FileResult]:
        return [result for result in self.results if result.error]


def parse_document(
    path: str,
    data: bytes,
    *,
    chunk_size: int = 800,
    chunk_overlap: int = 100,
    max_bytes: int = 2_000_000,
    max_parts: int = 5000,
    max_chunks: int = 5000,
) -> FileResult:
    """Parse one file's bytes (`path` relative, "/" separators; `.gz` decompressed); errors go in the result.

    Any failure of one file (a limit, deep JSON nesting, a reader bug) is that file's error:
    the other files are still indexed."""
    sha = hashlib.sha256(data).hexdigest()
    reader = reader_for(path)
    if reader is None:
        return FileResult(path, sha, 0, [], "tipo de arquivo não suportado (use .md, .txt, .csv ou .json)", len(data))
    reader.max_parts = max_parts
    try:
        parts = reader.read(_gunzip(data, max_bytes) if path.lower().endswith(".gz") else data, path)
        chunks = _chunks(path, parts, chunk_size, chunk_overlap, max_chunks)
    except DocumentError as exc:
        return FileResult(path, sha, 0, [], str(exc), len(data))
    except RecursionError:
        return FileResult(
            path, sha, 0, [], "estrutura aninhada demais (profundidade excessiva); simplifique o arquivo", len(data)
        )
    except Exception as exc:  # noqa: BLE001 — one bad file must never stop the folder
        return FileResult(path, sha, 0, [], f"não foi possível ler o arquivo ({type(exc).__name__})", len(data))
    return FileResult(path, sha, len(parts), chunks, None, len(data))


def _chunks(path: str, parts, chunk_size: int, chunk_overlap: int, max_chunks: int) -> list[Chunk]:
    chunks = []
    for part_index, part in enumerate(parts):
        # Chunk numbers run on across the sections of a part, so a reference stays unique.
        index = 0
        for section in part.sections:
            for text in split_text(section.text, chunk_size, chunk_overlap):
                chunks.append(
                    Chunk(
                        ref=doc_ref(path, part_index, index),
                        file=path,
                        part=part_index,
                        index=index,
                        text=text,
                        search_text=f"{section.context}: {text}",
                        title=section.title or part.title,
                    )
                )
                index += 1
                if len(chunks) > max_chunks:
                    raise DocumentError(
                        f"mais de {max_chunks} trechos neste arquivo; divida-o em arquivos "
                        "menores ou ajuste PASTOR_DOC_MAX_CHUNKS"
                    )
    return chunks


def _gunzip(data: bytes, max_bytes: int) -> bytes:
    """The uncompressed bytes, capped like a plain file (a tiny archive can expand enormously)."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as handle:
            plain = handle.read(max_bytes + 1)
    except (OSError, EOFError, zlib.error):
        raise DocumentError("arquivo .gz corrompido ou truncado") from None
    if len(plain) > max_bytes:
        raise DocumentError(
            f"arquivo grande demais depois de descompactado (o limite é {max_bytes} bytes, ajuste PASTOR_DOC_MAX_BYTES)"
        )
    return plain


def read_folder(
    folder: Path | None,
    *,
    chunk_size: int = 800,
    chunk_overlap: int = 100,
    max_bytes: int = 2_000_000,
    known: dict[str, str] | None = None,
    max_parts: int = 5000,
    max_chunks: int = 5000,
) -> FolderScan:
    """Read every new or changed document under `folder`; a missing folder means no documents."""
    known = known or {}
    scan = FolderScan()
    seen: set[str] = set()
    if folder is not None and Path(folder).is_dir():
        root = Path(folder).resolve()
        for relative, path in walk(root, scan.skipped):
            seen.add(relative)
            result = _read_one(
                relative,
                path,
                max_bytes,
                known,
                chunk_size=chunk_size,
                chunk_overlap=chunk_overlap,
                max_parts=max_parts,
                max_chunks=max_chunks,
            )
            if result is None:
                scan.unchanged.append(relative)
            else:
                scan.results.append(result)
    scan.deleted = sorted(set(known) - seen)
    return scan


def _read_one(relative: str, path: Path, max_bytes: int, known: dict[str, str], **limits) -> FileResult | None:
    """The file's result, or None when its bytes match the known sha256."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            # Not read at all: the cap protects memory and time from a huge file.
            return FileResult(
                relative,
                "",
                0,
                [],
                f"arquivo grande demais ({size} bytes; o limite é {max_bytes}, ajuste PASTOR_DOC_MAX_BYTES)",
                size,
            )
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)  # the file may grow between stat and read
    except OSError as exc:
        return FileResult(relative, "", 0, [], f"não foi possível ler o arquivo ({exc.strerror or exc})", 0)
    if len(data) > max_bytes:
        return FileResult(relative, "", 0, [], f"arquivo grande demais (o limite é {max_bytes} bytes)", len(data))
    if known.get(relative) == hashlib.sha256(data).hexdigest():
        return None
    return parse_document(relative, data, max_bytes=max_bytes, **limits)


def walk(root: Path, skipped: list[str]):
    """(relative path, path) of readable files under `root`, sorted; others go to `skipped`.

    Symbolic links are followed only when their target stays inside `root`; hidden files and
    folders (".git", editor backups) are ignored without being listed.
    """
    visited: set[Path] = set()
    for current, dirs, files in os.walk(root, followlinks=True):
        real = Path(current).resolve()
        # A link back to a folder already walked would loop forever.
        if real in visited or not _inside(real, root):
            dirs[:] = []
            if not _inside(real, root):
                skipped.append(Path(current).relative_to(root).as_posix())
            continue
        visited.add(real)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = Path(current) / name
            relative = path.relative_to(root).as_posix()
            if reader_for(name) is None or not path.is_file() or not _inside(path.resolve(), root):
                skipped.append(relative)
                continue
            yield relative, path


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents

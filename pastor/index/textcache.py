"""Start-up cache of the parsed Bibles beside the index, so a restart does not parse their USFX again."""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
from pathlib import Path

from pastor.bible import canon, usfx
from pastor.bible.usfx import Bible, Verse, load_bible
from pastor.text.datafile import logical_name

log = logging.getLogger(__name__)
# What a parse depends on besides the file: the parser and the canon it orders books by. Their source is part of
# the key, so a change to either parses again instead of trusting an old cache.
PARSER_FILES = (Path(usfx.__file__), Path(canon.__file__))


def text_key(path: Path) -> str:
    """The file's bytes as they are on disk (compressed or not) and the parser's source, hashed."""
    digest = hashlib.sha256()
    for part in (Path(path), *PARSER_FILES):
        digest.update(part.read_bytes())
    return digest.hexdigest()


def load_bible_cached(path: Path | str, data_dir: Path) -> Bible:
    """The Bible in `path`, from the cache under `data_dir` when it was parsed from the same bytes by the same
    parser (parsing took 0.7 s per Bible on 2 quiet cores, reading the cache a fifth of that); parsed, and
    cached, otherwise. Raises CorpusError as `load_bible` does; a cache that cannot be written only costs time."""
    path = Path(path)
    if not path.is_file():
        return load_bible(path)  # its CorpusError names the missing file
    cache = Path(data_dir) / "index" / "texts" / f"{logical_name(path)}.json.gz"
    key = text_key(path)
    cached = _read(cache, key, path)
    if cached is not None:
        return cached
    bible = load_bible(path)
    rows = [[v.book, v.chapter, v.verse, v.text] for v in bible.verses]
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(".tmp")
        with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=3) as handle:
            json.dump({"key": key, "sha256": bible.sha256, "name": bible.name, "verses": rows}, handle)
        os.replace(tmp, cache)  # atomic: a crash leaves the old cache or none
    except OSError as exc:  # a read-only data folder parses at each start
        log.info("não foi possível guardar o texto lido em %s: %s", cache, exc)
    return bible


def _read(cache: Path, key: str, path: Path) -> Bible | None:
    try:
        with gzip.open(cache, "rt", encoding="utf-8") as handle:
            data = json.load(handle)
        if data.get("key") != key:
            return None
        verses = [Verse(*row) for row in data["verses"]]
        return Bible(path=path, sha256=data["sha256"], verses=verses, name=data["name"])
    except (OSError, ValueError, EOFError, KeyError, TypeError):
        return None

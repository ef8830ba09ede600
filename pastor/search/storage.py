"""Shared storage helpers: the LanceDB connection under `data/index/` and atomic JSON files."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

# An absolute POSIX path (or the start of a URL's path) inside an error message.
_ABSOLUTE = re.compile(r"(?<![\w:/])/(?:[^\s'\"/]+/)+([^\s'\"/]*)")

# LanceDB logs deprecation notes from Rust on every search; they are noise for users.
os.environ.setdefault("LANCE_LOG", "error")
os.environ.setdefault("RUST_LOG", "error")


def connect(index_dir: Path):
    """The one LanceDB database of the app (verses and documents).

    Imported on first use: `import lancedb` costs seconds, and a restart with a complete index
    does not need it (see `VerseIndex.open`)."""
    import lancedb

    Path(index_dir).mkdir(parents=True, exist_ok=True)
    return lancedb.connect(str(Path(index_dir) / "lancedb"))


def table_names(db) -> list[str]:
    """Table names of a LanceDB connection (`table_names()` is deprecated in lancedb ≥ 0.30)."""
    listed = db.list_tables()
    return list(getattr(listed, "tables", listed))


def write_json(path: Path, data) -> None:
    """Write through a temporary file and rename: a crash never leaves a half-written file."""
    replace_with(path, lambda handle: handle.write(json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")))


def save_array(path: Path, array) -> None:
    """A numpy array as `.npy`, through a temporary file and rename like `write_json`."""
    import numpy as np

    replace_with(path, lambda handle: np.save(handle, array))


def replace_with(path: Path, write) -> None:
    """Call `write(handle)` on a temporary file beside `path`, then rename it over `path`. When the
    write fails (a full disk) the temporary file is removed, so a failure leaves nothing behind."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    try:
        with open(tmp, "wb") as handle:
            write(handle)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def describe(exc: BaseException) -> str:
    """An exception as text for the status page and messages: file names only, never a full path
    (it tells a visitor about the server's disk layout and user names)."""
    if isinstance(exc, OSError) and exc.strerror:
        name = Path(str(exc.filename)).name if exc.filename else ""
        return f"{exc.strerror} ({name})" if name else exc.strerror
    return _ABSOLUTE.sub(lambda m: m.group(1), str(exc))

"""One index build per data directory: an exclusive `flock` on a lock file, across processes and threads."""

from __future__ import annotations

import errno
import fcntl
import os
import threading
import time
from pathlib import Path

from pastor.errors import PastorError

LOCK_NAME = "build.lock"
POLL_SECONDS = 0.2


class BuildBusy(PastorError):
    """Another build holds the lock and the caller was cancelled while waiting."""


class ReadOnlyData(PastorError, OSError):
    """The data directory refuses writes (mounted read-only, not ours): nothing can be built
    there, and what is already in it can still be served."""


# What the OS answers when a directory takes no writes at all.
READ_ONLY_ERRORS = (errno.EROFS, errno.EACCES, errno.EPERM)


class BuildLock:
    """`with BuildLock(dir, on_wait=…, cancel=…):` waits for any other builder of `dir`.

    Each use opens the file anew, so two threads of one process exclude each other as two
    processes do (flock locks belong to the open file description). The kernel releases the
    lock when its holder dies, so a crashed build never blocks the next one."""

    def __init__(self, directory: Path, *, on_wait=None, cancel: threading.Event | None = None):
        self.path = Path(directory) / LOCK_NAME
        self.on_wait = on_wait
        self.cancel = cancel
        self._fd: int | None = None

    def __enter__(self) -> BuildLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if exc.errno in READ_ONLY_ERRORS:
                raise ReadOnlyData(exc.errno, exc.strerror, exc.filename) from None
            raise
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not told and self.on_wait is not None:
                    self.on_wait()
                    told = True
                # Polled rather than blocking, so a cancelled (or stopping) builder stops waiting.
                if self.cancel is not None and self.cancel.wait(POLL_SECONDS):
                    os.close(fd)
                    raise BuildBusy() from None
                if self.cancel is None:
                    time.sleep(POLL_SECONDS)
        self._fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

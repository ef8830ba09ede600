"""The shared index's store: a LanceDB database at `PASTOR_INDEX_URI` (s3://… or a folder) and its build lease."""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from datetime import timedelta

from pastor.errors import PastorError
from pastor.search.storage import table_names

LOCK_TABLE = "build_lock"
# A build of the full corpus takes about 2 minutes here; a lease this long is only ever broken
# when its holder died without releasing it (a killed job).
LEASE_SECONDS = 3600.0
POLL_SECONDS = 1.0

# The usual AWS variables, mapped to the option names of LanceDB's object store.
ENV_OPTIONS = {
    "AWS_ENDPOINT_URL": "aws_endpoint",
    "AWS_ENDPOINT_URL_S3": "aws_endpoint",
    "AWS_REGION": "aws_region",
    "AWS_DEFAULT_REGION": "aws_region",
    "AWS_ALLOW_HTTP": "allow_http",
    "AWS_ACCESS_KEY_ID": "aws_access_key_id",
    "AWS_SECRET_ACCESS_KEY": "aws_secret_access_key",
    "AWS_SESSION_TOKEN": "aws_session_token",
}


class StoreBusy(PastorError):
    """Another builder holds the lease and the caller was cancelled while waiting."""


def is_remote(uri: str) -> bool:
    return "://" in uri


def storage_options(uri: str, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """Object-store options for `uri` from the environment (none for a folder). The first variable
    of each pair that is set wins (AWS_ENDPOINT_URL over AWS_ENDPOINT_URL_S3, AWS_REGION over
    AWS_DEFAULT_REGION)."""
    if not is_remote(uri):
        return {}
    env = os.environ if env is None else env
    options: dict[str, str] = {}
    for var, option in ENV_OPTIONS.items():
        if env.get(var) and option not in options:
            options[option] = env[var]
    if options.get("aws_endpoint", "").startswith("http://") and "allow_http" not in options:
        options["allow_http"] = "true"  # an http:// endpoint (MinIO, an emulator) says so itself
    return options


def connect_shared(uri: str, *, env: Mapping[str, str] | None = None):
    """The shared database. Every read sees the latest committed version (consistency interval
    zero): replicas poll it for new releases, and builders must see each other's lease."""
    import lancedb

    if not is_remote(uri):
        os.makedirs(uri, exist_ok=True)
    return lancedb.connect(
        uri, storage_options=storage_options(uri, env) or None, read_consistency_interval=timedelta(0)
    )


def holder_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class SharedLock:
    """`with SharedLock(db):` one builder at a time for the whole shared index.

    The lease is a LanceDB table created with mode="create": the first commit of a table is a
    put-if-absent of its version 1 manifest, so of several builders exactly one creates it, on
    S3 as on a disk. The holder drops the table when done. A lease past its expiry (its holder
    was killed) is broken by the next builder; the releases stay complete either way, because
    a release is visible only once fully written (see `releases.py`)."""

    def __init__(
        self,
        db,
        *,
        lease: float = LEASE_SECONDS,
        on_wait: Callable[[], None] | None = None,
        cancel: threading.Event | None = None,
        clock: Callable[[], float] = time.time,
    ):
        self.db = db
        self.lease = lease
        self.on_wait = on_wait
        self.cancel = cancel
        self.clock = clock
        self.holder = holder_name()

    def __enter__(self) -> SharedLock:
        told = False
        while not self._try_create():
            current = self._current()
            if current is not None and current["expires"] < self.clock():
                self._break(current)
                continue
            if not told and self.on_wait is not None:
                self.on_wait()
                told = True
            if self.cancel is not None and self.cancel.wait(POLL_SECONDS):
                raise StoreBusy()
            if self.cancel is None:
                time.sleep(POLL_SECONDS)
        return self

    def __exit__(self, *exc) -> None:
        current = self._current()
        if current is not None and current["holder"] == self.holder:
            self.db.drop_table(LOCK_TABLE)

    def _try_create(self) -> bool:
        import pyarrow as pa

        row = pa.table({"holder": [self.holder], "expires": [self.clock() + self.lease]})
        try:
            self.db.create_table(LOCK_TABLE, data=row, mode="create")
        except Exception:  # "already exists", or a lost race on the version-1 manifest
            return False
        return True

    def _current(self) -> dict | None:
        try:
            if LOCK_TABLE not in table_names(self.db):
                return None
            rows = self.db.open_table(LOCK_TABLE).to_arrow().to_pylist()
        except Exception:  # dropped between the listing and the read: free
            return None
        return rows[0] if rows else None

    def _break(self, stale: dict) -> None:
        """Drop an expired lease, unless it changed hands since it was read."""
        current = self._current()
        if current is not None and current["holder"] == stale["holder"]:
            try:
                self.db.drop_table(LOCK_TABLE)
            except Exception:  # another builder broke it first
                pass

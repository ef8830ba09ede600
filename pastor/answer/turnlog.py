"""Turn log: one JSON line per turn under `data/logs/`, rotated by size and age, plus feedback events.

What is stored is the most sensitive data the app holds (crisis messages, personal details), so:
with `log_text=False` only ids, modes, references and scores are written; lines older than the
retention are removed; files are 0600 in a 0700 folder; a disk that refuses the write costs
nothing but time: the records wait in memory and are written when it takes lines again. Every
write is an append: a rating is an event, and the latest one of a turn wins when the log is read."""

from __future__ import annotations

import json
import os
import threading
import time
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pastor.config import SECRET_VARS

KEEP_ROTATED = 5
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S%z"
# Kept when text logging is off: enough to study retrieval and feedback, nothing a person wrote.
NO_TEXT_KEYS = (
    "type",
    "timestamp",
    "turn_id",
    "mode",
    "retrieved",
    "citations",
    "removed_citations",
    "provider",
    "model",
    "latency",
    "rating",
)
MEMORY_TURNS = 1000  # records kept in memory when the disk refuses them
PRUNE_EVERY = 3600.0  # seconds between retention passes of a running app


@dataclass(frozen=True)
class Feedback:
    """One rating as logged: the turn, "up" or "down", the comment kept ("" when text logging is off)."""

    turn_id: str
    rating: str
    comment: str
    timestamp: str


class TurnLog:
    def __init__(
        self,
        directory: Path,
        *,
        max_bytes: int = 5_000_000,
        log_text: bool = True,
        retention_days: float = 0.0,
        name: str = "turns",
        shared=None,
    ):
        self.dir = Path(directory)
        self.name = name  # one log per replica: `turns-<replica>.jsonl`
        self.path = self.dir / f"{name}.jsonl"
        self.shared = shared  # SharedTurns: the ids other replicas can check (feedback on any replica)
        self.max_bytes = max_bytes
        self.log_text = log_text
        self.retention_days = retention_days
        self.warning: str | None = None  # set when records stay in memory only (status tab)
        self.memory: deque[dict] = deque(maxlen=MEMORY_TURNS)
        self._lock = threading.RLock()
        self._known: set[str] | None = None  # turn ids on disk, read once (see `knows`)
        self._pruned = float("-inf")  # monotonic time can be under PRUNE_EVERY after a boot: prune first

    # -- writing -------------------------------------------------------------------------------
    def write(self, record: dict) -> None:
        """Log one turn; never raises (the person's answer matters more than its log line)."""
        record = {"type": "turn", "timestamp": time.strftime(TIME_FORMAT), **record}
        self._append(self._private(record))
        if self.shared is not None:
            self.shared.add(record.get("turn_id", ""))

    def feedback(self, turn_id: str, rating: str, comment: str = "") -> Feedback:
        """Attach thumbs up/down (+ optional comment) to a logged turn. Each rating is appended as
        an event, so rating again costs one line, never a rewrite of the log; `read` keeps one
        rating per turn (see `latest_feedback`)."""
        if rating not in ("up", "down"):
            raise ValueError("Avaliação inválida: use 'up' ou 'down'.")
        if not self.knows(turn_id):
            raise KeyError("Conversa não encontrada no registro (confira o turn_id).")
        record = {
            "type": "feedback",
            "timestamp": time.strftime(TIME_FORMAT),
            "turn_id": turn_id,
            "rating": rating,
            "comment": comment[:1000],
        }
        self._append(self._private(record))
        return Feedback(turn_id, rating, record["comment"] if self.log_text else "", record["timestamp"])

    def _private(self, record: dict) -> dict:
        if self.log_text:
            return record
        return {key: record[key] for key in NO_TEXT_KEYS if key in record}

    def _append(self, record: dict) -> None:
        with self._lock:
            try:
                self._prune_if_due()
                self._write_held()
                self._write_line(_encode(record))
            except OSError as exc:
                self.memory.append(record)
                self.warning = (
                    f"O registro de conversas não pôde ser gravado ({exc.strerror or 'erro de disco'}); "
                    "as conversas ficam só na memória até o problema ser resolvido."
                )
            else:
                self.warning = None
            if self._known is not None:
                self._known.add(record.get("turn_id", ""))

    def _write_held(self) -> None:
        """The records kept in memory while the disk refused them, oldest first, before any new one."""
        while self.memory:
            self._write_line(_encode(self.memory[0]))
            self.memory.popleft()

    def _write_line(self, line: bytes) -> None:
        """One `write` with O_APPEND; a short write (disk full) is cut back, so no partial JSON
        line is ever left for the next reader."""
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if self.path.exists() and self.path.stat().st_size + len(line) > self.max_bytes:
            self._rotate()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            before = os.fstat(fd).st_size
            try:
                written = os.write(fd, line)
            except OSError:
                os.ftruncate(fd, before)
                raise
            if written != len(line):
                os.ftruncate(fd, before)
                raise OSError(28, "No space left on device")
        finally:
            os.close(fd)

    def _rotate(self) -> None:
        oldest = self._rotated(KEEP_ROTATED)
        if oldest.exists():
            oldest.unlink()
            self._known = None  # its turns can no longer get feedback: re-read the ids when asked
        for i in range(KEEP_ROTATED - 1, 0, -1):
            if self._rotated(i).exists():
                os.replace(self._rotated(i), self._rotated(i + 1))
        os.replace(self.path, self._rotated(1))

    # -- retention -----------------------------------------------------------------------------
    def _prune_if_due(self) -> None:
        if self.retention_days > 0 and time.monotonic() - self._pruned > PRUNE_EVERY:
            self.prune()

    def prune(self, now: datetime | None = None) -> int:
        """Remove lines older than the retention (whole rotated files when all of them are);
        returns how many lines were removed."""
        if self.retention_days <= 0:
            return 0
        self._pruned = time.monotonic()
        cutoff = (now or datetime.now(UTC)) - timedelta(days=self.retention_days)
        removed = 0
        with self._lock:
            for path in self._files():
                lines = _lines(path)
                keep = [line for line in lines if not _older(line, cutoff)]
                removed += len(lines) - len(keep)
                if not keep:
                    path.unlink(missing_ok=True)
                elif len(keep) != len(lines):
                    tmp = path.with_suffix(".tmp")
                    tmp.unlink(missing_ok=True)  # created anew below, private from its first byte
                    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                    with os.fdopen(fd, "w", encoding="utf-8") as handle:
                        handle.write("".join(line + "\n" for line in keep))
                    os.replace(tmp, path)
            if removed:
                self._known = None  # rebuilt on the next lookup
        return removed

    # -- reading -------------------------------------------------------------------------------
    def knows(self, turn_id: str) -> bool:
        """Whether a turn was logged. The ids on disk are read once into a set (measured in
        bench/bench_abuse.py), so feedback never scans the whole log again."""
        with self._lock:
            if self._known is None:
                self._known = {_turn_id(line) for path in self._files() for line in _lines(path)}
                self._known.update(r.get("turn_id", "") for r in self.memory)
            if bool(turn_id) and turn_id in self._known:
                return True
        return self.shared is not None and self.shared.knows(turn_id)

    def read(self) -> list[dict]:
        """The records on disk, oldest first (for tests and audits), with one feedback record per
        turn: where its first rating was, holding the latest (see `latest_feedback`)."""
        return latest_feedback(self.events())

    def events(self) -> list[dict]:
        """Every line on disk as written, oldest first: turns and each rating event."""
        return [json.loads(line) for path in reversed(self._files()) for line in _lines(path)]

    def _files(self) -> list[Path]:
        return [p for p in [self.path] + [self._rotated(i) for i in range(1, KEEP_ROTATED + 1)] if p.exists()]

    def _rotated(self, i: int) -> Path:
        return self.dir / f"{self.name}.{i}.jsonl"


def latest_feedback(records: list[dict]) -> list[dict]:
    """Fold each turn's rating events into one: the latest rating wins; a rating without a comment
    keeps the earlier comment (a thumb clicked again does not erase what the person wrote)."""
    folded: list[dict] = []
    ratings: dict[str, dict] = {}
    for record in records:
        if record.get("type") != "feedback":
            folded.append(record)
            continue
        earlier = ratings.get(record.get("turn_id", ""))
        if earlier is None:
            ratings[record.get("turn_id", "")] = latest = dict(record)
            folded.append(latest)
            continue
        comment = record.get("comment") or earlier.get("comment")
        earlier.clear()
        earlier.update(record)
        if comment is not None:
            earlier["comment"] = comment
    return folded


def _encode(record: dict) -> bytes:
    return (_redact(json.dumps(record, ensure_ascii=False)) + "\n").encode("utf-8", "replace")


def _lines(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()]


def _turn_id(line: str) -> str:
    try:
        return str(json.loads(line).get("turn_id", ""))
    except (ValueError, AttributeError):
        return ""


def _older(line: str, cutoff: datetime) -> bool:
    try:
        stamp = datetime.strptime(json.loads(line)["timestamp"], TIME_FORMAT)
    except (ValueError, KeyError, TypeError, AttributeError):
        return False  # an unreadable line is kept: removing data by guesswork is worse
    return stamp < cutoff


def _redact(line: str) -> str:
    """Belt and braces: no key from the environment is ever written, whatever a record holds."""
    for var in SECRET_VARS:
        value = os.environ.get(var, "")
        if len(value) >= 8:
            line = line.replace(value, "[removido]")
    return line

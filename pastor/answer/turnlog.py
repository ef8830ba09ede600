"""Turn log: one JSON line per turn under `data/logs/`, rotated by size and age, plus feedback records.

What is stored is the most sensitive data the app holds (crisis messages, personal details), so:
with `log_text=False` only ids, modes, references and scores are written; lines older than the
retention are removed; a disk that refuses the write costs the log line, never the answer."""

from __future__ import annotations

import json
import os
import threading
import time
from collections import deque
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pastor.config import SECRET_VARS

KEEP_ROTATED = 5
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S%z"
# Kept when text logging is off: enough to study retrieval and feedback, nothing a person wrote.
NO_TEXT_KEYS = ("type", "timestamp", "turn_id", "mode", "retrieved", "citations", "removed_citations",
                "provider", "model", "latency", "rating")
MEMORY_TURNS = 1000  # records kept in memory when the disk refuses them
PRUNE_EVERY = 3600.0  # seconds between retention passes of a running app


class TurnLog:
    def __init__(self, directory: Path, *, max_bytes: int = 5_000_000, log_text: bool = True,
                 retention_days: float = 0.0):
        self.dir = Path(directory)
        self.path = self.dir / "turns.jsonl"
        self.max_bytes = max_bytes
        self.log_text = log_text
        self.retention_days = retention_days
        self.warning: str | None = None  # set when records stay in memory only (status tab)
        self.memory: deque[dict] = deque(maxlen=MEMORY_TURNS)
        self._lock = threading.RLock()
        self._known: set[str] | None = None  # turn ids on disk, read once (see `knows`)
        self._rated: set[str] = set()  # turn ids with a feedback record, read with `_known`
        self._pruned = float("-inf")  # monotonic time can be under PRUNE_EVERY after a boot: prune first

    # -- writing -------------------------------------------------------------------------------
    def write(self, record: dict) -> None:
        """Log one turn; never raises (the person's answer matters more than its log line)."""
        record = {"type": "turn", "timestamp": time.strftime(TIME_FORMAT), **record}
        self._append(self._private(record))

    def feedback(self, turn_id: str, rating: str, comment: str = "") -> dict:
        """Attach thumbs up/down (+ optional comment) to a logged turn: one rating per turn, so
        rating again replaces the earlier record instead of adding a second one."""
        if rating not in ("up", "down"):
            raise ValueError("Avaliação inválida: use 'up' ou 'down'.")
        if not self.knows(turn_id):
            raise KeyError("Conversa não encontrada no registro (confira o turn_id).")
        record = {"type": "feedback", "timestamp": time.strftime(TIME_FORMAT),
                  "turn_id": turn_id, "rating": rating, "comment": comment[:1000]}
        record = self._private(record)
        try:
            replaced = record["turn_id"] in self._rated and self._replace_feedback(record)
        except OSError:
            replaced = False  # the disk refuses the rewrite: the append below keeps it in memory
        if not replaced:
            self._append(record)
            self._rated.add(record["turn_id"])
        return record

    def _replace_feedback(self, record: dict) -> bool:
        """Rewrite the current file with `record` in place of the turn's earlier feedback, if it has one;
        a new rating without a comment keeps the earlier comment. (An earlier rating already rotated
        out stays there; the newest record is the one that counts.) Only called for a turn known to
        have been rated, so a first rating never reads the file."""
        with self._lock:
            lines = _lines(self.path)
            for i, old in enumerate(lines):
                earlier = json.loads(old) if '"type": "feedback"' in old else {}
                if earlier.get("turn_id") == record["turn_id"]:
                    if "comment" in record:  # absent when text logging is off
                        record["comment"] = record["comment"] or earlier.get("comment", "")
                    lines[i] = _redact(json.dumps(record, ensure_ascii=False))
                    temporary = self.path.with_suffix(".jsonl.tmp")
                    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
                    os.replace(temporary, self.path)
                    return True
        return False

    def _private(self, record: dict) -> dict:
        if self.log_text:
            return record
        return {key: record[key] for key in NO_TEXT_KEYS if key in record}

    def _append(self, record: dict) -> None:
        line = (_redact(json.dumps(record, ensure_ascii=False)) + "\n").encode("utf-8", "replace")
        with self._lock:
            try:
                self._prune_if_due()
                self._write_line(line)
            except OSError as exc:
                self.memory.append(record)
                self.warning = (f"O registro de conversas não pôde ser gravado ({exc.strerror or 'erro de disco'}); "
                                "as conversas ficam só na memória até o problema ser resolvido.")
            else:
                self.warning = None
            if self._known is not None:
                self._known.add(record.get("turn_id", ""))

    def _write_line(self, line: bytes) -> None:
        """One `write` with O_APPEND; a short write (disk full) is cut back, so no partial JSON
        line is ever left for the next reader."""
        self.dir.mkdir(parents=True, exist_ok=True)
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
        cutoff = (now or datetime.now(timezone.utc)) - timedelta(days=self.retention_days)
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
                    tmp.write_text("".join(line + "\n" for line in keep), encoding="utf-8")
                    os.chmod(tmp, 0o600)  # as private as the file it replaces
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
                self._known, self._rated = set(), set()
                records = [_summary(line) for path in self._files() for line in _lines(path)]
                records += [(r.get("turn_id", ""), r.get("type") == "feedback") for r in self.memory]
                for known, rated in records:
                    self._known.add(known)
                    if rated:
                        self._rated.add(known)
            return bool(turn_id) and turn_id in self._known

    def read(self) -> list[dict]:
        """All records on disk, oldest first (for tests and audits)."""
        return [json.loads(line) for path in reversed(self._files()) for line in _lines(path)]

    def _files(self) -> list[Path]:
        return [p for p in [self.path] + [self._rotated(i) for i in range(1, KEEP_ROTATED + 1)] if p.exists()]

    def _rotated(self, i: int) -> Path:
        return self.dir / f"turns.{i}.jsonl"


def _lines(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()]


def _summary(line: str) -> tuple[str, bool]:
    """(turn id, whether the line is a feedback record) of one log line."""
    try:
        record = json.loads(line)
        return str(record.get("turn_id", "")), record.get("type") == "feedback"
    except (ValueError, AttributeError):
        return "", False


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

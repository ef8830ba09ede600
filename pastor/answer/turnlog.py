"""Turn log: one JSON line per turn under `data/logs/`, rotated by size, plus feedback records."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

from pastor.config import SECRET_VARS

KEEP_ROTATED = 5


class TurnLog:
    def __init__(self, directory: Path, *, max_bytes: int = 5_000_000):
        self.dir = Path(directory)
        self.path = self.dir / "turns.jsonl"
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._recent: set[str] = set()

    def write(self, record: dict) -> None:
        record = {"type": "turn", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **record}
        self._append(record)
        self._recent.add(record.get("turn_id", ""))

    def feedback(self, turn_id: str, rating: str, comment: str = "") -> dict:
        """Attach thumbs up/down (+ optional comment) to a logged turn: one rating per turn, so
        rating again replaces the earlier record instead of adding a second one."""
        if rating not in ("up", "down"):
            raise ValueError("Avaliação inválida: use 'up' ou 'down'.")
        if not self.knows(turn_id):
            raise KeyError(f"Conversa {turn_id!r} não encontrada no registro.")
        record = {"type": "feedback", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                  "turn_id": turn_id, "rating": rating, "comment": comment[:1000]}
        if not self._replace_feedback(record):
            self._append(record)
        return record

    def _replace_feedback(self, record: dict) -> bool:
        """Rewrite the current file with `record` in place of the turn's earlier feedback, if it has one;
        a new rating without a comment keeps the earlier comment. (An earlier rating already rotated
        out stays there; the newest record is the one that counts.)"""
        with self._lock:
            lines = _lines(self.path)
            for i, old in enumerate(lines):
                earlier = json.loads(old) if '"type": "feedback"' in old else {}
                if earlier.get("turn_id") == record["turn_id"]:
                    record["comment"] = record["comment"] or earlier.get("comment", "")
                    lines[i] = _redact(json.dumps(record, ensure_ascii=False))
                    temporary = self.path.with_suffix(".jsonl.tmp")
                    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
                    os.replace(temporary, self.path)
                    return True
        return False

    def knows(self, turn_id: str) -> bool:
        if turn_id in self._recent:
            return True
        needle = f'"turn_id": "{turn_id}"'
        return any(needle in line for path in self._files() for line in _lines(path))

    def read(self) -> list[dict]:
        """All records, oldest first (for tests and audits)."""
        return [json.loads(line) for path in reversed(self._files()) for line in _lines(path)]

    def _files(self) -> list[Path]:
        return [p for p in [self.path] + [self._rotated(i) for i in range(1, KEEP_ROTATED + 1)] if p.exists()]

    def _rotated(self, i: int) -> Path:
        return self.dir / f"turns.{i}.jsonl"

    def _append(self, record: dict) -> None:
        line = _redact(json.dumps(record, ensure_ascii=False)) + "\n"
        with self._lock:
            self.dir.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and self.path.stat().st_size + len(line.encode()) > self.max_bytes:
                self._rotate()
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(line)

    def _rotate(self) -> None:
        oldest = self._rotated(KEEP_ROTATED)
        if oldest.exists():
            oldest.unlink()
        for i in range(KEEP_ROTATED - 1, 0, -1):
            if self._rotated(i).exists():
                os.replace(self._rotated(i), self._rotated(i + 1))
        os.replace(self.path, self._rotated(1))


def _lines(path: Path) -> list[str]:
    try:
        return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError:
        return []


def _redact(line: str) -> str:
    """Belt and braces: no key from the environment is ever written, whatever a record holds."""
    for var in SECRET_VARS:
        value = os.environ.get(var, "")
        if len(value) >= 8:
            line = line.replace(value, "[removido]")
    return line

"""Labelled messages for training (JSON lines by blind authors): read, checked, a bad line named."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pastor.care.routes import RouteName, ScopeRoute
from pastor.datasets import LEARNT_FROM, files

# The routes an author may write; pastoral and off_topic are both "ordinary" for the router, and tell the
# evidence gate's scope apart.
WRITTEN_ROUTES = (
    RouteName.CRISIS,
    RouteName.ORDINARY,
    RouteName.CONVERSATIONAL,
    RouteName.OUT_OF_SCOPE,
    ScopeRoute.PASTORAL,
    ScopeRoute.OFF_TOPIC,
)


@dataclass(frozen=True)
class LabelledMessage:
    text: str
    route: str  # one of WRITTEN_ROUTES
    kind: str  # the author's kind (suicide_self, hyperbole, medical, greeting…)
    source: str  # file name and line, for a message that needs looking at


def load_messages(path: Path) -> list[LabelledMessage]:
    """`{"text", "route", "kind", "note"}` per line (blank lines skipped). A line that is not JSON, or has no
    text or an unknown route, is an error naming the file and the line."""
    messages = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path.name}, linha {number}: não é JSON ({error.msg})") from None
        text = row.get("text") if isinstance(row, dict) else None
        route = row.get("route") if isinstance(row, dict) else None
        if not isinstance(text, str) or not text.strip() or route not in WRITTEN_ROUTES:
            raise ValueError(
                f'{path.name}, linha {number}: use {{"text": …, "route": …, "kind": …}} '
                f"com rota em {', '.join(WRITTEN_ROUTES)}"
            )
        messages.append(LabelledMessage(text.strip(), route, str(row.get("kind") or ""), f"{path.name}:{number}"))
    return messages


def training_files() -> list[Path]:
    """The blind authors' routing sets the router and the scope learn from: `train` and `retired` in the manifest."""
    return files("routing", LEARNT_FROM)


def load_training(paths: list[Path] | None = None) -> list[LabelledMessage]:
    """The messages of `paths` (default: `training_files()`), in order."""
    return [m for path in (training_files() if paths is None else paths) for m in load_messages(path)]


def labelled_rows(path: Path, columns: int, labels: tuple[str, ...], usage: str) -> list[list[str]]:
    """Tab-separated rows of `columns` fields, the first one of `labels` and the last not empty; `#` starts a
    comment. A bad line is an error naming it and saying `usage`."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("\t")]
        if len(fields) != columns or fields[0] not in labels or not fields[-1]:
            raise ValueError(f"{path.name}, linha {number}: {usage}")
        rows.append(fields)
    return rows

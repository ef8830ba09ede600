"""Dataset attributions, read from the `NOTICE.md` that ships beside the data (one section per dataset)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pastor.config import ROOT
from pastor.text.datafile import content_sha256, logical_name

NOTICE = "NOTICE.md"
# The project's own notice: found even when a dataset is read from another folder.
PROJECT_NOTICE = ROOT / "corpus" / NOTICE

_FIELD = re.compile(r"^-\s+(File|Content sha256|Credit):\s*(.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class DatasetNotice:
    """One `## …` section: the files it covers, their content digests and the credit the app shows."""

    title: str
    files: frozenset[str]
    digests: frozenset[str]
    credit: str


def parse_notice(text: str) -> list[DatasetNotice]:
    """Sections with a `- Credit:` line; `- File:` and `- Content sha256:` lines say what they cover."""
    notices = []
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        title = section.splitlines()[0].strip()
        files: set[str] = set()
        digests: set[str] = set()
        credit = ""
        for key, value in _FIELD.findall(section):
            value = value.strip("` ")
            if key == "File":
                files.update(logical_name(v.strip("` ")) for v in value.split(","))
            elif key == "Content sha256":
                digests.add(value.lower())
            else:
                credit = value
        if credit:
            notices.append(DatasetNotice(title, frozenset(files), frozenset(digests), credit))
    return notices


@lru_cache(maxsize=8)
def _notices(path: Path, mtime: float) -> tuple[DatasetNotice, ...]:
    return tuple(parse_notice(path.read_text(encoding="utf-8")))


def notices_for(folder: Path) -> list[DatasetNotice]:
    """The notice beside the data, then the project's own (a missing or unreadable file adds nothing)."""
    found: list[DatasetNotice] = []
    for path in dict.fromkeys([Path(folder) / NOTICE, PROJECT_NOTICE]):
        try:
            found += _notices(path.resolve(), path.stat().st_mtime)
        except OSError:
            continue
    return found


def notice_for(path: Path | str, sha256: str | None = None) -> DatasetNotice | None:
    """The section that covers the dataset in `path`: matched by uncompressed content, else by file
    name (so `x.xml` and `x.xml.gz` share one section); None when no notice covers it."""
    path = Path(path)
    notices = notices_for(path.parent)
    if not notices:
        return None
    digest = (sha256 or content_sha256(path)).lower()
    for notice in notices:
        if digest in notice.digests:
            return notice
    name = logical_name(path)
    return next((n for n in notices if name in n.files), None)


def credit_for(path: Path | str, sha256: str | None = None) -> str:
    """The credit of the dataset in `path` ("" when no notice covers it)."""
    notice = notice_for(path, sha256)
    return notice.credit if notice is not None else ""

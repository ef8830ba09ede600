"""Plain text and Markdown: the whole file is one part; Markdown sections carry their heading path."""

from __future__ import annotations

import re

from pastor.documents.document import Part, Reader, Section, label

HEADING_SEPARATOR = " › "

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


class TextReader(Reader):
    """A .txt file: one part, one section, its context the file's name."""

    extensions = (".txt",)

    def parts(self, text: str, path: str) -> list[Part]:
        name = label(path)
        return [Part(title=name, sections=(Section(name, text.strip()),))]


class MarkdownReader(Reader):
    """A .md file: one part whose sections are split at headings."""

    extensions = (".md",)

    def parts(self, text: str, path: str) -> list[Part]:
        name = label(path)
        sections = []
        for trail, body in markdown_sections(text):
            context = HEADING_SEPARATOR.join(trail) or name
            sections.append(Section(context, body, title=context))
        return [Part(title=name, sections=tuple(sections))]


def clean_heading(raw: str) -> str:
    """Heading text without emphasis marks or link targets."""
    text = _LINK.sub(r"\1", raw)
    return " ".join(re.sub(r"[*`]|(?<!\w)_+|_+(?!\w)", "", text).split())


def headings(lines: list[str]) -> list[tuple[int, int, str, int]]:
    """(first line, level, text, lines taken) of each ATX or setext heading."""
    found: list[tuple[int, int, str, int]] = []
    fence = None
    start = _front_matter_end(lines)
    for index in range(start, len(lines)):
        line = lines[index]
        # Code blocks may contain lines that look like headings (shell comments, for one).
        opened = _FENCE.match(line)
        if opened:
            fence = None if fence == opened.group(1) else (fence or opened.group(1))
            continue
        if fence:
            continue
        atx = _ATX.match(line)
        if atx and clean_heading(atx.group(2) or ""):
            found.append((index, len(atx.group(1)), clean_heading(atx.group(2)), 1))
            continue
        # Setext: a single text line under a blank line (or the start), underlined by === or ---.
        setext = _SETEXT.match(line)
        if (
            setext
            and index > start
            and lines[index - 1].strip()
            and (index - 1 == start or not lines[index - 2].strip())
            and not _ATX.match(lines[index - 1])
            and (not found or found[-1][0] != index - 1)
        ):
            level = 1 if setext.group(1).startswith("=") else 2
            found.append((index - 1, level, clean_heading(lines[index - 1]), 2))
    return found


def _front_matter_end(lines: list[str]) -> int:
    """First line after a YAML front matter block (0 when there is none)."""
    if lines and lines[0].strip() == "---":
        for index in range(1, len(lines)):
            if lines[index].strip() in {"---", "..."}:
                return index + 1
    return 0


def markdown_sections(text: str) -> list[tuple[list[str], str]]:
    """(heading path, verbatim text) per section; a heading with no body joins the next section.

    Linear in the text: each line is looked at a fixed number of times, however many headings
    in a row have no body (a run of them is joined once, when its section ends)."""
    lines = text.split("\n")
    # The text before the first heading is a section without a title.
    cuts = [(0, 0, None, 0)] + headings(lines)
    trail: list[tuple[int, str]] = []
    sections: list[tuple[list[str], str]] = []
    pending_start: int | None = None
    for number, (line, level, title, height) in enumerate(cuts):
        if title is not None:
            trail = [t for t in trail if t[0] < level] + [(level, title)]
        end = cuts[number + 1][0] if number + 1 < len(cuts) else len(lines)
        if title is not None and number + 1 < len(cuts) and not _has_text(lines, line + height, end):
            pending_start = line if pending_start is None else pending_start  # heading-only
            continue
        start = line if pending_start is None else pending_start
        pending_start = None
        body = "\n".join(lines[start:end]).strip()
        if body:
            sections.append(([t[1] for t in trail], body))
    return sections


def _has_text(lines: list[str], start: int, end: int) -> bool:
    return any(line.strip() for line in lines[start:end])

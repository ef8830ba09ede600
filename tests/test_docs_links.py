"""Issue 30: the README stays short, and every relative link of the documentation resolves.

The documents checked: README.md, ARCHITECTURE.md, docs/*.md and bench/README.md. A relative link or
image must name a file or folder that exists (relative to the document); an anchor into a Markdown file
(`docs/api.md#command-line`, `#the-two-commands`) must name one of its headings, slugged as GitHub does.
External links (http, https, mailto) are not fetched.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 300

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target "title") and ![alt](target): the target, with or without <…>, up to a space or ")".
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_TARGET = re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)=\"([^\"]+)\"", re.IGNORECASE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def documents() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", ROOT / "bench" / "README.md"]
    found += sorted((ROOT / "docs").glob("*.md"))
    return found


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    lines, fence = [], None
    for number, line in enumerate(text.splitlines(), 1):
        opened = FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(1)[0] * len(opened.group(1))
            continue
        if fence is not None:
            if line.strip().startswith(fence) and set(line.strip()) <= {fence[0]}:
                fence = None
            continue
        lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the rendered text, lower-cased, punctuation dropped, spaces → '-'."""
    parts = []
    for i, piece in enumerate(CODE_SPAN.split(heading)):
        # split() gives text, fence, code, text, fence, code…: code spans keep their text as written
        if i % 3 == 2:
            parts.append(piece)
        elif i % 3 == 0:
            piece = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", piece)  # a link or image reads as its text
            piece = re.sub(r"<[^>]+>", "", piece)  # inline HTML tags
            piece = re.sub(r"\*{1,3}|(?<!\w)_{1,3}|_{1,3}(?!\w)", "", piece)  # emphasis markers
            parts.append(piece)
    text = "".join(parts).strip().lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def targets(text: str) -> list[tuple[int, str]]:
    """(line, target) of every link, image, reference definition and HTML href/src outside code."""
    found = []
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub("", line)
        for pattern in (INLINE_LINK, REFERENCE_DEFINITION, HTML_TARGET):
            for match in pattern.finditer(line):
                found.append((number, match.group(1).strip("<>")))
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    problems = []
    text = path.read_text(encoding="utf-8")
    for number, target in targets(text):
        where = f"{path.relative_to(root)}:{number}: {target}"
        if SCHEME.match(target):  # http(s), mailto: not fetched
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not resolved.exists():
            problems.append(f"{where} (no such file)")
            continue
        if anchor and resolved.suffix == ".md" and unquote(anchor).lower() not in anchors(resolved):
            problems.append(f"{where} (no heading #{anchor} in {resolved.relative_to(root)})")
    return problems


def test_every_relative_link_resolves():
    problems = [problem for path in documents() for problem in broken_links(path)]
    assert not problems, "links that do not resolve:\n" + "\n".join(problems)


def test_the_documents_checked_exist():
    for path in documents():
        assert path.is_file(), path
    assert len(documents()) > 3, "docs/*.md is empty"


def test_every_page_of_docs_is_linked_from_the_readme():
    linked = {
        (ROOT / target.partition("#")[0]).resolve()
        for _, target in targets((ROOT / "README.md").read_text(encoding="utf-8"))
        if not SCHEME.match(target) and target.partition("#")[0]
    }
    orphans = [
        str(page.relative_to(ROOT)) for page in sorted((ROOT / "docs").glob("*.md")) if page.resolve() not in linked
    ]
    assert not orphans, f"pages of docs/ the README does not link to: {orphans}"


def test_readme_is_at_most_300_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines (at most {README_MAX_LINES}): move details to docs/"
    )


# --- the checker itself -------------------------------------------------------------------------


def test_slugs_follow_github():
    assert slug("The two commands") == "the-two-commands"
    assert slug("API (`gradio_client`)") == "api-gradio_client"
    assert slug("Limits, faults and privacy") == "limits-faults-and-privacy"
    assert slug("Where to add…") == "where-to-add"
    assert slug("Earlier measurements (81 dev / 56 held-out questions, before the topical retriever)") == (
        "earlier-measurements-81-dev--56-held-out-questions-before-the-topical-retriever"
    )
    assert slug("**Bold** and *em*") == "bold-and-em"
    assert slug("Sizing on paper") == "sizing-on-paper"
    assert slug("Configuração do índice") == "configuração-do-índice"
    assert slug("The `__init__` of `pastor`") == "the-__init__-of-pastor"


def test_links_in_code_are_not_links():
    text = "```\n[x](missing.md)\n# not a heading\n```\n`[y](missing.md)` and [z](present.md)\n"
    assert targets(text) == [(5, "present.md")]


def test_a_broken_link_and_a_missing_anchor_are_reported(tmp_path):
    (tmp_path / "a.md").write_text("# Title\n## Same\n## Same\n", encoding="utf-8")
    (tmp_path / "pic.png").write_bytes(b"")
    doc = tmp_path / "b.md"
    doc.write_text(
        "[ok](a.md#title) [dup](a.md#same-1) [gone](nope.md) [bad](a.md#other) "
        "![img](pic.png) [web](https://example.com/x) [here](#top)\n# Top\n",
        encoding="utf-8",
    )
    problems = broken_links(doc, root=tmp_path)
    assert len(problems) == 2, problems
    assert "nope.md (no such file)" in problems[0]
    assert "no heading #other in a.md" in problems[1]

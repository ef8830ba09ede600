"""Streamed citation validation: release text as soon as no citation can still change it."""

from __future__ import annotations

import re
from collections.abc import Set
from functools import lru_cache

from pastor.answer_filter.citations import (
    Citation,
    Item,
    Output,
    Plan,
    Window,
    apply,
    original_deletions,
    output_citations,
    placed,
    plan,
    validate,
)
from pastor.answer_filter.removal import CUES, SEP_LINK, char, clause_pending, lookback
from pastor.answer_filter.shapes import pseudo_viable
from pastor.bible import canon
from pastor.text.canonical import IncrementalCanonical
from pastor.text.fold import fold

# -- what may still become a citation (every test is closed under prefixes) ----------------------------
_CONT_WORDS = ("e", "capitulos", "cap", "versiculos", "vers", "vv", "v")
_CONT_CHARS = r"[\s\d:.,;\-–—]"


@lru_cache(maxsize=1)
def _alias_tail() -> re.Pattern:
    """A complete alias followed only by what a reference may still contain (folded)."""
    words = sorted({w[:i] for w in _CONT_WORDS for i in range(1, len(w) + 1)}, key=len, reverse=True)
    return re.compile(
        r"(?:"
        + canon.alias_regex()
        + r")\.?(?:"
        + _CONT_CHARS
        + r"|(?<![a-zªº])(?:"
        + "|".join(words)
        + r")(?![a-zªº]))*"
    )


_DOC_TAIL = re.compile(r"[\w./\-]*(?:#(?:p(?:\d+(?:-(?:c\d*)?)?)?)?)?")
_MAX_ALIAS = max(len(p) for p in canon.alias_forms()) + 2
_CUE_PREFIXES = frozenset((cue + " ")[:i] for cue in CUES for i in range(1, len(cue) + 2))


_UNSETTLED = re.compile(r"[*_~`\\]")


def _viable(text: str, folded: str, pos: int) -> bool:
    """Whether `text[pos:]` may still be, or grow into, a citation. A marker or backslash left in
    the canonical view may still vanish (`Romanos `` becomes `Romanos `8:28``), so it is skipped."""
    if _UNSETTLED.search(text, pos):
        text, folded, pos = _UNSETTLED.sub("", text[pos:]), _UNSETTLED.sub("", folded[pos:]), 0
    if pseudo_viable(text, pos) or _DOC_TAIL.fullmatch(text, pos):
        return True
    tail = re.sub(r"\s+", " ", folded[pos : pos + 4 * _MAX_ALIAS])
    if len(tail) <= _MAX_ALIAS and canon.is_alias_prefix(tail):
        return True
    return bool(_alias_tail().fullmatch(folded, pos))


def _is_word(ch: str) -> bool:
    return ch.isalnum()  # `_Romanos` may still become a citation: the underscore starts no word


def _may_start(text: str, pos: int) -> bool:
    """Not inside a word or a number, or a capital glued to a word (`dizHezequias 3:16` reads as a
    citation), or a letter right after digits (`3:16Romanos 8:28`)."""
    before = char(text, pos - 1)
    if text[pos].isdigit():
        return not before.isalnum()
    return not before.isalpha() or (text[pos].isupper() and not before.isupper())


def _first_viable(text: str, folded: str, start: int) -> int:
    """The first position from `start` on, not inside a word, whose tail may still become a
    citation (a name may follow digits or an underscore: `3:16Romanos 8:28`, `_Romanos_`)."""
    for pos in range(start, len(text)):
        if _may_start(text, pos) and (_is_word(text[pos]) or text[pos] in ".-") and _viable(text, folded, pos):
            return pos
    return len(text)


def _cue_hold(text: str, folded: str) -> int:
    """Where a cue still being written at the end starts (`como d…` may become `como diz`)."""
    hold = len(text)
    for pos in range(len(text) - 1, -1, -1):
        if not _is_word(text[pos]) or _is_word(char(text, pos - 1)):
            continue
        tail = re.sub(r"\s+", " ", _UNSETTLED.sub("", folded[pos:]))  # `como diz *` may still be a cue
        if len(tail) > len(CUES[0]) + 1:
            break
        if tail in _CUE_PREFIXES:
            hold = lookback(text, folded, pos)
    return hold


def _stable_end(text: str, folded: str, planned: Plan, open_from: int) -> int:
    """Position of the canonical text before which no future character can change anything."""
    open_start = min([open_from] + [i.start for i in planned.items if i.end > open_from])
    # Walk back over the closed citations listed right before the open tail.
    chain: list[Item] = []
    cursor = open_start
    for item in reversed([i for i in planned.items if i.end <= open_start]):
        if not SEP_LINK.fullmatch(folded, item.end, cursor):
            break
        chain.insert(0, item)
        cursor = item.start
    if any(i.kept for i in chain):
        limit = max(i.end for i in chain if i.kept)  # a kept citation anchors its list
    else:
        limit = lookback(text, folded, cursor)  # even at the very end: `(` may open a citation
    limit = min(limit, _cue_hold(text, folded))
    # Words after a removed citation may still become a clause that leans on it (`X diz q…`).
    for item in planned.items:
        if not item.kept and item.start < limit and clause_pending(folded, item.end):
            limit = min(limit, lookback(text, folded, item.start))
    # A glued reference found after the open tail was removed depends on that tail, and so does
    # every repair found after it (`3:16estatuto.md#p0-c3` is a document only while `João 3` goes).
    for index, (_, end) in enumerate(planned.repairs):
        if end >= open_start:
            limit = min([limit] + [start for start, _ in planned.repairs[index:]])
            break
    # A citation may still start at any later word start of the open tail, with a complete cue
    # before it that began before `open_start` (`como dizHezequias 3:16`).
    for pos in range(open_start + 1, len(text)):
        if text[pos].isalpha() and _may_start(text, pos):
            limit = min(limit, lookback(text, folded, pos))
    # A cleanup reaching the limit may still grow with the next characters.
    changed = True
    while changed:
        changed = False
        for start, end in planned.deletions:
            if start < limit <= end:
                limit, changed = start, True
    return limit


def _safe_output_end(out: str, final: int, start: int, out_from: int) -> int:
    """How much of the validated text can be shown: up to where its tail could still join
    with what follows into a reference (`João 3:1` may be `João 3:16`), never inside one."""
    origin = max(0, min(start, final) - 1)
    part = out[origin:final]
    end = origin + _first_viable(part, fold(part), start - origin)
    for found in output_citations(out[out_from:]):
        if found.start + out_from < end < found.end + out_from:
            end = found.start + out_from
    # A removed citation takes the space before it with it (`versão 2.1João 14:6` ends `versão`), so
    # a space is shown only once something other than space follows it.
    while end > start and out[end - 1].isspace():
        end -= 1
    return end


class StreamingValidator:
    """Validates a streamed answer, emitting text as soon as no citation can affect it.

    Every emitted piece extends a prefix of `validate(full_text).text`: the canonical view of the
    buffer is validated as a whole and only what lies before the first place that could still
    change is released, mapped back to the original characters."""

    # Planning restarts from a settled point once this much released text lies behind it.
    WINDOW_STEP = 80
    WINDOW_MARGIN = 40

    def __init__(self, allowed_verses: Set[str], allowed_docs: Set[str] = frozenset()):
        self.allowed_verses = frozenset(allowed_verses)
        self.allowed_docs = frozenset(allowed_docs)
        self.citations: list[str] = []
        self.removed: list[str] = []
        self.cited_ids: frozenset[str] = frozenset()  # what the kept citations name, once finished
        self.spans: list[Citation] = []  # the citations released so far, placed in the released text
        self._buffer = ""
        self._canonical = IncrementalCanonical()
        self._folded = ""  # fold() of the canonical view
        self._emitted = ""  # original characters shown, after deletions
        self._shown = ""  # the same, in the canonical view
        self._released = 0  # original characters whose outcome has been shown
        self._released_c = 0  # the same, in the canonical view
        self._open_from = 0  # no citation can start before this canonical position any more
        self._window = Window()

    @property
    def held(self) -> int:
        """Characters received but not yet released."""
        return len(self._buffer) - self._released

    def feed(self, delta: str) -> str:
        """Add streamed text; return the newly releasable part of the validated answer."""
        if not delta:
            return ""
        self._buffer += delta
        settled = self._canonical.settled
        view = self._canonical.update(self._buffer)
        text = view.text
        self._folded = self._folded[:settled] + fold(text[settled:])  # folding is per character
        planned = plan(text, self._folded, self.allowed_verses, self.allowed_docs, self._window)
        # The canonical view may still change from `settled` on (`Veja *` may become
        # `Veja *Rom*anos 8:28`), so a citation may start there at the latest.
        settled = self._canonical.settled
        self._open_from = min(_first_viable(text, self._folded, self._open_from), settled)
        limit = min(_stable_end(text, self._folded, planned, self._open_from), settled)
        final = planned.output.position(limit)  # output characters no future edit can touch
        end = self._closed(planned, _safe_output_end(planned.output.text, final, len(self._shown), self._window.out))
        if end <= len(self._shown):
            return ""
        released_c = view.cluster_start(planned.output.original(end - 1) + 1)
        shown = planned.output.text[: planned.output.position(released_c)]
        if len(shown) <= len(self._shown) or not shown.startswith(self._shown):
            return ""
        released = view.boundary(released_c)
        emitted = apply(self._buffer, original_deletions(view, planned.deletions), limit=released)
        if not emitted.text.startswith(self._emitted):
            return ""
        out = emitted.text[len(self._emitted) :]
        self._place(view, emitted)
        self._shown, self._emitted, self._released, self._released_c = shown, emitted.text, released, released_c
        self._advance_window(text, planned)
        return out

    def _place(self, view, emitted: Output) -> None:
        """The citations of the released text: those before the planning window stay where they were
        placed, the rest are placed again. One that ends the released text waits for what follows it
        (`estatuto.md#p0-c3` is no citation once `Primeira` is glued to it)."""
        boundary = emitted.position(view.boundary(self._window.start))
        fresh = placed(emitted.text, self.allowed_verses, self.allowed_docs, boundary)
        self.spans = [c for c in self.spans if c.end <= boundary] + [c for c in fresh if c.end < len(emitted.text)]

    def _closed(self, planned: Plan, end: int) -> int:
        """Shorten a releasable output so that, cut there, it holds no unsupported citation
        (`… 3.16estatuto.md#p0-c3` reads as a document reference only because the cut ends it)."""
        start = self._window.out
        while end > len(self._shown):
            bad = [
                f
                for f in output_citations(planned.output.text[start:end], self.allowed_verses, self.allowed_docs)
                if not f.supported
            ]
            if not bad:
                break
            end = bad[0].start + start
        return end

    def finish(self) -> str:
        """The rest of the validated answer; `citations` and `removed` are set from here on."""
        result = validate(self._buffer, self.allowed_verses, self.allowed_docs)
        self.citations, self.removed, self.cited_ids = result.citations, result.removed, result.cited_ids
        self.spans = result.spans
        self._released = len(self._buffer)
        out, self._emitted = result.text[len(self._emitted) :], result.text
        return out

    def _advance_window(self, text: str, planned: Plan) -> None:
        """Move the planning start to a settled space well inside the released text, so each
        chunk costs the same however long the answer grows."""
        if self._released_c - self._window.start < self.WINDOW_STEP:
            return
        out = planned.output
        spans = [(a, b) for a, b in planned.deletions] + [(i.start, i.end) for i in planned.items]
        emitted_spans = [
            (f.start + self._window.out, f.end + self._window.out)
            for f in output_citations(out.text[self._window.out : len(self._shown)])
        ]
        for pos in range(self._released_c - self.WINDOW_MARGIN, self._window.start, -1):
            if not text[pos - 1].isspace() or any(a <= pos and pos - 1 < b for a, b in spans):
                continue
            out_pos = out.position(pos)
            if out_pos > len(self._shown) or any(a < out_pos < b for a, b in emitted_spans):
                continue
            self._window = Window(pos, out_pos, tuple(i for i in planned.items if i.end <= pos))
            return

"""Citation validation: keep only references backed by the turn's sources, also while streaming."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

from pastor.bible import canon
from pastor.text.fold import fold
from pastor.documents.refs import DOC_REF_PATTERN
from pastor.bible.references import find_references

NO_ANCHOR_NOTE = ("Observação: não foi possível ancorar esta resposta em um versículo específico do "
                  "texto indexado. Os trechos consultados estão listados abaixo.")

# A capitalised word that is no book, before chapter:verse (`Hezequias 3:16`). Only treated as a
# citation when it sits in a list with a real one, because times like `Domingo 19:30` exist.
_PSEUDO = re.compile(r"(?<!\w)[A-ZÀ-Ý][a-zà-ÿ]+[ \t]+\d{1,3}:\d{1,3}(?:[ \t]*[-–][ \t]*\d{1,3})?(?!\d)")

# Between two citations of one list (folded): `; `, `, `, ` e `, ` ou `, `, e `, `/`, ` e em `.
_SEP = re.compile(r"(?:\s*[,;/]\s*|\s+(?=e|ou))(?:(?:e|ou)\s+)?(?:(?:tambem\s+)?em\s+|tambem\s+)?")
# What may still be, or grow into, such a separator: a superset of _SEP, closed under prefixes.
_SEP_LINK = re.compile(r"(?:[\s,;/]+|(?<![a-z])(?:e|ou|em|tambem)(?![a-z]))*")

# Words that introduce a citation and go away with it (folded). Before a `:` only the
# prepositions go (`como está escrito em Jo 3:17: …` → `como está escrito: …`).
_CUES = ("como esta escrito em", "conforme lemos em", "como lemos em", "como se le em", "de acordo com",
         "como nos lembra", "como diz", "como ensina", "como afirma", "como lembra", "como em",
         "esta escrito em", "lemos em", "veja tambem", "ver tambem", "conforme", "segundo", "confira",
         "veja", "vide", "leia", "ver", "cfr.", "conf.", "cf.", "cf", "em")
_PREPOSITIONS = ("de acordo com", "conforme", "segundo", "vide", "cfr.", "conf.", "cf.", "cf", "em")

_HSPACE = " \t"
_LINE_START = ("", "\n")
_SENTENCE_START = ("", "\n", ".", "!", "?")
_OPENERS = ("(", "[", ":")
_LIST_PUNCT = (",", ";")
_END_PUNCT = (".", "!", "?")
_INTRODUCING = (":", "—", "–", "-")
_CLOSING = {"(": ")", "[": "]"}


@dataclass
class ValidationResult:
    text: str
    citations: list[str] = field(default_factory=list)  # canonical verse refs and doc refs kept
    removed: list[str] = field(default_factory=list)  # unsupported citations, as written


@dataclass(frozen=True)
class _Item:
    """One citation in the text: a verse reference, a document reference or an unknown book."""

    start: int
    end: int
    text: str
    kind: str  # "verse" | "doc" | "pseudo"
    kept: bool

    def shifted(self, offset: int) -> "_Item":
        return _Item(self.start + offset, self.end + offset, self.text, self.kind, self.kept)


# -- finding citations -----------------------------------------------------------------------------
def _supported(match, allowed_verses) -> bool:
    return match.error is None and match.reference is not None and \
        all(v in allowed_verses for v in match.reference.verse_ids())


def _items(text: str, allowed_verses, allowed_docs) -> list[_Item]:
    items = [_Item(m.start(), m.end(), m.group(), "doc", m.group() in allowed_docs)
             for m in DOC_REF_PATTERN.finditer(text)]
    for match in find_references(text):
        if not _overlaps(match.start, match.end, items):
            items.append(_Item(match.start, match.end, match.text, "verse", _supported(match, allowed_verses)))
    for match in _PSEUDO.finditer(text):
        if not _overlaps(match.start(), match.end(), items):
            items.append(_Item(match.start(), match.end(), match.group(), "pseudo", False))
    return sorted(items, key=lambda i: i.start)


def _overlaps(start: int, end: int, items) -> bool:
    return any(start < i.end and i.start < end for i in items)


def _output_citations(text: str, allowed_verses=frozenset(), allowed_docs=frozenset()):
    """(start, end, canonical form, supported) for every citation in a (validated) text."""
    found = [(m.start(), m.end(), m.group(), m.group() in allowed_docs) for m in DOC_REF_PATTERN.finditer(text)]
    for match in find_references(text):
        if not any(match.start < e and s < match.end for s, e, _, _ in found):
            ok = _supported(match, allowed_verses)
            found.append((match.start, match.end, match.reference.format() if ok else match.text, ok))
    return sorted(found)


def _clusters(items: list[_Item], folded: str) -> list[list[_Item]]:
    """Citations joined by list separators; a list of unknown books alone is just text."""
    groups: list[list[_Item]] = []
    for item in items:
        if groups and _SEP.fullmatch(folded, groups[-1][-1].end, item.start):
            groups[-1].append(item)
        else:
            groups.append([item])
    return [g for g in groups if any(i.kind != "pseudo" for i in g)]


# -- cleaning around removed citations --------------------------------------------------------------
def _back(text: str, pos: int) -> int:
    while pos > 0 and text[pos - 1] in _HSPACE:
        pos -= 1
    return pos


def _forward(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _HSPACE:
        pos += 1
    return pos


def _char(text: str, pos: int) -> str:
    return text[pos] if 0 <= pos < len(text) else ""


def _cue_start(folded: str, pos: int, cues=_CUES) -> int | None:
    """Start of a cue that ends right before `pos` (spaces skipped), if any."""
    end = _back(folded, pos)
    for cue in cues:
        start = end - len(cue)
        if start >= 0 and folded.startswith(cue, start) and not _char(folded, start - 1).isalnum():
            return start
    return None


_BULLET = re.compile(r"[ \t]*(?:[-*•–]|\d{1,2}[.)])[ \t]*")


def _bullet_start(text: str, pos: int) -> int | None:
    """Start of the line when only a list marker (`- `, `• `, `2. `) precedes `pos` on it."""
    line = text.rfind("\n", 0, pos) + 1
    return line if _BULLET.fullmatch(text, line, pos) else None


def _lookback(text: str, folded: str, start: int) -> int:
    """The leftmost position the cleanup of a list starting at `start` may touch."""
    pos = _back(text, start)
    cue = _cue_start(folded, start)
    if cue is not None:
        pos = _back(text, cue)
    if _char(text, pos - 1) in _CLOSING:
        pos = _back(text, pos - 1)
    if _char(text, pos - 1) in (",", ";", ":"):
        pos -= 1
    bullet = _bullet_start(text, pos)
    return pos if bullet is None else bullet


def _list_deletions(group: list[_Item]) -> list[tuple[int, int]]:
    """Inside a list that keeps something, drop each removed run with one separator:
    `A, B e C` without B → `A e C`; without A → `B e C`; without C → `A, B`."""
    spans, previous_kept, run = [], None, None
    for item in group:
        if not item.kept:
            run = (run[0] if run else item.start, item.end)
            continue
        if run:
            spans.append((previous_kept.end, run[1]) if previous_kept else (run[0], item.start))
        previous_kept, run = item, None
    if run:
        spans.append((previous_kept.end, run[1]))
    return spans


def _whole_deletion(text: str, folded: str, start: int, end: int) -> tuple[int, int]:
    """Span to drop when nothing of a list survives, leaving clean punctuation and spacing."""
    j = _forward(text, end)
    r = _char(text, j)
    cue = _cue_start(folded, start, _PREPOSITIONS if r == ":" else _CUES)
    a = start if cue is None else cue
    k = _back(text, a)
    l = _char(text, k - 1)
    # `(Jo 3:17)`, `[cf. Jo 3:17]`: the brackets go too, with one of the spaces around them.
    if l in _CLOSING and r == _CLOSING[l]:
        return _bracket_deletion(text, k - 1, j)
    after_r = _forward(text, j + 1)
    bullet = _bullet_start(text, k)
    if bullet is not None:
        if r in _LINE_START:
            return bullet, j + len(r)  # a list line that held only the citation
        l = ""  # after `- ` the citation starts its line
    if r in _LIST_PUNCT or r in _INTRODUCING:
        if l in _SENTENCE_START or l in _OPENERS:
            return a, after_r  # `Em Jo 3:17, Jesus…` → `Jesus…`; `Jo 3:17 — Ele…` → `Ele…`
        if l in _LIST_PUNCT:
            return k - 1, j + 1  # `cuida, Jo 3:17, de nós` → `cuida de nós`
        return k, j  # `nós Jo 3:17, sempre` → `nós, sempre`
    if r in _LINE_START or r in _END_PUNCT or r in (")", "]"):
        if l in _LIST_PUNCT or l == ":":
            return k - 1, j  # `cuida, Jo 3:17.` → `cuida.`
        if l in _SENTENCE_START and r in _END_PUNCT:
            return a, after_r  # a sentence that was only the citation
        return k, j  # no space before punctuation
    if l in _SENTENCE_START or l in _OPENERS:
        return a, j  # `Jo 3:17 diz…` → `diz…`
    return k, end  # `amor Jo 3:17 vemos` → `amor vemos`


def _bracket_deletion(text: str, opening: int, closing: int) -> tuple[int, int]:
    before = _back(text, opening)
    l = _char(text, before - 1)
    after = _forward(text, closing + 1)
    if before < opening:
        return (opening, after) if l in _LINE_START else (before, closing + 1)
    if after > closing + 1 and (l in _LINE_START or l in _CLOSING):
        return opening, after
    return opening, closing + 1


def _primary_deletions(text: str, folded: str, items: list[_Item]) -> list[tuple[int, int]]:
    deletions: list[tuple[int, int]] = []
    for group in _clusters(items, folded):
        if any(i.kept for i in group):
            deletions += _list_deletions(group)
        else:
            deletions.append(_whole_deletion(text, folded, group[0].start, group[-1].end))
    return deletions


# -- applying deletions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Output:
    """The text left after the deletions, with where each kept piece came from."""

    text: str
    pieces: tuple[tuple[int, int, int], ...]  # (output start, original start, original end)

    def original(self, pos: int) -> int:
        """Original position of output character `pos`."""
        index = bisect.bisect_right(self.pieces, (pos, float("inf"))) - 1
        out_start, start, _ = self.pieces[index]
        return start + pos - out_start

    def position(self, original: int) -> int:
        """Output length of everything before `original`."""
        index = bisect.bisect_right(self.pieces, original, key=lambda p: p[1]) - 1
        if index < 0:
            return 0
        out_start, start, end = self.pieces[index]
        return out_start + min(original, end) - start

    def junctions(self) -> list[int]:
        """Output positions where something was deleted just before."""
        spots, previous_end = [], 0
        for out_start, start, end in self.pieces:
            if start > previous_end:
                spots.append(out_start)
            previous_end = end
        return spots


def _apply(text: str, deletions, limit: int | None = None) -> _Output:
    """`text[:limit]` without the deleted spans (overlapping spans merge)."""
    limit = len(text) if limit is None else limit
    parts, pieces, pos, size = [], [], 0, 0
    for start, end in sorted(deletions) + [(limit, limit)]:
        start = min(start, limit)
        if start > pos:
            parts.append(text[pos:start])
            pieces.append((size, pos, start))
            size += start - pos
        pos = max(pos, end)
        if pos >= limit:
            break
    return _Output("".join(parts), tuple(pieces))


def _repair_joins(text: str, deletions: list, allowed_verses, allowed_docs, out_from: int = 0):
    """Deleting can glue text into a new reference (`Jo (Jo 3:17) 3:18` → `Jo 3:18`): drop the
    glued part after the junction, never what precedes it, so released text stays valid."""
    repaired: list[str] = []
    while deletions:
        out = _apply(text, deletions)
        bad = [c for c in _output_citations(out.text[out_from:], allowed_verses, allowed_docs) if not c[3]]
        if not bad:
            break
        start, end = bad[0][0] + out_from, bad[0][1] + out_from
        joint = next((j for j in out.junctions() if start <= j < end), start)
        deletions = deletions + [(out.original(joint), out.original(end - 1) + 1)]
        repaired.append(out.text[start:end])
    return deletions, repaired


@dataclass(frozen=True)
class _Window:
    """Where planning starts: items before `start` are final, and so is the output before `out`."""

    start: int = 0
    out: int = 0
    items: tuple[_Item, ...] = ()


@dataclass(frozen=True)
class _Plan:
    items: tuple[_Item, ...]
    deletions: tuple[tuple[int, int], ...]  # sorted spans of the original text to drop
    output: _Output
    repaired: tuple[str, ...]  # glued references removed after the first pass


def _plan(text: str, folded: str, allowed_verses, allowed_docs, window: _Window = _Window()) -> _Plan:
    fresh = [i.shifted(window.start) for i in _items(text[window.start:], allowed_verses, allowed_docs)]
    items = list(window.items) + fresh
    deletions = _primary_deletions(text, folded, items)
    deletions, repaired = _repair_joins(text, deletions, allowed_verses, allowed_docs, window.out)
    return _Plan(tuple(items), tuple(sorted(deletions)), _apply(text, deletions), tuple(repaired))


def _result(plan: _Plan, allowed_verses, allowed_docs) -> ValidationResult:
    labels = [c[2] for c in _output_citations(plan.output.text, allowed_verses, allowed_docs)]
    removed = [i.text for i in plan.items if not i.kept and any(a <= i.start and i.end <= b for a, b in plan.deletions)]
    return ValidationResult(plan.output.text, list(dict.fromkeys(labels)), removed + list(plan.repaired))


def validate(text: str, allowed_verses: set[str], allowed_docs: set[str] = frozenset()) -> ValidationResult:
    """Remove every citation the sources do not support; keep the supported ones as written."""
    return _result(_plan(text, fold(text), allowed_verses, allowed_docs), allowed_verses, allowed_docs)


# -- what may still become a citation ----------------------------------------------------------------
_CONT_WORDS = ("e", "capitulos", "cap", "versiculos", "vers", "vv", "v")
_CONT_CHARS = r"[\s\d:.,;\-–—]"


@lru_cache(maxsize=1)
def _alias_prefixes() -> frozenset[str]:
    """Every prefix of every book alias, spaces inside an alias optional (folded)."""
    prefixes = set()
    for form in canon.alias_forms():
        words = form.split(" ")
        variants = [words[0]]
        for word in words[1:]:
            variants = [v + sep + word for v in variants for sep in (" ", "")]
        for variant in variants:
            prefixes.update(variant[:i] for i in range(1, len(variant) + 1))
    return frozenset(prefixes)


@lru_cache(maxsize=1)
def _alias_tail() -> re.Pattern:
    """A complete alias followed only by what a reference may still contain (folded)."""
    forms = [r"\s*".join(re.escape(w) for w in form.split(" ")) for form in canon.alias_forms()]
    words = sorted({w[:i] for w in _CONT_WORDS for i in range(1, len(w) + 1)}, key=len, reverse=True)
    return re.compile(r"(?:" + "|".join(forms) + r")\.?(?:" + _CONT_CHARS +
                      r"|(?<![a-zªº])(?:" + "|".join(words) + r")(?![a-zªº]))*")


_DOC_TAIL = re.compile(r"[\w./\-]*(?:#(?:p(?:\d+(?:-(?:c\d*)?)?)?)?)?")
_PSEUDO_TAIL = re.compile(r"[A-ZÀ-Ý][a-zà-ÿ]*" + _CONT_CHARS + "*")
_MAX_ALIAS = max(len(p) for p in canon.alias_forms()) + 2
_CUE_PREFIXES = frozenset((cue + " ")[:i] for cue in _CUES for i in range(1, len(cue) + 2))


def _viable(text: str, folded: str, pos: int) -> bool:
    """Whether `text[pos:]` may still be, or grow into, a citation (each test is prefix-closed)."""
    if _PSEUDO_TAIL.fullmatch(text, pos) or _DOC_TAIL.fullmatch(text, pos):
        return True
    tail = re.sub(r"\s+", " ", folded[pos:pos + 4 * _MAX_ALIAS])
    if len(tail) <= _MAX_ALIAS and tail in _alias_prefixes():
        return True
    return bool(_alias_tail().fullmatch(folded, pos))


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _first_viable(text: str, folded: str, start: int) -> int:
    """The first word start from `start` on whose tail may still become a citation."""
    for pos in range(start, len(text)):
        if not _is_word(_char(text, pos - 1)) and (_is_word(text[pos]) or text[pos] in ".-") \
                and _viable(text, folded, pos):
            return pos
    return len(text)


def _cue_hold(text: str, folded: str) -> int:
    """Where a cue still being written at the end starts (`como d…` may become `como diz`)."""
    hold = len(text)
    for pos in range(len(text) - 1, -1, -1):
        if not _is_word(text[pos]) or _is_word(_char(text, pos - 1)):
            continue
        tail = re.sub(r"\s+", " ", folded[pos:])
        if len(tail) > len(_CUES[0]) + 1:
            break
        if tail in _CUE_PREFIXES:
            hold = _lookback(text, folded, pos)
    return hold


def _stable_end(text: str, folded: str, plan: _Plan, open_from: int) -> int:
    """Position of the original text before which no future character can change anything."""
    open_start = min([open_from] + [i.start for i in plan.items if i.end > open_from])
    # Walk back over the closed citations listed right before the open tail.
    chain, cursor = [], open_start
    for item in reversed([i for i in plan.items if i.end <= open_start]):
        if not _SEP_LINK.fullmatch(folded, item.end, cursor):
            break
        chain.insert(0, item)
        cursor = item.start
    if any(i.kept for i in chain):
        limit = max(i.end for i in chain if i.kept)  # a kept citation anchors its list
    else:
        limit = _lookback(text, folded, cursor)  # even at the very end: `(` may open a citation
    limit = min(limit, _cue_hold(text, folded))
    # A cleanup reaching the limit may still grow with the next characters.
    changed = True
    while changed:
        changed = False
        for start, end in plan.deletions:
            if start < limit <= end:
                limit, changed = start, True
    return limit


def _safe_output_end(out: str, final: int, start: int, out_from: int) -> int:
    """How much of the validated text can be shown: up to where its tail could still join
    with what follows into a reference (`João 3:1` may be `João 3:16`), never inside one."""
    origin = max(0, min(start, final) - 1)
    part = out[origin:final]
    end = origin + _first_viable(part, fold(part), start - origin)
    for first, last, _, _ in _output_citations(out[out_from:]):
        if first + out_from < end < last + out_from:
            end = first + out_from
    return end


class StreamingValidator:
    """Validates a streamed answer, emitting text as soon as no citation can affect it.

    Every emitted piece extends a prefix of `validate(full_text).text`: the buffer is validated
    as a whole and only what lies before the first place that could still change is released."""

    # Planning restarts from a settled point once this much released text lies behind it.
    WINDOW_STEP = 80
    WINDOW_MARGIN = 40

    def __init__(self, allowed_verses: set[str], allowed_docs: set[str] = frozenset()):
        self.allowed_verses = frozenset(allowed_verses)
        self.allowed_docs = frozenset(allowed_docs)
        self.citations: list[str] = []
        self.removed: list[str] = []
        self._buffer = ""
        self._folded = ""
        self._emitted = ""
        self._released = 0  # original characters whose outcome has been shown
        self._open_from = 0  # no citation can start before this any more
        self._window = _Window()

    @property
    def held(self) -> int:
        """Characters received but not yet released."""
        return len(self._buffer) - self._released

    def feed(self, delta: str) -> str:
        """Add streamed text; return the newly releasable part of the validated answer."""
        if not delta:
            return ""
        self._buffer += delta
        self._folded += fold(delta)  # folding is per character
        text, folded = self._buffer, self._folded
        plan = _plan(text, folded, self.allowed_verses, self.allowed_docs, self._window)
        self._open_from = _first_viable(text, folded, self._open_from)
        limit = _stable_end(text, folded, plan, self._open_from)
        final = plan.output.position(limit)  # output characters no future edit can touch
        ready = plan.output.text[:_safe_output_end(plan.output.text, final, len(self._emitted), self._window.out)]
        if len(ready) <= len(self._emitted) or not ready.startswith(self._emitted):
            return ""
        self._released = plan.output.original(len(ready) - 1) + 1
        out, self._emitted = ready[len(self._emitted):], ready
        self._advance_window(plan)
        return out

    def finish(self) -> str:
        """The rest of the validated answer; `citations` and `removed` are set from here on."""
        result = validate(self._buffer, self.allowed_verses, self.allowed_docs)
        self.citations, self.removed = result.citations, result.removed
        self._released = len(self._buffer)
        out, self._emitted = result.text[len(self._emitted):], result.text
        return out

    def _advance_window(self, plan: _Plan) -> None:
        """Move the planning start to a settled space well inside the released text, so each
        chunk costs the same however long the answer grows."""
        if self._released - self._window.start < self.WINDOW_STEP:
            return
        text, out = self._buffer, plan.output
        spans = [(a, b) for a, b in plan.deletions] + [(i.start, i.end) for i in plan.items]
        emitted_spans = [(a + self._window.out, b + self._window.out)
                         for a, b, _, _ in _output_citations(out.text[self._window.out:len(self._emitted)])]
        for pos in range(self._released - self.WINDOW_MARGIN, self._window.start, -1):
            if not text[pos - 1].isspace() or any(a <= pos and pos - 1 < b for a, b in spans):
                continue
            out_pos = out.position(pos)
            if out_pos > len(self._emitted) or any(a < out_pos < b for a, b in emitted_spans):
                continue
            self._window = _Window(pos, out_pos, tuple(i for i in plan.items if i.end <= pos))
            return

"""How the text is left when a citation goes: its list separator, cue words, brackets and bullet."""

from __future__ import annotations

import re
from functools import lru_cache

# Between two citations of one list (folded): `; `, `, `, ` e `, ` ou `, `, e `, `/`, ` e em `, ` e de `.
_SEP = re.compile(r"(?:\s*[,;/]\s*|\s+(?=e|ou))(?:(?:e|ou)\s+)?(?:(?:tambem\s+)?(?:em|no|na|de|do|da)\s+|tambem\s+)?")
# What may still be, or grow into, such a separator: a superset of _SEP, closed under prefixes.
SEP_LINK = re.compile(r"(?:[\s,;/]+|(?<![a-z])(?:e|ou|em|no|na|de|do|da|tambem)(?![a-z]))*")

# Words that introduce a citation and go away with it (folded). Before a `:` only the
# prepositions go (`como está escrito em Jo 3:17: …` → `como está escrito: …`).
CUES = (
    "como esta escrito em",
    "conforme lemos em",
    "como lemos em",
    "como se le em",
    "de acordo com",
    "como nos lembra",
    "como diz",
    "como ensina",
    "como afirma",
    "como lembra",
    "como em",
    "esta escrito em",
    "lemos em",
    "veja tambem",
    "ver tambem",
    "conforme",
    "segundo",
    "confira",
    "veja",
    "vide",
    "leia",
    "ver",
    "cfr.",
    "conf.",
    "cf.",
    "cf",
    "em",
    # Short words a citation leans on: `No Salmo 23, Davi…`, `O Salmo 23 diz…`, `a promessa de X é…`.
    "como",
    "no",
    "na",
    "do",
    "da",
    "de",
    "o",
    "a",
)
_PREPOSITIONS = (
    "de acordo com",
    "conforme",
    "segundo",
    "vide",
    "cfr.",
    "conf.",
    "cf.",
    "cf",
    "em",
    "no",
    "na",
    "do",
    "da",
    "de",
)
# Cues after which a bare `que` leans on the citation: `está escrito em X que Deus…` → `Deus…`.
_SAYING = ("como esta escrito em", "conforme lemos em", "como lemos em", "como se le em", "esta escrito em", "lemos em")
# Cues that make the sentence a request to read the citation: it goes whole (`Leia X e descanse.`).
_IMPERATIVES = ("veja tambem", "ver tambem", "confira", "veja", "vide", "leia", "ver")
# Verbs whose subject or place is the citation (folded): `X diz que…`, `Em X lemos que…`, `Em X está escrito:`.
_VERBS = (
    "diz",
    "disse",
    "dizem",
    "afirma",
    "afirmam",
    "ensina",
    "ensinam",
    "lembra",
    "lembram",
    "mostra",
    "mostram",
    "declara",
    "declaram",
    "promete",
    "prometem",
    "fala",
    "falam",
    "revela",
    "garante",
    "assegura",
    "explica",
    "lemos",
    "vemos",
    "aprendemos",
    "encontramos",
    "esta escrito",
    "le-se",
)
_PRONOUNS = ("nos", "me", "te", "lhe")
_CLAUSE = re.compile(
    r"[ \t]*,?[ \t]*(?:(?:"
    + "|".join(_PRONOUNS)
    + r")[ \t]+)?(?:"
    + "|".join(_VERBS)
    + r")(?![a-z])(?:[ \t]*(?:que|:|,)(?![a-z]))?[ \t]*"
)
_THAT = re.compile(r"[ \t]*,?[ \t]*que(?![a-z])[ \t]*")
_SENTENCE_REST = re.compile(r"[^.!?\n]*(?:[.!?]+[ \t]*|(?=\n)|\Z)")

_HSPACE = " \t"
_LINE_START = ("", "\n")
_SENTENCE_START = ("", "\n", ".", "!", "?")
_OPENERS = ("(", "[", ":")
_LIST_PUNCT = (",", ";")
_END_PUNCT = (".", "!", "?")
_INTRODUCING = (":", "—", "–", "-")
_CLOSING = {"(": ")", "[": "]"}


def clusters(items: list, folded: str) -> list[list]:
    """Citations joined by list separators (`A, B e C`), each list a group."""
    groups: list[list] = []
    for item in items:
        if groups and _SEP.fullmatch(folded, groups[-1][-1].end, item.start):
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


# -- cleaning around removed citations --------------------------------------------------------------
def _back(text: str, pos: int) -> int:
    while pos > 0 and text[pos - 1] in _HSPACE:
        pos -= 1
    return pos


def _forward(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _HSPACE:
        pos += 1
    return pos


def char(text: str, pos: int) -> str:
    return text[pos] if 0 <= pos < len(text) else ""


def cue_start(folded: str, pos: int, cues=CUES) -> int | None:
    """Start of a cue that ends right before `pos` (spaces skipped), if any."""
    end = _back(folded, pos)
    for cue in cues:
        start = end - len(cue)
        if start >= 0 and folded.startswith(cue, start) and not char(folded, start - 1).isalnum():
            return start
    return None


_BULLET = re.compile(r"[ \t]*(?:[-*•–]|\d{1,2}[.)])[ \t]*")


def _bullet_start(text: str, pos: int) -> int | None:
    """Start of the line when only a list marker (`- `, `• `, `2. `) precedes `pos` on it."""
    line = text.rfind("\n", 0, pos) + 1
    return line if _BULLET.fullmatch(text, line, pos) else None


def lookback(text: str, folded: str, start: int) -> int:
    """The leftmost position the cleanup of a list starting at `start` may touch."""
    pos = _back(text, start)
    cue = cue_start(folded, start)
    if cue is not None:
        pos = _back(text, cue)
    if char(text, pos - 1) in _CLOSING:
        pos = _back(text, pos - 1)
    if char(text, pos - 1) in (",", ";", ":"):
        pos -= 1
    bullet = _bullet_start(text, pos)
    return pos if bullet is None else bullet


def _list_deletions(group: list) -> list[tuple[int, int]]:
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
        assert previous_kept is not None, "a list that keeps something"  # the caller's condition
        spans.append((previous_kept.end, run[1]))
    return spans


def _whole_deletion(text: str, folded: str, start: int, end: int) -> tuple[int, int]:
    """Span to drop when nothing of a list survives, leaving clean punctuation and spacing."""
    j = _forward(text, end)
    right = char(text, j)
    cue = cue_start(folded, start, _PREPOSITIONS if right == ":" else CUES)
    a = start if cue is None else cue
    k = _back(text, a)
    left = char(text, k - 1)
    # `(Jo 3:17)`, `[cf. Jo 3:17]`: the brackets go too, with one of the spaces around them.
    if left in _CLOSING and right == _CLOSING[left]:
        return _bracket_deletion(text, k - 1, j)
    bullet = _bullet_start(text, k)
    leaning = _leaning_end(
        text, folded, cue, start, end, left in _SENTENCE_START or left in _OPENERS or bullet is not None
    )
    if leaning is not None:
        return a, leaning
    after_right = _forward(text, j + 1)
    if bullet is not None:
        if right in _LINE_START:
            return bullet, j + len(right)  # a list line that held only the citation
        left = ""  # after `- ` the citation starts its line
    if right in _LIST_PUNCT or right in _INTRODUCING:
        if left in _SENTENCE_START or left in _OPENERS:
            return a, after_right  # `Em Jo 3:17, Jesus…` → `Jesus…`; `Jo 3:17 — Ele…` → `Ele…`
        if left in _LIST_PUNCT:
            return k - 1, j + 1  # `cuida, Jo 3:17, de nós` → `cuida de nós`
        return k, j  # `nós Jo 3:17, sempre` → `nós, sempre`
    if right in _LINE_START or right in _END_PUNCT or right in (")", "]"):
        if left in _LIST_PUNCT or left == ":":
            return k - 1, j  # `cuida, Jo 3:17.` → `cuida.`
        if left in _SENTENCE_START and right in _END_PUNCT:
            return a, after_right  # a sentence that was only the citation
        return k, j  # no space before punctuation
    if left in _SENTENCE_START or left in _OPENERS:
        return a, j  # `Jo 3:17 diz…` → `diz…`
    return k, end  # `amor Jo 3:17 vemos` → `amor vemos`


def _leaning_end(text: str, folded: str, cue: int | None, start: int, end: int, opens: bool) -> int | None:
    """Where the words that lean on a removed citation end, so they go with it and the sentence
    still reads: `está escrito em X que` → ``, `X nos lembra que` → `` (the citation opening the
    sentence), `Leia X e descanse.` → the whole request. None when nothing leans on it."""
    said = folded[cue : _back(folded, start)] if cue is not None else ""
    if said in _SAYING and (that := _THAT.match(folded, end)):
        return that.end()
    if not opens:
        return None
    clause = _CLAUSE.match(folded, end)
    if clause:
        return clause.end()
    if said in _IMPERATIVES and char(text, _forward(text, end)) not in ",;:.!?)]\n":
        rest = _SENTENCE_REST.match(text, end)  # it may match nothing, so it always matches
        if rest and not any(ch.isdigit() for ch in rest.group()):  # a sentence with another citation stays
            return rest.end()
    return None


def clause_pending(folded: str, end: int) -> bool:
    """Whether the text after a removed citation may still grow into words that lean on it (`diz q…`).
    A request to read it (`Leia X e …`) needs no wait here: its deletion reaches the end of the text."""
    tail = re.sub(r"[ \t]+", " ", folded[end : end + 40])
    return not tail.strip() or (len(tail) < 40 and tail in _clause_prefixes())


@lru_cache(maxsize=1)
def _clause_prefixes() -> frozenset[str]:
    """Every prefix of every clause `_CLAUSE` and `_THAT` match, spaces normalised."""
    heads = [" ", ", ", ","]
    bodies = [p + v for p in [""] + [p + " " for p in _PRONOUNS] for v in _VERBS] + ["que"]
    tails = ["", " que", " que ", ":", ": ", ",", ", ", " "]
    return frozenset(
        (h + b + t)[:i] for h in heads for b in bodies for t in tails for i in range(1, len(h + b + t) + 1)
    )


def _bracket_deletion(text: str, opening: int, closing: int) -> tuple[int, int]:
    before = _back(text, opening)
    left = char(text, before - 1)
    after = _forward(text, closing + 1)
    if before < opening:
        return (opening, after) if left in _LINE_START else (before, closing + 1)
    if after > closing + 1 and (left in _LINE_START or left in _CLOSING):
        return opening, after
    return opening, closing + 1


def deletions_for(text: str, folded: str, items: list) -> list[tuple[int, int]]:
    """Spans to drop so that every citation not kept goes, with its list separator or cleanup."""
    deletions: list[tuple[int, int]] = []
    for group in clusters(items, folded):
        if any(i.kept for i in group):
            deletions += _list_deletions(group)
        else:
            deletions.append(_whole_deletion(text, folded, group[0].start, group[-1].end))
    return deletions

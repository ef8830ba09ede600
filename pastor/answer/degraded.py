"""Answers without the model's words: the retrieved verses under a warm opening that fits the message and a short
line, both fixed Portuguese texts (`care.openings`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pastor.answer_filter.citations import Citation
from pastor.care import openings
from pastor.care.routes import NeedKind
from pastor.search.modes import SearchMode
from pastor.search.results import Source


class Quoted(NamedTuple):
    """An answer the service writes itself and the citations in it, placed as it wrote them."""

    text: str
    citations: tuple[Citation, ...] = ()


def quoted(lines: Sequence[str], sources: Sequence[Source]) -> Quoted:
    """`lines`, then one quoted line per passage with its reference in bold, each reference a citation."""
    text, citations = "\n".join(lines), []
    for source in sources:
        text += "\n" if text else ""
        line = f"> {source.text} — **"
        start = len(text) + len(line)
        citations.append(Citation(start, start + len(source.reference), source.reference, (source.id,)))
        text += f"{line}{source.reference}**"
    return Quoted(text, tuple(citations))


def with_verses(result, kind: str, message: str, lead: str, turn: int = 0) -> Quoted:
    """The verses retrieval found, each quoted with its reference, under the opening of the message's `kind`
    and `lead` (what the provider says members read when it does not write: `Provider.member_notice`). A
    passage asked for by its reference opens as one, with no line about verses found."""
    if result.mode == SearchMode.REFERENCE:
        return quoted([openings.opening(NeedKind.PASSAGE, message, turn), ""], result.results)
    first = lead[:1].upper() + lead[1:].rstrip(".")
    return quoted([openings.opening(kind, message, turn), "", f"_{first}:_", ""], result.results)


def provider_down_reason(result, error) -> str:
    """The turn's reason: which provider failed and how, and what retrieval had found."""
    return f"{error.provider or 'modelo'} indisponível ({error.kind}): {error.user_message} — busca: {result.mode}"

"""Answers without the model's words: the retrieved verses under a fixed Portuguese introduction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pastor.answer import prompts
from pastor.answer_filter.citations import Citation
from pastor.search.results import Source

PROVIDER_DOWN_NO_VERSES = (
    "O modelo de linguagem não respondeu agora, então não consigo conversar livremente. "
    "Escreva o que está no seu coração ou peça uma passagem (por exemplo, Salmos 23) e "
    "eu mostro os versículos."
)


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


def verses_only(result) -> Quoted:
    """The `none` provider's answer: the operator chose to run without a model."""
    return quoted([prompts.NONE_PROVIDER_INTRO, ""], result.results)


def provider_down(result, notice: str) -> Quoted:
    """What retrieval found under the provider's one short line for members (no setup instructions:
    those go to the turn's reason, the status page and the log)."""
    if not result.results:
        return Quoted(PROVIDER_DOWN_NO_VERSES)
    first = notice[:1].upper() + notice[1:]
    return quoted([f"_{first.rstrip('.')}:_", ""], result.results)


def provider_down_reason(result, error) -> str:
    """The turn's reason: which provider failed and how, and what retrieval had found."""
    return f"{error.provider or 'modelo'} indisponível ({error.kind}): {error.user_message} — busca: {result.mode}"

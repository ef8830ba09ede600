"""Answers without the model's words: the retrieved verses under a fixed Portuguese introduction."""

from __future__ import annotations

from pastor.answer import prompts

PROVIDER_DOWN_NO_VERSES = ("O modelo de linguagem não respondeu agora, então não consigo conversar livremente. "
                           "Escreva o que está no seu coração ou peça uma passagem (por exemplo, Salmos 23) e "
                           "eu mostro os versículos.")


def verses_block(hits) -> list[str]:
    """One quoted line per retrieved passage, with its reference in bold."""
    return [f"> {h.text} — **{h.reference}**" for h in hits]


def verses_only(result) -> str:
    """The `none` provider's answer: the operator chose to run without a model."""
    return "\n".join([prompts.NONE_PROVIDER_INTRO, "", *verses_block(result.results)])


def provider_down(result, notice: str) -> str:
    """What retrieval found under the provider's one short line for members (no setup instructions:
    those go to the turn's reason, the status page and the log)."""
    if not result.results:
        return PROVIDER_DOWN_NO_VERSES
    first = notice[:1].upper() + notice[1:]
    return "\n".join([f"_{first.rstrip('.')}:_", "", *verses_block(result.results)])


def provider_down_reason(result, error) -> str:
    """The turn's reason: which provider failed and how, and what retrieval had found."""
    return f"{error.provider or 'modelo'} indisponível ({error.kind}): {error.user_message} — busca: {result.mode}"

"""Answers without the model's words: the retrieved verses under a fixed Portuguese introduction."""

from __future__ import annotations

from pastor.answer import prompts
from pastor.search.modes import Mode

PROVIDER_DOWN_INTRO = {
    Mode.REFERENCE: "O modelo de linguagem não respondeu agora, então segue, sem comentários, o texto que você pediu:",
    None: ("O modelo de linguagem não respondeu agora, então seguem, sem comentários, os versículos do texto "
           "indexado que mais se aproximam da sua mensagem:"),
}
PROVIDER_DOWN_NO_VERSES = ("O modelo de linguagem não respondeu agora, então não consigo conversar livremente. "
                           "Escreva o que está no seu coração ou peça uma passagem (por exemplo, Salmos 23) e "
                           "eu mostro os versículos.")


def verses_block(hits) -> list[str]:
    """One quoted line per retrieved passage, with its reference in bold."""
    return [f"> {h.text} — **{h.reference}**" for h in hits]


def verses_only(result) -> str:
    """The `none` provider's answer: the operator chose to run without a model."""
    return "\n".join([prompts.NONE_PROVIDER_INTRO, "", *verses_block(result.results)])


def provider_down(result, hint: str) -> str:
    """What retrieval found, plus the one line that says how to get a model's answers."""
    if result.results:
        intro = PROVIDER_DOWN_INTRO.get(result.mode, PROVIDER_DOWN_INTRO[None])
        lines = [intro, "", *verses_block(result.results)]
    else:
        lines = [PROVIDER_DOWN_NO_VERSES]
    if hint:
        lines += ["", f"_{hint}_"]
    return "\n".join(lines)


def provider_down_reason(result, error) -> str:
    """The turn's reason: which provider failed and how, and what retrieval had found."""
    return f"{error.provider or 'modelo'} indisponível ({error.kind}): {error.user_message} — busca: {result.mode}"

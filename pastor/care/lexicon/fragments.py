"""Pieces of pattern the crisis phrases of several kinds share."""

from __future__ import annotations

# A negation right before a wish: "não quero morrer" is not a wish to die.
NOT = r"(?<!nao )(?<!nunca )"
# Someone else doing it ("quando ele me ferir", "ele vai me matar") is not self-harm: abuse patterns see it.
BY_OTHERS = (
    "(?<!ele )(?<!ela )(?<!eles )(?<!elas )(?<!voce )(?<!alguem )(?<!vai )(?<!vao )(?<!quer )(?<!querem )(?<!tentou )"
)

"""Small talk: whether a message is only a greeting, thanks, `amém` or a farewell."""

from __future__ import annotations

import re

from pastor.text.fold import fold


def normalise(text: str) -> str:
    """Folded (no accents, lower case), punctuation turned into spaces; same length as `text`."""
    return "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in fold(text))


# -- small talk ------------------------------------------------------------------------------------------
# Greetings, thanks and farewells, longest first; fillers may accompany them but not stand alone.
_SMALLTALK = sorted((
    "oi", "ola", "opa", "bom dia", "boa tarde", "boa noite", "tudo bem", "tudo bom", "tudo certo",
    "como vai", "como vai voce", "como voce esta", "e ai", "a paz do senhor", "paz do senhor", "graca e paz",
    "a paz", "obrigado", "obrigada", "obrigadao", "muito obrigado", "muito obrigada", "brigado", "brigada",
    "valeu", "gratidao", "agradeco", "amem", "amem amem", "tchau", "ate logo", "ate mais", "ate amanha",
    "deus te abencoe", "deus abencoe", "deus o abencoe", "deus lhe abencoe", "fica com deus",
    "fique com deus", "que deus te abencoe", "boa semana", "bom descanso",
), key=len, reverse=True)
_FILLERS = ("pastor", "pastora", "irmao", "irma", "querido", "querida", "amigo", "amiga", "e", "voce",
            "tambem", "mesmo", "muito", "sim", "ok", "pela", "pelas", "palavras", "resposta", "ajuda", "por",
            "tudo", "a", "o")
_SMALLTALK_RE = re.compile(r"\s*(?:(?P<talk>" + "|".join(re.escape(p) for p in _SMALLTALK) + r")|"
                           + "|".join(re.escape(f) for f in _FILLERS) + r")\b")


def is_greeting_or_thanks(text: str) -> bool:
    """Whether the whole message is only a greeting, thanks, `amém` or a farewell."""
    normal = " ".join(normalise(text or "").split())
    if not normal or len(normal) > 80:
        return False
    pos, talked = 0, False
    while pos < len(normal):
        match = _SMALLTALK_RE.match(normal, pos)
        if not match or match.end() == pos:
            return False
        talked = talked or match.group("talk") is not None
        pos = match.end()
        while pos < len(normal) and normal[pos] == " ":
            pos += 1
    return talked

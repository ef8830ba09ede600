"""What an ordinary message brings (grief, fear, guilt…), read from its words, for the warm opening of an answer
given without a model (`pastor.care.openings`). It routes nothing: a wrong reading costs a less fitting
sentence, so each kind has words that say it plainly and the general opening covers the rest."""

from __future__ import annotations

import re

from pastor.care.routes import NeedKind
from pastor.text.fold import fold_words

_KIN = r"(?:pai|mae|filh[oa]|marido|esposa|espos[oa]|av[oó]|irma[o]?|amig[oa]|bebe|tia?|tio|prim[oa]|sogr[oa]|noiv[oa])"


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + pattern + r")")


# In order: the first kind whose words a message has is its kind ("perdi minha mãe e estou com medo" is grief).
_FEELINGS: tuple[tuple[NeedKind, re.Pattern[str]], ...] = (
    (
        NeedKind.GRIEF,
        _words(
            r"luto\b|falec|morreu|morreram|enterr|velorio|viuv|saudades?\s+d|partiu\s+para|se\s+foi\b|"
            rf"perdi\s+(?:o\s+|a\s+)?(?:meu|minha)\s+{_KIN}\b|perda\s+d|morte\s+d"
        ),
    ),
    (
        NeedKind.ILLNESS,
        _words(r"doen[tc]|cancer|tumor|hospital|internad|cirurgia|diagnostic|quimio|uti\b|enferm|covid"),
    ),
    (
        NeedKind.FEAR,
        _words(r"medo|ansied|ansios|panico|preocup|apavor|aflit|aflic|insegur|nervos|angusti|assustad|temor\b"),
    ),
    (NeedKind.GUILT, _words(r"culpa|pequei|pecado|arrepend|vergonha|errei|me\s+perdo|falhei|trai\b|traio\b")),
    (
        NeedKind.SADNESS,
        _words(
            r"trist|deprim|depress|desanim|sozinh|solid|vazi[oa]|chor|abandon|rejeit|desprez|magoad|"
            r"coracao\s+partido|sem\s+esperanc|desesper|infeliz"
        ),
    ),
    (
        NeedKind.CONFLICT,
        _words(
            r"brig|discuss|discuti|casament|divorci|separa[cd]|traic|traiu|perdoar|perdoo|raiva|odio|odeio|"
            r"ofend|magoou|conflit|ciume|inimig|vinganc"
        ),
    ),
    (
        NeedKind.TIREDNESS,
        _words(r"cansad|cansaco|exaust|esgotad|sem\s+forcas|sobrecarreg|estress|sem\s+dormir|nao\s+durmo"),
    ),
    (
        NeedKind.GRATITUDE,
        _words(
            r"grat[oa]\b|gratidao|agradec|feliz|alegri|alegre|vitoria|aprovad|consegui\b|benca[o]?\b|"
            r"graca\s+alcancada|deus\s+e\s+bom|louvad"
        ),
    ),
)
# A question about the Bible or the faith, asked as a question ("o que a Bíblia diz sobre o medo?"), not told of
# one's own life: it opens as a question even when it names a feeling.
_ABOUT_THE_FAITH = _words(
    r"o\s+que\s+(?:a\s+biblia|deus|jesus|a\s+palavra|significa|quer\s+dizer)|versiculos?\s+(?:sobre|de|para|pra)|"
    r"(?:fale|fala|explique|explica)\s+(?:sobre|de|o\s+que)|e\s+pecado|a\s+biblia\s+(?:diz|fala|ensina)"
)
# Any other question ("quem foi Moisés?"): the folded text has no "?", so the raw text is asked.
_ASKS = _words(r"quem|qual|quais|por\s*que|porque|como|onde|quando|o\s+que|existe|pode|posso|devo")
# Words of one's own life: "tenho medo de…" is fear, however it is asked.
_OWN_LIFE = _words(r"(?:estou|to|tou|ando|me\s+sinto|sinto|tenho|perdi|minha|meu|eu)\b")


def need_kind(text: str) -> NeedKind:
    """The kind of an ordinary message: a feeling it tells of, a question about the faith, or `general`."""
    normal = fold_words(text or "")
    question = bool(_ABOUT_THE_FAITH.search(normal)) or ("?" in (text or "") and bool(_ASKS.search(normal)))
    if question and not _OWN_LIFE.search(normal):
        return NeedKind.QUESTION
    for kind, pattern in _FEELINGS:
        if pattern.search(normal):
            return kind
    return NeedKind.QUESTION if question else NeedKind.GENERAL

"""Crisis phrases in Portuguese, by kind: what the person says about themself, and topic words."""

from __future__ import annotations

import re

from pastor.care.chat_spelling import NOT_FOR_CRISIS, spellings_for
from pastor.care.lexicon.harm import ABUSE_PHRASES, OVERDOSE_PHRASES, SELF_HARM_PHRASES
from pastor.care.lexicon.suicide import SUICIDE_PHRASES
from pastor.care.routes import CrisisKind

# Words that put the person in the sentence. Topic words alone (`suicídio`, `overdose`,
# `violência doméstica`) only count with one of these: "o que a Bíblia diz sobre suicídio?"
# is a question about the topic, answered gently by the normal flow (see tests).
_FIRST_PERSON = re.compile(
    r"\b(eu|me|mim|meu|minha|meus|minhas|comigo|estou|to|tou|sinto|sofro|sofri|sofrendo|tenho|tive|"
    r"tomei|penso|pensei|pensando|quero|vou|estava|fui|sou|ando|tentei)\b"
)
# For suicide only the person's own present state counts: "meu irmão cometeu suicídio" is grief.
_OWN_STATE = re.compile(
    r"\b(estou|to|tou|sinto|penso|pensei|pensando|quero|queria|vou|ando|tentei|tento|planejo|tenho\s+medo|"
    r"tenho\s+vontade|me\s+sinto)\b"
)

# Phrases that are about the person themself, by kind: they count on their own. Within a kind they keep their
# order (the first of two matches at the same place names the phrase); across kinds PRIORITY decides.
_PERSONAL: dict[CrisisKind, tuple[str, ...]] = {
    CrisisKind.SUICIDE: SUICIDE_PHRASES,
    CrisisKind.SELF_HARM: SELF_HARM_PHRASES,
    CrisisKind.OVERDOSE: OVERDOSE_PHRASES,
    CrisisKind.ABUSE: ABUSE_PHRASES,
}

# Topic words: they count only when the message also speaks in the first person.
_TOPICAL: tuple[tuple[CrisisKind, str], ...] = (
    (CrisisKind.SUICIDE, r"\b(?:suicidio|suicidar|suicida)\b"),
    (CrisisKind.SELF_HARM, r"\b(?:automutilacao|autolesao)\b"),
    (CrisisKind.OVERDOSE, r"\b(?:overdose|superdosagem|intoxicacao\s+por\s+remedios?)\b"),
    (
        CrisisKind.ABUSE,
        r"\b(?:violencia\s+domestica|abuso\s+sexual|violencia\s+sexual|estupro|abuso|agressao|maus\s+tratos)\b",
    ),
    (CrisisKind.ABUSE, r"\b(?:estuprad|abusad|violentad|espancad|agredid)[oa]s?\b"),
)

# When several signals appear, the most urgent decides the message.
PRIORITY = (CrisisKind.SUICIDE, CrisisKind.OVERDOSE, CrisisKind.VIOLENCE, CrisisKind.SELF_HARM, CrisisKind.ABUSE)
PERSONAL = tuple((kind, re.compile(p)) for kind, phrases in _PERSONAL.items() for p in phrases)
TOPICAL = tuple(
    (kind, re.compile(p), _OWN_STATE if kind in (CrisisKind.SUICIDE, CrisisKind.SELF_HARM) else _FIRST_PERSON)
    for kind, p in _TOPICAL
)

# Chat spellings, word for word: `qro morrer` is `quero morrer` (the shared table, as this reader reads it).
SPELLINGS = spellings_for(NOT_FOR_CRISIS)

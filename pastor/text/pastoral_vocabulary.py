"""Pastoral vocabulary: words that mark a message as within the app's scope, for the evidence gate."""

from __future__ import annotations

import re

from pastor.text.fold import fold

# Word beginnings (accent-folded) of the themes people bring to a pastor. A message with one of
# them gets a lower vector threshold: the corpus speaks to it even when the wording is modern.
PASTORAL_PREFIXES = tuple(
    sorted(
        """
    abandon abencoa batiz culto ministerio congregac membro pastor estatuto abuso aceit aflic aflit agradec alcool
    alegr alma amarg amor amad amig angust
    ansie ansios apavor arrepend arrogan avareza batism bencao biblia bondade briga calma cansa
    caridade casament castig chor ciume compaixao confess confia conflit consol conten coracao
    corag crenca crer cristo cruz culpa cura decepc deprim depress descans desemprego desanim
    desesper dinheiro endivid humilh chefe trabalh cigarr deus diabo divida divorci doenc doent drog duvid egois
    emprego enferm enganad
    esperanc esperar esposa espirit eterna evangelh falecid familia fardo feliz fidelidade
    forca fracass fraqu futuro gloria graca gratid guerra humild idolatr igreja infel inferno
    inimig injustic inveja irma irmao jeju jesus julg justic lagrima luto magoa marido
    medo mentir milagre misericord morr morte namor odio ofend oracao orgulh
    paciencia paz pecad perdao perdo perd perseguid pobre pobreza porn preocup promessa proposit
    prosper provacao raiva reconcil ressurreic salmo salva sangue santo satanas saudade senhor
    sentido sofr solid sozinh suicid sustento temor tentac traic traid trist vazio velhice viciad
    vicio vida vinganc viuv vontade
    desempreg provac vergonh inutil lixo lutas bebida embriag recaida rejeit desprez insegur
""".split()
    )
)

# Short words that would be too broad as prefixes ("fe" would match "feijoada").
# `celula` and `filho` as whole words: as prefixes they took "celular" and "filhote" (issue 21).
PASTORAL_WORDS = frozenset(
    "fe pai pais mae mal dor ira ceu orar vida ama amo amar salvo salva celula celulas "
    "filho filha filhos filhas filhinho filhinha".split()
)

_WORD = re.compile(r"[a-z]+")

# A person speaking of their own life ("me acho melhor que os outros", "sou fraco, sempre desisto",
# "não durmo há meses") brings it to a pastor whatever the theme; off-topic requests (recipes, code,
# exchange rates) ask about things. Issue 21: such messages were turned away with the no-evidence reply.
_OWN_LIFE = re.compile(
    r"\b(?:me\s+sinto|sinto|sou|estou|to|tou|tenho|tive|fui|fiz|vivo|ando|fico|brigo|guardo|desisto|quero|"
    r"me\s+acho|nao\s+consigo|nao\s+durmo|ninguem|minha\s+cabeca|minha\s+mente|meu\s+coracao|minha\s+alma|"
    r"preciso\s+de\s+uma\s+palavra|versiculos?)\b"
)


def is_pastoral(text: str) -> bool:
    """True when a word of the message starts with one of the pastoral prefixes, or the person speaks of
    their own life."""
    words = _WORD.findall(fold(text))
    return any(word in PASTORAL_WORDS or word.startswith(PASTORAL_PREFIXES) for word in words) or bool(
        _OWN_LIFE.search(" ".join(words))
    )

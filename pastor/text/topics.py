"""Pastoral vocabulary: words that mark a message as within the app's scope, for the evidence gate."""

from __future__ import annotations

import re

from pastor.text.fold import fold

# Word beginnings (accent-folded) of the themes people bring to a pastor. A message with one of
# them gets a lower vector threshold: the corpus speaks to it even when the wording is modern.
PASTORAL_PREFIXES = tuple(sorted("""
    abandon abencoa batiz celula culto ministerio congregac membro pastor estatuto abuso aceit aflic aflit agradec alcool alegr alma amarg amor amad amig angust
    ansie ansios apavor arrepend arrogan avareza batism bencao biblia bondade briga calma cansa
    caridade casament castig chor ciume compaixao confess confia conflit consol conten coracao
    corag crenca crer cristo cruz culpa cura decepc deprim depress descans desemprego desanim
    desesper dinheiro endivid humilh chefe trabalh cigarr deus diabo divida divorci doenc doent drog duvid egois emprego enferm enganad
    esperanc esperar esposa espirit eterna evangelh falecid familia fardo feliz fidelidade filh
    forca fracass fraqu futuro gloria graca gratid guerra humild idolatr igreja infel inferno
    inimig injustic inveja irma irmao jeju jesus julg justic lagrima luto magoa marido
    medo mentir milagre misericord morr morte namor odio ofend oracao orgulh
    paciencia paz pecad perdao perdo perd perseguid pobre pobreza porn preocup promessa proposit
    prosper provacao raiva reconcil ressurreic salmo salva sangue santo satanas saudade senhor
    sentido sofr solid sozinh suicid sustento temor tentac traic traid trist vazio velhice viciad
    vicio vida vinganc viuv vontade
    desempreg provac vergonh inutil lixo lutas bebida embriag recaida rejeit desprez insegur
""".split()))

# Short words that would be too broad as prefixes ("fe" would match "feijoada").
PASTORAL_WORDS = frozenset("fe pai pais mae mal dor ira ceu orar vida ama amo amar salvo salva".split())

_WORD = re.compile(r"[a-z]+")


def is_pastoral(text: str) -> bool:
    """True when a word of the message starts with one of the pastoral prefixes."""
    return any(word in PASTORAL_WORDS or word.startswith(PASTORAL_PREFIXES)
               for word in _WORD.findall(fold(text)))

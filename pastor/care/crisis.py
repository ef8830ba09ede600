"""Safety before retrieval: crisis signals in Portuguese and the crisis message."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pastor.care.chat_spelling import respell
from pastor.care.contacts import CRISIS_CONTACTS_DEFAULT, parse_contacts
from pastor.care.lexicon import PERSONAL, PRIORITY, SPELLINGS, TOPICAL
from pastor.care.routes import CrisisKind
from pastor.text.fold import fold_words

__all__ = ["CrisisMatch", "detect_crisis", "crisis_message", "contact_lines", "DEFAULT_CONTACTS"]


@dataclass(frozen=True)
class CrisisMatch:
    kind: str  # suicide | self_harm | violence | abuse | overdose
    phrase: str  # the words that raised the signal, as the person wrote them
    topical: bool = False  # raised by a topic word ("suicídio") with the person in the sentence, not a phrase


def _signals(normal: str) -> tuple[list[tuple[CrisisKind, re.Match[str]]], bool]:
    """The matches, and whether they come from topic words only."""
    found = [(kind, m) for kind, pattern in PERSONAL for m in [pattern.search(normal)] if m]
    if found:
        return found, False
    return [
        (kind, m) for kind, pattern, person in TOPICAL for m in [pattern.search(normal)] if m and person.search(normal)
    ], True


def detect_crisis(text: str) -> CrisisMatch | None:
    """The most urgent crisis signal in a message, or None."""
    if not text:
        return None
    normal = fold_words(text)
    (found, topical), source = _signals(normal), text
    if not found:  # respelled, the phrase is reported as read (`quero morrer` for `qro morrer`)
        source = respell(normal, SPELLINGS)
        found, topical = _signals(source)
    if not found:
        return None
    kind, match = min(found, key=lambda f: (PRIORITY.index(f[0]), f[1].start()))
    return CrisisMatch(kind, source[match.start() : match.end()].strip(), topical)


# -- the message shown before a few comforting verses ---------------------------------------------------
_OPENING = "Sinto muito que você esteja passando por isso. O que você sente importa, e você não está sozinho(a)."
_BY_KIND: dict[str, str] = {
    CrisisKind.SUICIDE: (
        "Sua vida é preciosa. Se você corre perigo agora ou pensa em tirar a própria vida, procure "
        "ajuda imediatamente: ligue para o serviço de emergência da sua região ou vá ao pronto-socorro "
        "mais próximo. Avise agora uma pessoa de confiança — alguém da família, um amigo, seu pastor — "
        "e peça que fique com você. Você também pode procurar um serviço de apoio emocional e "
        "prevenção do suicídio da sua cidade."
    ),
    CrisisKind.SELF_HARM: (
        "Você merece cuidado, não dor. Se você se feriu ou está em risco agora, procure atendimento "
        "imediatamente: ligue para o serviço de emergência da sua região ou vá ao pronto-socorro. "
        "Conte a uma pessoa de confiança o que está acontecendo e peça que fique com você; um "
        "profissional de saúde mental pode caminhar com você nisso."
    ),
    CrisisKind.ABUSE: (
        "Você não tem culpa do que está sofrendo, e ninguém tem o direito de machucar você. Se você "
        "está em perigo agora, procure um lugar seguro e ligue imediatamente para o serviço de "
        "emergência ou a polícia da sua região. Conte a uma pessoa de confiança e procure os serviços "
        "de proteção e de apoio a vítimas da sua cidade; eles podem ajudar você a ficar em segurança."
    ),
    CrisisKind.VIOLENCE: (
        "Sua segurança vem primeiro. Se alguém ameaça você ou outra pessoa agora, saia para um lugar "
        "seguro se puder, tranque-se longe de quem ameaça e ligue imediatamente para a polícia. Avise "
        "uma pessoa de confiança ou um vizinho. Ninguém tem o direito de ameaçar a sua vida nem a de "
        "quem você ama."
    ),
    CrisisKind.OVERDOSE: (
        "Isto é uma emergência médica, mesmo que você se sinta bem agora. Ligue imediatamente para o "
        "serviço de emergência da sua região ou peça a alguém que leve você ao pronto-socorro mais "
        "próximo, levando as embalagens do que foi tomado. Não fique sozinho(a): chame agora uma "
        "pessoa de confiança."
    ),
}
# When the person writes about someone else at risk: what to do for that person.
_FOR_SOMEONE_ELSE: dict[str, str] = {
    CrisisKind.SUICIDE: (
        "Se alguém que você ama fala em tirar a própria vida ou corre perigo agora, ligue imediatamente para "
        "o serviço de emergência da sua região e não deixe a pessoa sozinha: fique com ela ou peça a alguém "
        "de confiança que vá até lá. Se puder, afaste o que ela possa usar para se ferir, e ouça sem julgar. "
        "Você não precisa carregar isso sozinho(a)."
    ),
    CrisisKind.SELF_HARM: (
        "Se alguém que você ama está se ferindo, fique perto com calma e sem julgamento; se houver um "
        "ferimento sério ou risco agora, ligue para o serviço de emergência ou leve a pessoa ao "
        "pronto-socorro. Um profissional de saúde mental pode caminhar com ela, e com você."
    ),
    CrisisKind.OVERDOSE: (
        "Isto é uma emergência médica, mesmo que a pessoa pareça bem agora. Ligue imediatamente para o "
        "serviço de emergência da sua região ou leve-a ao pronto-socorro mais próximo, com as embalagens "
        "do que foi tomado. Não deixe a pessoa sozinha e siga as orientações de quem atender a ligação."
    ),
}
_CLOSING = (
    "Deus está perto dos que têm o coração quebrantado, e eu continuo aqui para conversar com você. "
    "Estas palavras das Escrituras são para você agora:"
)


DEFAULT_CONTACTS = parse_contacts(CRISIS_CONTACTS_DEFAULT)


def contact_lines(contacts=DEFAULT_CONTACTS, kind: str | None = None) -> str:
    """The configured help lines for this kind of crisis (all when `kind` is None), as a Markdown list:
    the only numbers a crisis reply contains."""
    lines = ["**Ligue agora para quem pode ajudar:**"]
    chosen = [c for c in contacts if kind is None or not c.kinds or kind in c.kinds] or list(contacts)
    for contact in chosen:
        note = f" ({contact.note})" if contact.note else ""
        lines.append(f"- {contact.country}: {contact.service} — **{contact.number}**{note}")
    return "\n".join(lines)


def crisis_message(kind: str, contacts=DEFAULT_CONTACTS, someone_else: bool = False) -> str:
    """Safety first, in Portuguese and warm; the phone numbers are only the configured, verified ones, and
    they come first so that they are on screen when the reply arrives (a phone shows a few lines).
    `someone_else`: the person writes about someone else at risk, and is told what to do for them."""
    kind = kind if kind in _BY_KIND else CrisisKind.SUICIDE
    body = _FOR_SOMEONE_ELSE.get(kind, _BY_KIND[kind]) if someone_else else _BY_KIND[kind]
    return "\n\n".join((contact_lines(contacts, kind), _OPENING, body, _CLOSING))

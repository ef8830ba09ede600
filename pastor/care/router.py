"""Where a message goes before any search: crisis, conversation, out of scope, or the ordinary flow."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pastor.bible.references import find_references
from pastor.care import crisis, person_rules
from pastor.care.needs import need_kind
from pastor.care.routes import AdviceKind, ConversationKind, RouteName
from pastor.care.semantic import (
    CONVERSATION_PROBABILITY,
    FOLLOW_UP_CRISIS_SCORE,
    OUT_OF_SCOPE_PROBABILITY,
    SURE_BLESSING_PROBABILITY,
)
from pastor.care.smalltalk import conversational_kind
from pastor.text.fold import fold_words
from pastor.text.lookalikes import plain_letters

# "não entendi": the previous answer said again, not a search (ConversationKind.CLARIFY).
_CLARIFY = re.compile(
    r"\bnao\s+(?:entendi|compreendi|captei|percebi)\b|^como\s+assim\b|\bexplica(?:r)?\s+"
    r"(?:isso\s+)?(?:de\s+novo|melhor|de\s+outro\s+jeito|de\s+outra\s+forma|com\s+outras\s+palavras)\b"
)

# Advice the pastoral scope does not give: a medicine, a dose, a lawsuit, an investment.
_ADVICE = tuple(
    (kind, re.compile(p))
    for kind, p in (
        (
            AdviceKind.MEDICAL,
            r"\b(?:qual|que|quais)\s+(?:remedio|medicamento|antibiotico|pomada|xarope|cha|vitamina)s?\b|"
            r"\b(?:posso|devo)\s+(?:tomar|parar|trocar|misturar|dar|largar|deixar)\b(?:\s+\w+){0,3}?\s+(?:remedio|medicamento|"
            r"antibiotico|dipirona|dose|comprimido|insulina|vacina|antidepressivo)s?\b|\bquant[oa]s?\s+(?:mg|gotas|comprimidos)\b|"
            # "o pastor disse pra eu parar o remédio da pressão": stopping a treatment is a doctor's question.
            r"\b(?:parar|largar|suspender)\s+(?:de\s+tomar\s+)?(?:o|os|a|as|meu|minha|meus|minhas)\s+(?:remedio|medicamento|"
            r"insulina|antidepressivo|tratamento|quimio\w*|hemodialise)s?\b",
        ),
        (
            AdviceKind.LEGAL,
            r"\b(?:advogad[oa]|processar|processo\s+(?:trabalhista|judicial)|pensao\s+alimenticia|usucapiao|inventario|"
            r"rescisao|tenho\s+direito|e\s+crime|guarda\s+(?:dos|das|do|da)\s+(?:filh|crianc))\w*",
        ),
        (
            AdviceKind.FINANCIAL,
            r"\b(?:investir|investimento|acoes\s+da\s+bolsa|bitcoin|cripto\w*|poupanca|emprestimo|financiamento|"
            r"imposto\s+de\s+renda|consignado|tesouro\s+direto|renda\s+fixa)\b",
        ),
    )
)


# "e se ele repetir?", "mas e depois?", "ok, e agora?": a follow-up to rewrite and search, not small talk.
_FOLLOW_UP = re.compile(
    r"(?:(?:ok|certo|sim|ta|hum|entendi|amem)\s+)?(?:e|mas|entao|e\s+se|e\s+quanto|e\s+no\s+caso)\b"
)
# "ok, e agora?": an acknowledgement and then a question; the small-talk list alone would take it for talk.
_ACK_THEN_ASK = re.compile(
    r"(?:ok|certo|sim|ta|hum|entendi)\s+(?:e|mas|entao)\s+(?:agora|depois|se|quanto|o\s+que|"
    r"como|por\s+que|quando|onde|ai)\b"
)
# "onde está escrito isso?", "me fala mais sobre isso": it points back at the conversation, so it is
# rewritten and searched; only the small-talk list itself ("explica de novo") takes such a message as talk.
_REFERS_BACK = re.compile(
    r"\b(?:isso|isto|disso|disto|nisso|outro|outra|exemplo|escrito|proximo|depois)\b|"
    r"\bmais\s+(?:sobre|um|uma|alg\w+|versiculos?)\b|\b(?:fala|falar|diz|diga|conta|conte)\s+mais\b"
)


# One or two words are conversation only when the small-talk list knows them ("oi", "amém", "valeu"): by
# meaning alone "luto", "paz" or "descanso" sit near thanks and farewells, and they are topics to search.
LEXICON_ONLY_TALK_WORDS = 2


def _crisis_bar(normal: str, bar: float) -> float:
    """The crisis score the trained router must give: higher for a short follow-up."""
    short_follow_up = _FOLLOW_UP.match(normal.strip()) and len(normal.split()) <= 6
    return max(FOLLOW_UP_CRISIS_SCORE, bar) if short_follow_up else bar


def _names_passage(text: str) -> bool:
    """ "O que diz João 3:16?": a question about a passage, not a crisis by meaning alone."""
    return any(m.reference is not None and not m.error for m in find_references(text))


@dataclass(frozen=True)
class Route:
    name: RouteName
    kind: str = ""  # the CrisisKind, the AdviceKind, the conversation kind (or a trained router's label), the NeedKind
    phrase: str = ""  # the words that decided, when rules decided
    by: str = "lexicon"  # lexicon | rules | semantic
    someone_else: bool = False  # a crisis of another person the message speaks of, not of its writer


class Router:
    """The lexicon and the person/time rules always; the semantic router once the embedder has its examples."""

    def __init__(self, semantic=None):
        self.semantic = semantic

    @property
    def active(self) -> str:
        """Which router decides now, for the status page."""
        return (
            "léxico + regras + " + self.semantic.name
            if self.semantic
            else "léxico + regras (semântico ainda não carregado)"
        )

    def route(self, text: str) -> Route:
        text = plain_letters(text or "")  # "quеro mе mаtаr" in Cyrillic look-alikes is read as a person reads it
        normal = fold_words(text)
        found = self._crisis(text, normal)
        if found:
            return found
        verdict = self.semantic.verdict(text) if self.semantic else None
        bar = self._semantic_crisis_bar(text, normal) if verdict else None
        # A crisis the meaning is sure of comes before the advice words: "achou no celular dele quantos
        # comprimidos matam" names a dose, and is no question for a pharmacist.
        if verdict and verdict.crisis >= max(bar, self.semantic.framed_bar):
            return self._semantic_crisis(text, normal)
        for kind, pattern in _ADVICE:
            if pattern.search(normal):
                return Route(RouteName.OUT_OF_SCOPE, kind, by="lexicon")
        talk = conversational_kind(text)
        if talk and not _ACK_THEN_ASK.match(normal.strip()):
            return Route(
                RouteName.CONVERSATIONAL, ConversationKind.CLARIFY if _CLARIFY.search(normal) else talk, by="lexicon"
            )
        if verdict and verdict.crisis >= bar:
            return self._semantic_crisis(text, normal)
        if verdict and self._semantic_route(verdict, text, normal):
            return Route(RouteName(verdict.route), verdict.kind, by="semantic")
        return Route(RouteName.ORDINARY, need_kind(text))

    def _semantic_crisis(self, text: str, normal: str) -> Route:
        return Route(
            RouteName.CRISIS,
            self.semantic.crisis_kind(text),
            by="semantic",
            someone_else=person_rules.someone_else(normal),
        )

    def _semantic_crisis_bar(self, text: str, normal: str) -> float:
        """The crisis score the trained router must give: its bar, higher for a short follow-up, and higher still
        where the words say a joke, an idiom, the past, doctrine, a story or a passage; the classifier learned
        those from the hard negatives, so they raise the bar rather than forbid a crisis the meaning is sure of."""
        bar = _crisis_bar(normal, self.semantic.crisis_bar)
        if person_rules.not_now(normal, text) or person_rules.ordinary_frame(normal) or _names_passage(text):
            bar = max(bar, self.semantic.framed_bar)
        return bar

    @staticmethod
    def _semantic_route(verdict, text: str, normal: str) -> bool:
        """Out of scope or conversation by meaning, never for a passage, a question about the faith or a
        follow-up; thanks and blessings that name God ("amém, obrigada pela palavra") are conversation when the
        classifier is sure and nothing is asked."""
        if _names_passage(text):  # "o que diz Mateus 6:34?" reads like "o que você disse?", and is a lookup
            return False
        if verdict.route == RouteName.OUT_OF_SCOPE:
            return verdict.probability >= OUT_OF_SCOPE_PROBABILITY and not person_rules.asks_about_faith(normal)
        if person_rules.asks_about_faith(normal) and (
            verdict.probability < SURE_BLESSING_PROBABILITY or "?" in text or person_rules.doctrine(normal)
        ):
            return False
        return (
            verdict.route == RouteName.CONVERSATIONAL
            and verdict.probability >= CONVERSATION_PROBABILITY
            and len(normal.split()) > LEXICON_ONLY_TALK_WORDS
            and not _FOLLOW_UP.match(normal.strip())
            and not _REFERS_BACK.search(normal)
        )

    def _crisis(self, text: str, normal: str) -> Route | None:
        """The lexicon of the person's own words, then the person/time rules. The classifier does not overrule
        them: leaving one author out, letting it cut the false alarms of the past and of testimonies cost
        crises the lexicon had found (bench/bench_routing.py --cv)."""
        match = crisis.detect_crisis(text)
        # A topic word in a story told ("assisti uma série sobre suicídio") is not the person's own words.
        if match and match.topical and person_rules.ordinary_frame(normal):
            match = None
        if match and not person_rules.not_now(normal, text):
            return Route(RouteName.CRISIS, match.kind, match.phrase, by="lexicon")
        rule = person_rules.third_party_or_threat(normal)
        if rule and not person_rules.not_now(normal, text):
            return Route(RouteName.CRISIS, rule[0], rule[1], by="rules", someone_else=person_rules.someone_else(normal))
        return None

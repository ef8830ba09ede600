"""Where a message goes before any search: crisis, conversation, out of scope, or the ordinary flow."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pastor.answer import person_rules, safety
from pastor.answer.semantic_router import CONVERSATION_MARGIN, CRISIS_MARGIN, FOLLOW_UP_CRISIS_MARGIN, ROUTE_MARGIN
from pastor.text.fold import fold_words
from pastor.text.smalltalk import conversational_kind

CRISIS, CONVERSATIONAL, OUT_OF_SCOPE, ORDINARY = "crisis", "conversational", "out_of_scope", "ordinary"
MEDICAL, LEGAL, FINANCIAL = "medical", "legal", "financial"
CLARIFY = "clarify"  # "não entendi": the previous answer said again, not a search
_CLARIFY = re.compile(r"\bnao\s+(?:entendi|compreendi|captei|percebi)\b|^como\s+assim\b|\bexplica(?:r)?\s+"
                      r"(?:isso\s+)?(?:de\s+novo|melhor|de\s+outro\s+jeito|de\s+outra\s+forma|com\s+outras\s+palavras)\b")

# Advice the pastoral scope does not give: a medicine, a dose, a lawsuit, an investment.
_ADVICE = tuple((kind, re.compile(p)) for kind, p in (
    (MEDICAL, r"\b(?:qual|que|quais)\s+(?:remedio|medicamento|antibiotico|pomada|xarope|cha|vitamina)s?\b|"
              r"\b(?:posso|devo)\s+(?:tomar|parar|trocar|misturar|dar|largar|deixar)\b(?:\s+\w+){0,3}?\s+(?:remedio|medicamento|"
              r"antibiotico|dipirona|dose|comprimido|insulina|vacina|antidepressivo)s?\b|\bquant[oa]s?\s+(?:mg|gotas|comprimidos)\b"),
    (LEGAL, r"\b(?:advogad[oa]|processar|processo\s+(?:trabalhista|judicial)|pensao\s+alimenticia|usucapiao|inventario|"
            r"rescisao|tenho\s+direito|e\s+crime|guarda\s+(?:dos|das|do|da)\s+(?:filh|crianc))\w*"),
    (FINANCIAL, r"\b(?:investir|investimento|acoes\s+da\s+bolsa|bitcoin|cripto\w*|poupanca|emprestimo|financiamento|"
                r"imposto\s+de\s+renda|consignado|tesouro\s+direto|renda\s+fixa)\b"),
))


# "e se ele repetir?", "mas e depois?": a follow-up to rewrite and search, not small talk.
_FOLLOW_UP = re.compile(r"(?:e|mas|entao|e\s+se|e\s+quanto|e\s+no\s+caso)\b")


def _crisis_margin(normal: str) -> float:
    """The semantic router's bar for a crisis: higher for a short follow-up."""
    short_follow_up = _FOLLOW_UP.match(normal.strip()) and len(normal.split()) <= 6
    return FOLLOW_UP_CRISIS_MARGIN if short_follow_up else CRISIS_MARGIN


@dataclass(frozen=True)
class Route:
    name: str  # crisis | conversational | out_of_scope | ordinary
    kind: str = ""  # the crisis kind, the advice kind (medical, legal, financial) or the conversation kind
    phrase: str = ""  # the words that decided, when rules decided
    by: str = "lexicon"  # lexicon | rules | semantic


class Router:
    """The lexicon and the person/time rules always; the semantic router once the embedder has its examples."""

    def __init__(self, semantic=None):
        self.semantic = semantic

    @property
    def active(self) -> str:
        """Which router decides now, for the status page."""
        return "léxico + regras + " + self.semantic.name if self.semantic else "léxico + regras (semântico ainda não carregado)"

    def route(self, text: str) -> Route:
        normal = fold_words(text or "")
        found = self._crisis(text, normal)
        if found:
            return found
        verdict = self.semantic.verdict(text) if self.semantic else None
        for kind, pattern in _ADVICE:
            if pattern.search(normal):
                return Route(OUT_OF_SCOPE, kind, by="lexicon")
        talk = conversational_kind(text)
        if talk:
            return Route(CONVERSATIONAL, CLARIFY if _CLARIFY.search(normal) else talk, by="lexicon")
        if (verdict and verdict.crisis_margin >= _crisis_margin(normal) and not person_rules.not_now(normal, text)
                and not person_rules.doctrine(normal)):
            return Route(CRISIS, self.semantic.crisis_kind(text), by="semantic")
        if verdict and self._semantic_route(verdict, normal):
            return Route(verdict.route, verdict.kind, by="semantic")
        return Route(ORDINARY)

    @staticmethod
    def _semantic_route(verdict, normal: str) -> bool:
        """Out of scope or conversation by meaning, never for a question about the faith or a follow-up."""
        if person_rules.asks_about_faith(normal):
            return False
        if verdict.route == OUT_OF_SCOPE:
            return verdict.margin >= ROUTE_MARGIN
        return (verdict.route == CONVERSATIONAL and verdict.margin >= CONVERSATION_MARGIN
                and not _FOLLOW_UP.match(normal.strip()))

    def _crisis(self, text: str, normal: str) -> Route | None:
        match = safety.detect_crisis(text)
        if match and not person_rules.not_now(normal, text):
            return Route(CRISIS, match.kind, match.phrase, by="lexicon")
        rule = person_rules.third_party_or_threat(normal)
        if rule and not person_rules.not_now(normal, text):
            return Route(CRISIS, rule[0], rule[1], by="rules")
        return None


"""Advice outside the pastoral scope (medicine, law, money): a warm fixed reply, no search and no model."""

from __future__ import annotations

from pastor.care.routes import AdviceKind

_WHO: dict[str, str] = {
    AdviceKind.MEDICAL: (
        "Sobre remédios, doses, sintomas ou tratamentos eu não posso orientar: isso precisa de um médico "
        "ou de um farmacêutico, que conhecem a sua saúde e podem cuidar de você com segurança. Se for "
        "urgente, procure um pronto atendimento ou ligue para o serviço de emergência."
    ),
    AdviceKind.LEGAL: (
        "Sobre direitos, processos ou documentos eu não posso orientar: um advogado ou a Defensoria "
        "Pública da sua cidade podem ver o seu caso de perto e dizer o que fazer."
    ),
    AdviceKind.FINANCIAL: (
        "Sobre investimentos, empréstimos, dívidas ou impostos eu não posso orientar: um contador ou "
        "um profissional de finanças de confiança pode olhar a sua situação e ajudar você a decidir."
    ),
}
_OPENING = "Obrigado por confiar essa pergunta a mim."
# What the assistant is for, and what it can do now.
_CLOSING = (
    "Sou um assistente pastoral: posso orar com você e trazer uma palavra das Escrituras para o que isso pesa "
    "no coração. Se quiser, me conte como você está se sentindo com essa situação."
)


def out_of_scope_reply(kind: str) -> str:
    """The kind reply for medical, legal or financial advice: who can help, and what the assistant offers."""
    return "\n\n".join((_OPENING, _WHO.get(kind, _WHO[AdviceKind.MEDICAL]), _CLOSING))

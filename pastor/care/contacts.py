"""The help lines a crisis reply shows: the verified defaults and the parser of `PASTOR_CRISIS_CONTACTS`.

Imports nothing of `pastor`: the settings parse `PASTOR_CRISIS_CONTACTS` with `parse_contacts`, and
`pastor.config` may import this module (and no other of `pastor.care`) for it.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class CrisisContact(NamedTuple):
    """A help line shown with the crisis message: `Brasil`, `SAMU`, `192`, `emergência médica`."""

    country: str
    service: str
    number: str
    note: str = ""
    kinds: tuple[
        str, ...
    ] = ()  # crisis kinds it is shown for (suicide, self_harm, violence, abuse, overdose); () = all


# Verified help lines. Brazil: CVV, SAMU, Polícia Militar, Disque 100 (human rights, children), Ligue 180
# (women). Portugal: SNS 24, the European emergency number, the domestic-violence victims' line (CIG) and
# SOS-Criança (IAC, the European child helpline). The fifth field names the crisis kinds a line is shown for.
CRISIS_CONTACTS_DEFAULT = (
    "Brasil|CVV (Centro de Valorização da Vida)|188|24 horas, gratuito, chat em cvv.org.br|"
    "suicide,self_harm;"
    "Brasil|SAMU|192|emergência médica;"
    "Brasil|Polícia Militar|190|perigo imediato|violence,abuse;"
    "Brasil|Disque 100|100|direitos humanos, crianças, idosos|"
    "violence,abuse;"
    "Brasil|Ligue 180|180|atendimento à mulher|violence,abuse;"
    "Portugal|SNS 24|808 24 24 24|saúde, 24 horas|suicide,self_harm,overdose;"
    "Portugal|Número Europeu de Emergência|112|emergência;"
    "Portugal|Violência doméstica (apoio à vítima)|800 202 148|gratuita, 24 horas|violence,abuse;"
    "Portugal|SOS-Criança|116 111|crianças e jovens|abuse"
)
# The crisis kinds a help line may name: the values of `pastor.care.routes.CrisisKind` (a test keeps both equal).
CRISIS_KINDS = ("suicide", "self_harm", "violence", "abuse", "overdose")

_PHONE = re.compile(r"\d+(?: \d+)*")


def parse_contacts(value: str) -> tuple[CrisisContact, ...]:
    """`País|Serviço|Número|Observação|tipos` entries separated by `;` (observation and kinds optional;
    kinds are crisis kinds separated by commas, none = shown in every crisis)."""
    contacts = []
    for entry in (e.strip() for e in value.split(";")):
        if not entry:
            continue
        fields_ = [f.strip() for f in entry.split("|")]
        if len(fields_) not in (3, 4, 5) or not all(fields_[:3]):
            raise ValueError(f"use País|Serviço|Número|Observação|tipos em cada contato (recebido {entry!r})")
        digits = fields_[2].replace(" ", "")
        if not _PHONE.fullmatch(fields_[2]) or not 3 <= len(digits) <= 15:
            raise ValueError(f"número de telefone inválido {fields_[2]!r}: só dígitos e espaços, de 3 a 15 dígitos")
        kinds = tuple(k.strip() for k in (fields_[4] if len(fields_) == 5 else "").split(",") if k.strip())
        unknown = [k for k in kinds if k not in CRISIS_KINDS]
        if unknown:
            raise ValueError(f"tipo de crise desconhecido {unknown[0]!r}: use {', '.join(CRISIS_KINDS)}")
        note = fields_[3] if len(fields_) > 3 else ""
        contacts.append(CrisisContact(fields_[0], fields_[1], fields_[2], note, kinds))
    if not contacts:
        raise ValueError("informe ao menos um contato de ajuda")
    return tuple(contacts)

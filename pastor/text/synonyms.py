"""Query expansion: how people say it today → how the Almeida text says it (BM25 side only)."""

from __future__ import annotations

import re

from pastor.text.fold import fold

# Accent-folded word beginnings → biblical wording added to the lexical query. The Bible speaks of
# "temor", "inquietos" and "enfermidade" where people write "medo", "ansiedade" and "doença".
EXPANSIONS: dict[str, str] = {
    "medo": "temor temas temais",
    "apavor": "temor temas",
    "assust": "temor temas",
    "ansiedad": "inquietos cuidadosos cuidado",
    "ansios": "inquietos cuidadosos cuidado",
    "preocup": "inquietos cuidadosos cuidado",
    "futuro": "amanhã",
    "trist": "tristeza angustia abatida",
    "depress": "abatida angustia tristeza",
    "deprimid": "abatida angustia tristeza",
    "solid": "desamparado sozinho",
    "sozinh": "desamparado",
    "luto": "pranto choro consolação",
    "falecid": "morte pranto consolação",
    "doenc": "enfermidade cura",
    "doente": "enfermo cura",
    "cancer": "enfermidade cura",
    "culpa": "peccado iniquidade perdão",
    "raiva": "ira irar",
    "dinheiro": "riquezas",
    "divida": "devedor emprestimo",
    "endivid": "devedor",
    "cansad": "cansados alívio descanso",
    "exaust": "cansados alívio descanso",
    "casament": "marido mulher",
    "esposa": "marido mulher",
    "vicio": "escravo liberdade",
    "viciad": "escravo liberdade",
    "inseguranc": "confiança temor",
}

_WORD = re.compile(r"[a-z]+")


def expand(query: str) -> str:
    """The query with the biblical wording of its words appended (the original is kept first)."""
    extra = [
        words for word in _WORD.findall(fold(query)) for prefix, words in EXPANSIONS.items() if word.startswith(prefix)
    ]
    return " ".join([query, *dict.fromkeys(extra)])

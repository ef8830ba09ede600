"""Chat spellings: the one table of abbreviations people type (`vc`, `qro`, `pq`), read word for word."""

from __future__ import annotations

# Folded, word for word: `vc` is `voce`, `qro morrer` is `quero morrer`, `obg` is `obrigado`.
CHAT_SPELLINGS = {
    "vc": "voce",
    "vcs": "voces",
    "voc": "voce",
    "ce": "voce",
    "q": "que",
    "oq": "o que",
    "pq": "porque",
    "tb": "tambem",
    "tbm": "tambem",
    "td": "tudo",
    "tds": "todos",
    "blz": "beleza",
    "obg": "obrigado",
    "obgd": "obrigado",
    "obgda": "obrigada",
    "vlw": "valeu",
    "eh": "e",
    "ta": "esta",
    "to": "estou",
    "msm": "mesmo",
    "mt": "muito",
    "mto": "muito",
    "hj": "hoje",
    "ngm": "ninguem",
    "qro": "quero",
    "kero": "quero",
    "qero": "quero",
    "qria": "queria",
    "keria": "queria",
    "n": "nao",
    "naum": "nao",
    "d": "de",
    "vo": "vou",
    "pro": "pra",
    "cmg": "comigo",
}

# The readers that do not respell every word of the table, each measured on its own test set:
# changing either set changes routing, so it is a change to measure (bench/bench_routing.py).
NOT_FOR_SMALLTALK = frozenset({"qro", "kero", "qero", "qria", "keria", "n", "naum", "d", "vo", "pro", "cmg"})
NOT_FOR_CRISIS = frozenset({"vcs", "voc", "ce", "blz", "obg", "obgd", "obgda", "vlw", "eh", "ta", "to"})


def spellings_for(left_out: frozenset[str]) -> dict[str, str]:
    """The table as one reader uses it."""
    return {word: modern for word, modern in CHAT_SPELLINGS.items() if word not in left_out}


def respell(words: str, table: dict[str, str]) -> str:
    """Space-separated `words` with each chat spelling written out."""
    return " ".join(table.get(word, word) for word in words.split())

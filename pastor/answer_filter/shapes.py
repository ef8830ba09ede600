"""Spans shaped like a Bible reference whatever the book: invented, foreign, lower-case or roman."""

from __future__ import annotations

import re
from functools import lru_cache

from pastor.answer_filter.removal import CUES, cue_start
from pastor.bible import canon
from pastor.bible.references import BOOK_START
from pastor.text.fold import fold
from pastor.text.stopwords import STOPWORDS

# Between a name and its numbers: spaces, or one line break (Markdown shows it as a space).
GAP = r"(?:[ \t]+|[ \t]*\n[ \t]*)"
_NUMBERS = r"(?:\d+|[IVXLCDMivxlcdm]+)"
# A name, then chapter and verse: `Hezequias 3:16`, `john 14:6`, `Romanos VIII:28`, `John 14.6`,
# `Romans 8,28`. A `.` or `,` separator is glued to the numbers and needs a capitalised name
# (`versão 2.1`, `nota 6,5` are prose); 3 digits after a `.` and then a word are a thousand
# (`Quase 1.500 pessoas`).
VERSE_FORM = re.compile(
    BOOK_START
    + r"(?:[1-3][ \t]*)?(?P<word>[^\W\d_]+)\.?"
    + GAP
    + _NUMBERS
    + r"(?:[ \t]*(?P<colon>:)[ \t]*|\.(?!\d{3}[ \t]+[a-zà-ÿ])|,)\d+(?:[ \t]*[-–][ \t]*\d+)?(?!\d)"
)
# A capitalised name and a chapter alone: `(Hezequias 3)`, `- Hezequias 3\n`, `como diz Hezequias 3 que`.
# Starting a sentence and followed by a lower-case word it is a quantity (`Faz 3 anos`, `Dormi 5h`),
# unless a cue comes before (`Leia Hezequias 3 hoje`); a unit makes it one anywhere (`Faz 3%`).
CHAPTER_FORM = re.compile(
    BOOK_START + r"(?P<word>[^\W\d_]+)" + GAP + r"\d{1,3}(?![\d%°ºª]|[:.,]\d)(?:(?=(?P<more>[ \t]*[^\W\d_]+))|)"
)
_CHAPTER_CUES = tuple(cue for cue in CUES if cue not in ("em", "ver"))
# A roman chapter alone after a known book: `Salmo XXIII`, `Romanos VIII` (`Papa João XXIII` is a
# pope). Any run of numerals counts, valid or not: `Salmo XXIIIVIII` reads as a chapter too.
ROMAN_CHAPTER = re.compile(r"(?<![^\W_])[IVXLCDM]+(?![\d_]|[ \t]*[:.,]?[ \t]*\d)")
_TITLES = frozenset(("papa", "rei", "rainha", "dom", "sao", "santo", "santa", "principe", "imperador", "seculo"))

# Capitalised words that come before clock times, not books (`Domingo 19:30`, `Às 9:30`), folded.
CLOCK_WORDS = frozenset(
    (
        "domingo",
        "segunda",
        "terca",
        "quarta",
        "quinta",
        "sexta",
        "sabado",
        "feira",
        "as",
        "das",
        "ate",
        "e",
        "hora",
        "horas",
        "horario",
        "horarios",
        "culto",
        "cultos",
        "missa",
        "reuniao",
        "encontro",
        "ensaio",
        "hoje",
        "amanha",
        "inicio",
        "termino",
        "abertura",
        "janeiro",
        "fevereiro",
        "marco",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    )
)
# Words that count, number or measure things (`placar 2:1`, `Versão 2.1`, `Sala 3`), folded.
QUANTITY_WORDS = frozenset(
    (
        "versao",
        "placar",
        "proporcao",
        "razao",
        "nota",
        "notas",
        "escala",
        "pagina",
        "paginas",
        "pag",
        "capitulo",
        "cap",
        "versiculo",
        "verso",
        "passo",
        "parte",
        "item",
        "sala",
        "salas",
        "numero",
        "dia",
        "dias",
        "ano",
        "anos",
        "mes",
        "meses",
        "semana",
        "semanas",
        "bloco",
        "grupo",
        "turma",
        "fase",
        "etapa",
        "nivel",
        "modulo",
        "licao",
        "aula",
        "volume",
        "vol",
        "edicao",
        "tomo",
        "hino",
        "hinos",
        "harpa",
        "hinario",
        "apartamento",
        "apto",
        "casa",
        "rua",
        "lote",
        "quadra",
        "km",
        "kg",
        "min",
        "covid",
        "jogo",
        "rodada",
        "serie",
        "turno",
        "vaga",
        "mesa",
        "fila",
        "porta",
        "portao",
        "andar",
        "ramal",
        "telefone",
        "tel",
        "cep",
        "idade",
        "aos",
        "placa",
        "tabela",
        "figura",
        "quadro",
        "anexo",
        "artigo",
        "art",
        "inciso",
        "paragrafo",
        "lei",
        # Names said with a count in pastoral answers (`li a Bíblia 3 vezes`, `negou Jesus 3 vezes`).
        "biblia",
        "deus",
        "jesus",
        "cristo",
        "senhor",
        "espirito",
        "igreja",
        "pedro",
        "paulo",
        "davi",
        "moises",
        "abraao",
        "maria",
        "jose",
        "elias",
        "jonas",
        "sansao",
        "salomao",
    )
)
# Units glued to a number (`5h`, `3x`, `2kg`), folded.
_UNITS = frozenset(
    (
        "h",
        "hs",
        "min",
        "s",
        "kg",
        "g",
        "mg",
        "km",
        "m",
        "cm",
        "mm",
        "ml",
        "l",
        "x",
        "a",
        "o",
        "k",
        "mil",
        "mi",
        "bi",
        "anos",
        "dias",
        "pm",
        "am",
    )
)
NOT_BOOKS = STOPWORDS | CLOCK_WORDS | QUANTITY_WORDS


def _name_start(word: str, capitalised: bool) -> int | None:
    """Where the name starts inside `word`: at its first capital (`eHezequias` reads as Hezequias),
    at 0 for a lower-case word when `capitalised` is not needed or for a word in a script without
    case, None when it is no name."""
    cut = next((i for i, ch in enumerate(word) if ch.isupper()), None)
    if cut is None and (not capitalised or not any(ch.islower() for ch in word)):
        cut = 0  # a script without case (`חזקיהו 3.16`) reads as a name too
    if cut is None or fold(word[cut:]).lower() in NOT_BOOKS:
        return None
    return cut


def pseudo_references(text: str):
    """(start, end) of spans shaped like a reference whatever the book, verse forms first: the caller
    keeps each that overlaps nothing kept before it (`John 14.6` is not `John 14`)."""
    spans = []
    for pattern in (VERSE_FORM, CHAPTER_FORM):
        for match in pattern.finditer(text):
            if (
                pattern is CHAPTER_FORM
                and _quantity(match)
                and _sentence_start(text, match.start())
                and not _after_cue(text, match.start())
            ):
                continue
            colon = pattern is VERSE_FORM and match.group("colon") is not None
            cut = _name_start(match.group("word"), capitalised=not colon)
            if cut is not None:
                spans.append((match.start("word") + cut if cut else match.start(), match.end()))
    return spans + roman_chapters(text)


def _quantity(match: re.Match) -> bool:
    """A lower-case word follows the chapter (`Temos 3 filhos`) or a unit is glued to it (`Dormi
    5h`); a capitalised word (`Hezequias 3 Deus`) or any other glued word (`Hezequias 3cuida`) is not
    part of a quantity."""
    more = match.group("more")
    if not more:
        return False
    word = more.lstrip(" \t")
    return not word[0].isupper() and (word != more or fold(word).lower() in _UNITS)


def _sentence_start(text: str, pos: int) -> bool:
    before = text[:pos].rstrip(" \t")
    return not before or before[-1] in ".!?\n:;—–-•*(\"“'«"


def _after_cue(text: str, pos: int) -> bool:
    return cue_start(fold(text[max(0, pos - 30) : pos]).lower(), min(pos, 30), _CHAPTER_CUES) is not None


@lru_cache(maxsize=1)
def _book_before() -> re.Pattern:
    """A known book name ending right before a roman chapter (folded, longest first)."""
    forms = [
        r"\s+".join(re.escape(w) for w in form.split(" "))
        for form in canon.alias_forms()
        if canon.alias_key(form) not in canon.ambiguous() and len(form) > 1
    ]
    return re.compile(r"(?:" + "|".join(forms) + r")\.?" + GAP + r"\Z")


def _ends_word(text: str, start: int, end: int) -> bool:
    """Where a run of roman numerals ends: before a non-letter, a capital (`XXIIIDeus`) or, for two
    numerals or more, a glued word (`XXIIIcuida`); `João Xavier` has no roman number."""
    after = text[end : end + 1]
    return not after.isalpha() or after.isupper() or end - start >= 2


_TITLE_BEFORE = re.compile(r"([^\W\d_]+)[ \t]+\Z")


def roman_chapters(text: str) -> list[tuple[int, int]]:
    """(start, end) of `Book ROMAN` with no verse, the book a known one starting a word (or a
    capital glued to one: `eSalmo XXIII`) and no title before it."""
    folded = fold(text).lower()
    spans = []
    for match in ROMAN_CHAPTER.finditer(text):
        book = _book_before().search(folded, max(0, match.start() - 40), match.start())
        if book is None or not _ends_word(text, match.start(), match.end()):
            continue
        start = book.start()
        if text[start - 1 : start].isalpha() and not text[start].isupper():
            continue  # inside a word; a capital glued to letters starts one (`eSalmo XXIII`)
        title = _TITLE_BEFORE.search(folded, max(0, start - 30), start)
        if title is None or title.group(1) not in _TITLES:
            spans.append((start, match.end()))
    return spans


# Every prefix of what the forms above match: `1 Cor`, `romans 8:`, `Romanos VIII`, `John 14.`.
_TAIL = re.compile(
    r"(?:[1-9]\.?[ºª°ao]?\.?[ \t]*)?(?:(?P<word>[^\W\d_]+)\.?[ \t]*\n?[ \t]*(?:[\dIVXLCDMivxlcdm]+[ \t]*"
    r"(?:[:.,][ \t]*(?:\d+(?:[ \t]*[-–][ \t]*\d*)?)?)?)?)?"
)


def pseudo_viable(text: str, pos: int) -> bool:
    """Whether `text[pos:]` may still grow into one of the shapes above."""
    match = _TAIL.fullmatch(text, pos)
    return match is not None and (not match.group("word") or _name_start(match.group("word"), False) is not None)

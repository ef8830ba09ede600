"""Search-text normalisation: 1911 Portuguese spelling to modern, folding and tokens."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from pastor.text.fold import fold
from pastor.text.stemmer import Stemmer, get_stemmer
from pastor.text.stopwords import STOPWORDS

# Display text is never touched: these functions only build the text that is searched.
# Everything is applied symmetrically to verses and queries, so a rule that is slightly
# wrong for a rare word costs nothing as long as it does not merge two different words.

_V = "aeiouáéíóúâêôãõàü"  # vowels, as they appear before folding
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


@dataclass(frozen=True)
class Rule:
    """One regex rewrite inside a word, optionally limited to (or kept off) some words."""

    pattern: re.Pattern
    replacement: str
    only: re.Pattern | None = None  # apply only to words matching this (folded)
    keep: re.Pattern | None = None  # never apply to words matching this (folded)

    def apply(self, word: str, key: str) -> str:
        """Rewrite `word`; `key` is its folded form, which `only` and `keep` are tested on."""
        if (self.only and not self.only.search(key)) or (self.keep and self.keep.search(key)):
            return word
        return self.pattern.sub(lambda m: _match_case(m.group(0), m.expand(self.replacement)), word)


def _rule(pattern: str, replacement: str, *, only: str | None = None, keep: str | None = None) -> Rule:
    return Rule(
        re.compile(pattern, re.IGNORECASE),
        replacement,
        re.compile(only) if only else None,
        re.compile(keep) if keep else None,
    )


def _match_case(source: str, target: str) -> str:
    """Give `target` the case pattern of `source` (ALL CAPS, Capitalised or lower)."""
    if len(source) > 1 and source.isupper():
        return target.upper()
    if source[:1].isupper():
        return target[:1].upper() + target[1:]
    return target


# Whole words whose 1911 form is irregular (lower-case key -> modern form). Checked before
# the rules, so these also shield words like "mae" from the "-ae -> -ai" rule below.
_WORDS = {
    # "ha" is always the verb haver in this corpus (the article is "a", the interjection "ah")
    "ha": "há",
    "hia": "ia",
    "hiam": "iam",
    "hias": "ias",
    "teem": "têm",
    # -ae/-aes words that are NOT the old spelling of -ai/-ais (typed without the tilde)
    "mae": "mãe",
    "maes": "mães",
    "caes": "cães",
    # -eo words whose modern form is -io, not -eu
    "pateo": "pátio",
    "pateos": "pátios",
    "escarneo": "escárnio",
    "escarneos": "escárnios",
    "craneo": "crânio",
    # z where modern spelling has s, and other one-off spellings
    "poz": "pôs",
    "puz": "pus",
    "propoz": "propôs",
    "propuz": "propus",
    "impoz": "impôs",
    "expoz": "expôs",
    "compoz": "compôs",
    "dispoz": "dispôs",
    "depoz": "depôs",
    "suppoz": "supôs",
    "quiz": "quis",
    "atraz": "atrás",
    "detraz": "detrás",
    "mez": "mês",
    "mezes": "meses",
    "paiz": "país",
    "aza": "asa",
    "azas": "asas",
    "braza": "brasa",
    "brazas": "brasas",
    "preza": "presa",
    "defeza": "defesa",
    "pezo": "peso",
    "satanaz": "satanás",
    "cincoenta": "cinquenta",
    "peior": "pior",
    "peiores": "piores",
    "tribu": "tribo",
    "tribus": "tribos",
    "quasi": "quase",
    "dezeseis": "dezesseis",
    "dezesete": "dezessete",
    "poderam": "puderam",
    "destroe": "destrói",
    # frequent names whose modern form is not reachable by spelling rules
    "david": "davi",
    "jacob": "jacó",
    "isaac": "isaque",
    "job": "jó",
    "lot": "ló",
    "canaan": "canaã",
    "benjamin": "benjamim",
    "bethlehem": "belém",
    "nazareth": "nazaré",
    "jonathan": "jônatas",
    "gilead": "gileade",
    "achab": "acabe",
    "joab": "joabe",
    "caleb": "calebe",
    "gad": "gade",
}

# Contractions written with an apostrophe: d'elle, n'aquelle, lh'o. "d'" joins only the
# words that contract in modern Portuguese (dele, deste, daqui); otherwise it is "de X".
_ELISION = re.compile(r"^(d|n|m|t|lh)['’](.+)$", re.IGNORECASE)
_D_JOINS = {
    "ele",
    "ela",
    "eles",
    "elas",
    "este",
    "esta",
    "estes",
    "estas",
    "isto",
    "esse",
    "essa",
    "esses",
    "essas",
    "isso",
    "aquele",
    "aquela",
    "aqueles",
    "aquelas",
    "aquilo",
    "aqui",
    "ali",
    "aí",
    "ai",
    "onde",
    "entre",
    "antes",
    "outro",
    "outra",
    "outros",
    "outras",
}

_GREEK_CH = (  # stems whose "ch" is the Greek chi (Christo), never the Portuguese "ch" (chamar)
    r"christ|chrism|chron|chrys|chald|cherub|sepulch|pasch|eunuch|drachm|archanj|patriarch"
    r"|tetrarch|monarch|hierarch|chiliarch|archite|schism|mechan|techn|psych|chimer|orchestr"
    r"|catech|melanchol|chirurg|^schol|^chaos|^charact|^chlor"
    r"|^(zachar|rachel|achaz|achaia|achis$|lachis|antioch|enoch|lamech|melchi|abimelech"
    r"|elimelech|achimelech|baruch|sichem|tychic|aristarch|malchi|machir|jechon|berech"
    r"|sechan|chedorlaomer|chebar|chittim)"
)

# The ordered rewrite rules, applied to each word in turn.
_RULES = (
    # -- word beginnings with an irregular vowel, h or consonant ------------------------
    _rule(r"^logar", "lugar"),  # logar -> lugar
    _rule(r"^egrej", "igrej"),  # egreja -> igreja
    _rule(r"^egual", "igual"),  # egual -> igual
    _rule(r"^edade", "idade"),  # edade -> idade
    _rule(r"^h(?=ontem|ombr|erv|[uú]mid)", ""),  # hontem, hombro, herva, humido
    _rule(r"^similh", "semelh"),  # similhante -> semelhante
    _rule(r"^resus(?=c)", "ressus"),  # resuscitar -> ressuscitar
    _rule(r"^resurr", "ressurr"),  # resurreição -> ressurreição
    _rule(r"^frech", "flech"),  # frecha -> flecha
    _rule(r"^descanç", "descans"),  # descanço -> descanso
    _rule(r"^canç(?!ão|ões)", "cans"),  # cançado -> cansado (canção stays)
    _rule(r"^cre(?=[aáo])", "cri"),  # crear, creou, creatura -> cri- (creio stays)
    _rule(r"^(as)?sign(?=a)", r"\1sin", keep=r"^signat"),  # signal, assignar -> sinal, assinar
    _rule(r"circum", "circun"),  # (in)circumcisão -> (in)circuncisão
    _rule(r"^magest", "majest"),  # magestade -> majestade
    _rule(r"^visinh", "vizinh"),  # visinho -> vizinho
    _rule(r"^podess", "pudess"),  # podesse -> pudesse
    _rule(r"^taboa", "tábua"),  # taboa -> tábua
    _rule(r"^proseg", "prosseg"),  # proseguir -> prosseguir
    _rule(r"^(c|t|thes|ag)?oir", r"\1our"),  # oiro, coiro, toiro, thesoiro -> ou
    _rule(r"^p[ou]z(?=e)", "pus"),  # pozeram, puzeram -> puseram
    _rule(r"^quiz(?=e)", "quis"),  # quizer, quizeram -> quiser, quiseram
    _rule(r"^bemaventur", "bem-aventur"),  # bemaventurado -> bem-aventurado
    _rule(r"^(co|e|be)m(?=[tdvsgcqfjlnrz])", r"\1n"),  # comtigo, emquanto, bemdito -> n
    # -- Greek digraphs and y ---------------------------------------------------------
    _rule(r"ch(?=[eiéêíy])", "qu", only=_GREEK_CH),  # cherubim -> querubim, Rachel -> Raquel
    _rule(r"ch", "c", only=_GREEK_CH),  # Christo -> Cristo, sepulchro -> sepulcro
    _rule(r"^sc(?=[eiéêíy])", "c"),  # sciencia, sceptro -> ciência, cetro
    _rule(r"ph+", "f"),  # propheta -> profeta
    _rule(r"th+", "t"),  # theologia, Thomé, Bethharan -> t
    _rule(r"rh", "r"),  # myrrha, amorrheos -> mirra, amorreus
    _rule(r"(?<=\w)sh", "s"),  # Ishmael -> Ismael
    _rule(r"y", "i"),  # Egypto, lyra, Moysés -> i
    # -- silent h -----------------------------------------------------------------------
    _rule(rf"(?<=[{_V}])h$", "", keep=r"^[aeiou]h$"),  # Judah, Jehovah -> Juda, Jeova
    _rule(rf"(?<=[{_V}])h(?=[{_V}])", "", keep=r"^aha$"),  # sahir, Abrahão, comprehender
    # -- word endings -------------------------------------------------------------------
    _rule(
        r"(?<=\w\w)eo(?=s?$)",
        "eu",  # judeos, phariseo, Eliseo -> -eu(s)
        keep=r"^(ole|idone|geme|timote|ferre|aure|aere|etere|lacte|osse|rose|igne|cere)os?$"
        r"|(aneo|eneo|ineo|aceo|oreo)s?$",
    ),
    _rule(r"(?<=\w)ae(?=s?$)", "ai"),  # pae, vae, animaes, louvae -> -ai(s)
    _rule(r"(?<=v)eiu$", "eio"),  # veiu, sobreveiu -> veio
    # -- consonant clusters that lost a silent letter -----------------------------------
    _rule(r"c(?=ç)", "", keep=r"^(facc|ficc|fricc|convicc|infecc|confecc|succ)"),  # acção
    _rule(r"mp(?=[tç])", "n", keep=r"^perempt"),  # prompto, redempção -> pronto, redenção
    _rule(
        r"c(?=t)",
        "",  # sancto, fructo, victoria -> santo ...
        keep=r"^(pact|compact|aspect|expect|espect|convict|invict|intact|caract|cact|bacter"
        r"|fict|nect|conect|infect|detect|eclect|lact|sect|filact)",
    ),
    _rule(
        r"p(?=t)",
        "",  # escripto, baptismo, Egipto -> escrito ...
        keep=r"^(pt|apt|inapt|inept|rapt|adept|adapt|capt(?=ur)|corrupt|incorrupt|erupt"
        r"|abrupt|opt(?!im)|rept|copt|helicopt|interrupt|eucalipt)",
    ),
    _rule(rf"(?<=[{_V}])mn", "n", keep=r"^(amnes|amnist|amno)"),  # damno, solemne, hymno
    _rule(r"([bcdfglmnpt])\1", r"\1"),  # elle, peccado, anno, offerta ('rr','ss' stay)
)

# Accents restored on a few frequent words the rules leave unaccented (cosmetic: search
# folds accents anyway).
_ACCENTS = {
    "jeova": "jeová",
    "vitoria": "vitória",
    "vitorias": "vitórias",
    "egipcio": "egípcio",
    "egipcios": "egípcios",
    "egipcia": "egípcia",
    "egipcias": "egípcias",
}

# Text-level rewrites that need the hyphen: mesoclisis "fal-o-hei" and enclitic "leval-o".
_TEXT_RULES = (
    (
        re.compile(r"-h(?=(?:ei|[aá]s?|emos|eis|[aã]o|[ií]amos|[ií]eis|ias?|iam)\b)", re.IGNORECASE),
        "-",
    ),  # ir-se-hia -> ir-se-ia
    (re.compile(r"(?<=\w)l-(?=(?:o|a|os|as)\b)", re.IGNORECASE), "-l"),  # leval-o -> leva-lo
)


def modernize(text: str) -> str:
    """Rewrite 1911 Almeida spelling in modern Portuguese (Christo -> Cristo, n'elle -> nele)."""
    text = unicodedata.normalize("NFC", text)  # a decomposed "á" would split the word
    for pattern, replacement in _TEXT_RULES:
        text = pattern.sub(replacement, text)
    return _WORD.sub(lambda m: _modern_token(m.group()), text)


@lru_cache(maxsize=100_000)
def _modern_token(token: str) -> str:
    match = _ELISION.match(token)
    if not match:  # other apostrophes (aquel'outro, est'outras) just join the parts
        return "".join(_modern_word(part) for part in re.split(r"['’]", token))
    prefix, rest = match.group(1), _modern_word(match.group(2))
    if prefix.lower() == "d" and rest.lower() not in _D_JOINS:
        return _match_case(prefix, "de") + " " + rest
    return prefix + rest


def _modern_word(word: str) -> str:
    mapped = _WORDS.get(word.lower())
    if mapped is not None:
        return _match_case(word, mapped)
    key = fold(word)  # conditions are written without accents: "óleo" is "oleo"
    for rule in _RULES:
        rewritten = rule.apply(word, key)
        if rewritten != word:
            word, key = rewritten, fold(rewritten)
    accented = _ACCENTS.get(word.lower())
    return _match_case(word, accented) if accented else word


_NON_WORD = re.compile(r"[^a-z0-9]+")

# Bump whenever normalisation, stemming or stop-words change what `tokenize` returns: the BM25
# token cache (index/lexcache.py) is keyed on it, so stale tokens are never reused.
TOKENIZER_VERSION = 1


def normalize(text: str) -> str:
    """Search form of a text: modern spelling, folded, punctuation removed, single spaces."""
    return _NON_WORD.sub(" ", fold(modernize(text))).strip()


def tokenize(text: str, stemmer: str | Stemmer = "rslp", stopwords: bool | Collection[str] = True) -> list[str]:
    """Normalised, stop-word-free, stemmed search tokens of a text.

    `stemmer` is "rslp", "snowball", "none" or a `Stemmer`; `stopwords` is True (the
    default list), False, or a custom collection of folded words.
    """
    stem = stemmer if isinstance(stemmer, Stemmer) else get_stemmer(stemmer)
    stop = STOPWORDS if stopwords is True else frozenset(stopwords or ())
    words = [w for w in normalize(text).split() if w not in stop and (len(w) > 1 or w.isdigit())]
    return stem.stem_many(words)

"""Portuguese stemmers for search tokens: staged RSLP, Snowball (PyStemmer) and none."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pastor.text.fold import fold


class Stemmer:
    """Maps a folded, lower-case word to its stem; the base class keeps words as they are."""

    name = "none"

    def __init__(self) -> None:
        # Per-instance cache: the corpus has ~30k distinct words for ~800k tokens.
        self._cache: dict[str, str] = {}

    def stem(self, word: str) -> str:
        return word

    def stem_many(self, words: Iterable[str]) -> list[str]:
        cache, stem = self._cache, self.stem
        out = []
        for word in words:
            result = cache.get(word)
            if result is None:
                result = cache[word] = stem(word)
            out.append(result)
        return out


class NoStemmer(Stemmer):
    name = "none"


class SnowballStemmer(Stemmer):
    """Snowball's Portuguese stemmer, through PyStemmer (C, fast)."""

    name = "snowball"

    def __init__(self) -> None:
        super().__init__()
        try:
            import Stemmer as pystemmer  # PyStemmer: a test/bench dependency (RSLP measured better)
        except ImportError:
            raise ValueError(
                "PASTOR_STEMMER=snowball precisa do pacote PyStemmer "
                "(pip install -r requirements-dev.txt); o padrão é rslp."
            ) from None

        self._snowball = pystemmer.Stemmer("portuguese")

    def stem(self, word: str) -> str:
        return self._snowball.stemWord(word)


@dataclass(frozen=True)
class Suffix:
    """An RSLP rule: strip `suffix` if at least `min_stem` letters remain, add `replace`."""

    suffix: str
    min_stem: int
    replace: str = ""
    exceptions: frozenset[str] = frozenset()  # whole words the rule must not touch
    protect: tuple[str, ...] = ()  # longer endings the rule must not touch

    def apply(self, word: str) -> str | None:
        if not word.endswith(self.suffix) or len(word) - len(self.suffix) < self.min_stem:
            return None
        if word in self.exceptions or word.endswith(self.protect):
            return None
        return word[: len(word) - len(self.suffix)] + self.replace


def _s(suffix: str, min_stem: int, replace: str = "", exceptions: str = "", protect: str = "") -> Suffix:
    return Suffix(suffix, min_stem, replace, frozenset(exceptions.split()), tuple(protect.split()))


# The rules follow Orengo & Huyck's RSLP (2001) step by step, rewritten for FOLDED input
# (search text has no accents, so "ões" is "oes" and "ão" is "ao"), with the exception
# lists trimmed to Portuguese that occurs in Bibles and questions, and a few changes noted
# where made. In each step the first rule that applies wins.

PLURAL = (
    _s("ns", 1, "m"),  # homens -> homem
    _s("oes", 2, "ao"),  # oracoes -> oracao, leoes -> leao
    _s("aes", 1, "ao", "maes"),  # paes (pães), caes -> pao, cao
    _s("ais", 1, "al", "cais mais pais jamais demais"),  # animais -> animal (temais: see "al")
    _s("fieis", 0, "fiel"),  # fieis, infieis -> fiel
    _s("veis", 2, "vel"),  # amaveis -> amavel
    _s("eis", 2, "el", protect="reis ieis sseis deis meis neis teis"),  # fieis, papeis
    _s("ois", 2, "ol", "dois depois pois bois herois"),  # anzois -> anzol
    _s(
        "is",
        2,
        "il",
        "lapis cais mais crucis biquinis pois depois dois leis reis sois ouvis partis dormis iris",
        protect="eis",
    ),  # fuzis -> fuzil
    _s("les", 3, "l"),
    _s("res", 3, "r"),  # amores -> amor
    _s(
        "s",
        2,
        "",
        "alias pires lapis cais mais mas menos ferias fezes pesames crucis gas"
        " atras moises atraves conves es pais apos ambas ambos messias deus jesus"
        " tras onibus virus simples lapis anis tres",
    ),
)

FEMININE = (
    _s("ona", 3, "ao", "abandona lona iona cortisona monotona maratona acetona detona carona pessoa", protect="iona"),
    _s("ora", 3, "or", "agora embora fora hora demora aurora outrora flora amora"),
    _s(
        "na",
        4,
        "no",
        "carona abandona lona iona cortisona monotona maratona acetona"
        " detona guiana campana grana caravana banana paisana semana",
    ),
    _s("inha", 3, "inho", "rainha linha minha farinha cozinha espinha bainha marinha ladainha campainha galinha"),
    _s("esa", 3, "es", "mesa obesa princesa turquesa ilesa pesa presa defesa despesa surpresa empresa represa lesa"),
    _s("osa", 3, "oso", "mucosa prosa"),
    _s("iaca", 3, "iaco"),
    _s("ica", 3, "ico", "dica"),
    _s("ada", 2, "ado", "pitada espada estrada jornada nada cada manada"),  # amada -> amado
    _s("ida", 3, "ido", "vida duvida divida medida comida bebida ferida partida saida subida"),
    _s("ima", 3, "imo", "vitima estima lastima esgrima rima lagrima"),
    _s("iva", 3, "ivo", "saliva oliva"),
    _s("eira", 3, "eiro", "beira cadeira frigideira bandeira feira capoeira barreira fronteira besteira poeira"),
)

AUGMENTATIVE = (
    _s("dissimo", 5),
    _s("abilissimo", 5),
    _s("issimo", 3),
    _s("esimo", 3),
    _s("errimo", 4),
    _s("zinho", 2, "", "sozinho"),
    _s("quinho", 4, "c"),
    _s("uinho", 4),
    _s("adinho", 3),
    _s(
        "inho",
        3,
        "",
        "caminho cominho espinho linho padrinho sobrinho focinho mesquinho adivinho moinho sozinho vizinho",
    ),
    _s("alhao", 4),
    _s("uca", 4),
    _s("aco", 4, "", "antebraco"),
    _s("adao", 4),
    _s("arrao", 4),
    # -ão: "-ção" nouns go to the noun step; the words below are not augmentatives.
    _s(
        "ao",
        3,
        "",
        "camarao chimarrao cancao coracao embriao grotao glutao ficcao fogao"
        " feicao furacao gamao lampiao leao macacao nacao orfao orgao patrao"
        " portao quinhao rincao tracao falcao espiao mamao foliao cordao aptidao"
        " campeao colchao limao leilao melao barao milhao bilhao fusao cristao"
        " ilusao capitao estacao senao perdao razao anciao farao",
        protect="cao",
    ),
)

ADVERB = (_s("mente", 4, "", "experimente"),)

NOUN = (
    _s("encialista", 4),
    _s("alista", 5),
    _s("agem", 3, "", "coragem chantagem vantagem carruagem"),
    _s("iamento", 4),
    _s("amento", 3, "", "firmamento fundamento departamento"),
    _s("imento", 3),
    _s("mento", 6, "", "firmamento elemento complemento instrumento departamento"),
    _s("alizado", 4),
    _s("atizado", 4),
    _s("tizado", 4),
    _s("izado", 5, "", "organizado pulverizado"),
    _s("ativo", 4, "", "pejorativo relativo"),
    _s("tivo", 4, "", "relativo"),
    _s("ivo", 4, "", "passivo possessivo pejorativo positivo"),
    # -ção nouns meet their verb: salvacao -> salv (salvar), oracao -> or (orar)
    _s("acao", 2, "", "nacao estacao coracao"),
    _s("cao", 3, "c", "coracao"),
    _s("ado", 2, "", "grado sabado"),
    _s("ido", 3, "", "candido consolido rapido decido timido duvido marido"),
    _s("ador", 3),
    _s("edor", 3),
    _s("idor", 4, "", "ouvidor"),
    _s("dor", 4, "", "ascensor"),
    _s("sor", 4),
    _s("atoria", 5),
    _s("tor", 3, "", "benfeitor leitor editor ambulatorio"),
    _s("ismo", 3, "", "cinismo"),
    _s("ista", 4),
    _s("eiro", 3, "", "desfiladeiro"),
    _s("ario", 3),
    _s("orio", 3),
    _s("anca", 4),
    _s("ancia", 3),
    _s("encia", 3),
    _s("ente", 4, "", "parente presente oriente ocidente poente"),
    _s("abilidade", 5),
    _s("ibilidade", 5),
    _s("ividade", 5),
    _s("iedade", 3),  # not in RSLP: ansiedade meets ansioso
    _s("idade", 4, "", "autoridade comunidade"),
    _s("eza", 3),
    _s("ez", 4),
    _s("ico", 4, "", "tico publico explico"),
    _s("avel", 2),
    _s("ivel", 3, "", "terrivel"),
    _s("ioso", 3),
    _s("oso", 3),
    # Not in RSLP: -al, so that the 2nd plural "temais"/"amais" (read as plurals of
    # "temal"/"amal" by the plural step) meets "temer"/"amar"; also animal/animais.
    _s("al", 2, "", "real leal geral moral final natal"),
)

VERB = (
    _s("ariamo", 2),
    _s("assemo", 2),
    _s("eriamo", 2),
    _s("essemo", 2),
    _s("iriamo", 3),
    _s("issemo", 3),
    _s("aramo", 2),
    _s("arei", 2),
    _s("aremo", 2),
    _s("ariam", 2),
    _s("ariei", 2),
    _s("assei", 2),
    _s("assem", 2),
    _s("avamo", 2),
    _s("eramo", 3),
    _s("eremo", 3),
    _s("eriam", 3),
    _s("eriei", 3),
    _s("essei", 3),
    _s("essem", 3),
    _s("iramo", 3),
    _s("iremo", 3),
    _s("iriam", 3),
    _s("iriei", 3),
    _s("issei", 3),
    _s("issem", 3),
    _s("ando", 2),
    _s("endo", 3),
    _s("indo", 3),
    _s("ondo", 3),
    _s("aram", 2),
    _s("arao", 2),
    _s("arde", 2),
    _s("arem", 2),
    _s("aria", 2),
    _s("armo", 2),
    _s("asse", 2),
    _s("aste", 2),
    _s("avam", 2, "", "agravam"),
    _s("avei", 2),
    _s("eram", 3),
    _s("erao", 3),
    _s("erde", 3),
    _s("erei", 3),
    _s("erem", 3),
    _s("eria", 3),
    _s("ermo", 3),
    _s("esse", 3),
    _s("este", 3, "", "faroeste agreste celeste peste leste oeste"),
    _s("iamo", 3),
    _s("iram", 3),
    _s("irao", 2),
    _s("irde", 2),
    _s("irei", 3, "", "admirei"),
    _s("irem", 3, "", "adquirem"),
    _s("iria", 3),
    _s("irmo", 3),
    _s("isse", 3),
    _s("iste", 4),
    _s("amo", 2),
    _s("ara", 2, "", "arara prepara"),
    _s("are", 2, "", "prepare"),
    _s("ava", 2, "", "agrava"),
    _s("emo", 2),
    _s("era", 3, "", "acelera espera"),
    _s("ere", 3, "", "espere"),
    _s("iam", 3, "", "enfiam ampliam elogiam ensaiam"),
    _s("iei", 3),
    _s("imo", 3, "", "reprimo intimo nimo queimo ximo"),
    _s("ira", 3, "", "fronteira satira"),
    _s("ido", 3),
    _s("tizar", 4, "", "alfabetizar"),
    _s("izar", 5, "", "organizar"),
    _s("itar", 5, "", "acreditar explicitar estreitar"),
    _s("ire", 3, "", "adquire"),
    _s("omo", 3),
    _s("ai", 2),
    _s("am", 2),
    _s("ear", 4, "", "alardear nuclear"),
    _s("ar", 2, "", "azar bazar patamar altar"),
    _s("uei", 3),
    _s("uia", 5, "u"),
    _s("ei", 2),
    _s("guem", 3, "g"),
    _s("em", 2, "", "alem virgem"),
    _s("er", 2, "", "eter pier"),
    _s("eu", 3, "", "chapeu"),
    _s("ia", 3, "", "estoria fatima acacia praia elogia mania labia aprecia policia magia pratica maria"),
    # "ei" and "ou" take 2-letter stems here (3 in RSLP) so that amei/amou meet amar.
    _s("ir", 3, "", "freir"),
    _s("iu", 3),
    _s("eou", 5),
    _s("ou", 2),
    _s("i", 3, "", "davi levi"),
)

# Changed from RSLP: minimum stem 2 (not 3) so that "amo"/"ame" meet "amar"; final
# nasal diphthongs (mao, mae, poe) are not vowel endings. Exceptions keep words that
# would otherwise meet an unrelated verb: medo/medir, ira/ir.
VOWEL = tuple(_s(v, 2, "", "ira mae medo", protect="ao ae oe") for v in "aeo")


def _first(rules: tuple[Suffix, ...], word: str) -> str | None:
    for rule in rules:
        result = rule.apply(word)
        if result is not None:
            return result
    return None


class RSLPStemmer(Stemmer):
    """Staged suffix stripping after Orengo & Huyck's RSLP, on folded words."""

    name = "rslp"
    min_length = 3  # shorter words (fe, ja, mar is 3) are not stemmed at all

    def stem(self, word: str) -> str:
        word = word if word.isascii() else fold(word)
        if len(word) < self.min_length:
            return word
        if word.endswith("s"):
            word = _first(PLURAL, word) or word
        if word.endswith("a"):
            word = _first(FEMININE, word) or word
        word = _first(AUGMENTATIVE, word) or word
        word = _first(ADVERB, word) or word
        stripped = _first(NOUN, word) or _first(VERB, word)
        if stripped is not None:
            return stripped
        return _first(VOWEL, word) or word


_STEMMERS = {"rslp": RSLPStemmer, "snowball": SnowballStemmer, "none": NoStemmer}


@cache
def get_stemmer(name: str) -> Stemmer:
    """The shared stemmer called `name` ("rslp", "snowball" or "none")."""
    try:
        return _STEMMERS[name]()
    except KeyError:
        raise ValueError(f"stemmer desconhecido: {name!r} (use rslp, snowball ou none)") from None

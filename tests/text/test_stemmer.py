"""Portuguese stemmers: which word forms meet, which must not, and the guards."""

from __future__ import annotations

import pytest

from pastor.text.normalize import normalize
from pastor.text.stemmer import NoStemmer, RSLPStemmer, SnowballStemmer, Stemmer, get_stemmer


@pytest.fixture(scope="module")
def rslp() -> RSLPStemmer:
    return RSLPStemmer()


def stems(stemmer: Stemmer, words: str) -> set[str]:
    return {stemmer.stem(w) for w in words.split()}


class TestRSLPFamiliesMeet:
    @pytest.mark.parametrize(
        "words",
        [
            "amar amai amaras amarás amou amei amo ame amamos amareis amais amava amado amada amados",
            "amor amores",
            "temer temas temais temo teme temeu temia temeis temerao",
            "medo medos",
            "perdoar perdoou perdoa perdoai",
            "esperanca esperar espera",
            "salvacao salvar",
            "oracao oracoes orar",
            "coracao coracoes",
            "senhor senhores senhora",
            "deus deuses",
            "pecado pecados pecador pecadores pecar pecou",
            "alegria alegrar",
            "gloria glorioso",
            "misericordia misericordioso",
            "animal animais",
            "tristeza triste",
            "homem homens",
            "irmao irmaos irma irmas",
            "fiel fieis",
            "mar mares",
            "filho filhos filha filhas",
            "ansiedade ansioso ansiosos",
        ],
    )
    def test_family(self, rslp, words):
        assert len(stems(rslp, words)) == 1, {w: rslp.stem(w) for w in words.split()}


class TestRSLPKeepsApart:
    @pytest.mark.parametrize(
        "a, b",
        [
            ("deus", "deu"),  # God / gave
            ("perdao", "perder"),  # forgiveness / to lose
            ("perdao", "perda"),
            ("medo", "medir"),  # fear / to measure
            ("medo", "mediu"),
            ("mae", "mao"),  # mother / hand
            ("mar", "maria"),
            ("ira", "ir"),  # wrath / to go
            ("coracao", "cor"),  # heart / colour
            ("davi", "dava"),  # David / gave
            ("farao", "farei"),  # Pharaoh / will do
            ("sabado", "saber"),
            ("altar", "alto"),
            ("tres", "trarei"),
            ("terrivel", "terra"),
            ("espada", "esperar"),
        ],
    )
    def test_different_stems(self, rslp, a, b):
        assert rslp.stem(a) != rslp.stem(b)


class TestRSLPDocumentedLimits:
    """Known behaviour, pinned so that a change is noticed and weighed."""

    def test_luto_meets_lutar(self, rslp):
        # mourning (luto) and fighting (lutavam) share "lut": a known RSLP collision
        assert rslp.stem("luto") == rslp.stem("lutavam") == "lut"

    def test_amor_does_not_meet_amar(self, rslp):
        # RSLP has no "-or" noun rule (it would merge terra/terror); the embedder links them
        assert rslp.stem("amor") == "amor" != rslp.stem("amar") == "am"

    def test_perdao_does_not_meet_perdoar(self, rslp):
        # kept whole so it never meets perder/perda; perdoar keeps its own stem
        assert rslp.stem("perdao") == "perdao" != rslp.stem("perdoar") == "perdo"

    def test_temor_does_not_meet_temer(self, rslp):
        assert rslp.stem("temor") != rslp.stem("temer")

    def test_ce_cedilla_is_folded(self, rslp):
        # search text is folded, so peço (I ask) meets pecado: ç is c by then
        assert rslp.stem("peco") == rslp.stem("pecado")


class TestRSLPGuards:
    @pytest.mark.parametrize(
        "word, stem",
        [
            ("deus", "deus"),
            ("mar", "mar"),
            ("fe", "fe"),
            ("paz", "paz"),
            ("luz", "luz"),
            ("jesus", "jesus"),
            ("mae", "mae"),
            ("mao", "mao"),
            ("ira", "ira"),
        ],
    )
    def test_short_words_not_cut(self, rslp, word, stem):
        assert rslp.stem(word) == stem

    def test_accented_input_is_folded(self, rslp):
        assert rslp.stem("amarás") == rslp.stem("amaras") == rslp.stem("amar")
        assert rslp.stem("oração") == rslp.stem("oracao")

    def test_corpus_stems_never_shorter_than_two(self, rslp, almeida):
        words = {w for v in almeida.verses for w in normalize(v.text).split() if len(w) >= 3}
        short = {w: rslp.stem(w) for w in words if len(rslp.stem(w)) < 2}
        assert not short


class TestSnowball:
    def test_stems_with_pystemmer(self):
        snowball = SnowballStemmer()
        assert snowball.stem("amores") == "amor"
        assert snowball.stem("temais") == snowball.stem("temas") == snowball.stem("temer")

    def test_name(self):
        assert SnowballStemmer().name == "snowball"


class TestNoStemmer:
    def test_identity(self):
        assert NoStemmer().stem_many(["amores", "temais"]) == ["amores", "temais"]


class TestStemMany:
    @pytest.mark.parametrize("name", ["rslp", "snowball", "none"])
    def test_same_as_stem(self, name):
        stemmer = get_stemmer(name)
        words = ["amores", "temais", "amores", "oracoes", "deus"]
        assert stemmer.stem_many(words) == [stemmer.stem(w) for w in words]

    def test_empty(self):
        assert RSLPStemmer().stem_many([]) == []


class TestFactory:
    @pytest.mark.parametrize("name, cls", [("rslp", RSLPStemmer), ("snowball", SnowballStemmer), ("none", NoStemmer)])
    def test_by_name(self, name, cls):
        stemmer = get_stemmer(name)
        assert isinstance(stemmer, cls) and stemmer.name == name

    def test_shared_instance(self):
        assert get_stemmer("rslp") is get_stemmer("rslp")

    def test_unknown_name(self):
        with pytest.raises(ValueError, match="use rslp, snowball ou none"):
            get_stemmer("porter")

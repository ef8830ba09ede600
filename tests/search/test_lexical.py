"""BM25 over normalised tokens: ranking, query tokens, spelling variants and edge cases."""

from __future__ import annotations

import pytest

from pastor.search.bm25 import LexicalIndex

# Verse texts in the 1911 spelling, as the index sees them.
DOCS = {
    "JHN 3:16": "Porque Deus amou o mundo de tal maneira, que deu o seu Filho unigenito, para que "
    "todo aquelle que n'elle crê não pereça, mas tenha a vida eterna.",
    "PSA 23:1": "O Senhor é o meu pastor, nada me faltará.",
    "ISA 41:10": "Não temas, porque eu estou comtigo; não te assombres, porque eu sou teu Deus",
    "ROM 6:23": "Porque o salario do peccado é a morte, mas o dom gratuito de Deus é a vida eterna, "
    "por Christo Jesus nosso Senhor.",
    "1JN 1:9": "Se confessarmos os nossos peccados, elle é fiel e justo, para nos perdoar os peccados",
    "GEN 1:1": "No principio creou Deus os céus e a terra.",
    "EMPTY": "e o que é isso",
}


@pytest.fixture(scope="module")
def index() -> LexicalIndex:
    return LexicalIndex(list(DOCS), list(DOCS.values()))


class TestSearch:
    def test_best_first_with_positive_scores(self, index):
        hits = index.search("pecados e morte", 10)
        assert [doc for doc, _ in hits][:2] == ["ROM 6:23", "1JN 1:9"]
        scores = [score for _, score in hits]
        assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)

    def test_only_matching_documents(self, index):
        assert {doc for doc, _ in index.search("pastor", 10)} == {"PSA 23:1"}

    def test_n_limits_results(self, index):
        assert len(index.search("Deus", 2)) == 2
        assert len(index.search("Deus", 100)) == 4

    def test_modern_query_finds_1911_spelling(self, index):
        assert index.search("Cristo", 3)[0][0] == "ROM 6:23"
        assert index.search("criou", 3)[0][0] == "GEN 1:1"
        assert index.search("aquele que nele crê", 3)[0][0] == "JHN 3:16"

    def test_inflections_meet(self, index):
        assert index.search("perdão, perdoou", 3)[0][0] == "1JN 1:9"
        assert index.search("não tenha medo, não tema", 3)[0][0] == "ISA 41:10"

    def test_accents_do_not_matter(self, index):
        assert index.search("ceus", 3) == index.search("céus", 3)

    @pytest.mark.parametrize("query", ["", "   ", "?!", "e o que é isso, não é?"])
    def test_empty_or_stopword_query(self, index, query):
        assert index.search(query, 10) == []

    def test_zero_n(self, index):
        assert index.search("Deus", 0) == []

    def test_unknown_word(self, index):
        assert index.search("computador", 10) == []


class TestTokens:
    def test_query_tokens(self, index):
        assert index.tokens("Não temas, porque eu sou contigo") == ["tem"]
        assert index.tokens("Os pecados de Cristo") == ["pec", "crist"]

    def test_document_tokens(self, index):
        assert index.has("GEN 1:1") and not index.has("GEN 1:2")
        assert index.doc_tokens("GEN 1:1") == ["principi", "cri", "deus", "ceu", "terr"]
        assert index.doc_tokens("EMPTY") == []


class TestOptions:
    def test_stemmer_none_needs_exact_forms(self):
        exact = LexicalIndex(list(DOCS), list(DOCS.values()), stemmer="none")
        assert [doc for doc, _ in exact.search("pecado", 5)] == ["ROM 6:23"]
        assert [doc for doc, _ in exact.search("pecados", 5)] == ["1JN 1:9"]

    def test_rslp_joins_singular_and_plural(self, index):
        assert {doc for doc, _ in index.search("pecado", 5)} == {"ROM 6:23", "1JN 1:9"}

    def test_snowball(self):
        snowball = LexicalIndex(list(DOCS), list(DOCS.values()), stemmer="snowball")
        assert snowball.search("pecados", 5)[0][0] in {"1JN 1:9", "ROM 6:23"}

    def test_k1_and_b_change_scores(self, index):
        other = LexicalIndex(list(DOCS), list(DOCS.values()), k1=0.5, b=0.0)
        assert other.search("pecados", 1)[0][1] != index.search("pecados", 1)[0][1]

    def test_stopwords_off(self):
        raw = LexicalIndex(list(DOCS), list(DOCS.values()), stopwords=False)
        assert "nao" in raw.tokens("não temas")


class TestEdgeCases:
    def test_length_mismatch(self):
        with pytest.raises(ValueError):
            LexicalIndex(["A"], ["um", "dois"])

    def test_empty_corpus(self):
        empty = LexicalIndex([], [])
        assert len(empty) == 0 and empty.search("Deus", 5) == []

    def test_corpus_of_stopwords_only(self):
        assert LexicalIndex(["A"], ["e o que"]).search("Deus", 5) == []


class TestRealCorpus:
    @pytest.fixture(scope="class")
    def almeida_index(self, almeida) -> LexicalIndex:
        return LexicalIndex([v.id for v in almeida.verses], [v.text for v in almeida.verses])

    @pytest.mark.parametrize(
        "query, verse",
        [
            ("Deus amou o mundo de tal maneira que deu o seu Filho unigênito", "JHN 3:16"),
            ("O Senhor é o meu pastor, nada me faltará", "PSA 23:1"),
            ("Eu sou a ressurreição e a vida", "JHN 11:25"),
            ("Tudo posso naquele que me fortalece", "PHP 4:13"),
            ("o salário do pecado é a morte", "ROM 6:23"),
        ],
    )
    def test_known_verse_in_top_three(self, almeida_index, query, verse):
        assert verse in [doc for doc, _ in almeida_index.search(query, 3)]


class TestPostingsScoring:
    """The postings-based scorer must give exactly rank-bm25's `get_scores` numbers."""

    def test_same_scores_as_rank_bm25(self):
        import numpy as np

        texts = [
            "Não temas, porque eu sou contigo",
            "O amor é paciente, o amor é bondoso",
            "Amai os vossos inimigos",
            "temor do Senhor é o princípio da sabedoria",
            "Deus é amor",
            "não andeis ansiosos pelo dia de amanhã",
        ]
        index = LexicalIndex([f"D{i}" for i in range(len(texts))], texts)
        for query in ["amor amor inimigos", "temor temas amanhã", "sabedoria", "xyzzy"]:
            terms = index.tokens(query)
            expected = index._bm25.get_scores(terms) if terms else np.zeros(len(texts))
            assert np.allclose(index._scores(terms), expected)

"""Tests for pastor.search.retrieval: every mode with its reason, explicit references, signals, gates, sources."""

from __future__ import annotations

import re

import pytest

from pastor.index.verse_index import VerseIndex
from pastor.search import retrieval
from pastor.search.bm25 import LexicalIndex
from pastor.search.gates import Gate
from pastor.search.modes import SearchMode as Mode
from pastor.search.results import NotFound
from pastor.search.retrieval import Retriever
from pastor.web.schemas import search_json
from tests.support.core_fixtures import MINI_VERSES, HashEmbedder, copy_docs, settings_for
from tests.support.helpers import retriever_over

FORGIVE = "Pedro perguntou quantas vezes devo perdoar meu irmão"  # MAT 18:21 almost word for word
OFF_TOPIC = "Qual a receita de bolo de cenoura?"
CHURCH = "Onde fica a sede da igreja em Vale Sereno?"
# Explicit thresholds: these tests check the retriever's logic, not the tuning of Gate's defaults.
GATE = Gate(best_z=3.5, hit_z=2.0, lexical_coverage=0.67, lexical_min_terms=1, pastoral_z=1.0)
DOC_REF = re.compile(r"^[\w./-]+\.(md|txt|csv|json)#p\d+-c\d+$")


def make_retriever(bible, embedder, data_dir, *, build=True, **options) -> Retriever:
    index = VerseIndex(data_dir, embedder, batch_size=16)
    if build:
        index.build(bible)
    lexical = LexicalIndex([v.id for v in bible.verses], [v.text for v in bible.verses])
    options.setdefault("gate", GATE)
    return retriever_over(bible, embedder=embedder, index=index, lexical=lexical, **options)


@pytest.fixture(scope="module")
def shared(tmp_path_factory, mini_bible):
    """One built retriever for the read-only tests of this module."""
    return make_retriever(mini_bible, HashEmbedder(), tmp_path_factory.mktemp("retrieval"))


def kept_by_gate(retriever: Retriever, hit) -> bool:
    return hit.rank_in("lexical") is not None or retriever.config.gate.keep_vector_hit(
        hit.score_in("vector"), retriever.calibration
    )


# -- explicit references ---------------------------------------------------------------------------
class TestReferenceMode:
    def test_question_with_a_reference_answers_that_verse(self, shared):
        result = shared.search("o que diz João 3:16?")
        assert result.mode == Mode.REFERENCE
        assert result.reason == "referência explícita: João 3:16"
        assert result.references == ("João 3:16",)
        [hit] = result.results
        assert (hit.id, hit.reference, hit.kind, hit.score) == ("JHN 3:16", "João 3:16", "verse", 1.0)
        assert hit.text.startswith("Porque Deus amou o mundo")

    def test_several_references_in_the_order_written(self, shared):
        result = shared.search("Compare Mateus 18:21-22 com Jo 3.16, por favor")
        assert result.mode == Mode.REFERENCE
        assert [h.id for h in result.results] == ["MAT 18:21", "MAT 18:22", "JHN 3:16"]
        assert result.references == ("Mateus 18:21-22", "João 3:16")

    def test_reference_beats_smalltalk_and_topic(self, shared):
        result = shared.search("Bom dia! Estou com medo; o que diz Isaías 41:10?")
        assert result.mode == Mode.REFERENCE
        assert result.results[0].id == "ISA 41:10"

    def test_found_and_missing_references_together(self, shared):
        result = shared.search("João 3:16 e João 3:17")
        assert result.mode == Mode.REFERENCE
        assert [h.id for h in result.results] == ["JHN 3:16"]
        assert [n.text for n in result.not_found] == ["João 3:17"]

    def test_only_missing_references_is_no_evidence_with_the_reason(self, shared):
        result = shared.search("o que diz João 3:17?")
        assert result.mode == Mode.NO_EVIDENCE
        assert result.results == ()
        assert "versículo 17 não existe" in result.reason
        assert result.not_found == (NotFound("João 3:17", result.reason),)

    def test_long_passages_are_capped(self, shared, monkeypatch):
        monkeypatch.setattr(retrieval, "MAX_REFERENCE_VERSES", 1)
        result = shared.search("Mateus 18:21-22")
        assert [h.id for h in result.results] == ["MAT 18:21"]


# -- small talk ------------------------------------------------------------------------------------
class TestConversationalMode:
    def test_small_talk_is_the_routers_to_decide_not_the_retrievers(self, shared):
        """Issue 30: one decision. The care router sends "Bom dia, pastor!" to conversation before any search
        (tests/care); the retriever searches whatever it is given."""
        modes = {m: shared.search(m).mode for m in ("Bom dia, pastor!", "muito obrigada", "quem é você?")}
        assert Mode.CONVERSATIONAL not in modes.values(), modes

    @pytest.mark.parametrize("message", ["Salmos 23; 2024", "Sl 23 e 1000", "Leio o Salmo 23 e 1000 vezes me consolo"])
    def test_numbers_after_a_reference_never_break_the_search(self, shared, message):
        result = shared.search(message)  # the year or count is not a chapter: only Psalm 23 is read
        assert (result.mode, result.references) == (Mode.REFERENCE, ("Salmos 23",))


# -- hybrid search and gates -----------------------------------------------------------------------
class TestHybridModes:
    def test_rag_when_a_verse_matches_closely(self, shared):
        result = shared.search(FORGIVE)
        assert result.mode == Mode.RAG
        assert result.reason.startswith("melhor similaridade")
        top = result.results[0]
        assert top.id == "MAT 18:21"
        assert (top.rank_in("vector"), top.rank_in("lexical")) == (1, 1)
        assert all(h.kind == "verse" for h in result.results)

    def test_every_rag_hit_passes_the_per_hit_gate(self, shared):
        gated = shared.search(FORGIVE, k=25)
        ungated = shared.search(FORGIVE, k=25, gated=False)
        assert all(kept_by_gate(shared, h) for h in gated.results)
        dropped = [h for h in ungated.results if not kept_by_gate(shared, h)]
        assert dropped, "the query should have weak vector-only candidates"
        assert not {h.id for h in dropped} & {h.id for h in gated.results}

    def test_pastoral_rag_on_the_lower_bar(self, shared):
        result = shared.search("estou com medo do futuro")
        assert result.mode == Mode.RAG
        assert result.reason.startswith("tema pastoral")
        assert result.results[0].id == "MAT 6:34"

    def test_lexical_fallback_keeps_only_lexical_hits(self, tmp_path, mini_bible):
        strict = Gate(best_z=99, pastoral_z=99)  # vectors never decide
        retriever = make_retriever(mini_bible, HashEmbedder(), tmp_path, gate=strict)
        result = retriever.search(FORGIVE)
        assert result.mode == Mode.LEXICAL_FALLBACK
        assert "das palavras aparecem no texto" in result.reason
        assert result.results and all(h.rank_in("lexical") is not None for h in result.results)

    def test_no_evidence_for_an_off_topic_question(self, shared):
        result = shared.search(OFF_TOPIC)
        assert result.mode == Mode.NO_EVIDENCE
        assert result.results == ()
        assert "similaridade vetorial fraca" in result.reason

    def test_k_limits_the_results(self, shared):
        assert len(shared.search(FORGIVE, k=2).results) == 2


class TestVectorsNotReady:
    def test_lexical_fallback_while_the_index_is_missing(self, tmp_path, mini_bible):
        embedder = HashEmbedder()
        retriever = make_retriever(mini_bible, embedder, tmp_path, build=False)
        assert not retriever.vectors_ready
        result = retriever.search(FORGIVE)
        assert result.mode == Mode.LEXICAL_FALLBACK
        assert result.reason.startswith("índice vetorial indisponível")
        assert result.results[0].id == "MAT 18:21"
        assert all(h.rank_in("vector") is None for h in result.results)
        assert embedder.calls == 0  # no query vector when there is nothing to compare it with

    def test_the_query_vector_embeds_the_expanded_question(self, tmp_path, mini_bible):
        embedder = HashEmbedder()
        retriever = make_retriever(mini_bible, embedder, tmp_path, build=False)
        retriever.encoder.vector("tenho medo")
        assert embedder.texts[-1].startswith("tenho medo ") and "temor" in embedder.texts[-1]
        from pastor.search.signals import QueryEncoder

        QueryEncoder(embedder, expand_queries=False).vector("tenho medo")
        assert embedder.texts[-1] == "tenho medo"

    def test_no_index_at_all(self, mini_bible):
        lexical = LexicalIndex([v.id for v in mini_bible.verses], [v.text for v in mini_bible.verses])
        retriever = retriever_over(mini_bible, embedder=None, index=None, lexical=lexical)
        assert retriever.calibration is None
        assert retriever.search(FORGIVE).mode == Mode.LEXICAL_FALLBACK
        assert retriever.search(OFF_TOPIC).mode == Mode.NO_EVIDENCE
        assert retriever.search("João 3:16").mode == Mode.REFERENCE


# -- evaluation switches ---------------------------------------------------------------------------
class TestSignals:
    def test_ungated_search_ranks_even_off_topic_questions(self, shared):
        result = shared.search(OFF_TOPIC, k=6, gated=False)
        assert (result.mode, result.reason) == (Mode.RAG, "sem portões (avaliação)")
        assert len(result.results) == 6

    def test_vectors_only(self, shared):
        result = shared.search(FORGIVE, k=10, gated=False, off={"lexical"})
        assert len(result.results) == 10
        assert all(h.rank_in("lexical") is None and h.rank_in("vector") is not None for h in result.results)
        assert [h.rank_in("vector") for h in result.results] == list(range(1, 11))

    def test_lexical_only(self, shared):
        result = shared.search(FORGIVE, k=10, gated=False, off={"vector"})
        assert result.results
        assert all(h.rank_in("vector") is None and h.rank_in("lexical") is not None for h in result.results)

    def test_both_signals_share_candidates(self, shared):
        hybrid = shared.search(FORGIVE, k=MINI_VERSES, gated=False).results
        assert any(h.rank_in("vector") and h.rank_in("lexical") for h in hybrid)
        assert len({h.id for h in hybrid}) == len(hybrid)

    def test_prominence_prior_lifts_a_verse(self, tmp_path, mini_bible):
        class Prior:
            def prior(self, verse_id, weight):
                return weight if verse_id == "GEN 1:1" else 0.0

        plain = make_retriever(mini_bible, HashEmbedder(), tmp_path / "a")
        boosted = make_retriever(mini_bible, HashEmbedder(), tmp_path / "b", prominence=Prior(), prominence_weight=1.0)
        assert plain.search(FORGIVE, gated=False).results[0].id == "MAT 18:21"
        assert boosted.search(FORGIVE, gated=False).results[0].id == "GEN 1:1"
        switched_off = make_retriever(
            mini_bible, HashEmbedder(), tmp_path / "c", prominence=Prior(), prominence_weight=0.0
        )
        assert switched_off.search(FORGIVE, gated=False).results[0].id == "MAT 18:21"

    def test_result_dicts(self, shared):
        data = search_json(shared.search(FORGIVE))
        assert set(data) == {"mode", "reason", "results", "references", "not_found", "note"}
        hit = data["results"][0]
        assert set(hit) == {
            "id",
            "reference",
            "text",
            "score",
            "vector_rank",
            "vector_score",
            "lexical_rank",
            "lexical_score",
            "topic_rank",
            "topic_score",
            "pastors_rank",
            "pastors_score",
            "kind",
        }
        assert hit["score"] == round(hit["score"], 6)


# -- church documents as a second source -----------------------------------------------------------
class TestDocumentSources:
    @pytest.fixture(scope="class")
    def with_docs(self, tmp_path_factory, mini_bible):
        from pastor.index.doc_index import DocumentSource

        root = tmp_path_factory.mktemp("docs-retrieval")
        settings = settings_for(root / "data", PASTOR_DOCS_DIR=str(copy_docs(root / "docs")))
        embedder = HashEmbedder()
        docs = DocumentSource(settings, embedder)
        docs.refresh()
        return make_retriever(mini_bible, embedder, root / "data", extra_sources=[docs])

    def test_docs_only(self, with_docs):
        result = with_docs.search(CHURCH, source="docs")
        assert result.mode in (Mode.RAG, Mode.LEXICAL_FALLBACK)
        assert result.results
        assert all(h.kind == "doc" and DOC_REF.match(h.id) and h.reference == h.id for h in result.results)
        assert result.results[0].id.startswith("estatuto.md#p0-c")
        assert "Vale Sereno" in result.results[0].text

    def test_bible_only_has_no_documents(self, with_docs):
        result = with_docs.search(CHURCH, source="bible", gated=False)
        assert result.results and all(h.kind == "verse" for h in result.results)

    def test_all_mixes_both(self, with_docs):
        kinds = {h.kind for h in with_docs.search(CHURCH, k=25, source="all", gated=False).results}
        assert kinds == {"doc", "verse"}

    def test_all_keeps_k_verses_and_a_few_document_slots(self, with_docs):
        hits = with_docs.search(CHURCH, k=3, source="all", gated=False).results
        verses = [h for h in hits if h.kind == "verse"]
        docs = [h for h in hits if h.kind == "doc"]
        assert len(verses) == 3 and 0 < len(docs) <= retrieval.DOC_SLOTS
        assert list(hits) == verses + docs  # Scripture first, then the documents

    def test_reference_mode_ignores_the_source(self, with_docs):
        assert with_docs.search("João 3:16", source="docs").results[0].id == "JHN 3:16"


# -- the real model --------------------------------------------------------------------------------
class TestRealEmbedder:
    @pytest.fixture(scope="class")
    def real(self, tmp_path_factory, mini_bible, real_embedder):
        return make_retriever(mini_bible, real_embedder, tmp_path_factory.mktemp("real"))

    def test_meaning_without_shared_words(self, real):
        result = real.search("quem é o meu pastor?")
        assert result.mode == Mode.RAG
        assert result.results[0].id == "PSA 23:1"

    def test_pastoral_message(self, real):
        result = real.search("Estou muito ansioso com tudo")
        assert result.mode == Mode.RAG
        assert {"PHP 4:6", "1PE 5:7"} <= {h.id for h in result.results}

    @pytest.mark.parametrize("question", [OFF_TOPIC, "Como trocar o pneu do carro?"])
    def test_off_topic_is_no_evidence(self, real, question):
        assert real.search(question).mode == Mode.NO_EVIDENCE

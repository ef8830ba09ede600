"""Loading the Bible and the search resources: BM25, prominence prior, embedder, vectors, topics, documents."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from pastor.bible.usfx import Bible
from pastor.classify.cache import CLASSIFIERS_DIR
from pastor.config import Settings
from pastor.health import HealthBoard, State
from pastor.index.doc_index import DocumentSource
from pastor.index.lexcache import TokenCache, cache_key
from pastor.index.textcache import load_bible_cached
from pastor.index.verse_index import VerseIndex
from pastor.search import embedders
from pastor.search.bm25 import LexicalIndex
from pastor.search.embedders.embedder import Embedder
from pastor.search.pastor_choices import PastorChoices, training_choices
from pastor.search.prominence import Prominence, load_prominence
from pastor.search.retrieval import RetrievalConfig
from pastor.search.signals.query import QueryEncoder
from pastor.search.signals.signal import SignalInputs
from pastor.search.storage import describe
from pastor.search.topic_index import NAMES_PT, TopicIndex

# The components whose health the search side records, and their names on the status page.
LABELS = {
    "bm25_cache": "cache do BM25",
    "prominence": "prominência",
    "embedder": "modelo de embeddings",
    "topics": "temas",
    "adapter": "adaptador de consulta",
    "indexing": "indexação",
}


@dataclass
class SearchResources:
    """What a search reads, loaded once; the index pipeline fills the vectors, topics and documents in."""

    bible: Bible
    extras: list[Bible] = field(default_factory=list)
    lexical: LexicalIndex | None = None
    prominence: Prominence | None = None
    embedder: Embedder | None = None
    index: VerseIndex | None = None
    topics: TopicIndex | None = None
    docs: DocumentSource | None = None
    pastors: PastorChoices | None = None

    def signal_inputs(self, adapter=None) -> SignalInputs:
        """What the retriever's signals are built from: these resources and the query `adapter`."""
        return SignalInputs(
            self.bible,
            embedder=self.embedder,
            index=self.index,
            lexical=self.lexical,
            topics=self.topics,
            prominence=self.prominence,
            documents=[self.docs] if self.docs is not None else [],
            adapter=adapter,
            pastors=self.pastors,
        )


def fail(health: HealthBoard, component: str, reason: str) -> None:
    health.fail(component, LABELS[component], reason)


def load_resources(settings: Settings, health: HealthBoard, embedder=None, *, vectors: bool = True) -> SearchResources:
    """Corpus, extra translations, BM25, prior and, with `vectors`, what `add_vectors` adds; raises CorpusError if
    there is no corpus. Other failures turn a part off and are recorded in `health`. `embedder`, when given, is
    used instead of loading the model."""
    bible = load_bible_cached(settings.corpus, settings.data_dir)
    # The default extra is Bíblia Livre; when it is also the main text it adds nothing.
    extras = [load_bible_cached(path, settings.data_dir) for path in settings.extra_corpora]
    extras = [b for b in extras if b.sha256 != bible.sha256]
    res = SearchResources(bible, extras)
    res.lexical = load_lexical(settings, res, health)
    res.prominence = load_prior(settings, health)
    if not vectors:
        health.set("embedder", LABELS["embedder"], State.STARTING)  # loaded next, by `add_vectors`
        return res
    return add_vectors(settings, res, health, embedder)


def add_vectors(settings: Settings, res: SearchResources, health: HealthBoard, embedder=None) -> SearchResources:
    """A copy of `res` with the embedder and what needs it: the vectors on disk (nothing built yet), topics,
    documents and the pastors' choices."""
    res = replace(res)
    res.embedder, res.index = load_vectors(settings, res, health, embedder)
    if res.embedder is not None and (record := health.get("embedder")) and record.state is State.STARTING:
        health.ok("embedder", LABELS["embedder"])  # the deferred load said "starting" until now
    res.topics = load_topics(settings, res, health)
    res.docs = load_documents(settings, res.embedder)
    res.pastors = load_pastor_choices(settings, res.embedder)
    return res


def load_pastor_choices(settings: Settings, embedder) -> PastorChoices | None:
    """The blind authors' choices, embedded as a question is (their vectors are computed when first needed,
    in the background at the app's start); None without an embedder or with the signal's weight at 0."""
    if embedder is None or settings.pastors_weight <= 0:
        return None
    config = RetrievalConfig.from_settings(settings)  # the questions' own encoding, so neighbours compare alike
    encoder = QueryEncoder(embedder, config.expand_queries, config.modernize)
    name = getattr(embedder, "name", type(embedder).__name__)
    return PastorChoices(training_choices(), encoder.vector, name, settings.data_dir / CLASSIFIERS_DIR)


def load_lexical(settings: Settings, res: SearchResources, health: HealthBoard) -> LexicalIndex:
    """BM25 from cached tokens when the texts and tokenizer are unchanged, else tokenize once."""
    cache, key = TokenCache(settings.data_dir), cache_key([res.bible, *res.extras], settings.stemmer)
    cached = cache.load(key) or TokenCache.shipped().load(key)  # the default texts' tokens ship with the app
    if cached is not None:
        return LexicalIndex.from_tokens(*cached, stemmer=settings.stemmer)
    lexical = LexicalIndex(*lexical_corpus(res.bible, res.extras), stemmer=settings.stemmer)
    try:
        cache.save(key, lexical.ids, lexical.docs)
    except OSError as exc:  # a read-only data dir only costs start-up time
        fail(health, "bm25_cache", describe(exc))
    return lexical


def lexical_corpus(bible: Bible, extras: list[Bible]) -> tuple[list[str], list[str]]:
    """BM25 sees each verse alone (windows add noise), with the extra translations' wording."""
    ids = [v.id for v in bible.verses]
    texts = []
    for v in bible.verses:
        parts = [v.text] + [b.by_id[v.id].text for b in extras if v.id in b.by_id]
        texts.append(" ".join(parts))
    return ids, texts


def load_prior(settings: Settings, health: HealthBoard):
    """The prominence prior, or None: it is optional, and the status says it is off and why."""
    path = settings.prominence
    if path is None or not Path(path).exists():
        return None
    try:
        return load_prominence(path)
    except Exception as exc:  # a bad prior must not stop the app; status shows why
        fail(health, "prominence", describe(exc))
        return None


def load_vectors(settings: Settings, res: SearchResources, health: HealthBoard, embedder=None):
    """The embedder and the verse table as it is on disk: (None, None) when the model cannot load."""
    try:
        embedder = embedder or embedders.load_embedder(settings.embedding_model)
    except Exception as exc:  # never a silent switch to another model: vectors stay off
        fail(health, "embedder", describe(exc))
        return None, None
    index = VerseIndex(
        settings.data_dir,
        embedder,
        window=settings.embed_window,
        batch_size=settings.embed_batch,
        modernize=settings.modernize,
    )
    index.open(res.bible, res.extras)
    return embedder, index


def load_topics(settings: Settings, res: SearchResources, health: HealthBoard) -> TopicIndex | None:
    """The topical index from its cache in the data dir; built by the index pipeline when missing."""
    files = [p for p in settings.topics if Path(p).exists()]
    if res.embedder is None or not files:
        return None
    nave = next((p for p in files if ".csv" in Path(p).name), None)
    torrey = next((p for p in files if ".json" in Path(p).name), None)
    topics = TopicIndex(
        settings.data_dir, res.embedder, nave=nave, torrey=torrey, names=NAMES_PT, prominence=res.prominence
    )
    try:
        topics.open(res.bible)
    except Exception as exc:  # a bad cache only costs a rebuild; status shows why
        fail(health, "topics", str(exc))
    return topics


def load_documents(settings: Settings, embedder) -> DocumentSource | None:
    """The church's documents; their embedding waits for the index pipeline."""
    if settings.docs_dir is None:
        return None
    docs = DocumentSource(settings, embedder)
    docs.open()
    return docs

"""The search engine: the loaded resources, the retriever over them, and their background index build."""

from __future__ import annotations

from pastor.bible.translations import Translations
from pastor.bible.usfx import CorpusError
from pastor.config import Settings
from pastor.health import HealthBoard
from pastor.index.adapter_setup import load_adapter
from pastor.index.background import BackgroundIndexer
from pastor.index.engine_status import SearchStatus, credits, search_status
from pastor.index.pipeline import IndexPipeline
from pastor.index.resources import SearchResources, add_vectors, load_resources
from pastor.search.assembly import retriever_from_settings
from pastor.search.retrieval import Retriever


class Engine:
    """Loads what is fast at once (corpus, BM25) and builds the vector index in the background,
    so the app answers in `reference` and `lexical_fallback` modes while vectors are not ready.
    It only puts the parts together: loading (`resources`), the index pipeline (`pipeline`), the
    background build (`indexer`), the status (`status`), each part's health (`health`)."""

    def __init__(self, settings: Settings, health: HealthBoard | None = None, embedder=None):
        self.settings = settings
        self.health = health or HealthBoard()
        self._given_embedder = embedder  # already loaded: a replica's next release reuses its model
        self.resources: SearchResources | None = None
        self.retriever: Retriever | None = None
        self.pipeline: IndexPipeline | None = None
        self.indexer: BackgroundIndexer | None = None
        self.translations: Translations | None = None  # the texts a reader can choose

    def load(self, *, vectors: bool = True) -> Engine:
        """Corpus, extra translations, BM25, prominence and, with `vectors`, the embedder and what needs it (the
        app defers them: `with_vectors`); raises CorpusError if no corpus."""
        return self._assemble(load_resources(self.settings, self.health, self._given_embedder, vectors=vectors))

    def with_vectors(self) -> Engine:
        """A new engine over this one's texts, BM25 and prior with the embedder, the vectors on disk, topics,
        documents and the pastors' choices loaded: the app serves this one from when it is ready."""
        assert self.resources is not None, "the engine is loaded (`load`) before its vectors"
        resources = add_vectors(self.settings, self.resources, self.health, self._given_embedder)
        return Engine(self.settings, self.health, self._given_embedder)._assemble(resources)

    def _assemble(self, res: SearchResources) -> Engine:
        self.resources = res
        self.translations = Translations(res.bible, res.extras, self.settings.translation)
        # The adapter cached for the vectors on disk is part of the vector signal from its construction;
        # the index pipeline gives the signal a new one after a build.
        self.retriever = retriever_from_settings(
            self.settings, res.signal_inputs(load_adapter(self.settings, res, self.health))
        )
        self.pipeline = IndexPipeline(self.settings, self.resources, self.retriever, self.health)
        self.indexer = BackgroundIndexer(self.pipeline, self.health)
        return self

    # -- the background build ----------------------------------------------------------------------
    @property
    def indexing(self) -> bool:
        return self.indexer is not None and self.indexer.running

    def start_indexing(self, *, rebuild: bool = False, background: bool = True) -> bool:
        """Start (or resume) the index pipeline; False when one runs or there is nothing to build."""
        res = self.resources
        if self.indexer is None or res is None or (res.index is None and res.docs is None and res.topics is None):
            return False
        return self.indexer.start(rebuild=rebuild, background=background)

    def stop_indexing(self, timeout: float = 30.0) -> None:
        if self.indexer is not None:
            self.indexer.stop(timeout)

    # -- status ------------------------------------------------------------------------------------
    def status(self) -> SearchStatus:
        assert self.resources is not None, "the engine is loaded (`load`) before its status is read"
        return search_status(
            self.settings,
            self.resources,
            self.retriever,
            self.health,
            indexing=self.indexing,
            progress=self.indexer.progress if self.indexer else (0, 0),
        )

    def credits(self) -> list[str]:
        """The attributions of the data in use now: each loaded dataset carries its own."""
        return credits(self.settings, self.resources) if self.resources else []


__all__ = ["Engine", "CorpusError"]

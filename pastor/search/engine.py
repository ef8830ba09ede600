"""The search engine's life cycle: corpus, BM25, prominence, embedder and a background index."""

from __future__ import annotations

import threading
import time
import traceback
from collections import deque
from functools import cached_property
from pathlib import Path

from pastor.bible.usfx import Bible, CorpusError, load_bible
from pastor.config import Settings
from pastor.search.storage import describe


class Engine:
    """Loads what is fast at once (corpus, BM25) and builds the vector index in the background,
    so the app answers in `reference` and `lexical_fallback` modes while vectors are not ready."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.bible: Bible | None = None
        self.extras: list[Bible] = []
        self.translations = None  # Translations: the texts a reader can choose (bible/translations.py)
        self.embedder = None
        self.index = None
        self.lexical = None
        self.prominence = None
        self.topics = None
        self.retriever = None
        self.docs = None
        self.adapter_error: str | None = None
        self.errors: deque[str] = deque(maxlen=10)
        self.embedder_error: str | None = None
        self.progress = (0, 0)
        self.started = time.time()
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._lock = threading.Lock()

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> "Engine":
        """Corpus, extra translations, BM25 and prominence; raises CorpusError if no corpus."""
        from pastor.search.assembly import SearchResources, retriever_from_settings
        self.bible = load_bible(self.settings.corpus)
        # The default extra is Bíblia Livre; when it is also the main text it adds nothing.
        self.extras = [b for b in map(load_bible, self.settings.extra_corpora) if b.sha256 != self.bible.sha256]
        from pastor.bible.translations import Translations
        self.translations = Translations(self.bible, self.extras, self.settings.translation)
        self.lexical = self._load_lexical()
        self.prominence = self._load_prominence()
        self._load_embedder()
        self.topics = self._load_topics()
        self._load_docs()
        self.retriever = retriever_from_settings(self.settings, SearchResources(
            self.bible, embedder=self.embedder, index=self.index, lexical=self.lexical, topics=self.topics,
            prominence=self.prominence, documents=[self.docs] if self.docs is not None else []))
        self.retriever.adapter = self.load_adapter(train=False)
        return self

    def _load_lexical(self):
        """BM25 from cached tokens when the texts and tokenizer are unchanged, else tokenize once."""
        from pastor.search.lexcache import TokenCache, cache_key
        from pastor.search.lexical import LexicalIndex
        cache, key = TokenCache(self.settings.data_dir), cache_key([self.bible, *self.extras], self.settings.stemmer)
        cached = cache.load(key)
        if cached is not None:
            return LexicalIndex.from_tokens(*cached, stemmer=self.settings.stemmer)
        lexical = LexicalIndex(*self._lexical_corpus(), stemmer=self.settings.stemmer)
        try:
            cache.save(key, lexical.ids, lexical.docs)
        except OSError as exc:  # a read-only data dir only costs start-up time
            self.errors.append(f"cache do BM25: {describe(exc)}")
        return lexical

    def _lexical_corpus(self) -> tuple[list[str], list[str]]:
        """BM25 sees each verse alone (windows add noise), with the extra translations' wording."""
        ids = [v.id for v in self.bible.verses]
        texts = []
        for v in self.bible.verses:
            parts = [v.text] + [b.by_id[v.id].text for b in self.extras if v.id in b.by_id]
            texts.append(" ".join(parts))
        return ids, texts

    def _load_prominence(self):
        path = self.settings.prominence
        if path is None or not Path(path).exists():
            return None  # the prior is optional: status says it is off and why
        from pastor.search.prominence import load_prominence
        try:
            return load_prominence(path)
        except Exception as exc:  # a bad prior must not stop the app; status shows why
            self.errors.append(f"prominência: {describe(exc)}")
            return None

    def _load_embedder(self) -> None:
        from pastor.search.embedders import load_embedder
        from pastor.search.index import VerseIndex
        try:
            self.embedder = load_embedder(self.settings.embedding_model)
        except Exception as exc:  # never a silent switch to another model: vectors stay off
            self.embedder_error = describe(exc)
            self.errors.append(f"modelo de embeddings: {describe(exc)}")
            return
        self.index = VerseIndex(self.settings.data_dir, self.embedder, window=self.settings.embed_window,
                                batch_size=self.settings.embed_batch, modernize=self.settings.modernize)
        self.index.open(self.bible, self.extras)

    def _load_docs(self) -> None:
        """The church's documents; their embedding waits for the background indexer."""
        if self.settings.docs_dir is None:
            return
        from pastor.search.docindex import DocumentSource
        self.docs = DocumentSource(self.settings, self.embedder)
        self.docs.open()

    def _load_topics(self):
        """The topical index from its cache in the data dir; built by the indexer when missing."""
        files = [p for p in self.settings.topics if Path(p).exists()]
        if self.embedder is None or not files:
            return None
        from pastor.search.topical import NAMES_PT, TopicIndex
        nave = next((p for p in files if ".csv" in Path(p).name), None)
        torrey = next((p for p in files if ".json" in Path(p).name), None)
        topics = TopicIndex(self.settings.data_dir, self.embedder, nave=nave, torrey=torrey, names=NAMES_PT,
                            prominence=self.prominence)
        try:
            topics.open(self.bible)
        except Exception as exc:  # a bad cache only costs a rebuild; status shows why
            self.errors.append(f"temas: {exc}")
        return topics

    def load_adapter(self, *, train: bool):
        """The query adapter for this embedder and index: from its cache, or (`train`) learned from
        the question file, a few seconds after the vectors are built. None when off or not possible."""
        path = self.settings.adapter_questions
        if path is None or self.index is None or not self.index.ready:
            return None
        from pastor.search.adapter import AdapterStore, train as train_adapter
        from pastor.search.evaluation import QuestionSetError, load_questions
        store = AdapterStore(self.settings.data_dir)
        try:
            key = store.key(path, self.embedder, self.index.serving)
            adapter = store.load(key)
            if adapter is None and train:
                questions = load_questions(path)
                adapter = train_adapter(self.retriever, questions, file=Path(path).name)
                store.save(key, adapter)
        except Exception as exc:  # the app works without it, unadapted; status says why
            if not isinstance(exc, (OSError, QuestionSetError, ValueError)):
                traceback.print_exc()  # not a bad file: a failure in training itself
            self.adapter_error = describe(exc)
            self.errors.append(f"adaptador de consulta: {describe(exc)}")
            return None
        self.adapter_error = None
        return adapter

    # -- indexing ------------------------------------------------------------------------------
    @property
    def indexing(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start_indexing(self, *, rebuild: bool = False, background: bool = True) -> bool:
        """Start (or resume) building; False when a build is already running."""
        with self._lock:
            if self.indexing or (self.index is None and self.docs is None and self.topics is None):
                return False
            self._cancel.clear()
            self._thread = threading.Thread(target=self._index, args=(rebuild,), daemon=True,
                                            name="pastor-indexer")
            self._thread.start()
        if not background:
            self._thread.join()
        return True

    def _index(self, rebuild: bool) -> None:
        try:
            if self.index is not None:
                self.index.build(self.bible, self.extras, rebuild=rebuild, cancel=self._cancel,
                                 progress=lambda done, total: setattr(self, "progress", (done, total)))
            if self.topics is not None and not self.topics.ready and not self._cancel.is_set():
                self.topics.build(self.bible)
            if not self._cancel.is_set():  # a cache hit when nothing changed; retrained when anything did
                self.retriever.adapter = self.load_adapter(train=True)
            if self.docs is not None and not self._cancel.is_set():
                self.docs.refresh()
        except Exception as exc:
            self.errors.append(f"indexação: {describe(exc)}")
            traceback.print_exc()

    def stop_indexing(self, timeout: float = 30.0) -> None:
        self._cancel.set()
        if self._thread is not None:
            self._thread.join(timeout)

    # -- status --------------------------------------------------------------------------------
    def status(self) -> dict:
        bible = self.bible
        index = self.index.status if self.index is not None else None
        state = "error" if self.embedder_error else (index.state if index else "missing")
        if self.indexing and state != "complete":
            state = "indexing"
        data = {
            "state": state,
            "ready": bool(bible) and (self.lexical is not None),
            "vectors_ready": bool(self.index and self.index.ready),
            "corpus": bible.stats() if bible else None,
            "extra_corpora": [{"file": b.path.name, "sha256": b.sha256, "verses": len(b.verses), "credit": b.credit}
                              for b in self.extras],
            "embedder": ({"name": self.embedder.name, "dim": self.embedder.dim} if self.embedder
                         else {"name": self.settings.embedding_model, "dim": None, "error": self.embedder_error}),
            "index": index.as_dict() if index else None,
            "index_notice": self.index.notice if self.index is not None else None,
            "progress": {"done": self.progress[0], "total": self.progress[1]},
            "bm25_ready": self.lexical is not None,
            "prominence": self._prominence_status(),
            "topics": self._topics_status(),
            "adapter": self._adapter_status(),
            "errors": list(self.errors),
        }
        if data["corpus"]:
            data["corpus"].pop("differences", None)
        if self.docs is not None:
            data["documents"] = self.docs.status()
        return data

    def credits(self) -> list[str]:
        """The attributions of the data in use now: each loaded dataset carries its own."""
        datasets = [self.bible, *self.extras, self.prominence]
        credits = [d.credit for d in datasets if d is not None]
        if self.topics is not None:
            credits += self.topic_credits
        return list(dict.fromkeys(c for c in credits if c))

    @cached_property
    def topic_credits(self) -> tuple[str, ...]:
        """The topical Bibles' credits, matched once: matching hashes their few MB of content, and
        the page asks for the credits under every answer."""
        from pastor.text.notice import credit_for
        return tuple(credit_for(p) for p in self.settings.topics if Path(p).exists())

    def _topics_status(self) -> dict:
        if self.topics is None:
            return {"enabled": False, "detail": "desligado (PASTOR_TOPICS vazio, arquivos ausentes ou sem modelo)"}
        if not self.topics.ready:
            return {"enabled": False, "detail": "aguardando a indexação dos temas"}
        return {"enabled": True, "entries": len(self.topics.labels), "weight": self.settings.topic_weight}

    def _adapter_status(self) -> dict:
        adapter = self.retriever.adapter if self.retriever is not None else None
        if adapter is not None:
            return {"enabled": True, "file": adapter.info.get("file"), "questions": adapter.info.get("questions"),
                    "weight": self.settings.adapter_weight}
        if self.settings.adapter_questions is None:
            return {"enabled": False, "detail": "desligado (PASTOR_ADAPTER_QUESTIONS vazio)"}
        if self.adapter_error:
            return {"enabled": False, "detail": f"erro: {self.adapter_error}"}
        return {"enabled": False, "detail": "aguardando o índice vetorial"}

    def _prominence_status(self) -> dict:
        if self.settings.prominence is None:
            return {"enabled": False, "detail": "desligado (PASTOR_PROMINENCE vazio)"}
        if not Path(self.settings.prominence).exists():
            return {"enabled": False, "detail": f"desligado: {Path(self.settings.prominence).name} não encontrado "
                                                "(veja a seção Corpus do README)"}
        if self.prominence is None:
            return {"enabled": False, "detail": "erro ao carregar; veja os erros"}
        return {"enabled": True, "file": Path(self.settings.prominence).name, "verses": len(self.prominence),
                "weight": self.settings.prominence_weight}


def _smalltalk():
    from pastor.text.smalltalk import is_conversational
    return is_conversational


__all__ = ["Engine", "CorpusError"]

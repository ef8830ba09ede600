"""The BM25 token caches: the one shipped in corpus/ for the default texts, and the one in the data folder."""

from __future__ import annotations

import gzip
from types import SimpleNamespace

from pastor.bible.usfx import load_bible
from pastor.config import Settings
from pastor.health import HealthBoard
from pastor.index import lexcache
from pastor.index.lexcache import SHIPPED_TOKENS, TokenCache, cache_key
from pastor.index.resources import SearchResources, lexical_corpus, load_lexical
from pastor.search.bm25 import LexicalIndex
from pastor.text.datafile import content_sha256
from tests.support.core_fixtures import MINI
from tests.support.helpers import ROOT

EVERY = 97  # verses compared with a fresh tokenization: one in EVERY, across all 66 books


def test_the_shipped_tokens_are_those_of_the_default_texts_stemmer_and_tokenizer():
    defaults = Settings.from_env({})
    texts = [SimpleNamespace(sha256=content_sha256(ROOT / p)) for p in (defaults.corpus, *defaults.extra_corpora)]
    assert TokenCache.shipped().key() == cache_key(texts, defaults.stemmer), (
        f"{SHIPPED_TOKENS.name} está desatualizado: rode `python -m pastor corpus --ship-tokens`"
    )


def test_the_shipped_tokens_are_what_tokenizing_gives(almeida, blivre):
    ids, docs = TokenCache.shipped().load(cache_key([almeida, blivre], "rslp"))
    fresh_ids, texts = lexical_corpus(almeida, [blivre])
    assert ids == fresh_ids
    tokens = LexicalIndex([], [], stemmer="rslp").tokens
    wrong = [ids[i] for i in range(0, len(ids), EVERY) if docs[i] != tokens(texts[i])]
    assert wrong == []


def test_a_first_start_reads_shipped_tokens_that_match_and_tokenizes_otherwise(tmp_path, monkeypatch):
    settings = Settings.from_env({"PASTOR_DATA_DIR": str(tmp_path / "data"), "PASTOR_EXTRA_CORPORA": ""})
    bible = load_bible(MINI)
    shipped = tmp_path / "shipped.json.gz"
    monkeypatch.setattr(lexcache, "SHIPPED_TOKENS", shipped)
    key = cache_key([bible], settings.stemmer)
    marked = [["marcado"] for _ in bible.verses]  # tokens no tokenizer would write: seen only if read
    TokenCache(tmp_path, shipped).save(key, [v.id for v in bible.verses], marked)
    assert gzip.open(shipped).read()  # written whole, gzip
    read = load_lexical(settings, SearchResources(bible), HealthBoard())
    assert read.docs == marked and not (tmp_path / "data" / "index" / "tokens.json.gz").exists()
    TokenCache(tmp_path, shipped).save({**key, "tokenizer": "outro"}, [v.id for v in bible.verses], marked)
    tokenized = load_lexical(settings, SearchResources(bible), HealthBoard())
    assert tokenized.docs != marked and tokenized.search("perdoar", 3)
    assert TokenCache(tmp_path / "data").load(key) is not None  # and kept for the next start

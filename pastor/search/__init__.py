"""Retrieval: embedders, the LanceDB vector table, BM25 and its cache, fusion, gates, prominence, the retriever,
evaluation, church-document index and the engine life cycle. May import pastor.bible, pastor.documents,
pastor.text and pastor.config."""

"""`python -m pastor index` with PASTOR_INDEX_URI: build in the data directory, then publish a release."""

from __future__ import annotations

import json
import sys
import time

from pastor.config import get_settings
from pastor.index.verse_check import VectorsRefused
from pastor.replication.releases import ReleaseStore
from pastor.replication.store import SharedLock, connect_shared
from pastor.search.adapter import file_sha256


def identity(engine) -> dict:
    """What a release is built from: a release with the same identity needs no new build."""
    res = engine.resources
    found = {"index": res.index.expected(res.bible, res.extras)}
    if res.topics is not None:
        found["topics"] = res.topics.key(res.bible)
    questions = engine.settings.adapter_questions
    if questions is not None and questions.is_file():
        found["adapter"] = file_sha256(questions)
    return json.loads(json.dumps(found, sort_keys=True))  # the form it has once stored


def index_and_publish(args, *, load_engine, build) -> int:
    """Under the shared lease: skip when the latest release was built from the same inputs and passes
    the content check (unless --rebuild); else build in the local data directory (resumable, as without
    a shared index) and publish the result as a new release, which replicas pick up on their next poll.
    `load_engine` and `build` are the local command's own (`cli/commands.py`)."""
    settings = get_settings()
    store = ReleaseStore(connect_shared(settings.index_uri))
    waiting = "aguardando outro job de indexação do índice compartilhado terminar…"
    with SharedLock(store.db, on_wait=lambda: print(waiting, file=sys.stderr, flush=True)):
        engine = load_engine()
        if engine.resources.index is None:
            print(f"erro: modelo de embeddings indisponível: {engine.health.reason('embedder')}", file=sys.stderr)
            return 2
        store.embedder = engine.resources.embedder  # the content check re-embeds its sample with it
        latest = store.latest()
        if latest is not None and latest.identity == identity(engine) and not args.rebuild:
            problem = store.release_problem(latest)
            if problem is None:
                print(
                    f"Índice compartilhado já publicado a partir destes dados: versão {latest.id}; nada a fazer.",
                    file=sys.stderr,
                )
                return 0
            print(
                f"A versão {latest.id} foi recusada na verificação dos vetores ({problem}); publicando de novo.",
                file=sys.stderr,
            )
        code = build(engine, args)
        if code != 0:
            return code
        started = time.perf_counter()
        try:
            release = store.publish(settings.data_dir, identity(engine))
        except VectorsRefused as exc:
            print(f"erro: {exc}", file=sys.stderr)
            return 1
    print(
        f"Publicado: versão {release.id} ({release.manifest.get('total')} linhas) em "
        f"{time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )
    return 0

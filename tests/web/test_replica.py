"""A replica's index (issue 23): it waits for a release, serves it, swaps in a newer one, keeps a mismatched one out."""

from __future__ import annotations

import pytest

from pastor.replication.releases import ReleaseStore
from pastor.replication.store import connect_shared
from pastor.web.reindex import REPLICA_REFUSAL
from pastor.web.replica import KEEPS, MISMATCH, OLDER, ReplicaIndex
from pastor.web.runtime import Runtime
from tests.support.bad_releases import KINDS, REASONS, bad_release


@pytest.fixture
def shared(tmp_path):
    return str(tmp_path / "shared")


@pytest.fixture
def replica(make_settings, shared, tmp_path):
    adopted = []
    settings = make_settings(PASTOR_ROLE="replica", PASTOR_INDEX_URI=shared, PASTOR_DATA_DIR=str(tmp_path / "replica"))
    return ReplicaIndex(settings, adopted.append), adopted


def test_nothing_published_yet_is_said_and_nothing_is_served(replica):
    index, adopted = replica
    assert index.poll() is False
    assert adopted == [] and "nenhum índice publicado" in index.error


def test_it_serves_a_release_then_swaps_in_the_next_without_a_restart(replica, make_engine, shared):
    index, adopted = replica
    built = make_engine()
    store = ReleaseStore(connect_shared(shared))
    first = store.publish(built.settings.data_dir, {"n": 1})
    assert index.poll() is True, index.error
    assert adopted[-1].resources.index.ready and not adopted[-1].settings.background_index
    assert index.release.id == first.id and index.status()["error"] is None
    assert index.poll() is False and len(adopted) == 1  # nothing new
    second = store.publish(built.settings.data_dir, {"n": 2})
    assert index.poll() is True and index.release.id == second.id
    assert adopted[1].resources.embedder is adopted[0].resources.embedder  # the model is loaded once, not per release
    assert [p.name for p in index.cache.iterdir()] == [second.id]  # the older copy is gone


def test_a_release_this_replica_cannot_serve_is_kept_out(replica, make_engine, shared, monkeypatch):
    import pastor.web.replica

    index, adopted = replica
    loads = []
    real = pastor.web.replica.build_engine
    monkeypatch.setattr(pastor.web.replica, "build_engine", lambda *a, **k: loads.append(1) or real(*a, **k))
    store = ReleaseStore(connect_shared(shared))
    store.publish(make_engine().settings.data_dir, {"n": 1})
    assert index.poll(), index.error
    other = make_engine(PASTOR_EMBED_WINDOW="1", PASTOR_DATA_DIR=str(index.cache.parent.parent / "other"))
    release = store.publish(other.settings.data_dir, {"n": 2})
    assert index.poll() is False
    served = adopted[0].resources.index
    assert index.error == MISMATCH.format(release=release.id) + KEEPS.format(release=index.release.id)
    assert len(adopted) == 1 and served.ready
    assert len(loads) == 2
    assert index.poll() is False and len(loads) == 2  # not loaded again on every poll


def test_a_replica_never_reindexes(make_settings, shared):
    runtime = Runtime(make_settings(PASTOR_ROLE="replica", PASTOR_INDEX_URI=shared), provider=None)
    runtime.replica = ReplicaIndex(runtime.settings, runtime.adopt)
    assert runtime.reindex_refusal() == REPLICA_REFUSAL
    assert not runtime.reindex("").ok


def test_replica_settings_are_checked(make_settings):
    from pastor.config import ConfigError

    with pytest.raises(ConfigError, match="PASTOR_INDEX_URI"):
        make_settings(PASTOR_ROLE="replica")
    with pytest.raises(ConfigError, match="PASTOR_ROLE"):
        make_settings(PASTOR_ROLE="primary")
    with pytest.raises(ConfigError, match="PASTOR_REPLICA_ID"):
        make_settings(PASTOR_REPLICA_ID="../a")


def test_a_release_that_fails_the_content_check_is_refused_and_a_new_replica_serves_the_newest_good(
    replica, make_engine, make_settings, shared, tmp_path
):
    index, adopted = replica
    store = ReleaseStore(connect_shared(shared))
    good = store.publish(make_engine().settings.data_dir, {"n": 1})
    assert index.poll() is True
    bad = [bad_release(store, good, kind) for kind in KINDS]
    assert index.poll() is False and index.release == good and len(adopted) == 1
    refused = {r["release"]: r["reason"] for r in index.status()["refused"]}
    assert all(REASONS[kind] in refused[release.id] for kind, release in zip(KINDS, bad, strict=True)), refused
    assert index.error == refused[bad[-1].id] + KEEPS.format(release=good.id)
    assert index.poll() is False and len(adopted) == 1  # refused once, not loaded again on every poll
    assert [p.name for p in index.cache.iterdir()] == [good.id]  # the refused copies are not kept

    late = []
    settings = make_settings(PASTOR_ROLE="replica", PASTOR_INDEX_URI=shared, PASTOR_DATA_DIR=str(tmp_path / "late"))
    started_after = ReplicaIndex(settings, late.append)
    assert started_after.poll() is True and started_after.release == good and late[0].resources.index.ready
    assert started_after.error == refused[bad[-1].id] + OLDER.format(release=good.id)

"""The shared index (issue 23): the build lease, releases published whole and fetched as a data directory."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from pastor.index.engine import Engine
from pastor.index.verse_check import VectorsRefused
from pastor.replication.releases import KEEP, ReleaseStore
from pastor.replication.store import SharedLock, StoreBusy, connect_shared, storage_options
from pastor.search.storage import connect
from tests.support.bad_releases import KINDS, REASONS, bad_release


@pytest.fixture
def store(tmp_path):
    return ReleaseStore(connect_shared(str(tmp_path / "shared")))


def test_storage_options_come_from_the_usual_aws_variables():
    env = {
        "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
        "AWS_REGION": "sa-east-1",
        "AWS_DEFAULT_REGION": "x",
        "AWS_ACCESS_KEY_ID": "id",
        "AWS_SECRET_ACCESS_KEY": "segredo",
    }
    assert storage_options("s3://b/p", env) == {
        "aws_endpoint": "http://127.0.0.1:9000",
        "aws_region": "sa-east-1",
        "aws_access_key_id": "id",
        "aws_secret_access_key": "segredo",
        "allow_http": "true",
    }
    assert storage_options("s3://b/p", {"AWS_ENDPOINT_URL": "https://s3.example", "AWS_ALLOW_HTTP": "false"}) == {
        "aws_endpoint": "https://s3.example",
        "allow_http": "false",
    }
    assert storage_options("/srv/index", env) == {}


def test_one_builder_at_a_time_and_the_next_waits(store):
    order, waited = [], threading.Event()
    first = SharedLock(store.db)
    with first:
        second = threading.Thread(target=lambda: _hold(store.db, order, waited))
        second.start()
        assert waited.wait(30)  # it saw the lease and waits
        order.append("first")
    second.join(30)
    assert order == ["first", "second"]


def _hold(db, order, waited):
    with SharedLock(db, on_wait=waited.set):
        order.append("second")


def test_an_expired_lease_is_broken_and_a_cancelled_waiter_gives_up(store):
    now = [1000.0]
    dead = SharedLock(store.db, lease=60, clock=lambda: now[0])
    dead.__enter__()  # a job killed while holding it: never released
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(StoreBusy):
        SharedLock(store.db, clock=lambda: now[0], cancel=cancel).__enter__()
    now[0] += 61
    with SharedLock(store.db, clock=lambda: now[0]) as taker:
        assert store.db.open_table("build_lock").to_arrow().to_pylist()[0]["holder"] == taker.holder
    dead.__exit__()  # the old holder coming back does not drop someone else's lease
    assert "build_lock" not in store.db.list_tables().tables


def test_a_release_round_trip_serves_the_same_vectors(make_engine, store, tmp_path):
    built = make_engine()
    assert store.latest() is None
    release = store.publish(built.settings.data_dir, {"index": "a"})
    assert store.latest() == release and release.manifest["state"] == "complete"
    dest = store.fetch(release, tmp_path / "replica")
    served = Engine(built.settings.replace(data_dir=dest)).load()
    assert served.resources.index.ready and served.resources.index.status.state == "complete"
    assert served.resources.index.vectors.ids == built.resources.index.vectors.ids
    assert np.array_equal(served.resources.index.vectors.matrix, built.resources.index.vectors.matrix)
    question = built.resources.embedder.encode(["amor de Deus"])[0]
    assert served.resources.index.vector_search(question, 5) == built.resources.index.vector_search(question, 5)


def test_an_incomplete_local_index_is_not_published(make_engine, store):
    engine = make_engine(index=False)
    engine.resources.index.dir.mkdir(parents=True, exist_ok=True)
    (engine.resources.index.dir / "manifest.json").write_text(json.dumps({"state": "partial", "table": "verses"}))
    with pytest.raises(ValueError, match="não está completo"):
        store.publish(engine.settings.data_dir, {})
    assert store.latest() is None


def test_the_newest_release_wins_and_old_ones_are_pruned(make_engine, store):
    built = make_engine()
    published = [store.publish(built.settings.data_dir, {"n": i}) for i in range(KEEP + 2)]
    assert store.latest() == published[-1]
    tables = set(store.db.list_tables().tables)
    assert {r.table for r in published[-KEEP:]} <= tables
    assert not {r.table for r in published[:2]} & tables
    files = store.db.open_table("files").to_arrow().column("release").to_pylist()
    assert set(files) == {r.id for r in published[-KEEP:]}


def test_a_file_name_the_store_makes_up_is_not_written(make_engine, store, tmp_path):
    import pyarrow as pa

    release = store.publish(make_engine().settings.data_dir, {})
    store.db.open_table("files").add(
        pa.table({"release": [release.id], "name": ["../fora.txt"], "data": pa.array([b"x"], pa.large_binary())})
    )
    store.fetch(release, tmp_path / "replica")
    assert not (tmp_path / "fora.txt").exists() and (tmp_path / "replica" / "index" / "manifest.json").is_file()


def test_pruning_keeps_the_newest_release_that_passes_the_content_check(make_engine, tmp_path, embedder):
    store = ReleaseStore(connect_shared(str(tmp_path / "checked")), embedder)
    good = store.publish(make_engine().settings.data_dir, {"n": 0})
    bad = [bad_release(store, good, kind) for kind in KINDS]
    problems = {kind: store.release_problem(release) for kind, release in zip(KINDS, bad, strict=True)}
    assert all(REASONS[kind] in (problems[kind] or "") for kind in KINDS), problems
    assert store.prune() == [] and good.table in store.db.list_tables().tables  # 3 newest bad + the good one
    newer = store.publish(make_engine().settings.data_dir, {"n": 1})
    assert store.available() == bad[1:] + [newer]  # a newer good one: the old good one and the oldest bad go


def test_vectors_that_fail_the_check_are_not_published(make_engine, store):
    import pyarrow as pa

    engine = make_engine()
    db = connect(engine.resources.index.dir)
    table = db.open_table("verses").to_arrow()
    zeros = pa.FixedSizeListArray.from_arrays(pa.array(np.zeros(table.num_rows * 64, np.float32)), 64)
    db.create_table("verses", data=table.set_column(8, "vector", zeros), mode="overwrite")
    with pytest.raises(VectorsRefused, match="vetores zerados.*nada foi publicado"):
        store.publish(engine.settings.data_dir, {})
    assert store.latest() is None and store.db.list_tables().tables == []

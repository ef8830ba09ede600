"""Check content, not shape (issue 32 item 5), on moto's S3 server: a replica refuses releases of zero, noise or
truncated vectors with the reason on /status and keeps serving the good one; pruning keeps the newest good release,
so a replica started after three bad ones still serves it."""

from __future__ import annotations

import httpx
import pytest

from pastor.replication.releases import KEEP, ReleaseStore
from pastor.replication.store import connect_shared
from pastor.web.render import details_markdown
from tests.support.app_fixtures import LiveServer
from tests.support.bad_releases import REASONS, bad_release
from tests.support.cluster import ObjectStore
from tests.support.core_fixtures import settings_for
from tests.support.helpers import free_port, wait_for

pytestmark = pytest.mark.integration  # moto's S3 server and live replicas (in this process, the fake embedder)

QUESTION = "Pedro perguntou quantas vezes devo perdoar meu irmão"  # a rag answer on the tiny corpus


@pytest.fixture(scope="module")
def s3():
    server = ObjectStore().start()
    yield server
    server.stop()


@pytest.fixture
def shared(s3, monkeypatch, fake_models, embedder):
    """The release store on S3, as the job sees it (its content check re-embeds with the fake embedder)."""
    env = s3.env(f"vectors-{free_port()}")
    for name, value in env.items():
        if name.startswith("AWS_"):
            monkeypatch.setenv(name, value)
    return ReleaseStore(connect_shared(env["PASTOR_INDEX_URI"]), embedder), env["PASTOR_INDEX_URI"]


def start_replica(tmp_path, uri: str, name: str) -> LiveServer:
    settings = settings_for(
        tmp_path / name,
        PASTOR_ROLE="replica",
        PASTOR_INDEX_URI=uri,
        PASTOR_INDEX_POLL_SECONDS="0.5",
        PASTOR_REPLICA_ID=name,
        PASTOR_HOST="127.0.0.1",
        PASTOR_PORT=str(free_port()),
        PASTOR_RATE_LIMIT_SECONDS="0",
        PASTOR_REQUESTS_PER_MINUTE="1000000",
    )
    return LiveServer(settings).start()


def ready(server: LiveServer) -> dict:
    response = server.get("/ready")
    return {"code": response.status_code, **response.json()}


def test_a_replica_refuses_bad_releases_keeps_serving_and_pruning_keeps_the_good_one(
    shared, make_engine, tmp_path, caplog
):
    store, uri = shared
    good = store.publish(make_engine().settings.data_dir, {"n": "bom"})
    replica = start_replica(tmp_path, uri, "r1")
    fresh = None
    try:
        wait_for(lambda: ready(replica)["code"] == 200, 60, "a réplica não ficou pronta")
        wrong = []
        for kind, words in REASONS.items():
            bad = bad_release(store, good, kind)
            wait_for(lambda b=bad: b.id in refused(replica), 60, f"a réplica não recusou a versão {kind}")
            status = replica.client().predict(api_name="/status")
            said = status["replica"]["error"] or ""
            seen = (ready(replica)["code"], status["replica"]["release"], status["vectors_ready"])
            if seen != (200, good.id, True) or words not in said or f"continua com a versão {good.id}" not in said:
                wrong.append((kind, seen, said))
            if words not in details_markdown(status):  # the Status tab shows it too
                wrong.append((kind, "aba Status", details_markdown(status)))
        assert wrong == []
        answer = replica.client().predict(QUESTION, 6, "bible", api_name="/search")
        assert answer["mode"] == "rag"  # still searching with the good release's vectors
        logged = [r.getMessage() for r in caplog.records if "recusada na verificação" in r.getMessage()]
        assert len(logged) == len(REASONS)  # each refusal once in the log, however many polls saw it

        assert len(store.available()) == KEEP + 1
        assert store.prune() == []  # the three newest are bad: the newest good one stays
        assert good.table in store.db.list_tables().tables
        fresh = start_replica(tmp_path, uri, "r2")  # started after the bad releases
        wait_for(lambda: ready(fresh)["code"] == 200, 60, "a nova réplica não serviu a versão boa")
        assert ready(fresh)["replica"]["release"] == good.id
        assert f"serve a versão {good.id}, a mais recente que passou" in ready(fresh)["replica"]["error"]

        newer = store.publish(make_engine().settings.data_dir, {"n": "bom de novo"})
        wait_for(lambda: ready(replica)["replica"]["release"] == newer.id, 60, "a réplica não serviu a nova versão")
        assert ready(replica)["replica"]["error"] is None
        assert good.table not in store.db.list_tables().tables  # a newer good release: the old one may go
    finally:
        for server in (replica, fresh):
            if server is not None:
                server.stop()


def refused(server: LiveServer) -> list[str]:
    try:
        return [r["release"] for r in ready(server)["replica"]["refused"]]
    except (httpx.HTTPError, KeyError, TypeError):
        return []

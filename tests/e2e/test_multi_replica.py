"""Beyond one machine, for real (issue 23): the index on an S3 emulator, written by the job; two
replicas behind nginx with session affinity; limits and turn ids in redis-server.

The tests run in file order on one cluster; the last one kills a replica."""

from __future__ import annotations

import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.cluster import Nginx, ObjectStore, Redis, Replica, require, run_job, wait_release
from tests.support.helpers import ROOT, wait_for

pytestmark = pytest.mark.slow  # five processes and a real balancer

sys.path.insert(0, str(ROOT / "examples"))
import client as example  # noqa: E402  (examples/client.py: the documented way to call the API)

FEAR = "Estou com medo do futuro"
RATE_LIMIT_SECONDS = 30
# Long enough that a replica can be killed while it streams (about 7 s per answer).
FAKE_DELAY = "0.1"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    require("redis-server")
    require("nginx")
    folder = tmp_path_factory.mktemp("cluster")
    store = ObjectStore().start()
    redis = Redis(folder)
    started = []
    try:
        job = run_job(folder / "job", store)
        assert job.returncode == 0, job.stderr[-2000:]
        replicas = [
            Replica(
                name,
                folder,
                store,
                redis,
                PASTOR_FAKE_DELAY=FAKE_DELAY,
                PASTOR_RATE_LIMIT_SECONDS=str(RATE_LIMIT_SECONDS),
            )
            for name in ("a", "b")
        ]
        started += replicas
        for replica in replicas:
            replica.wait_ready()
        nginx = Nginx(folder, [f"127.0.0.1:{r.port}" for r in replicas])
        started.append(nginx)
        yield {"store": store, "redis": redis, "replicas": replicas, "nginx": nginx, "folder": folder}
    finally:
        for process in reversed(started):
            process.stop()
        redis.stop()
        store.stop()


def client(url: str, address: str):
    """A gradio_client as one person: its own affinity cookie (set by nginx on the first response)
    and its own address for the rate limit (nginx appends the real peer, a trusted proxy)."""
    from gradio_client import Client

    return Client(url + "/", verbose=False, headers={"X-Forwarded-For": address})


def ask(url: str, address: str, question: str = FEAR, on_text=lambda text: None) -> dict:
    return example.chat(client(url, address), question, on_text=on_text)


def test_fifty_concurrent_chats_through_the_balancer_with_no_errors(cluster):
    url = cluster["nginx"].url
    with ThreadPoolExecutor(max_workers=50) as pool:
        finals = list(pool.map(lambda i: ask(url, f"10.1.{i // 200}.{i % 200 + 1}"), range(50)))
    assert all(f["done"] and f["mode"] == "rag" and f["answer"] for f in finals)
    by_replica = {f["turn_id"].split("-")[0] for f in finals}
    assert by_replica == {"a", "b"}  # the affinity cookie spreads people over both replicas


def test_the_rate_limit_holds_across_replicas(cluster):
    a, b = cluster["replicas"]
    ask(a.url, "10.2.0.1")
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="Aguarde"):
        ask(b.url, "10.2.0.1")  # the same person on the other replica, within the window
    assert ask(b.url, "10.2.0.2")["done"]  # someone else is not limited


def test_feedback_works_on_the_replica_that_did_not_answer(cluster):
    a, b = cluster["replicas"]
    final = ask(a.url, "10.3.0.1")
    assert final["turn_id"].startswith("a-")
    record = client(b.url, "10.3.0.2").predict(final["turn_id"], "up", "ajudou", api_name="/feedback")
    assert record["ok"], record
    logged = (cluster["folder"] / "b" / "logs" / "turns-b.jsonl").read_text(encoding="utf-8")
    assert final["turn_id"] in logged and '"feedback"' in logged
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match="não encontrada"):
        client(b.url, "10.3.0.3").predict("a-0000000000000000", "up", "", api_name="/feedback")


def test_a_new_index_version_is_served_by_both_replicas_without_restart(cluster):
    replicas = cluster["replicas"]
    before = {r.release() for r in replicas}
    assert len(before) == 1 and None not in before
    pids = [r.process.pid for r in replicas]
    job = run_job(cluster["folder"] / "job", cluster["store"], "--rebuild")
    assert job.returncode == 0, job.stderr[-2000:]
    release = job.stderr.split("Publicado: versão ")[1].split()[0]
    assert release not in before
    wait_release(replicas, release, timeout=120)
    assert [r.process.pid for r in replicas] == pids and all(r.process.poll() is None for r in replicas)
    assert ask(cluster["nginx"].url, "10.4.0.1")["mode"] == "rag"


def test_the_example_client_through_the_balancer(cluster):
    run = subprocess.run(
        [sys.executable, "examples/client.py", cluster["nginx"].url + "/", "--skip-reindex"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "OK: todos os endpoints responderam." in run.stdout


def test_a_replica_killed_mid_run(cluster):
    url, (_, b) = cluster["nginx"].url, cluster["replicas"]
    outcomes: dict[int, str] = {}
    streaming: set[int] = set()

    def one(i: int) -> None:
        try:
            final = ask(url, f"10.5.0.{i + 1}", on_text=lambda text: streaming.add(i))
            outcomes[i] = final["turn_id"].split("-")[0] if final["done"] else "not done"
        except example.Interrupted as exc:
            outcomes[i] = str(exc)
        except Exception as exc:  # anything else is a failure of the test's claim
            outcomes[i] = f"erro: {exc!r}"

    threads = [threading.Thread(target=one, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    # Half of the people are reading an answer that is still being written: kill b now.
    wait_for(lambda: len(streaming) >= 8, 120, "as respostas não começaram")
    b.kill()
    for thread in threads:
        thread.join(120)
    assert len(outcomes) == 16, outcomes
    interrupted = [o for o in outcomes.values() if o == example.INTERRUPTED]
    finished = [o for o in outcomes.values() if o in ("a", "b")]
    assert interrupted and finished, outcomes  # some were on b, some on a
    assert len(interrupted) + len(finished) == 16, outcomes  # nothing else: no hang, no other error
    after = [ask(url, f"10.6.0.{i + 1}") for i in range(4)]  # new people, and the ones cut off asking again
    assert all(f["done"] and f["turn_id"].startswith("a-") for f in after)

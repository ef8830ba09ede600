"""Beyond one machine (issue 23): chats/s and p95 through nginx for 1 and 2 replicas (same run), vector
search against the object store vs local disk, and how long replicas take to serve a new index.

    python -m bench.bench_scale [--chats 40] [--concurrency 20] [--delays 0,0.05] [--data-dir data]

Everything runs on this machine: moto's S3 server, redis-server, nginx and the replicas (the tiny
test corpus, the fake model; `--delays` is the fake model's pause between 3-character chunks: 0 is
the app's own CPU cost, 0.05 an answer streamed for about 3 s, as a model server would).
`--data-dir` names a built full index for the search comparison (skipped when absent).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.support.cluster import Nginx, ObjectStore, Redis, Replica, run_job, wait_release

ROOT = Path(__file__).resolve().parent.parent


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


def chats(url: str, count: int, concurrency: int, tag: int) -> tuple[float, list[float], int]:
    """`count` chats, `concurrency` at a time, each a new person: (chats/s, latencies, errors)."""
    from gradio_client import Client

    from examples import client as example  # examples/client.py: the documented way to call the API

    def one(i: int):
        person = Client(url + "/", verbose=False, headers={"X-Forwarded-For": f"10.{tag}.{i // 200}.{i % 200 + 1}"})
        started = time.perf_counter()
        try:
            final = example.chat(person, "Estou com medo do futuro", on_text=lambda text: None)
        except Exception:
            return None
        return time.perf_counter() - started if final.get("done") else None

    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(one, range(count)))
    wall = time.perf_counter() - started
    latencies = [r for r in results if r is not None]
    return len(latencies) / wall, latencies, len(results) - len(latencies)


def throughput(folder: Path, store, redis, args) -> None:
    for delay in args.delays:
        replicas = [
            Replica(
                f"{name}{delay}".replace(".", ""),
                folder,
                store,
                redis,
                PASTOR_FAKE_DELAY=str(delay),
                PASTOR_RATE_LIMIT_SECONDS="0",
            )
            for name in ("a", "b")
        ]
        try:
            for replica in replicas:
                replica.wait_ready()
            rows = {}
            for n in (1, 2):
                nginx = Nginx(folder / f"nginx-{delay}-{n}", [f"127.0.0.1:{r.port}" for r in replicas[:n]])
                try:
                    chats(nginx.url, 4, 4, 99)  # warm-up: first turns load the citation patterns
                    rows[n] = chats(nginx.url, args.chats, args.concurrency, n)
                finally:
                    nginx.stop()
            for n, (rate, latencies, errors) in rows.items():
                print(
                    f"fake delay {delay} s, {n} réplica(s): {rate:.2f} chats/s, "
                    f"p50 {statistics.median(latencies):.2f} s, "
                    f"p95 {p95(latencies):.2f} s, erros {errors}/{args.chats}"
                )
            print(
                f"fake delay {delay} s: 2 réplicas / 1 réplica = {rows[2][0] / rows[1][0]:.2f}× chats/s, "
                f"p95 {p95(rows[2][1]) / p95(rows[1][1]):.2f}×"
            )
        finally:
            for replica in replicas:
                replica.stop()


def search_latency(store, data_dir: Path) -> None:
    """LanceDB vector search on the same verse table, local disk vs the object store."""
    import lancedb
    import numpy as np

    from pastor.replication.store import connect_shared

    manifest = data_dir / "index" / "manifest.json"
    if not manifest.is_file():
        print(f"busca no object store: pulada ({data_dir} sem índice completo)")
        return
    import json

    name = json.loads(manifest.read_text())["table"]
    local = lancedb.connect(str(data_dir / "index" / "lancedb")).open_table(name)
    os.environ.update({k: v for k, v in store.env().items() if k.startswith("AWS_")})
    started = time.perf_counter()
    remote = connect_shared(store.env("bench")["PASTOR_INDEX_URI"]).create_table(
        name, data=local.to_arrow(), mode="overwrite"
    )
    print(f"tabela de {local.count_rows()} linhas enviada ao object store em {time.perf_counter() - started:.1f} s")
    queries = np.load(data_dir / "index" / f"{name}.vectors.npy", mmap_mode="r")[::997][:40]
    for label, table in (("disco local", local), ("object store (moto, loopback)", remote)):
        times = []
        for vector in queries:
            started = time.perf_counter()
            table.search(np.asarray(vector)).limit(60).select(["id"]).to_list()
            times.append((time.perf_counter() - started) * 1000)
        print(f"busca vetorial LanceDB, {label}: p50 {statistics.median(times):.1f} ms, p95 {p95(times):.1f} ms")


def limit_latency(redis) -> None:
    """What a shared rate limit costs per request: one SET NX PX round trip, vs the in-memory dict."""
    from pastor.config import Settings
    from pastor.web.ratelimit import RateLimited
    from pastor.web.ratelimit_redis import limiter_factory

    for label, env in (("memória", {}), ("Redis (loopback)", {"PASTOR_REDIS_URL": redis.url})):
        limiter = limiter_factory(Settings.from_env(env))("bench", 30, "x")
        times = []
        for i in range(2000):
            started = time.perf_counter()
            try:
                limiter.hit(f"10.0.{i % 1000 // 250}.{i % 250}")  # half new clients, half refused
            except RateLimited:
                pass
            times.append((time.perf_counter() - started) * 1000)
        print(f"limite de pedidos, {label}: p50 {statistics.median(times):.3f} ms, p95 {p95(times):.3f} ms")


def pickup(folder: Path, store, redis, rounds: int) -> None:
    """Seconds from the job's publish to both replicas serving the new release (poll every 1 s)."""
    replicas = [Replica(name, folder, store, redis) for name in ("pa", "pb")]
    try:
        for replica in replicas:
            replica.wait_ready()
        for _ in range(rounds):
            job = run_job(folder / "job", store, "--rebuild")  # it exits right after its publish
            release = job.stderr.split("Publicado: versão ")[1].split()[0]
            wait_release(replicas, release, timeout=120)
            # From the release row's commit to each replica's swap (one clock: same machine).
            lags = [(s["adopted_at"] - s["published"]) for s in (r.readiness()["replica"] for r in replicas)]
            print(
                f"nova versão {release}: servida pelas 2 réplicas {min(lags):.1f} / {max(lags):.1f} s depois "
                "de publicada (PASTOR_INDEX_POLL_SECONDS=1)"
            )
    finally:
        for replica in replicas:
            replica.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--delays", type=lambda v: [float(x) for x in v.split(",")], default=[0.0, 0.05])
    parser.add_argument("--data-dir", type=Path, default=ROOT / "data")
    parser.add_argument("--pickups", type=int, default=3)
    parser.add_argument("--only-limits", action="store_true", help="only the rate-limit cost")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    store = ObjectStore().start()
    redis = Redis(folder)
    try:
        job = run_job(folder / "job", store)
        assert job.returncode == 0, job.stderr[-2000:]
        limit_latency(redis)
        if not args.only_limits:
            throughput(folder, store, redis, args)
            search_latency(store, args.data_dir)
            pickup(folder, store, redis, args.pickups)
    finally:
        redis.stop()
        store.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

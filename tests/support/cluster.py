"""Real services for the multi-replica tests and bench: an S3 emulator, redis-server, nginx, replicas."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.support.app_fixtures import app_env
from tests.support.helpers import ROOT, free_port, wait_for

BUCKET = "pastor-index"
KEYS = {"AWS_ACCESS_KEY_ID": "teste", "AWS_SECRET_ACCESS_KEY": "teste-segredo", "AWS_REGION": "us-east-1"}


def require(binary: str) -> str:
    """The binary's path. Outside CI a missing one skips (with how to install it); in CI
    (`CI=true`, where `.ci/run` installs it) its absence fails."""
    path = shutil.which(binary)
    if path:
        return path
    message = f"{binary} ausente: apt-get install -y redis-server nginx (o .ci/run instala)"
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(message)
    pytest.skip(message)


class ObjectStore:
    """moto's S3 server on a free loopback port, with one bucket; `env` points the app at it."""

    def __init__(self):
        from moto.server import ThreadedMotoServer

        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=free_port(), verbose=False)

    def start(self) -> ObjectStore:
        import logging

        import pyarrow.fs as pafs

        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one log line per S3 request otherwise
        self.server.start()
        host, port = self.server.get_host_and_port()
        self.endpoint = f"http://{host}:{port}"
        pafs.S3FileSystem(
            endpoint_override=self.endpoint,
            scheme="http",
            access_key=KEYS["AWS_ACCESS_KEY_ID"],
            secret_key=KEYS["AWS_SECRET_ACCESS_KEY"],
            region=KEYS["AWS_REGION"],
            allow_bucket_creation=True,
        ).create_dir(BUCKET)
        return self

    def env(self, path: str = "index") -> dict[str, str]:
        return {
            "PASTOR_INDEX_URI": f"s3://{BUCKET}/{path}",
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ALLOW_HTTP": "true",
            **KEYS,
        }

    def stop(self) -> None:
        self.server.stop()


class Process:
    """A service in a subprocess, its output in a log file beside its data (read on failure)."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None, cwd: Path = ROOT):
        self.log_path = log
        self.process = subprocess.Popen(
            args, cwd=cwd, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT, start_new_session=True
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def kill(self) -> None:
        """SIGKILL: a replica that dies, not one that shuts down politely."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


class Redis(Process):
    def __init__(self, folder: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        super().__init__(
            [
                require("redis-server"),
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
            ],
            folder / "redis.log",
        )
        import redis

        client = redis.Redis.from_url(self.url)
        wait_for(lambda: _pings(client), 20, f"redis-server não respondeu\n{self.log()}")


def _pings(client) -> bool:
    try:
        return client.ping()
    except Exception:
        return False


NGINX_CONF = """
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy; fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
{body}
}}
"""


class Nginx(Process):
    """nginx in the foreground with the deployment's own site config (deploy/nginx.conf), its
    upstream servers and port filled in."""

    def __init__(self, folder: Path, replicas: list[str]):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        site = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
        servers = "\n".join(f"    server {address} max_fails=1 fail_timeout=30s;" for address in replicas)
        site = site.replace("    server replica:7860 max_fails=1 fail_timeout=30s;", servers)
        site = site.replace("listen 8080;", f"listen 127.0.0.1:{self.port};")
        folder.mkdir(parents=True, exist_ok=True)
        conf = folder / "nginx.conf"
        conf.write_text(NGINX_CONF.format(dir=folder, body=site), encoding="utf-8")
        super().__init__(
            [require("nginx"), "-c", str(conf), "-p", str(folder), "-g", "daemon off;"], folder / "nginx.out"
        )
        wait_for(lambda: _answers(self.url + "/live"), 20, f"nginx não respondeu\n{self.log()}")


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code < 500
    except httpx.HTTPError:
        return False


def shared_env(data_dir: Path, store: ObjectStore, redis: Redis | None, **changes: str) -> dict[str, str]:
    """The environment of a replica or the job: the tiny corpus, the fake model, the shared store."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PASTOR_", "AWS_", "LLM_"))}
    env.update(app_env(data_dir), **store.env(), HF_HUB_OFFLINE="1")
    if redis is not None:
        env["PASTOR_REDIS_URL"] = redis.url
    env.update(changes)
    return env


def run_job(data_dir: Path, store: ObjectStore, *args: str, **changes: str) -> subprocess.CompletedProcess:
    """`python -m pastor index` against the shared store, as the one-shot indexer runs."""
    env = shared_env(data_dir, store, None, **changes)
    return subprocess.run(
        [sys.executable, "-m", "pastor", "index", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


class Replica(Process):
    def __init__(self, name: str, folder: Path, store: ObjectStore, redis: Redis | None, **changes: str):
        env = shared_env(
            folder / name,
            store,
            redis,
            PASTOR_ROLE="replica",
            PASTOR_REPLICA_ID=name,
            PASTOR_INDEX_POLL_SECONDS="1",
            PASTOR_TRUSTED_PROXIES="127.0.0.1",
            **changes,
        )
        self.name = name
        self.port = int(env["PASTOR_PORT"])
        self.url = f"http://127.0.0.1:{self.port}"
        (folder / name).mkdir(parents=True, exist_ok=True)
        super().__init__([sys.executable, "app.py"], folder / f"{name}.log", env)

    def readiness(self) -> dict | None:
        try:
            response = httpx.get(self.url + "/ready", timeout=5)
        except httpx.HTTPError:
            return None
        return response.json() if response.status_code == 200 else None

    def wait_ready(self, timeout: float = 180) -> dict:
        return wait_for(self.readiness, timeout, f"a réplica {self.name} não ficou pronta\n{self.log()}", interval=0.2)

    def release(self) -> str | None:
        ready = self.readiness()
        return ready["replica"]["release"] if ready else None


def wait_release(replicas: list[Replica], release: str, timeout: float = 60) -> float:
    """Seconds until every replica serves `release`."""
    started = time.monotonic()
    wait_for(
        lambda: all(r.release() == release for r in replicas),
        timeout,
        f"as réplicas não passaram a servir a versão {release}",
        interval=0.1,
    )
    return time.monotonic() - started

"""`python -m pastor index` as the job of a shared index on an S3 emulator (issue 23)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tests.support.cluster import ObjectStore, shared_env
from tests.support.helpers import ROOT

pytestmark = pytest.mark.slow  # jobs in subprocesses against moto's S3 server


@pytest.fixture(scope="module")
def store():
    server = ObjectStore().start()
    yield server
    server.stop()


def start_job(data_dir, store, path: str, *args: str) -> subprocess.Popen:
    env = shared_env(data_dir, store, None, PASTOR_INDEX_URI=f"s3://pastor-index/{path}")
    return subprocess.Popen(
        [sys.executable, "-m", "pastor", "index", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def releases(store, path: str):
    import os

    from pastor.replication.releases import ReleaseStore
    from pastor.replication.store import connect_shared

    env = store.env(path)
    os.environ.update({k: v for k, v in env.items() if k.startswith("AWS_")})
    return ReleaseStore(connect_shared(env["PASTOR_INDEX_URI"]))


def test_two_builders_at_once_leave_one_complete_index(store, tmp_path):
    jobs = [start_job(tmp_path / name, store, "two") for name in ("one", "other")]
    outputs = [job.communicate(timeout=600) for job in jobs]
    assert [job.returncode for job in jobs] == [0, 0], outputs
    said = " ".join(err for _, err in outputs)
    assert said.count("Publicado: versão") == 1  # one built and published ...
    assert "já publicado" in said  # ... the other (after waiting for the lease) had nothing to do
    shared = releases(store, "two")
    (release,) = shared.releases()
    fetched = shared.fetch(release, tmp_path / "fetched")
    name = release.manifest["table"]
    matrix = np.load(fetched / "index" / f"{name}.vectors.npy")
    assert matrix.shape == (release.manifest["total"], 512) == (25, 512)
    assert (fetched / "index" / "manifest.json").is_file() and (fetched / "index" / "tokens.json.gz").is_file()


def test_an_unchanged_index_is_not_published_again_unless_rebuilt(store, tmp_path):
    first = start_job(tmp_path / "job", store, "again")
    assert first.wait(600) == 0
    again = start_job(tmp_path / "job", store, "again")
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0 and "nada a fazer" in err
    rebuilt = start_job(tmp_path / "job", store, "again", "--rebuild")
    _, err = rebuilt.communicate(timeout=600)
    assert rebuilt.returncode == 0 and "Publicado: versão" in err
    assert len(releases(store, "again").releases()) == 2

"""Check content, not shape (issue 32 item 5): a restarted app whose vectors file (or table) holds zeros or
noise of the right shape refuses it, says why on /status, and serves repaired vectors instead."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pastor.index.verse_check import DIGEST_KEY
from tests.support.app_fixtures import LiveServer, wait_vectors
from tests.support.core_fixtures import settings_for
from tests.support.helpers import free_port

pytestmark = pytest.mark.integration  # a running app, restarted on the same data directory

QUESTIONS = ("Pedro perguntou quantas vezes devo perdoar meu irmão", "estou com medo do futuro")


def noise(shape) -> np.ndarray:
    rows = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def serve(settings) -> tuple[dict, list[dict]]:
    """Start the app, wait for its vectors, and return its /status and its answers to QUESTIONS."""
    server = LiveServer(settings.replace(port=free_port())).start()
    try:
        wait_vectors(server.runtime)
        client = server.client()
        return client.predict(api_name="/status"), [
            client.predict(q, 6, "bible", api_name="/search") for q in QUESTIONS
        ]
    finally:
        server.stop()


def test_a_restart_refuses_zero_or_noise_vectors_and_serves_repaired_ones(tmp_path, fake_models):
    settings = settings_for(tmp_path / "data", PASTOR_HOST="127.0.0.1", PASTOR_RATE_LIMIT_SECONDS="0")
    _, before = serve(settings)
    assert [a["mode"] for a in before] == ["rag", "rag"]
    index = settings.data_dir / "index"
    mirror, manifest_path = index / "verses.vectors.npy", index / "manifest.json"
    good, manifest = np.load(mirror), json.loads(manifest_path.read_text())

    def without_digest() -> None:  # an index built before digests existed: the sample must catch the noise
        np.save(mirror, noise(good.shape))
        manifest_path.write_text(json.dumps({k: v for k, v in manifest.items() if k != DIGEST_KEY}))

    cases = {
        "zero-filled": (lambda: np.save(mirror, np.zeros_like(good)), "25 de 25 vetores zerados"),
        "noise": (lambda: np.save(mirror, noise(good.shape)), "não confere com o resumo SHA-256"),
        "noise, no digest": (without_digest, "não reproduzem o modelo de embeddings"),
    }
    wrong = []
    for name, (damage, reason) in cases.items():
        damage()
        status, answers = serve(settings)
        notice = status["index_notice"] or ""
        seen = (status["index"]["state"], answers == before, np.array_equal(np.load(mirror), good))
        if seen != ("complete", True, True) or reason not in notice or "tabela do índice" not in notice:
            wrong.append((name, seen, notice))
        manifest_path.write_text(json.dumps(manifest))
    assert wrong == []


def test_a_restart_with_the_table_zeroed_too_rebuilds_it_and_says_so(tmp_path, fake_models):
    import pyarrow as pa

    from pastor.search.storage import connect

    settings = settings_for(tmp_path / "data", PASTOR_HOST="127.0.0.1", PASTOR_RATE_LIMIT_SECONDS="0")
    _, before = serve(settings)
    index = settings.data_dir / "index"
    db = connect(index)
    table = db.open_table("verses").to_arrow()
    zeros = pa.FixedSizeListArray.from_arrays(pa.array(np.zeros(table.num_rows * 64, np.float32)), 64)
    db.create_table(
        "verses", data=table.set_column(table.schema.get_field_index("vector"), "vector", zeros), mode="overwrite"
    )
    np.save(index / "verses.vectors.npy", np.zeros((table.num_rows, 64), np.float32))
    status, answers = serve(settings)  # the background build at start rebuilds it from the corpus
    assert status["index"]["state"] == "complete" and answers == before
    assert "índice corrompido (25 de 25 vetores zerados)" in status["index_notice"]
    assert "reconstruído a partir do corpus" in status["index_notice"]

"""One index sequence: `python -m pastor index` and the app's background build write the same manifests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pastor.cli import commands
from pastor.cli import main as cli
from pastor.web.runtime import Runtime
from tests.support.core_fixtures import copy_docs, settings_for

FORGIVE = "Pedro perguntou quantas vezes devo perdoar meu irmão"
# How long the build took differs between any two builds; everything else must be equal.
CLOCK_KEYS = {"build_seconds"}


def _manifests(data_dir: Path) -> dict[str, object]:
    """Every manifest of a data directory (verses, topics, adapter, documents), clock fields left out."""
    return {
        str(path.relative_to(data_dir)): _without_clock(json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(data_dir.rglob("*manifest.json"))
    }


def _without_clock(value):
    if isinstance(value, dict):
        return {k: _without_clock(v) for k, v in value.items() if k not in CLOCK_KEYS}
    if isinstance(value, list):
        return [_without_clock(v) for v in value]
    return value


@pytest.fixture
def every_part(tmp_path):
    """Settings with every step of the pipeline on: vectors, topics, the adapter and documents."""
    nave = tmp_path / "nave.csv"
    nave.write_text('section,subject,entry\nF,FORGIVENESS,"-OF ENEMIES MAT 6:14; EPH 4:32"\n', encoding="utf-8")
    questions = tmp_path / "perguntas.jsonl"
    questions.write_text(
        json.dumps({"question": FORGIVE, "gold": ["MAT 18:21"]}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    docs = copy_docs(tmp_path / "docs")

    def settings(data_dir: Path, **env: str):
        return settings_for(
            data_dir, PASTOR_TOPICS=str(nave), PASTOR_ADAPTER_QUESTIONS=str(questions), PASTOR_DOCS_DIR=str(docs), **env
        )

    return settings


def test_the_cli_and_the_app_build_the_same_index(tmp_path, every_part, fake_models, monkeypatch, capsys):
    by_cli = every_part(tmp_path / "cli")
    monkeypatch.setattr(commands, "get_settings", lambda: by_cli)
    assert cli.main(["index", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["state"] == "complete" and summary["topics"]["labels"] >= 1 and summary["documents"]["read"]

    runtime = Runtime(every_part(tmp_path / "app", PASTOR_BACKGROUND_INDEX="true")).start(background=False)
    try:
        assert runtime.engine.indexer.thread is not None  # the loader started the background build
        runtime.engine.indexer.thread.join(120)
        status = runtime.status()
    finally:
        runtime.stop()
    assert status["state"] == "complete" and status["errors"] == []
    assert status["topics"]["enabled"] and status["adapter"]["enabled"]

    cli_manifests, app_manifests = _manifests(tmp_path / "cli"), _manifests(tmp_path / "app")
    assert set(cli_manifests) >= {
        "index/manifest.json",
        "index/docs_manifest.json",
        "topics/manifest.json",
        "adapter/manifest.json",
    }
    assert cli_manifests == app_manifests

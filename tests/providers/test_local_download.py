"""The local model's first download through the real `huggingface_hub` client, against a loopback hub:
progress while it downloads, ready after it, and offline from then on (a new process, the hub closed)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.support.fake_hub import FakeHub
from tests.support.helpers import ROOT

pytestmark = pytest.mark.slow  # two subprocesses that import torch and transformers


def run_model_command(data_dir, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PASTOR_DATA_DIR": str(data_dir), **env}
    return subprocess.run(
        [sys.executable, "-m", "pastor", "model", "--model", "igreja/modelo-pequeno"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_first_use_downloads_with_progress_then_works_offline(tmp_path, wired_model):
    with FakeHub("igreja/modelo-pequeno", wired_model, pause=0.4) as hub:
        first = run_model_command(tmp_path, HF_ENDPOINT=hub.url, HF_HUB_OFFLINE="0")
        downloaded = list(hub.gets)
    assert first.returncode == 0, first.stderr
    progress = [int(p) for p in re.findall(r"baixando igreja/modelo-pequeno do Hugging Face Hub: (\d+)%", first.stderr)]
    assert progress and any(0 < p < 100 for p in progress), first.stderr  # seen while it was arriving
    assert "modelo local: carregado (transformers" in first.stderr
    folder = tmp_path / "models" / "igreja--modelo-pequeno"
    assert (folder / ".pastor-complete").is_file() and "model.safetensors" in downloaded
    # The hub is gone and the process is new: the cached copy is used without asking the network.
    second = run_model_command(tmp_path, HF_HUB_OFFLINE="1")
    assert second.returncode == 0, second.stderr
    assert "baixando" not in second.stderr and "carregado (transformers" in second.stderr

"""The declared Python (README front matter for Spaces, pastor.MINIMUM_PYTHON) is the one the code needs."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import pastor
from tests.support.helpers import ROOT

vermin = pytest.importorskip("vermin")  # test-only: requirements-dev.txt
CODE = ["pastor", "app.py", "bench"]


def declared() -> tuple[int, int]:
    front = ROOT.joinpath("README.md").read_text(encoding="utf-8").split("---")[1]
    found = re.search(r'^python_version:\s*"?(\d+)\.(\d+)"?\s*$', front, re.MULTILINE)
    assert found, "o front matter do README precisa de python_version (o Space usa 3.10 sem ele)"
    return int(found.group(1)), int(found.group(2))


def violations(*paths: str, target: tuple[int, int]) -> subprocess.CompletedProcess:
    """vermin in violations mode: exit code 0 only when nothing needs a Python newer than `target`."""
    command = [sys.executable, "-c", "import sys, vermin; sys.exit(vermin.main())"]
    return subprocess.run(
        [*command, "--no-tips", "--violations", "--eval-annotations", f"-t={target[0]}.{target[1]}-", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_front_matter_and_the_package_declare_the_same_python():
    assert declared() == pastor.MINIMUM_PYTHON


def test_no_code_needs_a_python_newer_than_declared():
    result = violations(*CODE, target=declared())
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_check_fails_on_a_feature_newer_than_declared(tmp_path):
    newer = tmp_path / "newer.py"
    newer.write_text("from typing import override\n", encoding="utf-8")  # Python 3.12
    assert violations(str(newer), target=declared()).returncode != 0


def test_the_check_fails_on_a_feature_the_space_default_lacks(tmp_path):
    # Without python_version a Space runs 3.10, which has no enum.StrEnum (pastor/search/modes.py).
    older = tmp_path / "older.py"
    older.write_text("from enum import StrEnum\n", encoding="utf-8")
    assert violations(str(older), target=(3, 10)).returncode != 0

"""Tests for pastor.cli.main: `corpus` and `lookup`, as a subprocess and in process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pastor.cli import main as cli
from pastor.config import Settings
from tests.support.helpers import ROOT


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    """`python -m pastor ARGS` from the repo root, with only the given PASTOR_* settings."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PASTOR_", "LLM_", "EMBEDDING_"))}
    return subprocess.run(
        [sys.executable, "-m", "pastor", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


# --- As a user runs it -------------------------------------------------------------------------


@pytest.mark.slow
class TestSubprocess:
    def test_corpus_json_on_almeida(self, almeida_path):
        done = run("corpus", "--json", PASTOR_CORPUS=str(almeida_path))
        assert done.returncode == 0, done.stderr
        stats = json.loads(done.stdout)
        assert (stats["file"], stats["books"], stats["chapters"], stats["verses"]) == (
            almeida_path.name,
            66,
            1189,
            31101,
        )
        assert stats["sha256"] == "b0d41dc6f818a9cd79fca5c645d94cd7bc47b47d919a39220220c866c4c3405c"  # uncompressed
        assert [(d["book"], d["chapter"], d["expected"], d["found"], d["missing"]) for d in stats["differences"]] == [
            ("2CO", 13, 14, 13, [14])
        ]
        assert stats["load_seconds"] > 0

    def test_lookup_json_shape(self, almeida_path):
        done = run("lookup", "Leia Jo 3.16 e Tobias 1:1", "--json", PASTOR_CORPUS=str(almeida_path))
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert set(result) == {"found", "references", "not_found"}
        assert result["found"] is True
        [reference] = result["references"]
        assert reference["reference"] == "João 3:16"
        [verse] = reference["verses"]
        assert set(verse) == {"id", "reference", "text"}
        assert (verse["id"], verse["reference"]) == ("JHN 3:16", "João 3:16")
        assert verse["text"].startswith("Porque Deus amou o mundo")
        [missing] = result["not_found"]
        assert set(missing) == {"text", "reason"}
        assert missing["text"] == "Tobias 1:1"
        assert "deuterocanônico" in missing["reason"]

    def test_missing_corpus_exits_2_with_portuguese_message(self, tmp_path):
        missing = tmp_path / "nao-ha.usfx.xml"
        done = run("corpus", "--json", PASTOR_CORPUS=str(missing))
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr.startswith("erro: Arquivo do corpus não encontrado")
        assert str(missing) in done.stderr
        assert "PASTOR_CORPUS" in done.stderr
        assert "Traceback" not in done.stderr

    def test_invalid_setting_exits_2_naming_the_variable(self, tmp_path):
        done = run("corpus", PASTOR_CORPUS=str(tmp_path / "x.xml"), PASTOR_PORT="abc")
        assert done.returncode == 2
        assert done.stderr.startswith("erro: PASTOR_PORT")


# --- In process, against the session's corpus --------------------------------------------------


@pytest.fixture
def in_process(monkeypatch, almeida, almeida_path):
    """Run `cli.main` with the Almeida corpus already loaded (no second parse per test)."""
    settings = Settings.from_env({"PASTOR_CORPUS": str(almeida_path)})
    monkeypatch.setattr(cli, "get_settings", lambda: settings)
    monkeypatch.setattr(cli, "load_bible", lambda path: almeida)
    return cli.main


class TestInProcess:
    def test_corpus_text(self, in_process, capsys):
        assert in_process(["corpus"]) == 0
        out = capsys.readouterr().out
        assert "66 livros, 1189 capítulos, 31101 versículos" in out
        assert "2 Coríntios 13: 13 versículos (canônico: 14); faltam [14]" in out

    def test_lookup_text(self, in_process, capsys):
        assert in_process(["lookup", "Sl 23:1"]) == 0
        assert capsys.readouterr().out.splitlines() == [
            "Salmos 23:1",
            "  Salmos 23:1: O Senhor é o meu pastor, nada me faltará.",
        ]

    def test_lookup_not_found_exits_1(self, in_process, capsys):
        assert in_process(["lookup", "João 30:1"]) == 1
        assert (
            capsys.readouterr().out.strip()
            == "Não encontrado: João 30:1 — João tem 21 capítulos; o capítulo 30 não existe."
        )

    def test_lookup_2co_13_14_is_not_in_almeida(self, in_process, capsys):
        assert in_process(["lookup", "2 Coríntios 13:14", "--json"]) == 1
        result = json.loads(capsys.readouterr().out)
        assert result["found"] is False
        assert result["not_found"][0]["text"] == "2 Coríntios 13:14"

    def test_lookup_without_any_reference_says_why(self, in_process, capsys):
        assert in_process(["lookup", "bom dia"]) == 1
        assert (
            capsys.readouterr().out.strip()
            == "Não encontrado: bom dia — Nenhuma referência bíblica reconhecida no texto (livro não reconhecido)."
        )

    def test_lookup_of_blank_text(self, in_process, capsys):
        assert in_process(["lookup", "  "]) == 0
        assert capsys.readouterr().out.strip() == "Nenhuma referência bíblica reconhecida no texto."

    def test_json_keeps_accents(self, in_process, capsys):
        in_process(["lookup", "João 3:16", "--json"])
        assert '"João 3:16"' in capsys.readouterr().out

    def test_unknown_command_is_a_usage_error(self, capsys):
        with pytest.raises(SystemExit) as info:
            cli.main(["voar"])
        assert info.value.code == 2

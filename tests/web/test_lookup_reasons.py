"""`/lookup` and `python -m pastor lookup` give the same answer, and every text gets references or reasons."""

from __future__ import annotations

import json

import pytest

from pastor.cli import main as cli
from pastor.config import Settings
from tests.web.test_security_limits import api_for, request

TEXTS = [
    "João 3:16",
    "1. João 4:8",
    "primeira de João 4 8",
    "Apocalipse de João 1:1",
    "Hezequias 3:16",
    "asdfgh",
    "Tobias 1:1",
    "2 Esdras 1:1",
    "3 Mc 1:1",
    "4 João 3:16",
    "Leia Romanos",
    "João 30:1",
    "Mateus 5:99",
    "segunda carta aos Coríntios 5:17",
    "Sl 22(23)",
    "Dn 13",
    "Sl 23:1 e Hezequias 3:16",
]


@pytest.mark.parametrize("text", TEXTS)
def test_cli_and_api_agree(tmp_path, monkeypatch, capsys, almeida, almeida_path, text):
    settings = Settings.from_env({"PASTOR_CORPUS": str(almeida_path)})
    monkeypatch.setattr(cli, "get_settings", lambda: settings)
    monkeypatch.setattr(cli, "load_bible", lambda path: almeida)
    code = cli.main(["lookup", text, "--json"])
    from_cli = json.loads(capsys.readouterr().out)
    from_api = api_for(tmp_path, almeida).lookup(text, request())
    assert from_cli == from_api
    assert code == (0 if from_api["found"] else 1)
    assert from_api["references"] or all(entry["reason"] for entry in from_api["not_found"])
    assert from_api["references"] or from_api["not_found"]


def test_the_issue_examples_through_the_api(tmp_path, almeida):
    api = api_for(tmp_path, almeida)
    assert api.lookup("1. João 4:8", request())["references"][0]["verses"][0]["id"] == "1JN 4:8"
    assert api.lookup("Apocalipse de João 1:1", request())["references"][0]["reference"] == "Apocalipse 1:1"
    [missing] = api.lookup("Hezequias 3:16", request())["not_found"]
    assert missing == {"text": "Hezequias 3:16", "reason": "Hezequias: livro não reconhecido."}
    [missing] = api.lookup("2 Esdras 1:1", request())["not_found"]
    assert "2 Esdras não faz parte" in missing["reason"]

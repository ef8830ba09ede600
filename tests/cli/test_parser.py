"""The command line in Portuguese (issue 29, item 6b): usage, help and every error argparse writes, words joined into
one text (`lookup Jo 3.16`), `--k` in range, and an empty question refused before anything loads."""

from __future__ import annotations

import re

import pytest

from pastor.cli import commands
from pastor.cli import main as cli
from pastor.cli.parser import translate
from pastor.config import Settings
from tests.support.helpers import MINI_CORPUS

# argparse's English, as an operator would have read it.
ENGLISH = re.compile(
    r"\b(usage|error|argument|arguments|invalid|required|unrecognized|expected|choose|positional|options|show|"
    r"ambiguous|allowed)\b",
    re.I,
)
BAD_COMMAND_LINES = [
    [],
    ["voar"],
    ["lookup"],
    ["lookup", "Jo", "--bogus"],
    ["search"],
    ["search", "perdão", "--k", "0"],
    ["search", "perdão", "--k", "51"],
    ["search", "perdão", "--k", "muitos"],
    ["search", "perdão", "--k"],
    ["search", "perdão", "--source", "web"],
    ["eval"],
    ["eval", "perguntas.jsonl", "--k", "-1"],
    ["ask"],
    ["index", "--rebuild", "agora"],
    ["model", "--model"],
    ["prominence"],
]


def parse(argv: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as ended:
        cli.build_parser().parse_args(argv)
    out, err = capsys.readouterr()
    return ended.value.code, out, err


def test_every_usage_error_is_portuguese_with_status_2(capsys):
    wrong = []
    for argv in BAD_COMMAND_LINES:
        code, _, err = parse(argv, capsys)
        lines = err.strip().splitlines()
        if code != 2 or not lines[0].startswith("uso: python -m pastor") or ": erro: " not in lines[-1]:
            wrong.append(f"{argv}: status {code}\n{err}")
        elif ENGLISH.search(err):
            wrong.append(f"{argv}: inglês em {err!r}")
    assert wrong == [], "\n".join(wrong)


def test_the_help_of_every_command_is_portuguese(capsys):
    commands_ = ["corpus", "lookup", "index", "search", "eval", "ask", "prominence", "model"]
    wrong = []
    for argv in [["--help"], *([name, "--help"] for name in commands_)]:
        code, out, _ = parse(argv, capsys)
        if code != 0 or not out.startswith("uso: ") or "opções:" not in out or ENGLISH.search(out):
            wrong.append(f"{argv}: {out!r}")
    assert wrong == [], "\n".join(wrong)


def test_a_k_out_of_range_says_the_range():
    assert (
        translate("argument --k: invalid int value: 'x'")
        == "opção --k: valor inválido: 'x' (esperado um número inteiro)"
    )


def test_search_k_0_is_refused_before_the_engine_loads(capsys, monkeypatch):
    monkeypatch.setattr(commands, "_engine", lambda: pytest.fail("carregou a busca para um --k inválido"))
    code, out, err = parse(["search", "perdão", "--k", "0"], capsys)
    assert code == 2 and out == "" and "--k: 0 está fora do intervalo: use de 1 a 50 versículos" in err


def test_lookup_joins_its_words_into_one_text(capsys, monkeypatch):
    settings = Settings.from_env({"PASTOR_CORPUS": str(MINI_CORPUS)})
    monkeypatch.setattr(cli, "get_settings", lambda: settings)
    assert cli.main(["lookup", "Jo", "3.16"]) == 0
    words = capsys.readouterr()
    assert cli.main(["lookup", "Jo 3.16"]) == 0
    assert words.out == capsys.readouterr().out and words.out.startswith("João 3:16\n") and words.err == ""


def test_an_empty_question_is_refused_before_any_model_or_index_loads(capsys, monkeypatch):
    monkeypatch.setattr(commands, "_engine", lambda: pytest.fail("carregou a busca para uma pergunta vazia"))
    monkeypatch.setattr(commands, "build_provider", lambda settings: pytest.fail("preparou um modelo"))
    for question in ([""], ["  ", " "]):
        assert cli.main(["ask", *question]) == 2
        assert "Escreva uma mensagem" in capsys.readouterr().err

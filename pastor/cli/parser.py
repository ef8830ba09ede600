"""The command line's parser in Portuguese: argparse's usage, help and error texts are English (and its own
gettext catalogue has no pt-BR), so they are worded here; the argument checks the commands share live here too."""

from __future__ import annotations

import argparse
import re
import sys
from typing import NoReturn

# The most verses a search returns (as the API's /search: web/api.py MAX_K).
MAX_K = 50
JSON_HELP = "saída em JSON"

# argparse's messages (Python 3.11–3.13), in the order they are tried; a message that matches none is shown
# as it is. `{type}` is filled from TYPE_NAMES.
MESSAGES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p), r)
    for p, r in (
        (r"^the following arguments are required: (.*)$", r"faltou informar: \1"),
        (r"^unrecognized arguments: (.*)$", r"argumentos não reconhecidos: \1"),
        (r"^invalid choice: (.*) \(choose from (.*)\)$", r"valor inválido: \1 (use um destes: \2)"),
        (r"^invalid (\w+) value: (.*)$", r"valor inválido: \2 (esperado {type})"),
        (r"^expected one argument$", "falta o valor"),
        (r"^expected at most one argument$", "no máximo um valor"),
        (r"^expected at least one argument$", "falta ao menos um valor"),
        (r"^expected (\d+) arguments?$", r"esperados \1 valores"),
        (r"^ambiguous option: (\S+) could match (.*)$", r"opção ambígua: \1 pode ser \2"),
        (r"^one of the arguments (.*) is required$", r"informe um destes: \1"),
        (r"^not allowed with argument (.*)$", r"não pode ser usado junto com \1"),
        (r"^ignored explicit argument (.*)$", r"valor não esperado: \1"),
        (r"^unexpected option string: (.*)$", r"opção inesperada: \1"),
        (r"^can't open '(.*)': (.*)$", r"não foi possível abrir '\1': \2"),
    )
]
ARGUMENT = re.compile(r"^argument (\S+): (.*)$", re.S)
TYPE_NAMES = {"int": "um número inteiro", "float": "um número"}


def translate(message: str) -> str:
    """One argparse error message in Portuguese ("argument --k: invalid int value: 'x'" → "opção --k: …")."""
    argument = ARGUMENT.match(message)
    if argument:
        name, rest = argument.groups()
        kind = "opção" if name.startswith("-") else "argumento"
        return f"{kind} {name}: {translate(rest)}"
    for pattern, replacement in MESSAGES:
        found = pattern.match(message)
        if found:
            wanted = TYPE_NAMES.get(found.group(1), "outro valor") if "{type}" in replacement else ""
            return found.expand(replacement).replace("{type}", wanted)
    return message


class HelpFormatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, prefix="uso: " if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that speaks Portuguese: usage, section titles, the help option and every error; an
    error exits with status 2, as argparse's own."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = "argumentos"
        self._optionals.title = "opções"
        self.add_argument("-h", "--help", action="help", help="mostra esta ajuda e sai")

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: erro: {translate(message)}\n")


def positive_int(text: str) -> int:
    """`--k`: how many verses, 1 to MAX_K (0 returned a mode line and nothing, with status 0)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} não é um número inteiro (use de 1 a {MAX_K})") from None
    if not 1 <= value <= MAX_K:
        raise argparse.ArgumentTypeError(f"{value} está fora do intervalo: use de 1 a {MAX_K} versículos")
    return value


def joined(words: list[str]) -> str:
    """A text given as several words (`lookup Jo 3.16`, `search estou triste`): one text, as if quoted."""
    return " ".join(words)

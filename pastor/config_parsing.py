"""How a setting is declared (`setting`, `Spec`) and how its text becomes a value (the parsers `pastor.config`'s
declarations name), and the `.env` file. Imports nothing of `pastor` but its errors' base."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pastor.errors import PastorError

# The project root: relative paths in settings are resolved against it.
ROOT = Path(__file__).resolve().parent.parent


class ConfigError(PastorError, ValueError):
    """A setting has an invalid value; the message names the variable."""

    @classmethod
    def invalid(cls, var: str, raw: str, parse: Callable[[str], Any], exc: Exception) -> ConfigError:
        """`raw` is no value for `var`: why, in Portuguese (the parsers here say it; int() and float() in English)."""
        return cls(f"{var}: valor inválido {raw!r} ({NUMBER_NAMES.get(parse) or exc})")


# What a setting parsed by int() or float() expects: their own errors are English ("invalid literal for int()…").
NUMBER_NAMES: dict[Callable[[str], Any], str] = {
    int: "esperado um número inteiro",
    float: "esperado um número (ex.: 0.5)",
}


def to_path(value: str) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() else ROOT / path


def to_paths(value: str) -> tuple[Path, ...]:
    return tuple(to_path(p.strip()) for p in value.split(",") if p.strip())


def to_bool(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on", "sim"}:
        return True
    if lowered in {"0", "false", "no", "off", "nao", "não", ""}:
        return False
    raise ValueError("esperado true/false")


def to_words(value: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in value.split(",") if p.strip())


def to_optional_path(value: str) -> Path | None:
    return to_path(value) if value.strip() else None


# The providers LLM_PROVIDER may name (`pastor.providers.PROVIDERS` implements exactly these; a test keeps both
# equal). Declared here so an unknown name stops the start like any other invalid setting: the chat must never
# come up without its crisis replies because of a typo.
PROVIDER_NAMES = ("ollama", "openai", "groq", "anthropic", "huggingface", "local", "fake", "none")


def to_provider(value: str) -> str:
    name = value.strip().lower()
    if name and name not in PROVIDER_NAMES:
        raise ValueError(
            f"provedor desconhecido {value.strip()!r}; use um destes: {', '.join(PROVIDER_NAMES)} "
            "(ou deixe vazio para a escolha automática)"
        )
    return name


def setting(
    var: str,
    default: str,
    parse: Callable[[str], Any],
    *,
    minimum: float | None = None,
    secret: bool = False,
    help: str = "",
) -> Any:
    """Declare one setting: its environment variable, default (as text), parser, lower bound and help. Typed
    `Any`, as `dataclasses.field` is: the field's annotation says what the parsed value is."""
    meta = {"var": var, "default": default, "parse": parse, "minimum": minimum, "help": help}
    return field(repr=not secret, metadata=meta)


@dataclass(frozen=True)
class Spec:
    """One setting's declaration, as read from the `Settings` field that holds it."""

    attr: str
    var: str
    default: str
    parse: Callable[[str], Any]
    minimum: float | None
    help: str

    def __iter__(self):  # unpacks as (attr, var, default, parse, minimum)
        return iter((self.attr, self.var, self.default, self.parse, self.minimum))


def settings_table(spec: tuple[Spec, ...], secret_vars: tuple[str, ...]) -> str:
    """The Markdown table of every declared setting, then the API keys read apart (`pastor.config.markdown_table`)."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]

    def cell(text: str) -> str:
        return text.replace("|", "\\|")  # a pipe inside a cell would split it

    for one in spec:
        default = f"`{cell(one.default)}`" if one.default else "(empty)"
        rows.append(f"| `{one.var}` | {default} | {cell(one.help)} |")
    keys = ", ".join(f"`{var}`" for var in secret_vars)
    rows.append(f"| {keys} | (empty) | API keys, read from the environment or `.env`; never logged or shown |")
    return "\n".join(rows)


def read_dotenv(path: Path) -> dict[str, str]:
    """Parse KEY=VALUE lines; `#` comments and blank lines are skipped."""
    if not path.is_file():
        return {}
    values = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise ConfigError(f"{path.name}, linha {number}: esperado CHAVE=VALOR")
        key, value = line.split("=", 1)
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


# Gradio's own variables, honoured when the project's are not set (a Space or a host that sets Gradio's
# conventions finds the app where it expects it); the project's variable wins when both are set.
ALIASES = {"PASTOR_PORT": "GRADIO_SERVER_PORT", "PASTOR_HOST": "GRADIO_SERVER_NAME"}


def with_aliases(source: dict[str, str]) -> dict[str, str]:
    """`source` with each project variable taken from its Gradio alias when only the alias is set."""
    return {**{ours: source[theirs] for ours, theirs in ALIASES.items() if theirs in source}, **source}

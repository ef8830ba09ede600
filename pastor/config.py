"""Settings for Pastor Online, read once from the environment and an optional `.env`."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Mapping

# The project root: relative paths in settings are resolved against it.
ROOT = Path(__file__).resolve().parent.parent


class ConfigError(ValueError):
    """A setting has an invalid value; the message names the variable."""


def _path(value: str) -> Path:
    path = Path(value).expanduser()
    return path if path.is_absolute() else ROOT / path


def _paths(value: str) -> tuple[Path, ...]:
    return tuple(_path(p.strip()) for p in value.split(",") if p.strip())


def _bool(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on", "sim"}:
        return True
    if lowered in {"0", "false", "no", "off", "nao", "não", ""}:
        return False
    raise ValueError("esperado true/false")


def _optional_path(value: str) -> Path | None:
    return _path(value) if value.strip() else None


# Each setting: attribute, environment variable, default (as text), parser, and lower bound.
# A single table keeps the README's configuration table and the code in step.
SPEC: tuple[tuple[str, str, str, object, float | None], ...] = (
    ("corpus", "PASTOR_CORPUS", "corpus/por-almeida1911.usfx.xml", _path, None),
    ("extra_corpora", "PASTOR_EXTRA_CORPORA", "", _paths, None),
    ("data_dir", "PASTOR_DATA_DIR", "data", _path, None),
    ("docs_dir", "PASTOR_DOCS_DIR", "corpus/docs", _optional_path, None),
    ("prominence", "PASTOR_PROMINENCE", "corpus/verse_prominence.tsv", _optional_path, None),
    ("prominence_weight", "PASTOR_PROMINENCE_WEIGHT", "0.006", float, 0.0),
    ("lexical_weight", "PASTOR_LEXICAL_WEIGHT", "0.6", float, 0.0),
    ("embedding_model", "EMBEDDING_MODEL", "use-multilingual", str, None),
    ("embed_window", "PASTOR_EMBED_WINDOW", "0", int, 0),
    ("modernize", "PASTOR_MODERNIZE", "true", _bool, None),
    ("embed_batch", "PASTOR_EMBED_BATCH", "256", int, 1),
    ("stemmer", "PASTOR_STEMMER", "rslp", str, None),
    ("rrf_k", "PASTOR_RRF_K", "120", int, 1),
    ("top_k", "PASTOR_TOP_K", "6", int, 1),
    ("candidates", "PASTOR_CANDIDATES", "30", int, 1),
    ("llm_provider", "LLM_PROVIDER", "ollama", str, None),
    ("llm_model", "LLM_MODEL", "", str, None),
    ("llm_timeout", "LLM_TIMEOUT", "60", float, 0.1),
    ("ollama_host", "OLLAMA_HOST", "http://localhost:11434", str, None),
    ("openai_base_url", "OPENAI_BASE_URL", "", str, None),
    ("fake_responses", "PASTOR_FAKE_RESPONSES", "", _optional_path, None),
    ("fake_chunk", "PASTOR_FAKE_CHUNK", "3", int, 1),
    ("fake_delay", "PASTOR_FAKE_DELAY", "0", float, 0.0),
    ("host", "PASTOR_HOST", "0.0.0.0", str, None),
    ("port", "PASTOR_PORT", "7860", int, 1),
    ("reindex_token", "REINDEX_TOKEN", "", str, None),
    ("rate_limit_seconds", "PASTOR_RATE_LIMIT_SECONDS", "3", float, 0.0),
    ("max_message_chars", "PASTOR_MAX_MESSAGE_CHARS", "4000", int, 1),
    ("history_turns", "PASTOR_HISTORY_TURNS", "10", int, 0),
    ("concurrency", "PASTOR_CONCURRENCY", "8", int, 1),
    ("log_max_bytes", "PASTOR_LOG_MAX_BYTES", "5000000", int, 1024),
    ("chunk_size", "PASTOR_CHUNK_SIZE", "800", int, 50),
    ("chunk_overlap", "PASTOR_CHUNK_OVERLAP", "100", int, 0),
    ("doc_max_bytes", "PASTOR_DOC_MAX_BYTES", "2000000", int, 1),
    ("background_index", "PASTOR_BACKGROUND_INDEX", "true", _bool, None),
)

# Secrets are read by `pastor.providers` (from `.env` and the environment) and passed to the SDKs; only their presence is
# recorded here, so a key can never end up in a status page or a log line.
SECRET_VARS = ("OPENAI_API_KEY", "GROQ_API_KEY", "ANTHROPIC_API_KEY")


@dataclass(frozen=True)
class Settings:
    corpus: Path
    extra_corpora: tuple[Path, ...]
    data_dir: Path
    docs_dir: Path | None
    prominence: Path | None
    prominence_weight: float
    lexical_weight: float
    embedding_model: str
    embed_window: int
    modernize: bool
    embed_batch: int
    stemmer: str
    rrf_k: int
    top_k: int
    candidates: int
    llm_provider: str
    llm_model: str
    llm_timeout: float
    ollama_host: str
    openai_base_url: str
    fake_responses: Path | None
    fake_chunk: int
    fake_delay: float
    host: str
    port: int
    reindex_token: str = field(repr=False)
    rate_limit_seconds: float
    max_message_chars: int
    history_turns: int
    concurrency: int
    log_max_bytes: int
    chunk_size: int
    chunk_overlap: int
    doc_max_bytes: int
    background_index: bool

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides) -> "Settings":
        """Build settings from a mapping (default: `.env` then the process environment)."""
        source = dict(read_dotenv(ROOT / ".env")) if env is None else {}
        source.update(os.environ if env is None else env)
        values = {}
        for attr, var, default, parse, minimum in SPEC:
            raw = source.get(var, default)
            try:
                value = parse(raw)
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"{var}: valor inválido {raw!r} ({exc})") from None
            if minimum is not None and value < minimum:
                raise ConfigError(f"{var}: valor {raw!r} abaixo do mínimo {minimum}")
            values[attr] = value
        values.update(overrides)
        settings = cls(**values)
        settings.check()
        return settings

    def check(self) -> None:
        """Cross-field checks that a single parser cannot make."""
        if self.stemmer not in {"rslp", "snowball", "none"}:
            raise ConfigError(f"PASTOR_STEMMER: use rslp, snowball ou none (recebido {self.stemmer!r})")
        if self.chunk_overlap >= self.chunk_size:
            raise ConfigError("PASTOR_CHUNK_OVERLAP: deve ser menor que PASTOR_CHUNK_SIZE")
        if self.candidates < self.top_k:
            raise ConfigError("PASTOR_CANDIDATES: deve ser maior ou igual a PASTOR_TOP_K")

    def replace(self, **changes) -> "Settings":
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        settings = Settings(**values)
        settings.check()
        return settings


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


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings.from_env()

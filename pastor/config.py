"""Settings for Pastor Online, read once from the environment and an optional `.env`."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

from pastor.care.contacts import CRISIS_CONTACTS_DEFAULT, CrisisContact, parse_contacts
from pastor.config_parsing import (
    PROVIDER_NAMES,
    ROOT,
    ConfigError,
    Spec,
    read_dotenv,
    setting,
    settings_table,
    to_bool,
    to_optional_path,
    to_path,
    to_paths,
    to_provider,
    to_words,
    with_aliases,
)


def translation_key(path: Path | str) -> str:
    """The short name a reader and the API choose a translation by: its file name without the
    language prefix and the USFX extensions (`por-blivre.usfx.xml.gz` → `blivre`)."""
    name = Path(path).name.lower()
    for suffix in (".gz", ".xml", ".usfx"):
        name = name.removesuffix(suffix)
    return name.removeprefix("por-")


# Secrets are read by `pastor.providers` (from `.env` and the environment) and passed to the SDKs; only their
# presence is recorded here, so a key can never end up in a status page or a log line.
SECRET_VARS = ("OPENAI_API_KEY", "GROQ_API_KEY", "ANTHROPIC_API_KEY", "HF_TOKEN")


@dataclass(frozen=True)
class Settings:
    """Every setting, declared once: attribute, environment variable, type, default and help."""

    corpus: Path = setting(
        "PASTOR_CORPUS", "corpus/por-almeida1911.usfx.xml.gz", to_path, help="USFX file cited (plain or .gz)"
    )
    extra_corpora: tuple[Path, ...] = setting(
        "PASTOR_EXTRA_CORPORA",
        "corpus/por-blivre.usfx.xml.gz",
        to_paths,
        help="comma-separated USFX files searched too; empty = none",
    )
    translation: str = setting(
        "PASTOR_TRANSLATION",
        "",
        str,
        help="text shown and copied unless the reader chooses another, by the short name of a corpus (almeida1911, "
        "blivre); empty = the first extra corpus (the Bíblia Livre, modern spelling), else PASTOR_CORPUS",
    )
    data_dir: Path = setting(
        "PASTOR_DATA_DIR", "data", to_path, help="runtime state: LanceDB index, manifest, turn logs"
    )
    docs_dir: Path | None = setting(
        "PASTOR_DOCS_DIR",
        "",
        to_optional_path,
        help="the church's own documents (e.g. corpus/docs/example); empty = off",
    )
    prominence: Path | None = setting(
        "PASTOR_PROMINENCE",
        "corpus/verse_prominence.tsv.gz",
        to_optional_path,
        help="verse-prominence TSV (plain or .gz); empty = prior off",
    )
    prominence_weight: float = setting(
        "PASTOR_PROMINENCE_WEIGHT", "0.01", float, minimum=0.0, help="λ in score + λ·log(1+in_votes)"
    )
    lexical_weight: float = setting(
        "PASTOR_LEXICAL_WEIGHT",
        "0.5",
        float,
        minimum=0.0,
        help="weight of the BM25 list in the fusion (vector list: 1)",
    )
    embedding_model: str = setting(
        "EMBEDDING_MODEL", "use-multilingual", str, help="use-multilingual or any sentence-transformers id / local path"
    )
    embed_window: int = setting(
        "PASTOR_EMBED_WINDOW", "0", int, minimum=0, help="neighbours embedded with each verse (±n, same chapter)"
    )
    modernize: bool = setting(
        "PASTOR_MODERNIZE",
        "true",
        to_bool,
        help="embed verses and documents in modern spelling (1911 → today), accents folded",
    )
    embed_batch: int = setting(
        "PASTOR_EMBED_BATCH", "256", int, minimum=1, help="verses per indexing batch (the resume unit)"
    )
    stemmer: str = setting("PASTOR_STEMMER", "rslp", str, help="rslp, snowball or none, for BM25")
    rrf_k: int = setting("PASTOR_RRF_K", "60", int, minimum=1, help="reciprocal-rank-fusion constant")
    top_k: int = setting("PASTOR_TOP_K", "6", int, minimum=1, help="sources given to the model")
    candidates: int = setting(
        "PASTOR_CANDIDATES", "60", int, minimum=1, help="candidates taken from each retriever before fusion"
    )
    llm_provider: str = setting(
        "LLM_PROVIDER",
        "",
        to_provider,
        help="ollama, openai, groq, anthropic, huggingface, local, fake or none; empty = "
        "automatic: an API whose key is set, else Ollama if it answers with its model, else the local model",
    )
    llm_model: str = setting("LLM_MODEL", "", str, help="model name; empty = provider default")
    llm_timeout: float = setting("LLM_TIMEOUT", "60", float, minimum=0.1, help="seconds")
    local_model: str = setting(
        "PASTOR_LOCAL_MODEL",
        "Qwen/Qwen2.5-0.5B-Instruct",
        str,
        help="local provider: Hugging Face hub id (downloaded once into the data directory) or a folder with the model",
    )
    local_dtype: str = setting(
        "PASTOR_LOCAL_DTYPE",
        "auto",
        str,
        help="local provider: auto (bfloat16 where the CPU has it natively, else float32), bfloat16 or float32",
    )
    local_max_tokens: int = setting(
        "PASTOR_LOCAL_MAX_TOKENS", "400", int, minimum=1, help="local provider: most tokens in one answer"
    )
    local_max_prompt_tokens: int = setting(
        "PASTOR_LOCAL_MAX_PROMPT_TOKENS",
        "1536",
        int,
        minimum=256,
        help="local provider: longest prompt; older history is dropped "
        "first (each prompt token costs first-token time on a CPU)",
    )
    local_temperature: float = setting(
        "PASTOR_LOCAL_TEMPERATURE", "0.3", float, minimum=0.0, help="local provider: sampling temperature (0 = greedy)"
    )
    ollama_host: str = setting("OLLAMA_HOST", "http://localhost:11434", str, help="Ollama server")
    openai_base_url: str = setting("OPENAI_BASE_URL", "", str, help="any OpenAI-compatible server")
    fake_responses: Path | None = setting(
        "PASTOR_FAKE_RESPONSES", "", to_optional_path, help="scripted responses of the fake provider"
    )
    fake_chunk: int = setting("PASTOR_FAKE_CHUNK", "3", int, minimum=1, help="fake provider: characters per chunk")
    fake_delay: float = setting(
        "PASTOR_FAKE_DELAY", "0", float, minimum=0.0, help="fake provider: seconds between chunks"
    )
    host: str = setting("PASTOR_HOST", "0.0.0.0", str, help="address the app listens on (or GRADIO_SERVER_NAME)")
    port: int = setting("PASTOR_PORT", "7860", int, minimum=1, help="port the app listens on (or GRADIO_SERVER_PORT)")
    reindex_token: str = setting("REINDEX_TOKEN", "", str, secret=True, help="token the Reindex button and API ask for")
    rate_limit_seconds: float = setting(
        "PASTOR_RATE_LIMIT_SECONDS", "3", float, minimum=0.0, help="one question per client every n seconds (0 = off)"
    )
    max_message_chars: int = setting(
        "PASTOR_MAX_MESSAGE_CHARS", "4000", int, minimum=1, help="longest message accepted"
    )
    history_turns: int = setting(
        "PASTOR_HISTORY_TURNS", "10", int, minimum=0, help="exchanges of history sent to the model"
    )
    concurrency: int = setting("PASTOR_CONCURRENCY", "8", int, minimum=1, help="Gradio queue concurrency")
    log_max_bytes: int = setting("PASTOR_LOG_MAX_BYTES", "5000000", int, minimum=1024, help="turn log rotation size")
    chunk_size: int = setting("PASTOR_CHUNK_SIZE", "800", int, minimum=50, help="document chunk size, in characters")
    chunk_overlap: int = setting(
        "PASTOR_CHUNK_OVERLAP", "100", int, minimum=0, help="document chunk overlap, in characters"
    )
    doc_max_bytes: int = setting("PASTOR_DOC_MAX_BYTES", "2000000", int, minimum=1, help="largest document file read")
    background_index: bool = setting(
        "PASTOR_BACKGROUND_INDEX", "true", to_bool, help="build the vector index in the background at start"
    )
    crisis_contacts: tuple[CrisisContact, ...] = setting(
        "PASTOR_CRISIS_CONTACTS",
        CRISIS_CONTACTS_DEFAULT,
        parse_contacts,
        help="help lines shown in a crisis: País|Serviço|Número|Observação|tipos, separated by `;` "
        "(tipos: suicide, self_harm, violence, abuse, overdose separated by commas; none = every crisis)",
    )
    semantic_router: bool = setting(
        "PASTOR_SEMANTIC_ROUTER",
        "true",
        to_bool,
        help="route messages by meaning too (classifiers trained on labelled messages, on the embedder, "
        "cached in data/classifiers); off = the crisis lexicon, the rules and the small-talk list only",
    )
    scope_classifier: bool = setting(
        "PASTOR_SCOPE_CLASSIFIER",
        "true",
        to_bool,
        help="let the evidence gate tell a pastoral message from an off-topic one by meaning (a classifier "
        "trained on labelled messages, on the embedder, cached in data/classifiers); off = pastoral vocabulary only",
    )
    # Abuse limits, storage and privacy (issue 11).
    trusted_proxies: tuple[str, ...] = setting(
        "PASTOR_TRUSTED_PROXIES",
        "",
        to_words,
        help="comma-separated proxy addresses whose X-Forwarded-For is believed; empty = the socket peer",
    )
    max_body_bytes: int = setting(
        "PASTOR_MAX_BODY_BYTES", "1000000", int, minimum=1024, help="largest HTTP request body accepted"
    )
    requests_per_minute: int = setting(
        "PASTOR_REQUESTS_PER_MINUTE",
        "600",
        int,
        minimum=1,
        help="HTTP requests per client a minute, every route together "
        "(page, assets, events, API, health); bursts up to half of it",
    )
    doc_max_parts: int = setting(
        "PASTOR_DOC_MAX_PARTS", "5000", int, minimum=1, help="most parts (rows, JSON elements) read from one document"
    )
    doc_max_chunks: int = setting(
        "PASTOR_DOC_MAX_CHUNKS", "5000", int, minimum=1, help="most chunks indexed from one document"
    )
    log_text: bool = setting(
        "PASTOR_LOG_TEXT",
        "true",
        to_bool,
        help="store questions and answers in the turn log; off = ids, modes and scores only",
    )
    log_retention_days: float = setting(
        "PASTOR_LOG_RETENTION_DAYS",
        "30",
        float,
        minimum=0.0,
        help="turn log lines older than this are removed (0 = keep forever)",
    )
    # Retrieval signals beyond vectors and BM25 (issue 12); weights chosen by bench/tune_retrieval.py on the dev set.
    topics: tuple[Path, ...] = setting(
        "PASTOR_TOPICS",
        "corpus/naves-topical-dictionary.csv.gz,corpus/torrey-topics.json.gz",
        to_paths,
        help="topical Bibles (Nave's .csv, Torrey's .json, .gz ok); empty = off",
    )
    topic_weight: float = setting(
        "PASTOR_TOPIC_WEIGHT",
        "1.5",
        float,
        minimum=0.0,
        help="weight of the topical list in the fusion (vector list: 1)",
    )
    pastors_weight: float = setting(
        "PASTOR_PASTORS_WEIGHT",
        "3.0",
        float,
        minimum=0.0,
        help="weight of the pastors' list in the fusion: the verses pastors opened for the nearest messages of "
        "the blind authors' sets (vector list: 1; 0 = off)",
    )
    per_chapter: int = setting(
        "PASTOR_PER_CHAPTER",
        "2",
        int,
        minimum=0,
        help="at most n of the sources from one chapter, unless a passage is asked (0 = off)",
    )
    adapter_questions: Path | None = setting(
        "PASTOR_ADAPTER_QUESTIONS",
        "sets/retrieval/devset.jsonl",
        to_optional_path,
        help="questions + gold verses the query adapter learns from; empty = off",
    )
    adapter_weight: float = setting(
        "PASTOR_ADAPTER_WEIGHT",
        "2.0",
        float,
        minimum=0.0,
        help="weight of the vector list when the query adapter is on (else 1)",
    )
    # Beyond one machine (issue 23): the index on object storage, read-only replicas, shared limits and secrets.
    index_uri: str = setting(
        "PASTOR_INDEX_URI",
        "",
        str,
        help="where the published index lives: s3://bucket/path (endpoint, region, allow_http "
        "and keys from AWS_ENDPOINT_URL, AWS_REGION, AWS_ALLOW_HTTP, AWS_ACCESS_KEY_ID, "
        "AWS_SECRET_ACCESS_KEY) or a folder; empty = the data directory only, as one process",
    )
    role: str = setting(
        "PASTOR_ROLE",
        "standalone",
        str,
        help="standalone (builds its own index) or replica (never builds; serves the index "
        "published at PASTOR_INDEX_URI by `python -m pastor index`)",
    )
    index_poll_seconds: float = setting(
        "PASTOR_INDEX_POLL_SECONDS",
        "10",
        float,
        minimum=0.5,
        help="replica: how often it looks for a newly published index",
    )
    replica_id: str = setting(
        "PASTOR_REPLICA_ID",
        "",
        str,
        help="name of this replica in turn ids and its turn log file; empty = the host "
        "name for a replica, nothing for a standalone app",
    )
    browser_secret: str = setting(
        "PASTOR_BROWSER_SECRET",
        "",
        str,
        secret=True,
        help="seals the conversation kept in each browser (16+ characters, the same on every replica); "
        "empty = generated once into the data directory (browser-secret, 0600)",
    )
    redis_url: str = setting(
        "PASTOR_REDIS_URL",
        "",
        str,
        secret=True,
        help="redis://host:port/db for rate limits and turn ids shared by replicas; empty = in this process's memory",
    )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides) -> Settings:
        """Build settings from a mapping (default: `.env` then the process environment)."""
        source = dict(read_dotenv(ROOT / ".env")) if env is None else {}
        source = with_aliases({**source, **(os.environ if env is None else env)})
        values = {}
        for attr, var, default, parse, minimum in SPEC:
            raw = source.get(var, default)
            try:
                value = parse(raw)
            except (TypeError, ValueError) as exc:
                raise ConfigError.invalid(var, raw, parse, exc) from None
            if minimum is not None and value < minimum:
                raise ConfigError(f"{var}: valor {raw!r} abaixo do mínimo {minimum}")
            values[attr] = value
        values.update(overrides)
        settings = cls(**values)
        settings.check()
        return settings

    def check(self) -> None:
        """Cross-field checks that a single parser cannot make."""
        if self.llm_provider and self.llm_provider not in PROVIDER_NAMES:
            raise ConfigError(
                f"LLM_PROVIDER: provedor desconhecido {self.llm_provider!r}; use um destes: "
                f"{', '.join(PROVIDER_NAMES)} (ou deixe vazio para a escolha automática)"
            )
        if self.stemmer not in {"rslp", "snowball", "none"}:
            raise ConfigError(f"PASTOR_STEMMER: use rslp, snowball ou none (recebido {self.stemmer!r})")
        if self.chunk_overlap >= self.chunk_size:
            raise ConfigError("PASTOR_CHUNK_OVERLAP: deve ser menor que PASTOR_CHUNK_SIZE")
        if self.local_dtype not in {"auto", "bfloat16", "float32"}:
            raise ConfigError(f"PASTOR_LOCAL_DTYPE: use auto, bfloat16 ou float32 (recebido {self.local_dtype!r})")
        if self.candidates < self.top_k:
            raise ConfigError("PASTOR_CANDIDATES: deve ser maior ou igual a PASTOR_TOP_K")
        if self.role not in {"standalone", "replica"}:
            raise ConfigError(f"PASTOR_ROLE: use standalone ou replica (recebido {self.role!r})")
        if self.role == "replica" and not self.index_uri:
            raise ConfigError("PASTOR_ROLE=replica: defina PASTOR_INDEX_URI (o índice publicado que a réplica lê)")
        if not re.fullmatch(r"[A-Za-z0-9_.-]{0,40}", self.replica_id):
            raise ConfigError(
                "PASTOR_REPLICA_ID: até 40 letras, dígitos, '.', '_' ou '-' (vai no nome do arquivo do log)"
            )
        if self.role == "replica" and self.docs_dir is not None:
            raise ConfigError(
                "PASTOR_ROLE=replica: os documentos da igreja (PASTOR_DOCS_DIR) ainda não são "
                "publicados no índice compartilhado; deixe PASTOR_DOCS_DIR vazio nas réplicas"
            )
        if self.browser_secret and (len(self.browser_secret) < 16 or self.browser_secret == "pastor-online-v1"):
            raise ConfigError("PASTOR_BROWSER_SECRET: use um segredo próprio de pelo menos 16 caracteres")
        keys = [translation_key(p) for p in (self.corpus, *self.extra_corpora)]
        if self.translation and self.translation not in keys:
            raise ConfigError(f"PASTOR_TRANSLATION: use {' ou '.join(keys)} (recebido {self.translation!r})")

    def replace(self, **changes) -> Settings:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        settings = Settings(**values)
        settings.check()
        return settings


# The declarations in order, for loops over every setting (parsing, tests, the README table).
SPEC: tuple[Spec, ...] = tuple(
    Spec(f.name, **{key: f.metadata[key] for key in ("var", "default", "parse", "minimum", "help")})
    for f in fields(Settings)
)


def markdown_table() -> str:
    """The README's Configuration table, from the declarations (a test keeps the README equal to it)."""
    return settings_table(SPEC, SECRET_VARS)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings.from_env()

"""The container setup, checked by parsing (no Docker engine here): data baked in, every setting passed through."""

from __future__ import annotations

import fnmatch

import yaml

from pastor.config import ROOT as APP_ROOT
from pastor.config import SECRET_VARS, SPEC, Settings
from tests.support.helpers import ROOT

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
IGNORED = [
    line.strip()
    for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]
# Inside the container these have one right value: the volume's path and all interfaces (the host
# publishes the port on 127.0.0.1 only); the app finds Ollama by its service name.
FIXED = {"PASTOR_DATA_DIR": "/app/data", "PASTOR_HOST": "0.0.0.0", "OLLAMA_HOST": "${OLLAMA_HOST:-http://ollama:11434}"}


def pastor_environment() -> dict[str, str | None]:
    """name → value; None for a name-only entry (taken from the shell or `.env`, else left unset)."""
    entries = COMPOSE["services"]["pastor"]["environment"]
    assert isinstance(entries, list), "a lista (não um mapa) permite passar só o nome"
    return {e.split("=", 1)[0]: (e.split("=", 1)[1] if "=" in e else None) for e in entries}


def test_compose_passes_every_setting_and_key():
    env = pastor_environment()
    expected = {spec.var for spec in SPEC} | set(SECRET_VARS)
    assert set(env) == expected, f"faltam {expected - set(env)}; sobram {set(env) - expected}"
    assert {name: value for name, value in env.items() if value is not None} == FIXED


def test_no_default_is_repeated_in_compose():
    # A name-only entry leaves the app's own default in force: compose cannot drift from config.py.
    env = pastor_environment()
    assert all(env[spec.var] is None for spec in SPEC if spec.var not in FIXED)


def is_ignored(relative: str) -> bool:
    return any(
        fnmatch.fnmatch(relative, pattern.rstrip("/")) or relative.startswith(pattern.rstrip("/") + "/")
        for pattern in IGNORED
    )


def test_the_image_holds_the_data_the_defaults_name():
    assert "COPY corpus ./corpus" in DOCKERFILE and "PASTOR_CORPUS" not in DOCKERFILE
    settings = Settings.from_env({})
    for path in (
        settings.corpus,
        *settings.extra_corpora,
        settings.prominence,
        *settings.topics,
        APP_ROOT / "corpus" / "NOTICE.md",
    ):
        relative = path.relative_to(APP_ROOT).as_posix()
        assert relative.startswith("corpus/") and (ROOT / relative).is_file(), relative
        assert not is_ignored(relative), f"{relative} ficaria fora da imagem (.dockerignore)"
    assert is_ignored(".env") and is_ignored("data/index")  # no keys and no local state in the image


def test_no_bible_mount_is_needed():
    volumes = COMPOSE["services"]["pastor"]["volumes"]
    assert volumes == ["pastor-data:/app/data"]


def test_without_the_ollama_profile_nothing_waits_for_a_model():
    pastor = COMPOSE["services"]["pastor"]
    assert pastor["depends_on"]["ollama"]["required"] is False
    assert all("ollama" in COMPOSE["services"][name].get("profiles", []) for name in ("ollama", "ollama-pull"))
    assert "LLM_PROVIDER" in pastor_environment()  # default ollama: unreachable → verses and the hint


def test_with_the_ollama_profile_ready_means_the_model_was_pulled():
    ollama, pull = COMPOSE["services"]["ollama"], COMPOSE["services"]["ollama-pull"]
    assert ollama["healthcheck"]["test"][:3] == ["CMD", "ollama", "show"]
    assert ollama["healthcheck"]["test"][3] == "${LLM_MODEL:-qwen2.5:1.5b}" == pull["environment"]["PULL_MODEL"]
    assert pull["depends_on"]["ollama"]["condition"] == "service_started" and pull["restart"] == "no"
    assert "until ollama list" in pull["entrypoint"][-1] and "ollama pull" in pull["entrypoint"][-1]


def test_the_port_is_published_on_loopback_only():
    assert COMPOSE["services"]["pastor"]["ports"] == ["127.0.0.1:${PASTOR_PORT:-7860}:${PASTOR_PORT:-7860}"]


def test_the_scale_profile_has_the_store_redis_indexer_replicas_and_balancer():
    services = COMPOSE["services"]
    scale = {name for name, service in services.items() if "scale" in service.get("profiles", [])}
    assert scale == {"objectstore", "objectstore-bucket", "redis", "indexer", "replica", "balancer"}
    listed = lambda name: dict(e.split("=", 1) for e in services[name]["environment"])  # noqa: E731
    indexer, replica = listed("indexer"), listed("replica")
    assert indexer["PASTOR_INDEX_URI"] == replica["PASTOR_INDEX_URI"] == "s3://pastor/index"
    assert indexer["AWS_ENDPOINT_URL"] == replica["AWS_ENDPOINT_URL"] == "http://objectstore:9000"
    assert replica["PASTOR_ROLE"] == "replica" and replica["PASTOR_REDIS_URL"].startswith("redis://redis:")
    assert services["indexer"]["command"] == ["python", "-m", "pastor", "index"]
    assert services["replica"]["depends_on"]["indexer"]["condition"] == "service_completed_successfully"
    assert "ports" not in services["replica"] and "/ready" in services["replica"]["healthcheck"]["test"][-1]
    assert services["balancer"]["volumes"] == ["./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro"]
    assert "server replica:7860" in (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")

"""Tests for pastor.config: defaults, `.env` reading, validation and path resolution."""

from __future__ import annotations

from pathlib import Path

import pytest

from pastor import config
from pastor.config import SPEC, ConfigError, Settings, read_dotenv
from pastor.config_parsing import to_bool
from tests.support.helpers import ROOT as REPO_ROOT


@pytest.fixture
def clean_environ(monkeypatch):
    """No setting from the developer's shell leaks into a test that reads os.environ."""
    for _, var, *_ in SPEC:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


# --- Defaults ---------------------------------------------------------------------------------


class TestDefaults:
    def test_every_default_parses(self):
        settings = Settings.from_env({})
        assert settings.port == 7860
        assert settings.host == "0.0.0.0"
        assert settings.top_k == 6
        assert settings.candidates == 60
        assert settings.rrf_k == 60
        assert settings.prominence_weight == 0.01
        assert settings.lexical_weight == 0.5
        assert settings.topic_weight == 1.5
        assert settings.per_chapter == 2
        assert settings.modernize is True
        assert settings.llm_provider == ""  # automatic: API key, else Ollama, else the local model
        assert settings.llm_timeout == 60.0
        assert settings.stemmer == "rslp"
        assert settings.embedding_model == "use-multilingual"
        assert settings.background_index is True
        assert settings.fake_responses is None
        assert settings.reindex_token == ""

    def test_the_recommended_setup_is_the_default_and_ships_in_the_repo(self):
        settings = Settings.from_env({})
        assert settings.corpus == REPO_ROOT / "corpus" / "por-almeida1911.usfx.xml.gz"
        assert settings.extra_corpora == (REPO_ROOT / "corpus" / "por-blivre.usfx.xml.gz",)
        assert settings.prominence == REPO_ROOT / "corpus" / "verse_prominence.tsv.gz"
        for path in (settings.corpus, *settings.extra_corpora, settings.prominence):
            assert path.is_file(), f"{path} não está no repositório"
        assert settings.data_dir == REPO_ROOT / "data"

    def test_the_example_church_is_off_by_default(self):
        assert Settings.from_env({}).docs_dir is None
        assert (
            Settings.from_env({"PASTOR_DOCS_DIR": "corpus/docs/example"}).docs_dir
            == REPO_ROOT / "corpus" / "docs" / "example"
        )

    def test_every_default_can_be_turned_off(self):
        settings = Settings.from_env({"PASTOR_EXTRA_CORPORA": "", "PASTOR_PROMINENCE": "", "PASTOR_DOCS_DIR": ""})
        assert (settings.extra_corpora, settings.prominence, settings.docs_dir) == ((), None, None)

    def test_spec_and_dataclass_agree(self):
        # A setting added to one and not the other would fail at start-up with a TypeError.
        from dataclasses import fields

        assert [attr for attr, *_ in SPEC] == [f.name for f in fields(Settings)]
        assert len({var for _, var, *_ in SPEC}) == len(SPEC)

    def test_secret_is_not_in_repr(self):
        settings = Settings.from_env({"REINDEX_TOKEN": "s3gr3d0"})
        assert settings.reindex_token == "s3gr3d0"
        assert "s3gr3d0" not in repr(settings)


# --- Values from the environment ---------------------------------------------------------------


class TestParsing:
    def test_types_are_converted(self):
        settings = Settings.from_env(
            {
                "PASTOR_PORT": "8080",
                "PASTOR_TOP_K": "3",
                "LLM_TIMEOUT": "2.5",
                "PASTOR_BACKGROUND_INDEX": "false",
                "LLM_PROVIDER": "groq",
            }
        )
        assert (settings.port, settings.top_k, settings.llm_timeout) == (8080, 3, 2.5)
        assert settings.background_index is False
        assert settings.llm_provider == "groq"

    @pytest.mark.parametrize(
        "raw,expected",
        [
            ("1", True),
            ("true", True),
            ("YES", True),
            ("on", True),
            ("sim", True),
            ("0", False),
            ("false", False),
            ("no", False),
            ("off", False),
            ("não", False),
            ("", False),
        ],
    )
    def test_booleans(self, raw, expected):
        assert Settings.from_env({"PASTOR_BACKGROUND_INDEX": raw}).background_index is expected

    def test_extra_corpora_is_a_comma_list_of_resolved_paths(self):
        settings = Settings.from_env({"PASTOR_EXTRA_CORPORA": "corpus/a.xml, /abs/b.xml ,"})
        assert settings.extra_corpora == (REPO_ROOT / "corpus" / "a.xml", Path("/abs/b.xml"))

    def test_empty_optional_path_is_none(self):
        assert Settings.from_env({"PASTOR_DOCS_DIR": ""}).docs_dir is None
        assert Settings.from_env({"PASTOR_PROMINENCE": "  "}).prominence is None

    def test_overrides_win_over_the_environment(self):
        settings = Settings.from_env({"PASTOR_PORT": "8080"}, port=9000)
        assert settings.port == 9000

    def test_replace_returns_a_new_checked_copy(self):
        settings = Settings.from_env({})
        changed = settings.replace(top_k=3)
        assert (settings.top_k, changed.top_k) == (6, 3)
        with pytest.raises(ConfigError, match="PASTOR_CANDIDATES"):
            settings.replace(top_k=61)

    def test_settings_are_frozen(self):
        settings = Settings.from_env({})
        with pytest.raises(AttributeError):
            settings.port = 1  # type: ignore[misc]


# --- Paths -------------------------------------------------------------------------------------


class TestPaths:
    def test_relative_paths_resolve_against_the_repo_root_not_the_cwd(self, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        settings = Settings.from_env({"PASTOR_CORPUS": "x/y.xml", "PASTOR_DATA_DIR": "estado"})
        assert settings.corpus == REPO_ROOT / "x" / "y.xml"
        assert settings.data_dir == REPO_ROOT / "estado"
        assert config.ROOT == REPO_ROOT

    def test_absolute_and_home_paths(self):
        settings = Settings.from_env({"PASTOR_CORPUS": "/dados/biblia.xml", "PASTOR_DATA_DIR": "~/pastor"})
        assert settings.corpus == Path("/dados/biblia.xml")
        assert settings.data_dir == Path.home() / "pastor"


# --- Invalid values ----------------------------------------------------------------------------


class TestInvalid:
    @pytest.mark.parametrize(
        "var,value",
        [
            ("PASTOR_PORT", "abc"),
            ("PASTOR_PORT", "0"),
            ("PASTOR_TOP_K", "0"),
            ("PASTOR_TOP_K", "2.5"),
            ("PASTOR_CANDIDATES", "-1"),
            ("LLM_TIMEOUT", "rápido"),
            ("LLM_TIMEOUT", "0"),
            ("PASTOR_RATE_LIMIT_SECONDS", "-1"),
            ("PASTOR_BACKGROUND_INDEX", "talvez"),
            ("PASTOR_LOG_MAX_BYTES", "10"),
            ("PASTOR_STEMMER", "porter"),
        ],
    )
    def test_error_names_the_variable(self, var, value):
        with pytest.raises(ConfigError) as info:
            Settings.from_env({var: value})
        assert str(info.value).startswith(var)

    def test_port_abc_message_shows_the_value(self):
        with pytest.raises(ConfigError, match=r"PASTOR_PORT: valor inválido 'abc'"):
            Settings.from_env({"PASTOR_PORT": "abc"})

    def test_every_number_and_switch_explains_a_bad_value_in_portuguese(self):
        """Issue 29: int() and float() said "invalid literal for int() with base 10" to the operator."""
        wrong = []
        for spec in SPEC:
            if spec.parse not in (int, float, to_bool):
                continue
            try:
                Settings.from_env({spec.var: "abc"})
            except ConfigError as exc:
                message = str(exc)
                if not message.startswith(f"{spec.var}: valor inválido 'abc' (esperado ") or "literal" in message:
                    wrong.append(message)
            else:
                wrong.append(f"{spec.var}: aceitou 'abc'")
        assert wrong == [], wrong

    def test_top_k_zero_message_states_the_minimum(self):
        with pytest.raises(ConfigError, match=r"PASTOR_TOP_K: .*mínimo"):
            Settings.from_env({"PASTOR_TOP_K": "0"})

    def test_overlap_must_be_below_chunk_size(self):
        with pytest.raises(ConfigError, match="PASTOR_CHUNK_OVERLAP"):
            Settings.from_env({"PASTOR_CHUNK_SIZE": "100", "PASTOR_CHUNK_OVERLAP": "100"})

    def test_candidates_must_cover_top_k(self):
        with pytest.raises(ConfigError, match="PASTOR_CANDIDATES"):
            Settings.from_env({"PASTOR_TOP_K": "10", "PASTOR_CANDIDATES": "5"})

    def test_config_error_is_a_value_error(self):
        assert issubclass(ConfigError, ValueError)


# --- .env --------------------------------------------------------------------------------------


class TestDotenv:
    def test_missing_file_is_empty(self, tmp_path):
        assert read_dotenv(tmp_path / ".env") == {}

    def test_comments_blanks_quotes_and_export(self, tmp_path):
        path = tmp_path / ".env"
        path.write_text(
            "# comentário\n"
            "\n"
            "PASTOR_PORT=8081\n"
            "  LLM_PROVIDER = groq  \n"
            "export LLM_MODEL=llama-3\n"
            'REINDEX_TOKEN="com espaço"\n'
            "OLLAMA_HOST='http://x:1'\n"
            "OPENAI_BASE_URL=http://h/v1?a=b\n",
            encoding="utf-8",
        )
        assert read_dotenv(path) == {
            "PASTOR_PORT": "8081",
            "LLM_PROVIDER": "groq",
            "LLM_MODEL": "llama-3",
            "REINDEX_TOKEN": "com espaço",
            "OLLAMA_HOST": "http://x:1",
            "OPENAI_BASE_URL": "http://h/v1?a=b",
        }

    def test_line_without_equals_names_the_line(self, tmp_path):
        path = tmp_path / ".env"
        path.write_text("PASTOR_PORT=1\nisto não é uma atribuição\n", encoding="utf-8")
        with pytest.raises(ConfigError, match=r"\.env, linha 2"):
            read_dotenv(path)

    def test_from_env_reads_dotenv_and_the_environment_wins(self, tmp_path, clean_environ):
        (tmp_path / ".env").write_text("PASTOR_PORT=8081\nPASTOR_TOP_K=4\n", encoding="utf-8")
        clean_environ.setattr(config, "ROOT", tmp_path)
        clean_environ.setenv("PASTOR_TOP_K", "5")
        settings = Settings.from_env()
        assert settings.port == 8081  # from .env
        assert settings.top_k == 5  # the process environment overrides .env

    def test_invalid_value_in_dotenv_names_the_variable(self, tmp_path, clean_environ):
        (tmp_path / ".env").write_text("PASTOR_PORT=abc\n", encoding="utf-8")
        clean_environ.setattr(config, "ROOT", tmp_path)
        with pytest.raises(ConfigError, match="PASTOR_PORT"):
            Settings.from_env()

    def test_explicit_mapping_ignores_dotenv(self, tmp_path, clean_environ):
        (tmp_path / ".env").write_text("PASTOR_PORT=8081\n", encoding="utf-8")
        clean_environ.setattr(config, "ROOT", tmp_path)
        assert Settings.from_env({}).port == 7860


class TestGetSettings:
    def test_read_once(self, clean_environ):
        config.get_settings.cache_clear()
        try:
            first = config.get_settings()
            clean_environ.setenv("PASTOR_PORT", "8999")
            assert config.get_settings() is first
        finally:
            config.get_settings.cache_clear()


# --- The settings table (docs/configuration.md) ---------------------------------------------------


def test_configuration_table_is_the_declarations():
    page = (REPO_ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert config.markdown_table() in page, (
        "a tabela de docs/configuration.md difere de pastor/config.py; gere-a com "
        "python -c 'from pastor.config import markdown_table; print(markdown_table())'"
    )
    for spec in SPEC:
        assert f"| `{spec.var}` |" in page


def test_the_provider_names_a_setting_accepts_are_the_providers_that_exist():
    from pastor.config import PROVIDER_NAMES
    from pastor.providers import PROVIDERS

    assert set(PROVIDER_NAMES) == set(PROVIDERS)


def test_an_unknown_provider_stops_the_app_before_it_serves(monkeypatch, capsys):
    """Issue 29: a typo in LLM_PROVIDER must not start an app that refuses crisis messages."""
    import app
    from pastor.config import get_settings

    monkeypatch.setenv("LLM_PROVIDER", "gpt")
    get_settings.cache_clear()
    try:
        assert app.main() == 2
    finally:
        get_settings.cache_clear()
    error = capsys.readouterr().err
    assert "LLM_PROVIDER" in error and "'gpt'" in error and "ollama" in error and "none" in error


@pytest.mark.parametrize("router, scope", [(True, True), (True, False), (False, True), (False, False)])
def test_the_router_and_the_scope_classifier_have_a_setting_each(monkeypatch, router, scope):
    """PASTOR_SEMANTIC_ROUTER switches the trained router, PASTOR_SCOPE_CLASSIFIER the evidence gate's scope
    classifier (built by the retriever, trained while the router loads): one setting per component."""
    from types import SimpleNamespace

    from pastor import wiring
    from pastor.search.retrieval import RetrievalConfig

    built, warmed = [], []
    monkeypatch.setattr(wiring, "SemanticRouter", lambda embedder, cache_dir: built.append(embedder) or "trained")
    scope_classifier = SimpleNamespace(warm=lambda: warmed.append(True))
    engine = SimpleNamespace(
        resources=SimpleNamespace(embedder=object()), retriever=SimpleNamespace(scope=scope_classifier)
    )
    settings = Settings.from_env({"PASTOR_SEMANTIC_ROUTER": str(router), "PASTOR_SCOPE_CLASSIFIER": str(scope)})
    assert (settings.semantic_router, settings.scope_classifier) == (router, scope)
    assert RetrievalConfig.from_settings(settings).scope_classifier is scope
    trained = wiring.build_router(settings, engine).semantic == "trained"
    assert (trained, bool(built), bool(warmed)) == (router, router, scope)


def test_gradio_s_own_port_and_host_variables_are_honoured_when_ours_are_not_set():
    """Issue 29: a host that sets Gradio's conventions finds the app where it expects it; ours win when both."""
    assert Settings.from_env({"GRADIO_SERVER_PORT": "8123"}).port == 8123
    assert Settings.from_env({"GRADIO_SERVER_PORT": "8123", "PASTOR_PORT": "9000"}).port == 9000
    assert Settings.from_env({"GRADIO_SERVER_NAME": "127.0.0.1"}).host == "127.0.0.1"
    with pytest.raises(ConfigError, match="PASTOR_PORT"):
        Settings.from_env({"GRADIO_SERVER_PORT": "porta"})

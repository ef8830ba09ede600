"""Tests for pastor.cli.commands: `index`, `search`, `eval` and `ask` through `pastor.cli.main` (and once as a
process)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pastor import config
from pastor.cli import main as cli
from pastor.config import SPEC, get_settings
from pastor.index.verse_check import SAMPLE_SIZE
from tests.support.core_fixtures import FAKE_MODEL, MINI, MINI_VERSES, copy_docs
from tests.support.helpers import ROOT

HIT_KEYS = {"id", "reference", "text", "score", "vector_rank", "vector_score", "lexical_rank", "lexical_score"}
METRICS = {"n", "recall@10", "mrr@10", "ndcg@10", "p50_ms", "p95_ms"}
ASK_KEYS = {
    "turn_id",
    "mode",
    "reason",
    "answer",
    "notes",
    "citations",
    "removed_citations",
    "sources",
    "provider",
    "model",
}
DOC_REF = re.compile(r"^[\w./-]+\.(md|txt|csv|json)#p\d+-c\d+$")
FORGIVE = "Pedro perguntou quantas vezes devo perdoar meu irmão"  # MAT 18:21 almost word for word


@pytest.fixture
def env(tmp_path, monkeypatch, fake_models):
    """A clean settings environment on the tiny corpus with the fake embedder and the fake model."""
    for _, var, *_ in SPEC:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(config, "ROOT", tmp_path)  # a developer's .env must not leak into these runs
    values = {
        "PASTOR_CORPUS": str(MINI),
        "PASTOR_DATA_DIR": str(tmp_path / "data"),
        "PASTOR_DOCS_DIR": "",
        "PASTOR_PROMINENCE": "",
        "PASTOR_EXTRA_CORPORA": "",
        "PASTOR_TOPICS": "",
        "PASTOR_ADAPTER_QUESTIONS": "",
        "PASTOR_PASTORS_WEIGHT": "0",
        "EMBEDDING_MODEL": FAKE_MODEL,
        "PASTOR_EMBED_BATCH": "8",
        "LLM_PROVIDER": "fake",
    }

    def set_env(**changes: str) -> None:
        values.update(changes)
        for key, value in values.items():
            monkeypatch.setenv(key, value)
        get_settings.cache_clear()  # read once per process: re-read for each command here

    set_env()
    yield set_env
    get_settings.cache_clear()


def main(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def main_json(capsys, *argv: str) -> dict:
    code, out, err = main(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


# -- index -----------------------------------------------------------------------------------------
class TestIndex:
    def test_builds_then_skips(self, env, capsys, fake_models):
        embedder = fake_models[FAKE_MODEL]
        summary = main_json(capsys, "index", "--json")
        assert (summary["state"], summary["rows"], summary["total"]) == ("complete", MINI_VERSES, MINI_VERSES)
        assert (summary["embedder"], summary["dim"]) == ("fake-bow-64", 64)
        assert {"mean", "std", "p99"} <= set(summary["calibration"])
        assert summary["seconds"] >= 0 and summary["error"] is None
        assert embedder.calls == 4

        embedder.reset()
        assert main_json(capsys, "index", "--json")["state"] == "complete"
        assert embedder.calls == 1  # the content check's sample of the vectors on disk; nothing rebuilt

    def test_rebuild(self, env, capsys, fake_models):
        main_json(capsys, "index", "--json")
        fake_models[FAKE_MODEL].reset()
        main_json(capsys, "index", "--rebuild", "--json")
        # The content check's sample at start, then every verse again.
        assert len(fake_models[FAKE_MODEL].texts) == min(SAMPLE_SIZE, MINI_VERSES) + MINI_VERSES

    def test_text_output(self, env, capsys):
        code, out, _ = main(capsys, "index")
        assert code == 0
        assert out.startswith("Índice completo: 25/25 linhas") and "fake-bow-64, dim 64" in out

    def test_documents_are_indexed_too(self, env, capsys, tmp_path):
        env(PASTOR_DOCS_DIR=str(copy_docs(tmp_path / "docs")))
        documents = main_json(capsys, "index", "--json")["documents"]
        assert documents["files"] == 11 and documents["errors"] == 4

    @pytest.mark.slow
    def test_bogus_embedder_exits_2_without_fallback(self, env, capsys, tmp_path, monkeypatch):
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        env(EMBEDDING_MODEL=str(tmp_path / "modelo-que-nao-existe"))
        code, out, err = main(capsys, "index", "--json")
        assert code == 2 and out == ""
        assert "modelo de embeddings indisponível" in err and "modelo-que-nao-existe" in err

    def test_with_the_real_model(self, env, capsys, fake_models, real_embedder):
        fake_models["use-multilingual"] = real_embedder
        env(EMBEDDING_MODEL="use-multilingual")
        summary = main_json(capsys, "index", "--json")
        assert summary["state"] == "complete" and summary["dim"] == 512
        assert summary["embedder"].startswith("use-multilingual")
        result = main_json(capsys, "search", "quem é o meu pastor?", "--json")
        assert result["mode"] == "rag" and result["results"][0]["id"] == "PSA 23:1"


# -- search ----------------------------------------------------------------------------------------
class TestSearch:
    def test_json_shape(self, env, capsys):
        main_json(capsys, "index", "--json")
        result = main_json(capsys, "search", FORGIVE, "--json", "--k", "3")
        assert set(result) == {"mode", "reason", "results"}
        assert result["mode"] == "rag" and result["reason"]
        assert 0 < len(result["results"]) <= 3
        for hit in result["results"]:
            assert HIT_KEYS <= set(hit) and hit["kind"] == "verse"
        top = result["results"][0]
        assert (top["id"], top["reference"]) == ("MAT 18:21", "Mateus 18:21")
        assert top["vector_rank"] == 1 and top["lexical_rank"] == 1
        assert isinstance(top["score"], float) and isinstance(top["lexical_score"], float)

    def test_before_indexing_it_still_answers(self, env, capsys):
        assert main_json(capsys, "search", "João 3:16", "--json")["mode"] == "reference"
        result = main_json(capsys, "search", FORGIVE, "--json")
        assert result["mode"] == "lexical_fallback"
        assert all(h["vector_rank"] is None for h in result["results"])

    def test_no_evidence(self, env, capsys):
        main_json(capsys, "index", "--json")
        result = main_json(capsys, "search", "Qual a receita de bolo de cenoura?", "--json")
        assert (result["mode"], result["results"]) == ("no_evidence", [])

    def test_documents_source(self, env, capsys, tmp_path):
        env(PASTOR_DOCS_DIR=str(copy_docs(tmp_path / "docs")))
        main_json(capsys, "index", "--json")
        result = main_json(capsys, "search", "Onde fica a sede da igreja em Vale Sereno?", "--source", "docs", "--json")
        assert result["results"]
        assert all(h["kind"] == "doc" and DOC_REF.match(h["id"]) for h in result["results"])
        bible = main_json(capsys, "search", "Onde fica a sede da igreja?", "--source", "bible", "--json")
        assert all(h["kind"] == "verse" for h in bible["results"])

    def test_text_output(self, env, capsys):
        code, out, _ = main(capsys, "search", "João 3:16")
        assert code == 0
        assert out.splitlines()[0].startswith("modo: reference — referência explícita: João 3:16")
        assert out.splitlines()[1].startswith("1. João 3:16 (1.0000) Porque Deus amou")


# -- eval ------------------------------------------------------------------------------------------
class TestEval:
    @pytest.fixture
    def questions(self, tmp_path) -> Path:
        path = tmp_path / "perguntas.jsonl"
        rows = [
            {"question": FORGIVE, "gold": ["MAT 18:21", "MAT 18:22"]},
            {"question": "não tenham medo do amanhã", "gold": ["MAT 6:34"]},
            {"question": "venham a mim os cansados", "gold": ["MAT 11:28"]},
        ]
        path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
        return path

    def test_json_per_mode(self, env, capsys, questions):
        main_json(capsys, "index", "--json")
        results = main_json(capsys, "eval", str(questions), "--json", "--k", "3")
        assert list(results) == ["hybrid", "vector", "lexical", "topic", "pastors"]
        for mode, row in results.items():
            assert set(row) == METRICS | {"hit@3"}, mode
            assert row["n"] == 3
            assert all(0.0 <= row[m] <= 1.0 for m in ("hit@3", "recall@10", "mrr@10", "ndcg@10"))
            assert 0.0 <= row["p50_ms"] <= row["p95_ms"]
        assert results["hybrid"]["hit@3"] == 1.0  # each question nearly quotes its verse
        assert results["lexical"]["hit@3"] == 1.0

    def test_default_k_and_table(self, env, capsys, questions):
        main_json(capsys, "index", "--json")
        assert "hit@6" in main_json(capsys, "eval", str(questions), "--json")["hybrid"]
        code, out, _ = main(capsys, "eval", str(questions))
        assert code == 0 and out.startswith("| modo | n | hit@6 |")

    def test_warns_without_vectors(self, env, capsys, questions):
        code, _, err = main(capsys, "eval", str(questions), "--json")
        assert code == 0 and "índice vetorial incompleto" in err

    @pytest.mark.integration  # trains five adapters
    def test_the_adapters_own_file_is_measured_by_cross_validation(self, env, capsys, questions, tmp_path, monkeypatch):
        """A map that saw the questions would grade itself: each fold is searched by a map trained
        on the others (5 trainings), and `hybrid − adaptador` shows the ranking without it."""
        import pastor.search.adapter as adapter

        env(PASTOR_ADAPTER_QUESTIONS=str(questions))
        code, out, err = main(capsys, "index")
        assert code == 0 and "Adaptador de consulta: treinado com 3 perguntas de perguntas.jsonl" in err
        trainings = []
        real = adapter.fit
        monkeypatch.setattr(
            adapter, "fit", lambda qs, gold, *a, **k: trainings.append(len(gold)) or real(qs, gold, *a, **k)
        )
        code, out, err = main(capsys, "eval", str(questions), "--ablation")
        assert code == 0 and "validação cruzada (5 partes)" in err and "| hybrid − adaptador |" in out
        assert len(trainings) == 5 and max(trainings) <= 3
        other = tmp_path / "outras.jsonl"
        other.write_text(
            questions.read_text(encoding="utf-8").replace("cansados", "cansados e aflitos"), encoding="utf-8"
        )
        trainings.clear()
        code, out, err = main(capsys, "eval", str(other))
        assert code == 0 and "validação cruzada" not in err and trainings == []

    def test_warns_when_the_adapter_is_not_trained(self, env, capsys, questions):
        env(PASTOR_ADAPTER_QUESTIONS=str(questions))
        main_json(capsys, "index", "--json")
        get_settings.cache_clear()
        for path in (get_settings().data_dir / "adapter").iterdir():
            path.unlink()
        code, _, err = main(capsys, "eval", str(questions))
        assert code == 0 and "adaptador de consulta não treinado" in err

    def test_bad_question_file(self, env, capsys, tmp_path):
        bad = tmp_path / "ruim.jsonl"
        bad.write_text('{"question": "sem gold"}\n', encoding="utf-8")
        code, out, err = main(capsys, "eval", str(bad), "--json")
        assert (code, out) == (2, "")
        assert err.startswith("erro: ruim.jsonl, linha 1:") and "gold" in err


# -- ask -------------------------------------------------------------------------------------------
class TestAsk:
    def script(self, env, tmp_path, *responses) -> None:
        path = tmp_path / "respostas.json"
        path.write_text(json.dumps(list(responses), ensure_ascii=False), encoding="utf-8")
        env(PASTOR_FAKE_RESPONSES=str(path))

    def test_json_shape_and_validation(self, env, capsys, tmp_path):
        self.script(env, tmp_path, "Deus amou o mundo (João 3:16). Veja também João 3:17.")
        result = main_json(capsys, "ask", "o que diz João 3:16?", "--json")
        assert set(result) == ASK_KEYS
        assert (result["mode"], result["provider"], result["model"]) == ("reference", "fake", "fake")
        assert result["citations"] == ["João 3:16"] and result["removed_citations"] == ["João 3:17"]
        assert "3:17" not in result["answer"]
        [source] = result["sources"]
        assert {"id", "reference", "text", "score", "cited"} <= set(source)
        assert (source["id"], source["cited"]) == ("JHN 3:16", True)
        logged = (tmp_path / "data" / "logs" / "turns.jsonl").read_text(encoding="utf-8").splitlines()
        assert json.loads(logged[0])["turn_id"] == result["turn_id"]

    def test_an_off_topic_request_gets_the_fixed_kind_reply_and_no_verses(self, env, capsys, tmp_path):
        from pastor.care.openings import OFF_TOPIC

        main_json(capsys, "index", "--json")
        result = main_json(capsys, "ask", "Qual a receita de bolo de cenoura?", "--json")
        assert (result["mode"], result["sources"]) == ("no_evidence", []) and result["answer"] in OFF_TOPIC

    def test_text_output(self, env, capsys, tmp_path):
        self.script(env, tmp_path, "Deus amou o mundo (João 3:16).")
        code, out, _ = main(capsys, "ask", "o que diz João 3:16?")
        assert code == 0
        assert out.startswith("Deus amou o mundo (João 3:16).")
        assert "[modo: reference; fontes: João 3:16]" in out

    def test_model_failure_prints_the_verses_and_exits_1(self, env, capsys, tmp_path):
        self.script(env, tmp_path, {"error": "auth"})
        code, out, _ = main(capsys, "ask", "o que diz João 3:16?", "--json")
        from pastor.providers.fake import FakeProvider

        result = json.loads(out)
        assert code == 1
        assert result["mode"] == "provider_unavailable" and "(auth)" in result["reason"]
        assert "**João 3:16**" in result["answer"] and FakeProvider().setup_hint() in result["reason"]

    def test_bad_responses_file_exits_2(self, env, capsys, tmp_path):
        env(PASTOR_FAKE_RESPONSES=str(tmp_path / "nao-ha.json"))
        code, out, err = main(capsys, "ask", "o que diz João 3:16?")
        assert (code, out) == (2, "")
        assert err.startswith("erro: PASTOR_FAKE_RESPONSES")

    def test_empty_question_exits_2(self, env, capsys):
        code, _, err = main(capsys, "ask", "   ")
        assert code == 2 and "Escreva uma mensagem" in err


@pytest.mark.slow
class TestProcess:
    def test_ask_json_as_a_user_runs_it(self, tmp_path):
        """`python -m pastor ask --json` with the real default embedder and scripted fake replies."""
        responses = tmp_path / "respostas.json"
        responses.write_text(
            json.dumps(["Jesus disse: setenta vezes sete (Mateus 18:22; Hezequias 3:16)."]), encoding="utf-8"
        )
        base = {k: v for k, v in os.environ.items() if not k.startswith(("PASTOR_", "LLM_", "EMBEDDING_"))}
        env = {
            **base,
            "PASTOR_CORPUS": str(MINI),
            "PASTOR_DATA_DIR": str(tmp_path / "data"),
            "PASTOR_DOCS_DIR": "",
            "PASTOR_PROMINENCE": "",
            "PASTOR_EXTRA_CORPORA": "",
            "PASTOR_TOPICS": "",
            "PASTOR_ADAPTER_QUESTIONS": "",
            "EMBEDDING_MODEL": "use-multilingual",
            "LLM_PROVIDER": "fake",
            "PASTOR_FAKE_RESPONSES": str(responses),
            "HF_HUB_OFFLINE": "1",
        }
        done = subprocess.run(
            [sys.executable, "-m", "pastor", "ask", "Mateus 18:21-22", "--json"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert set(result) == ASK_KEYS
        assert result["mode"] == "reference"
        assert result["citations"] == ["Mateus 18:22"] and result["removed_citations"] == ["Hezequias 3:16"]
        assert [(s["id"], s["cited"]) for s in result["sources"]] == [("MAT 18:22", True), ("MAT 18:21", False)]


class TestModel:
    """`python -m pastor model` prepares the local model with progress; `ask` with it answers."""

    def test_a_model_folder_is_loaded_and_reported(self, capsys, wired_model):
        from pastor.cli.main import main as cli
        from pastor.config import get_settings

        get_settings.cache_clear()
        try:
            code = cli(["model", "--model", str(wired_model)])
        finally:
            get_settings.cache_clear()
        out, err = capsys.readouterr()
        assert code == 0 and "modelo local: carregado (transformers" in err and "pronto:" in out

    def test_an_unreachable_hub_is_said_and_exits_1(self, capsys, tmp_path, monkeypatch):
        from pastor.cli.main import main as cli
        from pastor.config import get_settings

        monkeypatch.setenv("PASTOR_DATA_DIR", str(tmp_path))
        get_settings.cache_clear()
        try:
            code = cli(["model", "--model", "Qwen/Qwen2.5-0.5B-Instruct"])
        finally:
            get_settings.cache_clear()
        _, err = capsys.readouterr()
        assert code == 1 and "não foi possível baixar o modelo Qwen/Qwen2.5-0.5B-Instruct" in err

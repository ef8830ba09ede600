"""The status the operator reads (issue 29, item 6a): one truthful state per component, the same in the model's row,
its health record and its setup hint, and the components with a problem at the top of the Status tab."""

from __future__ import annotations

from types import SimpleNamespace

from pastor.health import HealthBoard
from pastor.web import render
from pastor.web.status_model import llm_status, record_provider_health

FAILED = "não foi possível baixar o modelo org/m do Hugging Face Hub (sem conexão com o Hub?)"
HINT = "Modelo local org/m: aponte PASTOR_LOCAL_MODEL para uma pasta com o modelo"


class StubProvider:
    """A provider whose check and live status are given: the status model reads nothing else of it."""

    name, model, choice = "local", "org/m", None

    def __init__(self, check: dict, live: dict | None = None):
        self._check, self._live = check, live or {}

    def check(self) -> dict:
        return dict(self._check)

    def live_status(self) -> dict:
        return dict(self._live)

    def setup_hint(self) -> str:
        return HINT


def local(phase: str, detail: str, retrying: str = "") -> dict:
    return {"reachable": phase == "ready", "detail": detail, "local": {"phase": phase, "retrying": retrying}}


# check → (state, what the health board says, the row's mark, whether the setup hint is shown)
MODEL_CASES = {
    "answers": ({"reachable": True, "detail": "ok"}, "ok", "", False),
    "checking": ({"reachable": None, "detail": "verificando…"}, "starting", "⏳", False),
    "downloading": (local("downloading", "baixando org/m do Hugging Face Hub: 45%"), "starting", "⏳", True),
    "loading": (local("loading", "carregando org/m na memória"), "starting", "⏳", True),
    "loaded": (local("ready", "carregado (transformers, float32)"), "ok", "", False),
    "download failed": (local("failed", FAILED), "error", "❌", True),
    "retrying the download": (local("downloading", f"{FAILED} (tentando de novo…)", FAILED), "error", "❌", True),
    "no key": ({"reachable": False, "detail": "Falta a chave de acesso"}, "error", "❌", True),
}


def status_with(llm: dict, **changes) -> dict:
    base = {
        "state": "complete",
        "phase": "ready",
        "bm25_ready": True,
        "corpus": {"file": "por-almeida1911.usfx.xml", "sha256": "ab" * 32, "verses": 31101},
        "embedder": {"name": "use-multilingual", "dim": 512},
        "index": {"state": "complete", "rows": 31101, "total": 31101, "error": None},
        "prominence": {"enabled": True},
        "topics": {"enabled": True, "entries": 10, "weight": 1.0},
        "adapter": {"enabled": False, "detail": "desligado (PASTOR_ADAPTER_QUESTIONS vazio)"},
        "router": "semântico",
        "llm": llm,
    }
    return {**base, **changes}


def rows_of(table: str) -> list[str]:
    return [line for line in table.splitlines()[2:] if line.startswith("| ")]


def test_the_model_says_one_thing_in_its_row_its_health_record_and_its_hint():
    wrong = []
    for name, (check, state, mark, hinted) in MODEL_CASES.items():
        runtime = SimpleNamespace(provider=StubProvider(check, check), probe=None, health=HealthBoard())
        llm = llm_status(runtime)
        record_provider_health(runtime.health, llm)
        record = runtime.health.get("provider")
        table = render.details_markdown(status_with(llm))
        model_rows = [row for row in rows_of(table) if "Modelo" in row or "Como ativar" in row or "Por que" in row]
        found = (
            llm["state"],
            record.state.value,
            "❌" if "❌" in table else "⏳" if "⏳" in table else "",
            "Como ativar" in table,
            bool(llm["setup_hint"]),
        )
        if found != (state, state, mark, hinted, hinted):
            wrong.append(f"{name}: {found} ≠ {(state, state, mark, hinted, hinted)}\n" + "\n".join(model_rows))
        if state == "error" and FAILED in check["detail"] and "baixando" in table:
            wrong.append(f"{name}: a failed download reads as downloading")
    assert wrong == [], "\n\n".join(wrong)


def test_a_component_with_a_problem_comes_first_then_what_is_being_prepared():
    failed = {**local("failed", FAILED), "provider": "local", "model": "org/m", "setup_hint": HINT, "state": "error"}
    indexing = {"state": "indexing", "rows": 512, "total": 31101, "error": None}
    rows = rows_of(render.details_markdown(status_with(failed, state="indexing", index=indexing)))
    assert rows[0].startswith("| ❌ Modelo de linguagem | local / org/m |"), rows
    assert rows[1].startswith("| Modelo alcançável | não — não foi possível baixar"), rows
    problem_rows = [i for i, row in enumerate(rows) if "Vetores na tabela" in row]
    assert rows[problem_rows[0]].startswith("| ⏳ Vetores na tabela | 512 de 31.101"), rows
    assert problem_rows[0] < next(i for i, row in enumerate(rows) if row.startswith("| Corpus |")), rows
    fine = rows_of(render.details_markdown(status_with({"reachable": True, "detail": "ok", "state": "ok"})))
    assert fine[0].startswith("| Corpus |") and not any("❌" in r or "⏳" in r for r in fine), fine


def test_other_translations_are_said_to_be_read_too_and_the_vectors_total_adds_up():
    extra = {"file": "por-blivre.usfx.xml.gz", "verses": 31102, "aligned": 31100}
    index = {"state": "complete", "rows": 62201, "total": 62201, "error": None}
    table = render.details_markdown(status_with({"reachable": True, "state": "ok"}, extra_corpora=[extra], index=index))
    assert (
        "| Outra tradução (busca e leitura) | por-blivre.usfx.xml.gz (31.102 versículos; 31.100 na numeração" in table
    )
    assert "só na busca" not in table
    assert "| Vetores na tabela | 62.201 de 62.201 (31.101 do texto principal + 31.100 das outras" in table

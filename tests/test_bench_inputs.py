"""Bench scripts build the chat service's inputs with the service's own types, so they keep running."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from pastor.answer.filters import AnswerFilter
from pastor.search.results import Source

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _bench(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_citation_bench_filters_through_typed_sources():
    bench = _bench("bench_citations")
    assert all(isinstance(source, Source) for source in bench.sources_for(bench.ALLOWED))
    answer = bench.whole_filter()
    assert isinstance(answer, AnswerFilter)
    shown = answer.feed(bench.ANSWERS[0]) + answer.finish()
    assert "1 Pedro 5:7" in shown and "Hezequias 3:16" not in shown


def test_the_local_model_bench_builds_the_app_prompt():
    system, messages = _bench("bench_local_model").app_prompt(history_exchanges=2)
    assert "Mateus 6:34" in messages[-1]["content"] and len(messages) == 5 and system

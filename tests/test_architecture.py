"""Tests for the package layout: imports only point down the stack, and modules stay small."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pastor"

# The shared leaves every package may import: settings, the exceptions' base, health records.
LEAVES = {"config", "errors", "health"}
# Each package and the packages it may import (besides itself and the leaves).
ALLOWED = {
    "config": {"errors"},
    "errors": set(),
    "health": set(),
    "text": LEAVES,
    "bible": {"text"} | LEAVES,
    "documents": {"text"} | LEAVES,
    "providers": LEAVES,
    "search": {"bible", "documents", "text"} | LEAVES,
    "answer": {"search", "providers", "bible", "documents", "text"} | LEAVES,
    "web": {"answer", "search", "providers", "bible", "documents", "text", "wiring"} | LEAVES,
    "cli": {"answer", "search", "providers", "bible", "documents", "text", "wiring"} | LEAVES,
    "wiring": {"answer", "search", "providers", "bible", "documents", "text"} | LEAVES,
}
# `pastor` imports inside a function, allowed only for a module whose import pulls in an optional
# dependency (none today: torch, transformers, sentence-transformers, lancedb and pyarrow are imported
# by the functions that need them, so every `pastor` module imports cheaply) and, for now, the files
# the signals/typed-sources rewrite owns, which moves them: {(file, imported module): why}.
IMPORTS_IN_FUNCTIONS = {
    ("search/retrieval.py", "pastor.search.index"): "query_vector; moves with the vector signal",
    ("web/api.py", "pastor.bible.lookup"): "lookup endpoint; web/api.py is being rewritten",
    ("web/api.py", "pastor.answer.checks"): "message check; web/api.py is being rewritten",
}
MAX_LINES = 400


def _package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "pastor" and len(parts) > 1 else None


def _imports(path: Path, *, in_functions: bool = False, root: Path = PACKAGE) -> list[tuple[int, str]]:
    """Every `pastor.*` module a file imports (absolute or relative), with its line; with
    `in_functions`, only those imported inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = ["pastor", *path.relative_to(root).with_suffix("").parts]
    found = []
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))] if in_functions \
        else [tree]
    nodes = {id(n): n for scope in scopes for n in ast.walk(scope)}.values()
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(own[: len(own) - node.level] + ([base] if base else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names if base == "pastor"]
    return [(line, name) for line, name in found if name.startswith("pastor")]


def _modules():
    return sorted(p for p in PACKAGE.rglob("*.py"))


def _package_of_file(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    return rel.parts[0] if len(rel.parts) > 1 else rel.parts[0]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_only_point_down_the_stack(path):
    package = _package_of_file(path)
    if package not in ALLOWED:
        return  # pastor/__init__.py and __main__.py sit above everything
    upward = [f"linha {line}: {name}" for line, name in _imports(path)
              if (target := _package_of(name)) and target != package and target not in ALLOWED[package]]
    assert not upward, f"{path.relative_to(PACKAGE)} importa para cima: {upward}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_pastor_import_inside_a_function(path):
    """Imports at the top say what a module depends on; one hidden in a function hides a cycle or a
    layer violation until that function runs."""
    rel = str(path.relative_to(PACKAGE))
    hidden = [f"linha {line}: {name}" for line, name in _imports(path, in_functions=True)
              if (rel, name) not in IMPORTS_IN_FUNCTIONS and not any(
                  (rel, parent) in IMPORTS_IN_FUNCTIONS for parent in _parents(name))]
    assert not hidden, f"{rel} importa dentro de uma função: {hidden}"


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def test_the_in_function_imports_rule_catches_one(tmp_path):
    module = tmp_path / "search" / "probe.py"
    module.parent.mkdir()
    module.write_text("from pastor.bible import canon\n\n\ndef f():\n    from ..text import fold\n    return fold\n",
                      encoding="utf-8")
    assert _imports(module, in_functions=True, root=tmp_path) == [(5, "pastor.text")]
    assert _imports(module, root=tmp_path) == [(1, "pastor.bible"), (5, "pastor.text")]


def test_every_package_is_known():
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert packages | modules <= set(ALLOWED)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_small(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE)} tem {lines} linhas (máximo {MAX_LINES})"


@pytest.mark.parametrize("path", [p for p in _modules() if p.name == "__init__.py"],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_package_says_what_it_holds(path):
    assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))

"""Tests for the package layout: imports only point down the stack, and modules stay small."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pastor"

# Each package and the packages it may import (besides itself). `config` is the one shared leaf.
ALLOWED = {
    "config": set(),
    "text": {"config"},
    "bible": {"text", "config"},
    "documents": {"text", "config"},
    "providers": {"config"},
    "search": {"bible", "documents", "text", "config"},
    "answer": {"search", "providers", "bible", "documents", "text", "config"},
    "web": {"answer", "search", "providers", "bible", "documents", "text", "config", "wiring"},
    "cli": {"answer", "search", "providers", "bible", "documents", "text", "config", "wiring"},
    "wiring": {"answer", "search", "providers", "bible", "documents", "text", "config"},
}
MAX_LINES = 400


def _package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "pastor" and len(parts) > 1 else None


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every `pastor.*` module a file imports (absolute or relative), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = ["pastor", *path.relative_to(PACKAGE).with_suffix("").parts]
    found = []
    for node in ast.walk(tree):
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

"""Tests for the package layout: imports only point down the stack, and modules stay small."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pastor"

# The shared leaves every package may import: settings, the exceptions' base, health records.
LEAVES = {"config", "errors", "health", "datasets"}
BELOW_SEARCH = {"bible", "documents", "text", "care", "classify"}
# Each package and the packages it may import (besides itself and the leaves).
ALLOWED = {
    "config": {"errors", "config_parsing"},
    "config_parsing": {"errors"},
    "errors": set(),
    "health": set(),
    "datasets": {"errors"},
    "text": LEAVES,
    "bible": {"text"} | LEAVES,
    "documents": {"text"} | LEAVES,
    "classify": {"text"} | LEAVES,
    "care": {"classify", "bible", "text"} | LEAVES,
    "providers": LEAVES,
    "search": BELOW_SEARCH | LEAVES,
    "index": {"search"} | BELOW_SEARCH | LEAVES,
    "replication": {"index", "search"} | BELOW_SEARCH | LEAVES,
    "answer_filter": {"search", "bible", "documents", "text"} | LEAVES,
    "evaluation": {"search"} | BELOW_SEARCH | LEAVES,
    "answer": {"answer_filter", "index", "search", "providers"} | BELOW_SEARCH | LEAVES,
    "wiring": {"answer", "answer_filter", "index", "replication", "search", "providers"} | BELOW_SEARCH | LEAVES,
    # Serving never imports the evaluation: only the CLI's `eval` command (and the benches) do.
    "web": {"wiring", "answer", "answer_filter", "index", "replication", "search", "providers"} | BELOW_SEARCH | LEAVES,
    "cli": {"wiring", "answer", "answer_filter", "index", "replication", "search", "providers", "evaluation"}
    | BELOW_SEARCH
    | LEAVES,
}
# Single modules a package may import beyond ALLOWED, each with its reason: {(package, module): why}. A module
# named here must import nothing of `pastor` itself (a test), so the exception pulls in nothing else.
MODULE_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("config", "pastor.care.contacts"): "PASTOR_CRISIS_CONTACTS is parsed by the help lines' own parser, "
    "kept beside the crisis replies that show them"
}
# `pastor` imports inside a function, allowed only for a module whose import pulls in an optional
# dependency (none today: torch, transformers, sentence-transformers, lancedb and pyarrow are imported
# by the functions that need them, so every `pastor` module imports cheaply) and, for now, the files
# the signals/typed-sources rewrite owns, which moves them: {(file, imported module): why}.
IMPORTS_IN_FUNCTIONS: dict[tuple[str, str], str] = {}
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
    scopes = (
        [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if in_functions
        else [tree]
    )
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


def _check_imports_only_point_down_the_stack(path):
    package = _package_of_file(path)
    if package not in ALLOWED:
        return  # pastor/__init__.py and __main__.py sit above everything
    upward = [
        f"linha {line}: {name}"
        for line, name in _imports(path)
        if (target := _package_of(name))
        and target != package
        and target not in ALLOWED[package]
        and (package, name) not in MODULE_EXCEPTIONS
    ]
    assert not upward, f"{path.relative_to(PACKAGE)} importa para cima: {upward}"


@pytest.mark.parametrize("module", sorted({name for _, name in MODULE_EXCEPTIONS}))
def test_a_module_imported_by_exception_imports_nothing_of_pastor(module):
    path = PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")
    assert _imports(path) == [], f"{module} importa {_imports(path)}: a exceção em MODULE_EXCEPTIONS traria o resto"


def _check_no_pastor_import_inside_a_function(path):
    """Imports at the top say what a module depends on; one hidden in a function hides a cycle or a
    layer violation until that function runs."""
    rel = str(path.relative_to(PACKAGE))
    hidden = [
        f"linha {line}: {name}"
        for line, name in _imports(path, in_functions=True)
        if (rel, name) not in IMPORTS_IN_FUNCTIONS
        and not any((rel, parent) in IMPORTS_IN_FUNCTIONS for parent in _parents(name))
    ]
    assert not hidden, f"{rel} importa dentro de uma função: {hidden}"


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def test_the_in_function_imports_rule_catches_one(tmp_path):
    module = tmp_path / "search" / "probe.py"
    module.parent.mkdir()
    module.write_text(
        "from pastor.bible import canon\n\n\ndef f():\n    from ..text import fold\n    return fold\n", encoding="utf-8"
    )
    assert _imports(module, in_functions=True, root=tmp_path) == [(5, "pastor.text")]
    assert _imports(module, root=tmp_path) == [(1, "pastor.bible"), (5, "pastor.text")]


def test_every_package_is_known():
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert packages | modules <= set(ALLOWED)


def _check_modules_stay_small(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE)} tem {lines} linhas (máximo {MAX_LINES})"


def _check_every_package_says_what_it_holds(path):
    assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))


# Return annotations that say "a loose JSON-like mapping": what a response, a status or a record is
# shaped like. A typed mapping (`dict[str, float]`, a code table `dict[str, str]`) is not one.
_LOOSE = {"dict", "dict[str, Any]", "dict[str, object]", "list[dict]", "dict | None", "list[dict[str, Any]]"}
# The genuine mappings: shapes written to disk and read back, compared or stored whole, never shown
# as a response. Everything else in `search` and `answer` hands up typed objects; the API's, the
# Status tab's and the CLI's JSON are built from them in `web/schemas.py`, `web/status_model.py` and `cli/`.
NOT_RESPONSES = {
    # The verse table's manifest (`expected` is the one a build writes, `read_manifest` reads it back) and
    # the calibration table stored in it (mean, std, p99 of unrelated-pair cosines), read by the gates.
    "index/verse_index.py": {"expected", "read_manifest", "calibration", "calibrate", "serving"},
    # The same manifest and calibration table, where the VerseIndex split put their reading and writing.
    "index/verse_manifest.py": {"expected_manifest", "read_manifest"},
    "index/verse_serving.py": {"calibration"},
    # Cache keys: each is stored beside its cache and compared whole with the next one.
    "search/topic_index.py": {"key"},
    "search/adapter.py": {"key"},
    "index/lexcache.py": {"cache_key", "key"},
    # The turn log's JSON lines as they are on disk (their keys depend on PASTOR_LOG_TEXT), read back
    # for audits: the file's own format, not a response.
    "answer/turnlog.py": {"read", "events", "latest_feedback"},
}


def _loose_returns(path: Path) -> list[str]:
    """Public functions and methods of a module annotated to return a loose dict."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not node.name.startswith("_")
        and node.returns is not None
        and ast.unparse(node.returns) in _LOOSE
    ]


# The packages that hand typed objects up the stack (the care, search, index and answer layers).
TYPED_PACKAGES = ("search", "index", "answer", "answer_filter", "care")


def _check_search_and_answer_return_typed_objects_not_response_dicts(path):
    allowed = NOT_RESPONSES.get(str(path.relative_to(PACKAGE)), set())
    loose = [name for name in _loose_returns(path) if name not in allowed]
    assert not loose, (
        f"{path.relative_to(PACKAGE)}: {loose} devolvem dict solto; devolva um tipo (web/schemas.py monta o JSON)"
    )


def test_the_dict_rule_sees_a_loose_return():
    """The rule above can fail: it reads `-> dict` and `-> dict[str, Any]`, not a typed mapping."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        sample = Path(folder) / "sample.py"
        sample.write_text(
            "def answer() -> dict: ...\ndef table() -> dict[str, str]: ...\n"
            "def _private() -> dict: ...\nclass A:\n    def shape(self) -> dict[str, Any]: ...\n"
        )
        assert _loose_returns(sample) == ["answer", "shape"]


# -- the retriever is changed only by its own parts ---------------------------------------------------
# The retriever and its signals own their state: the query adapter is the vector signal's
# (`VectorSignal.use_adapter`), so no other code assigns an attribute of a retriever, or of something
# reached through one, and none reaches through one (`retriever.index.vectors`).
RETRIEVER_OWNERS = ("search/retrieval.py", "search/signals/")
SCANNED_FOR_RETRIEVER = (PACKAGE, PACKAGE.parent / "bench")


def _mentions_retriever(node: ast.AST) -> bool:
    """Whether an expression is a retriever or something reached from one (`engine.retriever.x`,
    `retriever.signal("vector")`)."""
    while True:
        if isinstance(node, ast.Name):
            return "retriever" in node.id
        if isinstance(node, ast.Attribute):
            if "retriever" in node.attr:
                return True
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return False


def _assignments_to_a_retriever(tree: ast.AST) -> list[int]:
    """Lines that assign an attribute of a retriever (or of its parts), with `=`, `+=` or `setattr`."""
    lines = []
    for node in ast.walk(tree):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, (ast.AugAssign, ast.AnnAssign))
            else []
        )
        flat = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
        if any(isinstance(t, ast.Attribute) and _mentions_retriever(t.value) for t in flat):
            lines.append(node.lineno)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and node.args
            and _mentions_retriever(node.args[0])
        ):
            lines.append(node.lineno)
    return lines


def _reaches_through_a_retriever(tree: ast.AST) -> list[int]:
    """Lines that read an attribute of a retriever's attribute (`retriever.index.vectors`): its parts
    are its own business; it answers through its methods and properties."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and isinstance(node.value.value, (ast.Name, ast.Attribute))
        and (node.value.value.id if isinstance(node.value.value, ast.Name) else node.value.value.attr).endswith(
            "retriever"
        )
    ]


def _outside_the_retriever():
    for root in SCANNED_FOR_RETRIEVER:
        for path in sorted(root.rglob("*.py")):
            rel = str(path.relative_to(PACKAGE)) if path.is_relative_to(PACKAGE) else None
            if rel is None or not rel.startswith(RETRIEVER_OWNERS):
                yield path


def _check_nothing_outside_the_retriever_assigns_its_attributes(path):
    lines = _assignments_to_a_retriever(ast.parse(path.read_text(encoding="utf-8")))
    assert not lines, f"{path.name}: atribui a um retriever nas linhas {lines}; use o método do sinal (use_adapter)"


def _check_nothing_reaches_through_a_retriever(path):
    lines = _reaches_through_a_retriever(ast.parse(path.read_text(encoding="utf-8")))
    assert not lines, f"{path.name}: atravessa o retriever nas linhas {lines}"


def test_the_retriever_rules_catch_an_assignment_and_a_reach_through():
    sample = ast.parse(
        "engine.retriever.adapter = a\nretriever.signal('vector').adapter = a\n"
        "setattr(retriever, 'encoder', e)\nretriever.weights += 1\nself.retriever = r\n"
        "x = retriever.index.vectors.matrix\ny = engine.retriever.adapter\n"
        "z = retriever.signal('vector').rows()\n"
    )
    assert sorted(_assignments_to_a_retriever(sample)) == [1, 2, 3, 4]
    assert _reaches_through_a_retriever(sample) == [6]


# -- one way to what the engine loaded -------------------------------------------------------------
def test_the_engine_reaches_its_resources_one_way():
    """What the engine loaded is read as `engine.resources.<part>`; no second path beside it."""
    from dataclasses import fields

    from pastor.config import Settings
    from pastor.index.engine import Engine
    from pastor.index.resources import SearchResources

    parts = {f.name for f in fields(SearchResources)}
    engine = Engine(Settings.from_env({}))
    assert not parts & (set(dir(Engine)) | set(vars(engine))), parts & (set(dir(Engine)) | set(vars(engine)))


# -- the retriever is configured, not wired argument by argument ---------------------------------------
def test_the_retriever_takes_a_configuration_and_its_signals():
    """Issue 20: `Retriever.__init__` takes one configuration object, the signals and what they search
    (at most 6 parameters); a new signal or setting changes `RetrievalConfig` or the registry, not it."""
    import inspect

    from pastor.search.retrieval import RetrievalConfig, Retriever

    parameters = list(inspect.signature(Retriever.__init__).parameters.values())[1:]
    assert len(parameters) <= 6, [p.name for p in parameters]
    assert parameters[0].annotation in (RetrievalConfig, "RetrievalConfig") and parameters[1].name == "signals"


# What finds references in a text. The web renders the citations a turn kept from their spans
# (`TurnResult.citation_spans`, placed by the validator): reading the answer again for references there
# would link what the validator did not keep, or miss what it did.
REFERENCE_READERS = {"find_references", "DOC_REF_PATTERN", "output_citations", "validate", "canonical"}


def _imported_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}


def _check_the_web_never_reads_references_out_of_an_answer(path):
    readers = _imported_names(path) & REFERENCE_READERS
    assert not readers, f"web/{path.name} importa {sorted(readers)}: os links vêm de TurnResult.citation_spans"


def test_the_reference_readers_rule_sees_an_import(tmp_path):
    sample = tmp_path / "chatview.py"
    sample.write_text(
        "from pastor.bible.references import find_references\nfrom pastor.documents.refs import "
        "DOC_REF_PATTERN as P\nfrom pastor.web.render import escape\n",
        encoding="utf-8",
    )
    assert _imported_names(sample) & REFERENCE_READERS == {"find_references", "DOC_REF_PATTERN"}


def test_no_two_modules_share_a_name():
    """`status.py` in two packages, or `pipeline.py`, leaves a reader guessing which one a log or a traceback
    means: every module's file name is its own (package `__init__`/`__main__` aside)."""
    by_name: dict[str, list[str]] = {}
    for path in _modules():
        if path.name not in ("__init__.py", "__main__.py"):
            by_name.setdefault(path.stem, []).append(str(path.relative_to(PACKAGE)))
    assert {name: paths for name, paths in by_name.items() if len(paths) > 1} == {}


# --- The per-module rules above, each run over every module it covers as one table-wide test --------


def _failures(check, paths) -> list[str]:
    """Every path `check` fails on, with its message: one test lists them all (a module is not a separate
    behaviour, and thousands of parametrized cases cost collection time for nothing)."""
    failures = []
    for path in paths:
        try:
            check(path)
        except AssertionError as error:
            failures.append(str(error).splitlines()[0] or str(path))
    return failures


def test_the_table_rules_fail_on_a_bad_module(tmp_path):
    """`_failures` reports what a check asserts: it can fail."""
    big = tmp_path / "big.py"
    big.write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    assert len(_failures(lambda path: _check_modules_stay_small_at(path, tmp_path), [big])) == 1


def _check_modules_stay_small_at(path: Path, root: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(root)} tem {lines} linhas (máximo {MAX_LINES})"


def test_imports_only_point_down_the_stack():
    assert _failures(_check_imports_only_point_down_the_stack, _modules()) == []


def test_no_pastor_import_inside_a_function():
    assert _failures(_check_no_pastor_import_inside_a_function, _modules()) == []


def test_modules_stay_small():
    assert _failures(_check_modules_stay_small, _modules()) == []


def test_every_package_says_what_it_holds():
    assert _failures(_check_every_package_says_what_it_holds, [p for p in _modules() if p.name == "__init__.py"]) == []


def test_search_and_answer_return_typed_objects_not_response_dicts():
    assert (
        _failures(
            _check_search_and_answer_return_typed_objects_not_response_dicts,
            [p for p in _modules() if _package_of_file(p) in TYPED_PACKAGES],
        )
        == []
    )


def test_nothing_outside_the_retriever_assigns_its_attributes():
    assert _failures(_check_nothing_outside_the_retriever_assigns_its_attributes, list(_outside_the_retriever())) == []


def test_nothing_reaches_through_a_retriever():
    assert (
        _failures(
            _check_nothing_reaches_through_a_retriever,
            [p for p in _outside_the_retriever() if p.is_relative_to(PACKAGE)],
        )
        == []
    )


def test_the_web_never_reads_references_out_of_an_answer():
    assert (
        _failures(_check_the_web_never_reads_references_out_of_an_answer, sorted((PACKAGE / "web").glob("*.py"))) == []
    )

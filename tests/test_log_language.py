"""One language in what the operator reads (issue 29, item 6c): every log line `pastor/` writes at INFO or above,
and the detail a provider's failure logs, is Portuguese (exception class names aside, which are code)."""

from __future__ import annotations

import ast
import re

from tests.support.helpers import ROOT

# What an operator reads (INFO and above; `log` is the provider failure line, a WARNING for a failed model call).
LOG_METHODS = {"info", "warning", "error", "exception", "critical", "log"}
# English words that no Portuguese log sentence uses (short Portuguese words such as "a", "o", "de" are not here).
ENGLISH = re.compile(
    r"\b(the|failed|fails|not|ready|unavailable|load|loaded|loading|and|with|without|only|again|while|for|is|"
    r"was|set|stream|ended|deadline|reply|turn|scripted|failure|model|provider|engine|chat)\b",
    re.I,
)


def _texts(node: ast.Call) -> list[str]:
    """The literal text of a logger call's message, or of a `detail=` argument (f-strings: their literal parts)."""
    function = node.func
    found: list[ast.expr] = []
    if isinstance(function, ast.Attribute) and function.attr in LOG_METHODS and _is_logger(function.value):
        args = node.args[1:] if function.attr == "log" else node.args
        found += args[:1]
    found += [k.value for k in node.keywords if k.arg == "detail"]
    texts = []
    for expr in found:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            texts.append(expr.value)
        elif isinstance(expr, ast.JoinedStr):
            texts.append(" ".join(v.value for v in expr.values if isinstance(v, ast.Constant)))
    return texts


def _is_logger(value: ast.expr) -> bool:
    return isinstance(value, ast.Name) and value.id in {"log", "logger", "logging"}


def test_every_log_line_and_failure_detail_is_portuguese():
    english = []
    for path in sorted((ROOT / "pastor").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                for text in _texts(node):
                    if ENGLISH.search(text.replace("%s", " ")):
                        english.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}")
    assert english == [], "\n".join(english)


def test_the_scan_sees_the_log_lines():
    """Guards the test above against finding nothing (a renamed logger would pass it silently)."""
    calls = []
    for path in (ROOT / "pastor").rglob("*.py"):
        calls += [
            n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.Call) and _texts(n)
        ]
    assert len(calls) >= 25

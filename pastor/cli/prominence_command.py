"""`python -m pastor prominence CROSS_REFERENCES [--out PATH]`: derive the verse-prominence table."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

from pastor.config import ROOT
from pastor.search.prominence import ATTRIBUTION, DEFAULT_OUT, ProminenceError, ProminenceReport, derive_prominence


def cmd_prominence(args) -> int:
    out = Path(args.out) if args.out else ROOT / DEFAULT_OUT
    try:
        summary = derive_prominence(args.cross_references, out)
    except ProminenceError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"erro: não foi possível ler ou gravar ({exc.strerror or exc}): {exc.filename or out}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(asdict(summary), ensure_ascii=False, indent=2))
    else:
        print(_summary_text(summary))
    return 0


def _summary_text(s: ProminenceReport) -> str:
    n = lambda value: f"{value:,}".replace(",", ".")  # noqa: E731 — pt-BR thousands separator
    lines = [
        f"Lidas {n(s.rows)} referências cruzadas de {s.source} "
        f"({n(s.positive)} com votos positivos, {n(s.zero)} com zero, {n(s.negative)} negativos).",
        f"Intervalos: {n(s.ranges)} ({n(s.cross_chapter)} entre capítulos, "
        f"{n(s.cross_book)} entre livros; {n(s.fallback)} reduzidos às extremidades).",
        f"Gravados {n(s.verses)} versículos em {s.out} (sha256 {s.sha256[:12]}…).",
        ATTRIBUTION,
    ]
    return "\n".join(lines)


def register_prominence(sub) -> None:
    """CLI registrar: append to `pastor.cli.commands.REGISTRARS`."""
    p = sub.add_parser("prominence", help="deriva verse_prominence.tsv das referências cruzadas do OpenBible")
    p.add_argument(
        "cross_references",
        metavar="referências",
        help="cross_references.txt do OpenBible.info (ou um .zip que o contenha)",
    )
    p.add_argument("--out", metavar="arquivo", help=f"arquivo de saída (padrão: {DEFAULT_OUT} na raiz do projeto)")
    p.add_argument("--json", action="store_true", help="saída em JSON")
    p.set_defaults(func=cmd_prominence)

"""Command line: `python -m pastor corpus|lookup|index|search|eval|ask|prominence|model`."""

from __future__ import annotations

import json
import sys
import time

from pastor.bible.lookup import lookup
from pastor.bible.usfx import CorpusError, load_bible
from pastor.cli import commands
from pastor.cli.parser import JSON_HELP, Parser, joined
from pastor.config import ConfigError, get_settings
from pastor.index.lexcache import SHIPPED_TOKENS, TokenCache, cache_key
from pastor.index.resources import lexical_corpus
from pastor.search.bm25 import LexicalIndex
from pastor.text.datafile import content_sha256


def _print(data: dict, as_json: bool, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2) if as_json else text)


def cmd_corpus(args) -> int:
    settings = get_settings()
    if args.ship_tokens:
        return ship_tokens(settings)
    started = time.perf_counter()
    bible = load_bible(settings.corpus)
    stats = bible.stats()
    stats["load_seconds"] = round(time.perf_counter() - started, 3)
    lines = [
        f"Corpus: {stats['file']} (sha256 {stats['sha256'][:12]}…)",
        f"{stats['books']} livros, {stats['chapters']} capítulos, {stats['verses']} versículos "
        f"(carregado em {stats['load_seconds']} s)",
    ]
    lines += (
        ["Diferenças em relação à versificação canônica:"] + [f"  - {d['detail']}" for d in stats["differences"]]
        if stats["differences"]
        else ["Nenhuma diferença em relação à versificação canônica."]
    )
    _print(stats, args.json, "\n".join(lines))
    return 0


def ship_tokens(settings) -> int:
    """Write the BM25 tokens of the configured texts to corpus/ (`SHIPPED_TOKENS`), so a first start reads them."""
    bibles = [load_bible(settings.corpus), *map(load_bible, settings.extra_corpora)]
    lexical = LexicalIndex(*lexical_corpus(bibles[0], bibles[1:]), stemmer=settings.stemmer)
    TokenCache.shipped().save(cache_key(bibles, settings.stemmer), lexical.ids, lexical.docs)
    print(f"{SHIPPED_TOKENS.name}: {len(lexical.ids)} versículos; conteúdo sha256 {content_sha256(SHIPPED_TOKENS)}")
    return 0


def cmd_lookup(args) -> int:
    bible = load_bible(get_settings().corpus)
    result = lookup(joined(args.text), bible, explain_all=True)
    lines = []
    for passage in result.references:
        lines.append(passage.reference)
        lines += [f"  {v.reference}: {v.text}" for v in passage.verses]
    lines += [f"Não encontrado: {n.text} — {n.reason}" for n in result.not_found]
    lines += [result.note] if result.note else []
    if not lines:
        lines = ["Nenhuma referência bíblica reconhecida no texto."]
    _print(result.as_dict(), args.json, "\n".join(lines))
    return 0 if result.found or not result.not_found else 1


def build_parser() -> Parser:
    parser = Parser(
        prog="python -m pastor", description="Pastor Online: a Bíblia, a busca e a conversa pela linha de comando"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="comando", title="comandos")

    p = sub.add_parser("corpus", help="carrega o corpus configurado e mostra contagens")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.add_argument("--ship-tokens", action="store_true", help="grava em corpus/ os tokens do BM25 destes textos")
    p.set_defaults(func=cmd_corpus)

    p = sub.add_parser("lookup", help="resolve referências bíblicas em um texto")
    # Several words are one text: `lookup Jo 3.16` is João 3:16, as `lookup "Jo 3.16"`.
    p.add_argument("text", nargs="+", metavar="texto", help="o texto com as referências (ex.: Jo 3.16)")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(func=cmd_lookup)

    for register in commands.REGISTRARS:  # index, search, eval, ask… beside the modules they drive
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (CorpusError, ConfigError) as exc:
        where = getattr(exc, "path", None)  # the full path helps here: this is the operator's terminal
        print(f"erro: {exc}" + (f" (caminho: {where})" if where else ""), file=sys.stderr)
        return 2

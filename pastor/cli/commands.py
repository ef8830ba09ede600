"""CLI subcommands for the index, search, evaluation and chat (registered into `pastor.cli.main`)."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict

from pastor.answer.checks import InputError, check_message
from pastor.answer.turn_modes import Mode
from pastor.cli.model_command import prepare, register_model
from pastor.cli.parser import JSON_HELP, MAX_K, joined, positive_int
from pastor.cli.prominence_command import register_prominence
from pastor.cli.publish import index_and_publish
from pastor.config import get_settings
from pastor.evaluation.ranking import Evaluation, eval_modes, evaluate_modes, format_table
from pastor.providers import ProviderError
from pastor.search.adapter import file_sha256, fold_adapters
from pastor.search.questions import QuestionSetError, load_questions
from pastor.search.rows import row_count
from pastor.search.signals import NAMES
from pastor.wiring import build_chat, build_engine, build_provider


def _dump(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def _engine():
    engine = build_engine(get_settings())
    if engine.health.reason("embedder"):
        print(f"aviso: {engine.health.reason('embedder')}", file=sys.stderr)
    return engine


# -- index ---------------------------------------------------------------------------------------
# The table's states (`IndexStatus.state`, kept in English in --json and /status) as the text line says them.
INDEX_STATES = {
    "complete": "completo",
    "partial": "parcial",
    "indexing": "em construção",
    "missing": "ausente",
    "error": "com erro",
}


def cmd_index(args) -> int:
    if get_settings().index_uri:  # the job that builds and publishes the shared index (issue 23)
        return index_and_publish(args, load_engine=_engine, build=build_local)
    engine = _engine()
    if engine.resources.index is None:
        print(f"erro: modelo de embeddings indisponível: {engine.health.reason('embedder')}", file=sys.stderr)
        return 2
    return build_local(engine, args)


def build_local(engine, args) -> int:
    """Build (or resume) the index in the data directory: vectors, topics, adapter, documents."""
    from tqdm import tqdm  # a third-party progress bar, only for this command

    started = time.perf_counter()
    res = engine.resources
    bar = tqdm(total=row_count(res.bible, res.extras), unit="vers", desc="indexando")

    def progress(done, total):
        bar.total = total
        bar.n = done
        bar.refresh()

    report = engine.pipeline.run(rebuild=args.rebuild, progress=progress, on_wait=_say_waiting)
    bar.close()
    status = report.vectors
    if "topics" in report.seconds:
        print(f"Temas: {report.topics} entradas em {report.seconds['topics']} s", file=sys.stderr)
    if "adapter" in report.seconds and status.state == "complete":
        print(f"Adaptador de consulta: {_adapter_line(engine)} em {report.seconds['adapter']:.1f} s", file=sys.stderr)
    summary = {
        "state": status.state,
        "rows": status.rows,
        "total": status.total,
        "error": status.error,
        "seconds": round(time.perf_counter() - started, 1),
        "embedder": res.embedder.name,
        "dim": res.embedder.dim,
        "calibration": status.manifest.get("calibration"),
    }
    if report.topics is not None:
        summary["topics"] = {"labels": report.topics, "seconds": report.seconds.get("topics", 0.0)}
    if report.documents is not None:
        summary["documents"] = asdict(report.documents)
    if args.json:
        _dump(summary)
    else:
        print(
            f"Índice {INDEX_STATES.get(status.state, status.state)}: {summary['rows']}/{summary['total']} linhas "
            f"em {summary['seconds']} s ({summary['embedder']}, dim {summary['dim']})"
        )
    return 0 if status.state == "complete" else 1


def _say_waiting() -> None:
    print("\naguardando outra indexação deste diretório de dados (outro processo ou o app) terminar…", file=sys.stderr)


def _adapter_line(engine) -> str:
    status = engine.status().adapter
    if status.enabled:
        return f"treinado com {status.questions} perguntas de {status.file}"
    return status.detail


# -- search --------------------------------------------------------------------------------------
def cmd_search(args) -> int:
    engine = _engine()
    result = engine.retriever.search(joined(args.question), k=args.k, source=args.source)
    if args.json:
        _dump({"mode": result.mode, "reason": result.reason, "results": [_hit(s) for s in result.results]})
        return 0
    print(f"modo: {result.mode} — {result.reason}")
    for i, hit in enumerate(result.results, 1):
        print(f"{i}. {hit.reference} ({hit.score:.4f}) {hit.text}")
    return 0


# -- eval ----------------------------------------------------------------------------------------
def cmd_eval(args) -> int:
    try:
        questions = load_questions(args.file)  # before loading the engine: a bad file fails fast
    except QuestionSetError as exc:
        print(f"erro: {exc}", file=sys.stderr)
        return 2
    engine = _engine()
    index = engine.resources.index
    if index is not None and not index.ready:
        print("aviso: índice vetorial incompleto; rode `python -m pastor index` antes", file=sys.stderr)
    elif engine.settings.adapter_questions is not None and engine.retriever.adapter is None:
        print("aviso: adaptador de consulta não treinado; rode `python -m pastor index` antes", file=sys.stderr)
    adapters = _fold_adapters(engine, args.file, questions)
    results = evaluate_modes(
        eval_modes(engine.retriever, max(args.k, 10), args.ablation, adapters), questions, k=args.k
    )
    if args.json:
        _dump({mode: _evaluation(row) for mode, row in results.items()})
    else:
        print(format_table(results))
    return 0


def _evaluation(row: Evaluation) -> dict:
    """One mode's figures as `eval --json` prints them."""
    return {"n": row.n, **row.metrics(), "p50_ms": row.p50_ms, "p95_ms": row.p95_ms}


def _fold_adapters(engine, path, questions):
    """Evaluating the query adapter's own training file: 5-fold cross-validation (each question is
    searched by an adapter trained on the other folds); None for any other file."""
    source = engine.settings.adapter_questions
    if engine.retriever.adapter is None or source is None or file_sha256(source) != file_sha256(path):
        return None
    print(
        "aviso: este arquivo treinou o adaptador de consulta; medindo em validação cruzada (5 partes)", file=sys.stderr
    )
    return fold_adapters(engine.retriever, questions)


# -- ask -----------------------------------------------------------------------------------------
def cmd_ask(args) -> int:
    try:
        # Checked before anything loads: an empty question must not cost a model's download.
        question = check_message(joined(args.question), get_settings().max_message_chars)
        engine = _engine()
        provider = build_provider(get_settings())
        prepare(provider)  # the local model: download/load with progress on stderr (not waited by others)
        result = build_chat(get_settings(), engine, provider).ask(question)
    except (InputError, ProviderError) as exc:
        print(f"erro: {getattr(exc, 'user_message', None) or exc}", file=sys.stderr)
        return 2
    turn = result.result
    if args.json:
        _dump(
            {
                "turn_id": result.turn_id,
                "mode": turn.mode,
                "reason": turn.reason,
                "answer": result.answer,
                "notes": list(turn.notes),
                "citations": list(turn.citations),
                "removed_citations": list(turn.removed_citations),
                "sources": [
                    {
                        "id": s.id,
                        "reference": s.reference,
                        "text": s.text,
                        "score": round(s.score, 6),
                        "cited": s.cited,
                        "kind": s.kind,
                    }
                    for s in turn.sources
                ],
                "provider": result.provider,
                "model": result.model,
            }
        )
    else:
        print("\n\n".join([result.answer, *turn.notes]))
        print(f"\n[modo: {turn.mode}; fontes: {', '.join(s.reference for s in turn.sources)}]")
    # The answer is printed either way; the status tells a script that the model did not answer.
    return 1 if turn.error or turn.mode == Mode.PROVIDER_UNAVAILABLE else 0


def _hit(source) -> dict:
    """One search hit as the CLI prints it: fused score, then rank and score in each registered signal."""
    hit = {"id": source.id, "reference": source.reference, "text": source.text, "score": round(source.score, 6)}
    for name in NAMES:
        score = source.score_in(name)
        hit[f"{name}_rank"], hit[f"{name}_score"] = source.rank_in(name), None if score is None else round(score, 6)
    return {**hit, "kind": source.kind}


def register_chat(sub) -> None:
    p = sub.add_parser("ask", help="uma conversa completa com o provedor configurado")
    p.add_argument("question", nargs="+", metavar="pergunta", help="a mensagem (várias palavras são uma só)")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(func=cmd_ask)


def register_retrieval(sub) -> None:
    p = sub.add_parser("index", help="constrói ou atualiza o índice vetorial")
    p.add_argument(
        "--rebuild",
        action="store_true",
        help="reconstrói do zero, ao lado do índice atual (trocado só quando o novo fica pronto)",
    )
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(func=cmd_index)

    k_help = f"quantos versículos (1 a {MAX_K}; padrão: 6)"
    p = sub.add_parser("search", help="busca híbrida de versículos para uma pergunta")
    p.add_argument("question", nargs="+", metavar="pergunta", help="o que buscar (várias palavras são uma só)")
    p.add_argument("--k", type=positive_int, default=6, metavar="N", help=k_help)
    p.add_argument(
        "--source", choices=("bible", "docs", "all"), default="all", help="onde buscar: bible, docs ou all (padrão)"
    )
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("eval", help="avalia a busca com um arquivo JSONL de perguntas e versículos-ouro")
    p.add_argument("file", metavar="arquivo", help="o arquivo JSONL de perguntas")
    p.add_argument("--k", type=positive_int, default=6, metavar="N", help=k_help)
    p.add_argument("--ablation", action="store_true", help="também o híbrido sem cada sinal novo")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.set_defaults(func=cmd_eval)


REGISTRARS: list = [register_retrieval, register_chat, register_prominence, register_model]

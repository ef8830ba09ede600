"""Safe Markdown for the web page: escaped text, highlighted citations, sources and status."""

from __future__ import annotations

import re

from pastor.bible.references import find_references
from pastor.search.modes import Mode

PREPARING = "⏳ _preparando resposta…_"
INTERRUPTED = "_(Resposta interrompida.)_"

MODE_LABELS = {
    Mode.RAG: "busca semântica",
    Mode.LEXICAL_FALLBACK: "busca por palavras-chave",
    Mode.REFERENCE: "referência bíblica citada",
    Mode.CONVERSATIONAL: "conversa",
    Mode.NO_EVIDENCE: "sem versículos adequados",
    Mode.CRISIS: "acolhimento em crise",
}

STATE_LABELS = {
    "loading": "⏳ Iniciando",
    "indexing": "🔄 Indexando",
    "complete": "✅ Índice completo",
    "partial": "🟡 Índice parcial",
    "error": "❌ Erro",
    "missing": "⚪ Sem índice vetorial",
}

VERSE_ID = re.compile(r"^[1-4]?[A-Z]{2,3} \d+:\d+$")


# -- text ----------------------------------------------------------------------------------------
def escape(text: str) -> str:
    """Make model or corpus text inert in Markdown: no HTML tag, entity or image survives.
    `>` is kept so the blockquotes the chat service writes still render."""
    text = str(text).replace("&", "&amp;").replace("<", "&lt;")
    return text.replace("![", "!\\[")


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def number(value: int | float | None) -> str:
    """31102 → "31.102" (pt-BR thousands)."""
    return "—" if value is None else f"{int(value):,}".replace(",", ".")


def cell(value) -> str:
    """A Markdown table cell: escaped, one line, pipes neutralised."""
    return escape(one_line(value)).replace("|", "\\|")


# -- answers ---------------------------------------------------------------------------------------
def cited_ids(citations) -> set[str]:
    """Verse ids of the citations, given either as ids (`JHN 3:16`) or references (`João 3:16`)."""
    ids: set[str] = set()
    for citation in citations or ():
        citation = str(citation).strip()
        if VERSE_ID.match(citation):
            ids.add(citation)
            continue
        for match in find_references(citation):
            if match.reference is not None and not match.error:
                ids.update(match.reference.verse_ids())
    return ids


def highlight(answer: str, citations=None) -> str:
    """The answer escaped, with each supported citation in bold.

    With `citations` None (while streaming) every valid reference is bold: the streamed text is
    already validated, so it only holds supported ones; the final update lists them."""
    wanted = None if citations is None else cited_ids(citations)
    parts, pos = [], 0
    for match in find_references(answer):
        if match.reference is None or match.error or match.start < pos:
            continue
        if wanted is not None and not set(match.reference.verse_ids()) & wanted:
            continue
        if answer[max(0, match.start - 2):match.start] == "**" and answer[match.end:match.end + 2] == "**":
            continue  # the chat service already set it in bold
        parts += [escape(answer[pos:match.start]), f"**{escape(answer[match.start:match.end])}**"]
        pos = match.end
    parts.append(escape(answer[pos:]))
    return "".join(parts)


def mode_text(mode: str, reason: str = "") -> str:
    label = MODE_LABELS.get(mode, mode or "—")
    return f"Modo: {label}" + (f" — {one_line(reason)}" if reason else "")


def mode_markdown(mode: str, reason: str = "") -> str:
    """The mode in plain words; the technical reason (scores, thresholds) only as a tooltip."""
    if not mode:
        return ""
    title = escape(one_line(reason)).replace('"', "&quot;")
    return f'<small title="{title}">{escape(mode_text(mode))}</small>'


def sources_markdown(sources: list[dict], credits: list[str] = ()) -> str:
    """The retrieved passages, cited ones first, each with reference, text, score and whether cited."""
    if not sources:
        lines = ["_Nenhuma fonte consultada nesta resposta._"]
    else:
        ordered = sorted(sources, key=lambda s: not s.get("cited"))
        lines = [_source_line(s) for s in ordered]
    lines += [f"<small>{escape(c)}</small>" for c in credits]
    return "\n\n".join(lines)


def _source_line(source: dict) -> str:
    icon = "📄" if source.get("kind") == "doc" else "📖"
    cited = "✅ citado na resposta" if source.get("cited") else "não citado"
    score = f"{float(source.get('score') or 0):.4f}".replace(".", ",")
    head = f"{icon} **{escape(one_line(source.get('reference', '')))}** · {cited} · pontuação {score}"
    return f"{head}\n> {escape(one_line(source.get('text', '')))}"


def sources_title(sources: list[dict]) -> str:
    cited = sum(1 for s in sources if s.get("cited"))
    return f"📖 Fontes consultadas ({len(sources)}; {cited} citada{'s' if cited != 1 else ''})"


# -- status ----------------------------------------------------------------------------------------
def progress_counts(status: dict) -> tuple[int, int]:
    progress = status.get("progress") or {}
    index = status.get("index") or {}
    if status.get("state") == "indexing" and progress.get("total"):
        return int(progress["done"]), int(progress["total"])
    return int(index.get("rows") or 0), int(index.get("total") or 0)


def state_markdown(status: dict) -> str:
    state = status.get("state", "loading")
    label = STATE_LABELS.get(state, state)
    done, total = progress_counts(status)
    line = f"### Estado: {label}"
    if state in ("indexing", "partial") and total:
        line += f" — {number(done)} de {number(total)} vetores ({done * 100 // total}%)"
    if status.get("corpus_error"):
        line += f"\n\n**O que falta:** {escape(status['corpus_error'])}"
    elif state == "indexing" and status.get("vectors_ready"):
        line += "\n\n_Reconstruindo ao lado do índice atual, que continua em uso até o novo ficar pronto._"
    elif state in ("indexing", "partial", "missing") and status.get("bm25_ready"):
        line += "\n\n_Enquanto o índice vetorial não fica pronto, as respostas usam a busca por palavras-chave._"
    return line


def progress_html(status: dict) -> str:
    done, total = progress_counts(status)
    if not total:
        return "<div class='pastor-progress'><progress max='1' value='0'></progress> <span>sem vetores</span></div>"
    percent = done * 100 // total
    return (f"<div class='pastor-progress'><progress max='{total}' value='{done}'></progress> "
            f"<span>{number(done)} / {number(total)} ({percent}%)</span></div>")


def details_markdown(status: dict) -> str:
    corpus = status.get("corpus") or {}
    embedder = status.get("embedder") or {}
    index = status.get("index") or {}
    llm = status.get("llm") or {}
    prominence = status.get("prominence") or {}
    rows = [
        ("Corpus", corpus.get("file", "—")),
        ("SHA-256 do corpus", corpus.get("sha256", "—")),
        ("Versículos", number(corpus.get("verses"))),
        ("Modelo de embeddings", _embedder_text(embedder)),
        ("Vetores na tabela", f"{number(index.get('rows'))} de {number(index.get('total'))}" if index else "—"),
        ("BM25 (palavras-chave)", "pronto" if status.get("bm25_ready") else "não carregado"),
        ("Proeminência (OpenBible.info)",
         "ativa" if prominence.get("enabled") else prominence.get("detail") or "desligada"),
        ("Modelo de linguagem", f"{llm.get('provider', '—')} / {llm.get('model') or 'padrão'}"),
        ("Modelo alcançável", _reachable_text(llm)),
    ]
    for extra in status.get("extra_corpora") or []:
        rows.append(("Tradução extra", f"{extra.get('file')} ({number(extra.get('verses'))} versículos)"))
    if status.get("documents"):
        rows.append(("Documentos", _documents_text(status["documents"])))
    if status.get("index_notice"):
        rows.append(("Integridade do índice", status["index_notice"]))
    if status.get("storage_warning"):
        rows.append(("Armazenamento", status["storage_warning"]))
    table = ["| Item | Valor |", "| --- | --- |"] + [f"| {cell(k)} | {cell(v)} |" for k, v in rows]
    errors = status.get("errors") or []
    if index.get("error"):
        errors = [index["error"], *errors]
    if errors:
        table += ["", "**Últimos erros**", ""] + [f"- {escape(one_line(e))}" for e in errors[-10:]]
    table += _document_errors(status.get("documents"))
    credits = status.get("attributions") or []
    if credits:
        table += [""] + [f"<small>{escape(c)}</small>" for c in credits]
    return "\n".join(table)


def _embedder_text(embedder: dict) -> str:
    if not embedder:
        return "—"
    if embedder.get("error"):
        return f"{embedder.get('name')} — não carregado: {embedder['error']}"
    return f"{embedder.get('name')} (dimensão {embedder.get('dim')})"


def _reachable_text(llm: dict) -> str:
    reachable = llm.get("reachable")
    mark = "sim" if reachable else ("verificando…" if reachable is None else "não")
    return f"{mark} — {llm['detail']}" if llm.get("detail") else mark


def _documents_text(documents) -> str:
    if isinstance(documents, dict):
        parts = [f"{k}: {v}" for k, v in documents.items() if isinstance(v, (str, int, float, bool))]
        files = documents.get("files")
        if isinstance(files, list):
            failed = sum(1 for f in files if isinstance(f, dict) and f.get("error"))
            parts.append(f"{len(files)} arquivo(s), {failed} com erro")
        return ", ".join(parts) or "—"
    return str(documents)


def _document_errors(documents) -> list[str]:
    """One line per document that could not be indexed, with its Portuguese reason."""
    files = documents.get("files") if isinstance(documents, dict) else None
    failed = [f for f in files or [] if isinstance(f, dict) and f.get("error")]
    if not failed:
        return []
    return ["", "**Documentos com erro**", ""] + [
        f"- `{escape(one_line(str(f.get('path'))))}`: {escape(one_line(str(f['error'])))}" for f in failed[:50]]


def banner_markdown(status: dict) -> str:
    """The line above the chat: empty when all is well."""
    phase = status.get("phase")
    if phase == "loading":
        return "⏳ _Iniciando: carregando a Bíblia e a busca…_"
    if status.get("corpus_error"):
        return f"❌ **O Pastor Online não pode responder.** {escape(status['corpus_error'])}"
    if phase == "error":
        return "❌ **A busca não está disponível.** Veja a aba Status."
    if status.get("state") == "indexing":
        done, total = progress_counts(status)
        percent = f" ({done * 100 // total}%)" if total else ""
        if status.get("vectors_ready"):  # a rebuild beside the live index: search keeps its vectors
            return f"🔄 _Reconstruindo o índice semântico{percent}; a busca continua usando o índice atual._"
        return f"🔄 _Preparando o índice semântico{percent}; por enquanto a busca usa palavras-chave._"
    return ""


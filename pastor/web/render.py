"""Safe Markdown for the web page: escaped text and the status tab (the chat's own view is `chatview`)."""

from __future__ import annotations

import re

from pastor.answer.turn_modes import Mode

# The line under an answer, in the members' words (the mode's own name is the API's and the turn log's).
# Keyed by `Mode` (a StrEnum): a mode that arrives as its plain string finds its label too.
MODE_LABELS: dict[str, str] = {
    Mode.RAG: "versículos escolhidos para a sua mensagem",
    Mode.LEXICAL_FALLBACK: "versículos escolhidos pelas palavras da sua mensagem",
    Mode.REFERENCE: "a passagem que você pediu",
    Mode.CONVERSATIONAL: "conversa",
    Mode.NO_EVIDENCE: "nenhuma passagem para esta mensagem",
    Mode.CRISIS: "acolhimento e contatos de ajuda",
    Mode.OUT_OF_SCOPE: "um assunto para um profissional de confiança",
    Mode.PROVIDER_UNAVAILABLE: "versículos encontrados para a sua mensagem, sem comentário",
}

STATE_LABELS = {
    "loading": "⏳ Iniciando",
    "indexing": "🔄 Indexando",
    "complete": "✅ Índice completo",
    "partial": "🟡 Índice parcial",
    "error": "❌ Erro",
    "missing": "⚪ Sem índice vetorial",
}


# -- text ----------------------------------------------------------------------------------------
# What Markdown would turn into a link: brackets (`[texto](url)`, `[texto][1]`, `[1]: url`), a
# scheme before `//` (`https://…`), `www.` and the `@` of an e-mail address (GFM autolinks).
_LINK_MAKERS = re.compile(r"[\[\]]|(?<=[A-Za-z0-9+.\-]):(?=//)|(?<![^\W_])(?i:www)\.|(?<=\w)@(?=\w)")
_INERT = {"[": "&#91;", "]": "&#93;", ":": "&#58;", "@": "&#64;"}


def escape(text: str) -> str:
    """Make model or corpus text inert in Markdown: no HTML tag, entity, image or link survives
    (a URL stays visible, written with character references that no autolinker reads).
    `>` is kept so the blockquotes the chat service writes still render."""
    text = str(text).replace("&", "&amp;").replace("<", "&lt;")
    return _LINK_MAKERS.sub(lambda m: _INERT.get(m.group(), m.group()[:-1] + "&#46;"), text)


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def number(value: int | float | None) -> str:
    """31102 → "31.102" (pt-BR thousands)."""
    return "—" if value is None else f"{int(value):,}".replace(",", ".")


def cell(value) -> str:
    """A Markdown table cell: escaped, one line, pipes neutralised."""
    return escape(one_line(value)).replace("|", "\\|")


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
    finishing = state == "indexing" and total and done >= total and status.get("pending")
    if finishing:  # the vectors are in; what the build prepares after them is not yet
        line = f"### Estado: 🔄 Concluindo a indexação — falta: {escape(', '.join(status['pending']))}"
    elif state in ("indexing", "partial") and total:
        line += f" — {number(done)} de {number(total)} vetores ({done * 100 // total}%)"
    if status.get("corpus_error"):
        line += f"\n\n**O que falta:** {escape(status['corpus_error'])}"
    elif finishing:
        line += "\n\n_A busca já usa os vetores; os temas e o adaptador de consulta entram assim que prontos._"
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
    return (
        f"<div class='pastor-progress'><progress max='{total}' value='{done}'></progress> "
        f"<span>{number(done)} / {number(total)} ({percent}%)</span></div>"
    )


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
        (
            "Proeminência (OpenBible.info)",
            "ativa" if prominence.get("enabled") else prominence.get("detail") or "desligada",
        ),
        ("Temas (Nave, Torrey)", _topics_text(status.get("topics") or {})),
        ("Adaptador de consulta", _adapter_text(status.get("adapter") or {})),
        ("Modelo de linguagem", f"{llm.get('provider', '—')} / {llm.get('model') or 'padrão'}"),
        ("Por que este modelo", llm.get("choice") or "—"),
        ("Modelo alcançável", _reachable_text(llm)),
        ("Roteamento (crise, conversa, fora do escopo)", status.get("router") or "—"),
    ]
    if llm.get("reachable") is False and llm.get("setup_hint"):
        rows.append(("Como ativar as respostas comentadas", llm["setup_hint"]))
    for extra in status.get("extra_corpora") or []:
        rows.append(("Tradução extra (só na busca)", f"{extra.get('file')} ({number(extra.get('verses'))} versículos)"))
    if status.get("documents"):
        rows.append(("Documentos", _documents_text(status["documents"])))
    if status.get("index_notice"):
        rows.append(("Integridade do índice", status["index_notice"]))
    if status.get("replica"):
        rows.append(("Índice publicado (réplica)", _replica_text(status["replica"])))
    if status.get("storage_warning"):
        rows.append(("Armazenamento", status["storage_warning"]))
    table = ["| Item | Valor |", "| --- | --- |"] + [f"| {cell(k)} | {cell(v)} |" for k, v in rows]
    errors = status.get("errors") or []
    if index.get("error"):
        errors = [index["error"], *errors]
    if errors:
        table += ["", "**Últimos erros**", ""] + [f"- {escape(one_line(e))}" for e in errors[-10:]]
    table += _document_errors(status.get("documents"))
    return "\n".join(table)  # the data credits: once, in the line under the tabs (`credits_html`)


def credits_html(status: dict) -> str:
    """The credits of the data in use, one line under every tab, separated."""
    credits = status.get("attributions") or []
    return f"<small>{escape(' · '.join(credits))}</small>" if credits else ""


def _replica_text(replica: dict) -> str:
    """The release a replica serves and, when one was refused or the store failed, why."""
    served = f"versão {replica['release']}" if replica.get("release") else "nenhuma versão servida ainda"
    return f"{served} — {replica['error']}" if replica.get("error") else served


def _topics_text(topics: dict) -> str:
    if topics.get("enabled"):
        return f"{number(topics.get('entries'))} entradas, peso {topics.get('weight')}"
    return topics.get("detail") or "—"


def _adapter_text(adapter: dict) -> str:
    if adapter.get("enabled"):
        return f"treinado com {number(adapter.get('questions'))} perguntas de {adapter.get('file')}"
    return adapter.get("detail") or "—"


def _embedder_text(embedder: dict) -> str:
    if not embedder:
        return "—"
    if embedder.get("error"):
        return f"{embedder.get('name')} — não carregado: {embedder['error']}"
    if embedder.get("dim") is None:  # the first seconds: the app answers by keywords while it loads
        return f"{embedder.get('name')} — carregando (a busca por palavras já responde)"
    return f"{embedder.get('name')} (dimensão {embedder.get('dim')})"


def _reachable_text(llm: dict) -> str:
    reachable = llm.get("reachable")
    mark = "sim" if reachable else ("verificando…" if reachable is None else "não")
    text = f"{mark} — {llm['detail']}" if llm.get("detail") else mark
    if reachable is False:
        text += " (o chat mostra só os versículos encontrados)"
    return text + (f"; verificado às {llm['checked_at']}" if llm.get("checked_at") else "")


def provider_check_markdown(llm: dict) -> str:
    """The answer to "Verificar de novo": the provider, whether it answers and why not."""
    reachable = llm.get("reachable")
    mark = "✅" if reachable else ("⏳" if reachable is None else "⚠️")
    name = f"{llm.get('provider', '—')} / {llm.get('model') or 'padrão'}"
    took = f" (verificação em {llm['elapsed_seconds']:.1f} s)".replace(".", ",") if "elapsed_seconds" in llm else ""
    return f"{mark} Modelo de linguagem {escape(name)}: {escape(_reachable_text(llm))}{took}"


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
        f"- `{escape(one_line(str(f.get('path'))))}`: {escape(one_line(str(f['error'])))}" for f in failed[:50]
    ]


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
        # Members read it above the chat: what it means for their answers, not the index's name.
        if status.get("vectors_ready"):  # a rebuild beside the live index: search keeps its vectors
            return f"🔄 _Atualizando a busca de versículos{percent}; as respostas continuam normalmente._"
        return (
            f"🔄 _Preparando a busca de versículos pelo sentido{percent}; por enquanto, escolho os versículos "
            "pelas palavras da mensagem._"
        )
    return ""

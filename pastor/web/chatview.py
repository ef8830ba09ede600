"""How a turn reads in the chat: cited references linked to their sources, the sources (cited first, no
relevance label), the mode line and the copy text. Everything from the model or the corpus is escaped first."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pastor.answer.chat import INTERRUPTED_NOTE
from pastor.answer.turn_modes import Mode
from pastor.answer_filter.citations import Citation
from pastor.search.results import Source
from pastor.web.render import MODE_LABELS, escape, one_line

PREPARING = "⏳ _preparando resposta…_"
# Marks a crisis reply: the page script (assets/page.js) brings its top, the help lines, into view
# instead of letting the chat scroll to its end (issue 21: on a phone the numbers were off screen).
CRISIS_MARK = '<span class="pastor-crisis-top"></span>'

INTERRUPTED = INTERRUPTED_NOTE  # the same mark the chat service puts on an answer it did not finish


# -- anchors ---------------------------------------------------------------------------------------
def anchor(turn_id: str, source_id: str) -> str:
    """The class that marks a source entry, and the fragment its citations link to.
    (Gradio's sanitiser drops `id` attributes but keeps classes and `href`.)"""
    return "fonte-" + re.sub(r"[^A-Za-z0-9]+", "-", f"{turn_id}-{source_id}").strip("-")


def _cite(shown: str, target: str | None) -> str:
    """A citation: a link to its source entry when there is one, styled apart from bold."""
    if target is None:
        return f'<span class="pastor-cite">{shown}</span>'
    return f'<a class="pastor-cite" href="#{target}" title="Ver a fonte">{shown}</a>'


# -- answers ---------------------------------------------------------------------------------------
def answer_html(
    answer: str, citations: Sequence[Citation] = (), sources: Sequence[Source] = (), turn_id: str = ""
) -> str:
    """The answer escaped, each citation the turn kept (`TurnResult.citation_spans`: placed by the
    validator in the answer as shown, or by the service in an answer it wrote) shown in its reference's
    own form and linked to its entry in the sources: the only links an answer has. The answer is never
    read again for references here: while streaming the spans are those of the text validated so far.
    A reference the chat service set in bold loses the bold (a citation is not emphasis)."""
    known = {s.id for s in sources}
    parts, pos = [], 0
    for citation in sorted(citations, key=lambda c: c.start):
        start, end = citation.start, citation.end
        if start < pos or end > len(answer):
            continue  # never overlapping nor past the text: each character is shown once
        if answer[max(0, start - 2) : start] == "**" and answer[end : end + 2] == "**":
            start, end = start - 2, end + 2
        target = next((anchor(turn_id, i) for i in citation.ids if i in known), None)
        parts += [escape(answer[pos:start]), _cite(escape(citation.reference), target)]
        pos = end
    parts.append(escape(answer[pos:]))
    return "".join(parts)


def notes_html(notes: Sequence[str]) -> str:
    """The turn's notes (keyword search only, references left out, no citation kept), under the answer."""
    return "\n\n".join(f"_({escape(one_line(note))})_" for note in notes)


def copy_text(answer: str, sources: Sequence[Source], notes: Sequence[str] = ()) -> str:
    """What "Copiar" puts on the clipboard: the answer as plain text, its notes, then the cited passages."""
    text = "\n\n".join([answer.replace("**", "").strip(), *notes]).strip()
    cited = [s for s in sources if s.cited]
    if cited:
        text += "\n\nReferências:\n" + "\n".join(f"- {one_line(s.reference)}: {one_line(s.text)}" for s in cited)
    return text


def actions_html(answer: str, sources: Sequence[Source], notes: Sequence[str] = ()) -> str:
    """The copy button under a final answer; the text it copies rides along, hidden, as escaped HTML."""
    hidden = escape(copy_text(answer, sources, notes)).replace("\n", "<br>")
    return (
        '<div class="pastor-actions"><button type="button" class="pastor-copy" '
        'title="Copiar a resposta com as referências">'
        f'📋 Copiar</button><span class="pastor-copytext" aria-hidden="true">{hidden}</span></div>'
    )


# -- sources -----------------------------------------------------------------------------------------
def sources_html(sources: Sequence[Source], turn_id: str = "", credits=()) -> str:
    """The passages consulted, cited first: each an HTML block, so a document's `#` or `*` stays text."""
    if not sources:
        return "_Nenhuma fonte consultada nesta resposta._"
    ordered = sorted(sources, key=lambda s: not s.cited)
    blocks = [_source_block(s, turn_id) for s in ordered]
    blocks += [f"<small>{escape(c)}</small>" for c in credits]
    return "\n\n".join(blocks)


def _source_block(source: Source, turn_id: str) -> str:
    """No relevance label: one placed by a source's score among the answer's own ("relevância alta" for
    whatever came first) told members nothing true about the verse (issue 31), so none is shown."""
    icon = "📄" if source.kind == "doc" else "📖"
    cited = (
        '<span class="pastor-cited">✅ citado na resposta</span>'
        if source.cited
        else '<span class="pastor-uncited">não citado</span>'
    )
    return (
        f'<div class="pastor-source {anchor(turn_id, source.id)}">'
        f'<b class="pastor-ref">{icon} {escape(one_line(source.reference))}</b> · '
        f"{cited}"
        f'<br><span class="pastor-quote">{escape(one_line(source.text))}</span>'
        f"{context_link(source)}</div>"
    )


def context_link(source: Source) -> str:
    """A verse's "ler o capítulo": the page script (assets/reader.js) opens its chapter in the page.
    The verse id rides in the fragment, as Gradio's sanitiser keeps `href` but drops data attributes."""
    found = re.fullmatch(r"([1-4]?[A-Z]{2,3}) (\d+):(\d+)", source.id)
    if source.kind != "verse" or not found:
        return ""
    return (
        f' <a class="pastor-context" href="#ler-{"-".join(found.groups())}" '
        'title="Ler o capítulo com este versículo em destaque">📜 ler o capítulo</a>'
    )


def sources_title(sources: Sequence[Source]) -> str:
    cited = sum(1 for s in sources if s.cited)
    return f"📖 Fontes consultadas ({len(sources)}; {cited} citada{'s' if cited != 1 else ''})"


# -- the line under the chat ------------------------------------------------------------------------------
def mode_text(mode: Mode | str) -> str:
    """What kind of answer this is, in the members' words; a mode without a label says nothing."""
    label = MODE_LABELS.get(mode, "")
    return label[:1].upper() + label[1:]


def mode_html(mode: Mode | str, query: str = "") -> str:
    """The kind of answer in plain words and the rewritten search, discreetly. The turn's reason (thresholds, the
    provider's failure and its setup) is the operator's: the API and the turn log carry it, the page does not."""
    if not mode_text(mode):
        return ""
    line = f"<span>{escape(mode_text(mode))}</span>"
    if query:
        line += f' · <span class="pastor-query">busquei: “{escape(one_line(query))}”</span>'
    return f'<small class="pastor-mode">{line}</small>'


def notice_html(message: str, info: bool = False) -> str:
    """A refusal (empty, too long, too soon, not ready) or a thank-you, shown beside the input,
    never over the chat."""
    if not message:
        return ""
    if info:
        return f'<div class="pastor-notice pastor-info" role="status">{escape(one_line(message))}</div>'
    return f'<div class="pastor-notice" role="alert">⚠️ {escape(one_line(message))}</div>'

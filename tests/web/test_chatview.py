"""The chat's view of a turn: linked citations, readable sources, copy text, mode line and notices."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

from pastor.answer_filter.citations import Citation, validate
from pastor.search.prominence import ATTRIBUTION as OPENBIBLE_CREDIT
from pastor.search.results import Source
from pastor.web import chatview

XSS = '<script>alert("x")</script> <img src=x onerror=alert(1)> ![rastreio](http://mal.example/p.png)'

SOURCES = [
    Source("PSA 23:1", "Salmos 23:1", "O Senhor é o meu pastor.", "verse", 0.0112),
    Source("JHN 3:16", "João 3:16", "Porque Deus amou o mundo " + XSS, "verse", 0.0131, cited=True),
    Source("faq.json#p0-c1", "faq.json#p0-c1", "# Horários\n**Culto** às 19h", "doc", 0.0049),
]


def assert_inert(html: str) -> None:
    assert "<script" not in html and "<img" not in html and "![" not in html


def link(turn: str, source_id: str, shown: str) -> str:
    return f'<a class="pastor-cite" href="#{chatview.anchor(turn, source_id)}" title="Ver a fonte">{shown}</a>'


def shown(answer: str, sources=SOURCES, turn: str = "t1") -> str:
    """The page's HTML for an answer as the validator leaves it (its text and the citations it kept, placed),
    its sources marked cited as a finished turn has them."""
    checked = validate(answer, {s.id for s in sources if s.kind == "verse"}, {s.id for s in sources if s.kind == "doc"})
    return chatview.answer_html(
        checked.text, checked.spans, [s.marked(s.id in checked.cited_ids) for s in sources], turn
    )


class TestAnswer:
    def test_each_citation_links_to_its_source_entry(self):
        assert (
            shown("Veja João 3:16 e também Salmos 23:1.")
            == f"Veja {link('t1', 'JHN 3:16', 'João 3:16')} e também {link('t1', 'PSA 23:1', 'Salmos 23:1')}."
        )

    def test_citations_are_not_bold(self):
        html = shown("> texto — **João 3:16**")
        assert html == f"> texto — {link('t1', 'JHN 3:16', 'João 3:16')}" and "**" not in html

    def test_a_citation_is_shown_in_its_references_own_form(self):
        # The page shows the reference as the app writes it, whatever spelling the model used.
        assert shown("Leia Jo 3.16") == f"Leia {link('t1', 'JHN 3:16', 'João 3:16')}"

    def test_only_the_citations_the_turn_kept_are_marked(self):
        # An unsupported reference never reaches the page; a supported one not among the spans is plain text.
        html = shown("Veja João 3:16 e João 3:99.")
        assert html == f"Veja {link('t1', 'JHN 3:16', 'João 3:16')}." and html.count("pastor-cite") == 1
        assert chatview.answer_html("Veja João 3:16.", (), SOURCES, "t1") == "Veja João 3:16."

    def test_a_citation_without_a_source_entry_is_marked_but_not_linked(self):
        spans = [Citation(5, 14, "João 3:16", ("JHN 3:16",))]
        assert (
            chatview.answer_html("Leia João 3:16", spans, [], "t1") == 'Leia <span class="pastor-cite">João 3:16</span>'
        )

    def test_spans_that_overlap_or_pass_the_text_are_not_shown_twice(self):
        spans = [
            Citation(5, 14, "João 3:16", ("JHN 3:16",)),
            Citation(10, 14, "3:16", ("JHN 3:16",)),
            Citation(12, 40, "x", ("JHN 3:16",)),
        ]
        assert (
            chatview.answer_html("Leia João 3:16", spans, SOURCES, "t1")
            == f"Leia {link('t1', 'JHN 3:16', 'João 3:16')}"
        )

    def test_document_references_link_too(self):
        assert link("t1", "faq.json#p0-c1", "faq.json#p0-c1") in shown("Veja faq.json#p0-c1.")

    def test_html_around_citations_is_escaped(self):
        html = shown(XSS + " João 3:16")
        assert_inert(html) and html.endswith(link("t1", "JHN 3:16", "João 3:16"))

    def test_anchors_are_css_class_safe_and_distinct_per_turn(self):
        assert chatview.anchor("abc", "1CO 13:4") == "fonte-abc-1CO-13-4"
        assert chatview.anchor("abc", "faq.json#p0-c1") == "fonte-abc-faq-json-p0-c1"
        assert chatview.anchor("t1", "JHN 3:16") != chatview.anchor("t2", "JHN 3:16")


class TestSources:
    def test_cited_first_each_with_reference_relevance_and_mark(self):
        first, second, third = chatview.sources_html(SOURCES, "t1").split("\n\n")
        assert "João 3:16" in first and "✅ citado na resposta" in first and chatview.anchor("t1", "JHN 3:16") in first
        assert "Salmos 23:1" in second and "não citado" in second

    def test_no_relevance_label_and_no_score_reach_the_member(self):
        """Issue 31: a label placed among the answer's own sources said "alta" of whatever came first."""
        shown = chatview.sources_html(SOURCES, "t1")
        assert "relevância" not in shown and "pontuação" not in shown and "0,0131" not in shown

    def test_a_document_chunk_is_plain_text(self):
        block = chatview.sources_html(SOURCES, "t1").split("\n\n")[2]
        assert block.startswith("<div ") and "# Horários **Culto** às 19h" in block  # an HTML block: no Markdown

    def test_source_text_is_escaped(self):
        assert_inert(chatview.sources_html(SOURCES, "t1"))

    def test_credits_follow_the_list(self):
        # Its address stays readable but is no link: nothing under an answer links away from the app.
        credit = OPENBIBLE_CREDIT.replace("://", "&#58;//").replace("www.", "www&#46;")
        assert chatview.sources_html(SOURCES, "t1", [OPENBIBLE_CREDIT]).endswith(f"<small>{credit}</small>")

    def test_title_counts_sources_and_citations(self):
        assert chatview.sources_title(SOURCES) == "📖 Fontes consultadas (3; 1 citada)"

    def test_no_sources(self):
        assert "Nenhuma fonte" in chatview.sources_html([])


class TestCopy:
    def test_the_answer_then_its_cited_references(self):
        text = chatview.copy_text("Leia **João 3:16**.", SOURCES)
        assert text.startswith("Leia João 3:16.\n\nReferências:\n- João 3:16: Porque Deus amou o mundo")
        assert "Salmos" not in text

    def test_the_button_carries_the_text_escaped(self):
        html = chatview.actions_html("Paz <b>", SOURCES)
        assert 'class="pastor-copy"' in html and 'title="Copiar a resposta com as referências"' in html
        assert_inert(html) and "Paz &lt;b><br><br>Referências:" in html


class TestModeAndNotice:
    def test_the_kind_of_answer_in_members_words_and_the_query_discreet(self):
        shown = chatview.mode_html("rag", "Como perdoar de novo?")
        assert "Versículos escolhidos para a sua mensagem" in shown and "title=" not in shown
        assert "busquei: “Como perdoar de novo?”" in shown

    def test_no_mode_no_line(self):
        assert chatview.mode_html("") == "" and chatview.mode_html("unknown_mode") == ""

    def test_notices(self):
        assert 'role="alert"' in chatview.notice_html("Aguarde") and chatview.notice_html("") == ""
        assert 'role="status"' in chatview.notice_html("Obrigado", info=True)
        assert_inert(chatview.notice_html(XSS))


class TestNoLinksButCitations:
    """Issue 18, item 6: a model's links and addresses are shown, never clickable."""

    ANSWER = (
        "Deus cuida de você (João 3:16). [Clique para confirmar sua doação](https://evil.example/pix), "
        "ou veja https://evil.example/a?b=1, www.evil.example, <https://evil.example/c>, "
        "pix@evil.example e [aqui][1].\n\n[1]: http://evil.example/ref"
    )

    def rendered(self) -> str:
        from markdown_it import MarkdownIt

        return MarkdownIt("commonmark").render(shown(self.ANSWER))

    def test_the_only_link_is_the_citation(self):
        html = self.rendered()
        assert re.findall(r"<a [^>]*>", html) == [re.search(r'<a class="pastor-cite"[^>]*>', html).group()]

    def test_nothing_an_autolinker_reads_is_left(self):
        # The page's Markdown (marked, GFM) autolinks `scheme://`, `www.` and e-mail addresses in the
        # source it is given: none is left there, only character references the browser displays.
        source = shown(self.ANSWER)
        assert "://" not in source and "www." not in source and not re.search(r"\w@\w", source)
        assert "](" not in source and "<https" not in source

    def test_the_addresses_stay_visible(self):
        text = unescape(re.sub(r"<[^>]+>", "", self.rendered()))
        for address in (
            "[Clique para confirmar sua doação](https://evil.example/pix)",
            "https://evil.example/a?b=1",
            "www.evil.example",
            "pix@evil.example",
            "[aqui][1]",
            "[1]: http://evil.example/ref",
        ):
            assert address in text

    def test_user_text_and_sources_are_inert_too(self):
        source = replace(SOURCES[2], text="Pague em [pix](https://evil.example) ou www.evil.example")
        html = chatview.sources_html([source], "t1")
        assert "](" not in html and "://" not in html and "www." not in html

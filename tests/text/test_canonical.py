"""The canonical view used to spot citations, and its map back to the original text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pastor.text.canonical import IncrementalCanonical, canonical


class TestView:
    @pytest.mark.parametrize(
        "written, seen",
        [
            ("Jo\u200bão 14:6", "João 14:6"),  # zero-width space
            ("Jo\u200dão", "João"),
            ("Jo\u2060ão", "João"),
            ("Jo\u00adão", "João"),
            ("\ufeffJoão", "João"),
            ("Joa\u0303o", "João"),  # decomposed accent, composed
            ("R\u043emanos", "Romanos"),
            ("R\u03bfmanos", "Romanos"),
            ("\u0420\u043em", "Pom"),  # look-alikes
            ("Ｒｏｍａｎｏｓ ８:２８", "Romanos 8:28"),
            ("Romanos \u2167:28", "Romanos VIII:28"),  # NFKC
            ("*Rom*anos", "Romanos"),
            ("**Romanos 8:28**", "Romanos 8:28"),
            ("_Romanos_", "Romanos"),
            ("~~Rom~~anos", "Romanos"),
        ],
    )
    def test_what_the_reader_sees(self, written, seen):
        assert canonical(written).text == seen

    @pytest.mark.parametrize("text", ["* item de lista", "meu_estatuto.md#p0-c3", "2 * 3", "Deus é amor.", ""])
    def test_what_stays(self, text):
        assert canonical(text).text == text

    def test_every_character_maps_back(self):
        view = canonical("a \u200b**Jo\u00adão** b")
        assert view.text == "a João b"
        assert [view.original[s:e] for s, e in zip(view.starts, view.ends, strict=False)] == [
            "a",
            " \u200b",
            "J",
            "o\u00ad",
            "ã",
            "o",
            " ",
            "b",
        ]  # invisible ones join the character before

    def test_a_span_takes_the_markers_and_invisible_characters_hugging_it(self):
        text = "Veja **Rom\u200b*anos 8:28** hoje"
        view = canonical(text)
        start = view.text.index("R")
        first, last = view.span(start, start + len("Romanos 8:28"))
        assert text[first:last] == "**Rom\u200b*anos 8:28**"

    def test_a_span_never_cuts_into_an_expanded_character(self):
        view = canonical("\ufb01lipenses")
        assert view.text.startswith("fi")
        assert view.span(1, 3) == (0, 2)


class TestIncremental:
    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        st.text(alphabet="Joã\u0303\u200b\u00ad*_~ R\u043e8:2\ufb01\u2167a.", max_size=40),
        st.lists(st.integers(1, 7), min_size=1, max_size=10),
    )
    def test_equals_the_whole_view_for_any_chunking(self, text, sizes):
        incremental, pos, index = IncrementalCanonical(), 0, 0
        while pos < len(text):
            pos += sizes[index % len(sizes)]
            index += 1
            view = incremental.update(text[:pos])
            whole = canonical(text[:pos])
            assert (view.text, view.starts, view.ends) == (whole.text, whole.starts, whole.ends)
            assert whole.text.startswith(view.text[: incremental.settled])

"""The page's assets: contrast of the colours it sets (WCAG 2), Gradio's strings in Portuguese, the input rule."""

from __future__ import annotations

import re

import gradio as gr
import pytest

from pastor.web import i18n
from pastor.web.page import CSS, HEAD, INPUT_HINT
from tests.support.helpers import css_colour

NAMED = {"white": "#ffffff", "black": "#000000"}


def resolve(theme, value: str) -> str:
    """A theme value as a hex colour, following `*name` references."""
    while value.startswith("*"):
        value = getattr(theme, value[1:])
    return NAMED.get(value, value)


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    high, low = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def declared(selector: str, prop: str = "color") -> str:
    return css_colour(CSS, selector, prop)


THEME = gr.themes.Default()
PAGE_LIGHT = resolve(THEME, THEME.background_fill_primary)
PAGE_DARK = resolve(THEME, THEME.background_fill_primary_dark)


class TestContrast:
    def test_the_page_backgrounds_come_from_gradios_theme(self):
        assert PAGE_LIGHT == "#ffffff" and re.fullmatch(r"#[0-9a-f]{6}", PAGE_DARK)

    @pytest.mark.parametrize(
        "selector, background",
        [
            ("#mode-label", PAGE_LIGHT),
            (".dark #mode-label", PAGE_DARK),
            ("#input-hint", PAGE_LIGHT),
            (".dark #input-hint", PAGE_DARK),
        ],
    )
    def test_the_mode_line_and_the_hint_reach_4_5_to_1(self, selector, background):
        assert contrast(declared(selector), background) >= 4.5

    def test_the_mode_line_is_not_faded(self):
        rules = re.findall(r"#mode-label[^{]*\{([^}]*)\}", CSS)
        assert rules and not any("opacity" in rule for rule in rules)

    @pytest.mark.parametrize(
        "selector",
        [
            "a.pastor-cite",
            ".dark a.pastor-cite",
            ".pastor-notice",
            ".pastor-notice.pastor-info",
            ".dark .pastor-notice",
        ],
    )
    def test_citations_and_notices_on_their_own_background(self, selector):
        assert contrast(declared(selector), declared(selector, "background")) >= 4.5

    def test_dark_rules_hold_one_selector_each(self):
        # Gradio scopes custom CSS and mangles the second selector of a `.dark` list (seen in 6.31).
        css = re.sub(r"/\*.*?\*/", "", CSS, flags=re.DOTALL)
        lists = [
            sel.strip() for sel in re.findall(r"([^{}]+)\{", css) if sel.strip().startswith(".dark") and "," in sel
        ]
        assert lists == []

    def test_the_contrast_formula(self):
        assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
        assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


class TestStrings:
    @pytest.mark.parametrize(
        "key",
        [
            "chatbot.clear",
            "chatbot.retry",
            "chatbot.like",
            "chatbot.dislike",
            "chatbot.copy_message",
            "common.error",
            "common.clear",
            "common.loading",
        ],
    )
    def test_gradios_own_strings_are_portuguese_for_english_browsers_too(self, key):
        translations = i18n.portuguese().translations_dict
        assert {"en", "pt", "pt-BR"} <= set(translations)
        assert translations["en"][key] == translations["pt-BR"][key] == i18n.STRINGS[key]

    def test_the_input_hint_says_enter_sends(self):
        assert "Enter** envia" in INPUT_HINT and "Shift+Enter** quebra a linha" in INPUT_HINT

    def test_the_page_script_is_inline_and_handles_citations_and_copy(self):
        assert HEAD.startswith("<script>") and "a.pastor-cite" in HEAD and "pastor-copy" in HEAD

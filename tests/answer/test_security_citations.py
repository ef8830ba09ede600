"""Adversarial citations: forms that once slipped past the validator, streamed in any chunking."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pastor.answer_filter.citations import validate
from pastor.answer_filter.streaming import StreamingValidator

ALLOWED = {"JHN 3:16", "PSA 23:1"}
SUPPORTED = "João 3:16"

# Each form is an unsupported citation the browser shows as a plain reference.
BYPASSES = {
    "invented book": "Hezequias 3:16",
    "zero-width space": "Jo\u200bão 14:6",
    "zero-width joiner": "Jo\u200dão 14:6",
    "soft hyphen": "Jo\u00adão 14:6",
    "word joiner": "Jo\u2060ão 14:6",
    "decomposed accent": "Joa\u0303o 14:6",
    "cyrillic o": "R\u043emanos 8:28",
    "greek omicron": "R\u03bfmanos 8:28",
    "emphasis inside the name": "*Rom*anos 8:28",
    "bold reference": "**Romanos 8:28**",
    "underscore emphasis": "_Romanos_ 8:28",
    "strikethrough inside": "~~Rom~~anos 8:28",
    "fullwidth": "Ｒｏｍａｎｏｓ ８:２８",
    "english name": "Romans 8:28",
    "english john": "John 14:6",
    "english numbered": "1 Corinthians 13:4",
    "roman chapter": "Romanos VIII:28",
    "invisible inside the numbers": "Romanos 8:2\u200b8",
    "roman numeral character": "Romanos \u2167:28",
    "ligature in the name": "\ufb01lipenses 4:13",
    # Issue 18, problem 1: the forms a second probe still saw on the screen.
    "lower-case invented name": "hezequias 3:16",
    "lower-case english name": "john 14:6",
    "small capital": "\u0280omanos 8:28",
    "ratio colon": "John 14\u22366",
    "modifier colon": "John 14\ua7896",
    "armenian full stop": "John 14\u05896",
    "dot, english name": "John 14.6",
    "comma, english name": "Romans 8,28",
    "dot, invented name": "Hezequias 3.16",
    "line break before the numbers": "Hezequias\n3:16",
    "markdown escape": "Hezequias 3\\:16",
    "code span around the numbers": "Romanos `8:28`",
    "code span around the name": "`Romanos` 8:28",
    "roman chapter alone": "Salmo XXIII",
    "invented book, chapter alone": "Hezequias 3",
    "a script without case": "\u05d7\u05d6\u05e7\u05d9\u05d4\u05d5 3.16",
}
TEMPLATES = (
    "Como disse {form}, confie.",
    "Deus nos ama ({supported}). Como disse {form}, confie.",
    "Leia {form} e {supported} hoje.",
    "Veja ({supported}; {form}) com calma.",
    "Versículos:\n- {form}\n- {supported}\n",
    "{form} — Ele cuida de você, como em {supported}.",
)
# A reader's view of a text: what the page shows, in plain letters.
_LOOKALIKES = str.maketrans({"\u043e": "o", "\u03bf": "o", "\u0280": "R", "\u2236": ":", "\ua789": ":", "\u0589": ":"})


def visible(text: str) -> str:
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = unicodedata.normalize("NFKC", text).translate(_LOOKALIKES)
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)  # Markdown shows `3\:16` as 3:16
    # The chat renders a line break as one (Gradio's GFM line breaks): it stays, other runs of space are one.
    lines = re.sub(r"[*_~`]", "", text).split("\n")
    return "\n".join(" ".join(line.split()) for line in lines).strip()


def appears(form: str, text: str) -> bool:
    """Whether `form` reads as a citation in `text`: not glued inside a word (`cuidafilipenses 4:13`)
    unless it starts with a capital (`eHezequias 3:16` still reads as one)."""
    form, text = visible(form), visible(text)
    for match in re.finditer(re.escape(form), text):
        before = text[match.start() - 1] if match.start() else ""
        if (
            not (before.isalpha() and not form[0].isupper())
            and not (before.isdigit() and form[0].isdigit())
            and not counts(form, text, match)
        ):
            return True
    return False


def counts(form: str, text: str, match: re.Match) -> bool:
    """The documented limit of chapter-only forms: starting a sentence and followed by a lower-case
    word, `Hezequias 3 cuida` is read like a count (`Faz 3 anos`, `Dormi 5 horas`) and stays."""
    if not re.fullmatch(r"\w+ \d+", form):
        return False
    before = text[: match.start()].rstrip(" \t")  # a line break starts a line, as the validator reads it
    sentence_start = not before.strip() or before[-1] in ".!?:;—-(\n"
    return sentence_start and re.match(r" [a-zà-ú]", text[match.end() :]) is not None


def streamed(text: str, size: int) -> tuple[list[str], StreamingValidator]:
    validator, shown, partials = StreamingValidator(ALLOWED), "", []
    for start in range(0, len(text), size):
        shown += validator.feed(text[start : start + size])
        partials.append(shown)
    partials.append(shown + validator.finish())
    return partials, validator


CASES = [(name, template) for name in BYPASSES for template in TEMPLATES]


class TestBypassForms:
    @pytest.mark.parametrize("size", [1, 3, 11])
    @pytest.mark.parametrize("name, template", CASES)
    def test_removed_from_every_partial_and_supported_kept(self, name, template, size):
        form = BYPASSES[name]
        text = template.format(form=form, supported=SUPPORTED)
        final = validate(text, ALLOWED).text
        partials, validator = streamed(text, size)
        assert partials[-1] == final
        for partial in partials:
            assert final.startswith(partial)
            assert not appears(form, partial), (name, partial)
        assert form in validator.removed or visible(form) in map(visible, validator.removed)
        if "{supported}" in template:
            assert SUPPORTED in final and validator.citations == [SUPPORTED]
        else:
            assert validator.citations == []

    @pytest.mark.parametrize("written", ["Jo\u200bão 3:16", "Joa\u0303o 3:16", "**João 3:16**", "*Jo*ão 3:16"])
    def test_a_supported_reference_in_an_odd_form_is_kept_as_written(self, written):
        text = f"Deus amou o mundo ({written})."
        result = validate(text, ALLOWED)
        assert result.text == text and result.citations == [SUPPORTED]


class TestOrdinaryTextStays:
    @pytest.mark.parametrize(
        "text",
        [
            "O culto é no Domingo 19:30; o ensaio, Sábado 18:00.",
            "* um item de lista\n* outro item",
            "Veja o arquivo meu_estatuto.md#p0-c3 depois.",
            "A proporção é 3:1 e o placar 2:1.",
        ],
    )
    def test_no_citation_no_change(self, text):
        assert validate(text, ALLOWED, {"meu_estatuto.md#p0-c3"}).text == text


PIECES = list(BYPASSES.values()) + [
    SUPPORTED,
    "Salmos 23:1",
    "Deus",
    "cuida",
    "de",
    "nós",
    "(",
    ")",
    ";",
    ",",
    "e",
    "como diz",
    "Leia",
    "\u200b",
    "*",
    "**",
    "_",
    "~~",
    "\u0303",
    "Jo",
    "Rom",
    "8:28",
    "VIII",
    "\n- ",
    ".",
    "Domingo 19:30",
    "\ufb01",
    "\u2167",
    "\u00bd",
    "Ｊｏ",
    "\u0301",
]
texts = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(["", " ", " ", ", ", "\n"])), max_size=30).map(
    lambda parts: "".join(p + s for p, s in parts)
)
chunkings = st.lists(st.integers(1, 13), min_size=1, max_size=20)
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


class TestProperties:
    @PROPERTY
    @given(texts, chunkings)
    def test_streamed_equals_validated_and_never_retracts(self, text, sizes):
        final = validate(text, ALLOWED).text
        validator, shown, pos, index = StreamingValidator(ALLOWED), "", 0, 0
        while pos < len(text):
            size = sizes[index % len(sizes)]
            shown += validator.feed(text[pos : pos + size])
            pos, index = pos + size, index + 1
            assert final.startswith(shown), (text, shown)
        assert shown + validator.finish() == final
        for form in BYPASSES.values():
            assert not appears(form, final), (text, final)

    @PROPERTY
    @given(st.text(alphabet="Jo\u200bão Salmos1234567890:;,.-e\u0303*VIII", max_size=60), chunkings)
    def test_streaming_never_raises_on_text_with_numbers(self, text, sizes):
        validator, pos, index = StreamingValidator(ALLOWED), 0, 0
        while pos < len(text):
            validator.feed(text[pos : pos + sizes[index % len(sizes)]])
            pos, index = pos + sizes[index % len(sizes)], index + 1
        validator.finish()


@pytest.mark.parametrize("text", ["Salmos 23; 2024", "Sl 23 e 1000", "Leio o Salmo 23 e 1000 vezes me consolo"])
def test_crash_strings_stream_through_the_validator(text):
    partials, _ = streamed(text, 1)
    assert partials[-1] == validate(text, ALLOWED).text

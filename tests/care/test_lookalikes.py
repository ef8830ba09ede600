"""Look-alike letters: a crisis written with Cyrillic, Greek, fullwidth or zero-width tricks is still a crisis."""

from __future__ import annotations

from pastor.care.router import Router
from pastor.text.lookalikes import plain_letters

CYRILLIC_E_A_O = str.maketrans({"e": "е", "a": "а", "o": "о", "c": "с", "p": "р"})
GREEK_O_I = str.maketrans({"o": "ο", "i": "ι", "a": "α"})
CRISES = ("quero me matar", "vou tomar todos os comprimidos agora", "não aguento mais, quero morrer")


def disguises(text: str) -> dict[str, str]:
    return {
        "cyrillic": text.translate(CYRILLIC_E_A_O),
        "greek": text.translate(GREEK_O_I),
        "fullwidth": "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text),
        "zero_width": "\u200b".join(text),
        "soft_hyphen": text.replace("a", "a\u00ad"),
        "upper_cyrillic": text.upper().translate(str.maketrans({"E": "Е", "A": "А", "O": "О"})),
    }


def test_every_disguise_of_a_crisis_is_routed_to_crisis_by_the_rules_alone():
    router = Router()  # lexicon and rules: what answers from the first second
    missed = [
        (how, disguised)
        for text in CRISES
        for how, disguised in disguises(text).items()
        if router.route(disguised).name != "crisis"
    ]
    assert missed == []


def test_portuguese_letters_and_emoji_stay_as_written():
    for text in ("Coração, ação, pão, avô, à, ü", "Jesus chorou 😢🙏", "Salmos 23:1"):
        assert plain_letters(text) == text


def test_the_disguised_words_read_as_the_plain_words():
    for text in CRISES:
        for how, disguised in disguises(text).items():
            assert plain_letters(disguised).lower() == text.lower(), how

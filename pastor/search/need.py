"""What a message asks for, as the search reads it: a story pasted twice counts once, emoji say their feeling in
words, and a long story is searched by the sentences that carry the person's need, not by its length."""

from __future__ import annotations

import re

from pastor.text.fold import fold
from pastor.text.pastoral_vocabulary import is_pastoral
from pastor.text.sentences import split_sentences

# What people mean by the emoji they send a pastor alone or beside a few words (💔 grief, 🙏 prayer). Without
# words the search reads these; with words, they add to them.
EMOJI_WORDS = {
    "💔": "coração partido tristeza luto",
    "🖤": "luto tristeza",
    "⚰️": "morte luto",
    "⚰": "morte luto",
    "😢": "tristeza choro",
    "😭": "choro tristeza",
    "🥺": "tristeza súplica",
    "😔": "tristeza desânimo",
    "😞": "desânimo tristeza",
    "😓": "angústia",
    "😟": "preocupação",
    "😰": "ansiedade medo",
    "😨": "medo",
    "😱": "medo pânico",
    "😩": "cansaço",
    "😫": "cansaço",
    "😴": "cansaço",
    "😡": "raiva",
    "🤬": "raiva",
    "😤": "raiva",
    "😕": "dúvida",
    "🤔": "dúvida",
    "🙏": "oração",
    "🙌": "louvor gratidão",
    "❤️": "amor",
    "❤": "amor",
    "🫂": "abraço solidão",
    "💪": "força coragem",
    "✝️": "fé",
    "🕊️": "paz",
    "🕊": "paz",
    "🤒": "doença",
    "🏥": "doença hospital",
    "💊": "doença remédio",
    "🍺": "bebida vício",
    "🍷": "bebida vício",
    "💸": "dívida dinheiro",
    "👶": "bebê filho",
}
_EMOJI = re.compile("|".join(re.escape(e) for e in sorted(EMOJI_WORDS, key=len, reverse=True)))
# A story longer than this is searched by its sentences of need: a long message's vector is the average of
# everything it tells (a father's 795 characters about his family brought Lucas 14:26).
LONG = 500
NEED_SENTENCES = 4  # the sentences kept: the need is told in a few
NEED_CHARS = 600


def need_text(message: str) -> str:
    """The text the search reads for `message` (the message itself when none of the rules applies)."""
    text = _emoji_in_words(message)
    parts = _once(split_sentences(text.strip()))
    text = " ".join(parts)
    if len(text) > LONG:
        text = _need_sentences(parts)
    return text or message


def _emoji_in_words(message: str) -> str:
    return _EMOJI.sub(lambda m: f" {EMOJI_WORDS[m.group(0)]} ", message)


def _once(parts: list[str]) -> list[str]:
    """Each sentence once, in the order first told: a message pasted twice reads as once."""
    seen, kept = set(), []
    for part in (p.strip() for p in parts):
        key = " ".join(re.findall(r"\w+", fold(part)))
        if part and key not in seen:
            seen.add(key)
            kept.append(part)
    return kept


def _need_sentences(parts: list[str]) -> str:
    """The sentences that speak of the person's life and faith (the pastoral vocabulary), and the last two,
    where people say what they ask for; the first few of them, up to `NEED_CHARS`."""
    last = set(range(max(len(parts) - 2, 0), len(parts)))
    chosen = [p for i, p in enumerate(parts) if is_pastoral(p) or i in last]
    if len(chosen) > NEED_SENTENCES:
        chosen = chosen[: NEED_SENTENCES - 2] + chosen[-2:]
    return " ".join(chosen)[:NEED_CHARS]

"""What the search reads of a message: once for a story pasted twice, emoji in words, a long story by its need."""

from __future__ import annotations

from pastor.search.need import LONG, NEED_CHARS, need_text


def test_a_message_pasted_twice_reads_as_once():
    story = "Meu filho saiu de casa. Não fala comigo há meses. Sinto uma dor enorme."
    assert need_text(f"{story} {story}") == story


def test_emoji_say_their_feeling_in_words():
    assert need_text("🙏😢💔").split() == "oração tristeza choro coração partido tristeza luto".split()
    assert "luto" in need_text("perdi meu pai 💔")


def test_a_long_story_is_searched_by_its_sentences_of_need_and_what_it_asks_last():
    everyday = " ".join(f"Na terça número {i} fomos à feira comprar tomates e cebolas." for i in range(12))
    message = f"{everyday} Tenho medo de perder meu casamento. Não sei mais o que fazer. Ore por nós."
    assert len(message) > LONG
    read = need_text(message)
    assert "medo de perder meu casamento" in read and read.endswith("Ore por nós.")
    assert "tomates" not in read and len(read) <= NEED_CHARS


def test_a_plain_message_is_left_as_it_is():
    assert need_text("Estou com medo do futuro") == "Estou com medo do futuro"
    assert need_text("   ") == "   "

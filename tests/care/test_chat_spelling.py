"""Tests for pastor.care.chat_spelling: one table of chat spellings, read by small talk and the crisis lexicon."""

from __future__ import annotations

from pastor.care.chat_spelling import CHAT_SPELLINGS, NOT_FOR_CRISIS, NOT_FOR_SMALLTALK, respell, spellings_for
from pastor.care.lexicon import SPELLINGS as CRISIS_SPELLINGS
from pastor.care.smalltalk import conversational_kind
from pastor.text.fold import fold_words


def test_each_reader_leaves_out_only_words_of_the_table():
    assert NOT_FOR_CRISIS <= set(CHAT_SPELLINGS) and NOT_FOR_SMALLTALK <= set(CHAT_SPELLINGS)
    assert not NOT_FOR_CRISIS & NOT_FOR_SMALLTALK  # every spelling is read by at least one reader


def test_the_crisis_lexicon_reads_the_shared_table():
    assert CRISIS_SPELLINGS == spellings_for(NOT_FOR_CRISIS)
    assert respell("qro morrer", CRISIS_SPELLINGS) == "quero morrer"
    assert respell("eu ia sair", CRISIS_SPELLINGS) == "eu ia sair"  # `ia` is the verb here, not the assistant


def test_small_talk_reads_the_shared_table():
    assert conversational_kind("vlw, obg!") == "thanks"
    assert conversational_kind("quem é vc?") == "meta"


def test_fold_words_keeps_positions():
    text = "Olá, você está aí?"
    assert fold_words(text) == "ola  voce esta ai " and len(fold_words(text)) == len(text)

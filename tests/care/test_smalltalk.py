"""Conversation that needs no verses: greetings, thanks, laughter and questions about the assistant."""

from __future__ import annotations

import pytest

from pastor.care.routes import ConversationKind
from pastor.care.smalltalk import conversational_kind, is_conversational, is_greeting_or_thanks


class TestGreetings:
    @pytest.mark.parametrize(
        "text",
        [
            "olá",
            "Oi",
            "oi, tudo bem?",
            "Bom dia!",
            "boa noite, pastor",
            "Obrigado",
            "obrigada pela ajuda",
            "muito obrigado!",
            "valeu",
            "Amém",
            "amém 🙏",
            "tchau",
            "tudo bem?",
            "Deus te abençoe",
            "a paz do Senhor, irmão",
            "até logo",
            "obg",
            "vlw pastor",
            "blz",
            "ok",
            "entendi, obrigado",
        ],
    )
    def test_greetings_thanks_and_farewells(self, text):
        assert is_greeting_or_thanks(text) and conversational_kind(text) == ConversationKind.GREETING

    @pytest.mark.parametrize(
        "text", ["kkkkk", "kkk", "KKKKKKKK", "hahaha", "rsrs", "rsrsrs", "hehe", "huehue", "kkkkk valeu"]
    )
    def test_laughter(self, text):
        assert conversational_kind(text) == ConversationKind.GREETING


class TestQuestionsAboutTheAssistant:
    @pytest.mark.parametrize(
        "text",
        [
            "quem é você?",
            "quem e vc",
            "o que você faz?",
            "o que vc sabe fazer?",
            "você é um robô?",
            "você é uma IA?",
            "qual seu nome?",
            "como funciona isso aqui?",
            "quem criou você?",
            "não entendi",
            "nao entendi nada",
            "como assim?",
            "olá, pode me ajudar?",
            "pode me ajudar?",
            "tem alguém aí?",
            "você é um pastor de verdade?",
            "oi, quem é você?",
            "hein?",
        ],
    )
    def test_meta(self, text):
        assert conversational_kind(text) == ConversationKind.META and is_conversational(text)
        assert not is_greeting_or_thanks(text)


class TestRealQuestions:
    @pytest.mark.parametrize(
        "text",
        [
            "oi, estou muito ansioso",
            "bom dia, o que a Bíblia diz sobre perdão?",
            "obrigado, mas ainda sinto culpa",
            "o que é amor?",
            "pastor",
            "",
            "  ",
            "ajuda",
            "oi, preciso de ajuda com meu casamento",
            "quem é Jesus?",
            "o que Deus faz por nós?",
            "como funciona a oração?",
            "você acredita em milagres?",
            "kkkk mas falando sério, estou triste",
            "não entendi o que Jesus quis dizer com a parábola",
            "ok " * 40,
        ],
    )
    def test_anything_more_is_a_real_question(self, text):
        assert conversational_kind(text) is None

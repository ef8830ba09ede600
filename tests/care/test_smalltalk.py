"""Conversation that needs no verses: greetings, thanks, laughter and questions about the assistant."""

from __future__ import annotations

import pytest

from pastor.care.routes import ConversationKind
from pastor.care.smalltalk import conversational_kind, is_conversational, is_greeting_or_thanks

# Each message of talk and the kind of reply it gets (`care.openings.CONVERSATION`).
TALK = {
    "olá": "greeting",
    "Oi": "greeting",
    "oi, tudo bem?": "greeting",
    "Bom dia!": "greeting",
    "boa noite, pastor": "greeting",
    "tudo bem?": "greeting",
    "a paz do Senhor, irmão": "greeting",
    "blz": "greeting",
    "Obrigado": "thanks",
    "obrigada pela ajuda": "thanks",
    "muito obrigado!": "thanks",
    "valeu": "thanks",
    "vlw mano": "thanks",
    "valeu, cara": "thanks",
    "Amém": "thanks",
    "amém 🙏": "thanks",
    "Deus te abençoe": "thanks",
    "obg": "thanks",
    "vlw pastor": "thanks",
    "entendi, obrigado": "thanks",
    "tchau": "farewell",
    "até logo": "farewell",
    "obrigado, tchau, fica com Deus": "farewell",
    "vou dormir, tchau": "farewell",
    "ok": "ack",
    "kkkkk": "ack",
    "kkk": "ack",
    "KKKKKKKK": "ack",
    "hahaha": "ack",
    "rsrs": "ack",
    "rsrsrs": "ack",
    "hehe": "ack",
    "huehue": "ack",
    "kkkkk valeu": "thanks",
    "que calor hoje, hein": "small_talk",
    "hoje choveu o dia todo aqui": "small_talk",
    "viu o jogo do flamengo ontem?": "small_talk",
    "o corinthians perdeu de novo kkk": "small_talk",
    "sextou!": "small_talk",
    "bom dia! que dia lindo": "small_talk",
}


def test_each_message_of_talk_gets_its_kind():
    wrong = {text: conversational_kind(text) for text, kind in TALK.items() if conversational_kind(text) != kind}
    assert not wrong, wrong
    assert all(is_greeting_or_thanks(text) for text in TALK)


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
            # a fact asked about football or the weather is a request the search refuses kindly, not small talk
            "quanto foi o jogo do corinthians ontem?",
            "qual o melhor time do brasileirão?",
            "previsão do tempo pra amanhã",
            # a need told beside the weather or the day is searched
            "o jogo acabou e eu fiquei muito triste",
            "hoje choveu e eu senti muito medo",
            "meu dia foi horrível, estou com muita ansiedade",
            # gambling or harm, however joked, is never small talk
            "o jogo de hoje me fez perder tudo no cassino",
            "se o time perder de novo eu me jogo da ponte kkk",
        ],
    )
    def test_anything_more_is_a_real_question(self, text):
        assert conversational_kind(text) is None

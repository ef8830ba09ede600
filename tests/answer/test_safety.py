"""Crisis detection before retrieval, the crisis message, and small talk."""

from __future__ import annotations

import re

import pytest

from pastor.answer.safety import ABUSE, OVERDOSE, SELF_HARM, SUICIDE, CrisisMatch, crisis_message, detect_crisis
from pastor.text.smalltalk import is_greeting_or_thanks


def kind(text: str) -> str | None:
    match = detect_crisis(text)
    return match.kind if match else None


class TestCrisisDetected:
    @pytest.mark.parametrize("text", [
        "quero morrer", "Eu só queria morrer", "vou me matar", "Penso em me matar todos os dias",
        "estou pensando em suicídio", "tenho pensamentos suicidas", "não aguento mais viver",
        "nao aguento mais viver", "quero tirar minha própria vida", "vou acabar com tudo hoje",
        "me sinto sem razão para viver", "não tenho motivo pra viver", "cansei de viver",
        "Eu não quero mais viver", "QUERO MORRER!!!",
    ])
    def test_suicidal_ideation(self, text):
        assert kind(text) == SUICIDE

    @pytest.mark.parametrize("text", [
        "às vezes eu me corto", "tenho vontade de me cortar", "me machuco quando fico nervosa",
        "voltei a me ferir", "cortei os pulsos ontem", "faço automutilação",
    ])
    def test_self_harm(self, text):
        assert kind(text) == SELF_HARM

    @pytest.mark.parametrize("text", [
        "Meu marido me bate", "meu marido me batia quando bebia", "minha mãe me agride", "estão me abusando",
        "fui abusada quando criança", "sofro violência doméstica", "sofri abuso sexual",
        "meu padrasto me ameaça", "meu filho foi estuprado", "apanho do meu namorado",
    ])
    def test_abuse(self, text):
        assert kind(text) == ABUSE

    @pytest.mark.parametrize("text", [
        "tomei muitos comprimidos", "tomei uma caixa de calmantes", "engoli vários remédios",
        "acho que tive uma overdose", "tomei remédio demais",
    ])
    def test_overdose(self, text):
        assert kind(text) == OVERDOSE

    def test_accents_and_case_do_not_matter(self):
        assert kind("ESTOU PENSANDO EM SUICIDIO") == kind("estou pensando em suicídio") == SUICIDE

    def test_the_match_names_the_phrase_as_written(self):
        assert detect_crisis("Pastor, às vezes penso em me matar.") == CrisisMatch(SUICIDE, "penso em me matar")

    def test_the_most_urgent_signal_wins(self):
        assert kind("meu marido me bate e eu quero morrer") == SUICIDE
        assert kind("me corto e tomei muitos comprimidos") == OVERDOSE


class TestNoFalseAlarm:
    @pytest.mark.parametrize("text", [
        "meu pai morreu", "tenho medo da morte", "como lidar com o luto?", "Jesus morreu por nós",
        "não quero morrer sem me reconciliar com meu irmão", "quero morrer de rir com meu filho",
        "estou triste e ansioso", "meu casamento está difícil", "o que é a vida eterna?",
        "cortei o cabelo", "vou acabar com a preguiça", "", "   ",
    ])
    def test_ordinary_pastoral_messages(self, text):
        assert detect_crisis(text) is None

    # Decision: a question *about* suicide, abuse or overdose, without the person speaking about
    # themself, is not routed to the crisis message. It goes through the normal pastoral flow,
    # whose system prompt asks for a gentle answer that mentions that help is available.
    @pytest.mark.parametrize("text", [
        "O que a Bíblia diz sobre suicídio?", "suicida vai para o inferno?",
        "o que a Bíblia diz sobre violência doméstica?", "como a igreja pode ajudar vítimas de abuso?",
        "o que é overdose?",
    ])
    def test_questions_about_the_topic_are_answered_gently_not_as_crisis(self, text):
        assert detect_crisis(text) is None

    # Grief over someone else's suicide is also answered by the normal flow; abuse or an overdose
    # of someone close still gets the safety message, since someone may need protection now.
    def test_someone_elses_story(self):
        assert detect_crisis("meu irmão cometeu suicídio, ele foi salvo?") is None
        assert detect_crisis("eu perdi meu pai para o suicídio") is None
        assert kind("meu filho teve uma overdose") == OVERDOSE
        assert kind("minha irmã sofre violência doméstica") == ABUSE

    def test_the_same_topic_in_the_first_person_is_a_crisis(self):
        assert kind("eu penso em suicídio") == SUICIDE
        assert kind("sofro violência doméstica") == ABUSE


class TestCrisisMessage:
    @pytest.mark.parametrize("crisis", [SUICIDE, SELF_HARM, ABUSE, OVERDOSE])
    def test_safety_first_without_any_phone_number(self, crisis):
        message = crisis_message(crisis)
        assert not re.search(r"\d", message)  # numbers differ by country: none at all
        lowered = message.lower()
        assert "emergência" in lowered and "confiança" in lowered
        assert message.index("emergência") < message.index("Escrituras")  # safety before comfort

    def test_each_kind_has_its_own_guidance(self):
        assert "pronto-socorro" in crisis_message(OVERDOSE)
        assert "culpa" in crisis_message(ABUSE)
        assert len({crisis_message(k) for k in (SUICIDE, SELF_HARM, ABUSE, OVERDOSE)}) == 4

    def test_unknown_kind_falls_back_to_the_suicide_guidance(self):
        assert crisis_message("other") == crisis_message(SUICIDE)


class TestSmallTalk:
    @pytest.mark.parametrize("text", [
        "olá", "Oi", "oi, tudo bem?", "Bom dia!", "boa noite, pastor", "Obrigado", "obrigada pela ajuda",
        "muito obrigado!", "valeu", "Amém", "amém 🙏", "tchau", "tudo bem?", "Deus te abençoe",
        "a paz do Senhor, irmão", "até logo",
    ])
    def test_greetings_thanks_and_farewells(self, text):
        assert is_greeting_or_thanks(text)

    @pytest.mark.parametrize("text", [
        "oi, estou muito ansioso", "bom dia, o que a Bíblia diz sobre perdão?", "obrigado, mas ainda sinto culpa",
        "o que é amor?", "pastor", "", "  ",
    ])
    def test_anything_more_is_a_real_question(self, text):
        assert not is_greeting_or_thanks(text)


class TestSomeoneElseHurting:
    def test_forgiving_someone_who_hurts_me_is_not_self_harm(self):
        assert detect_crisis("quantas vezes devo perdoar meu irmão quando ele me ferir?") is None

    def test_first_person_self_harm_still_detected(self):
        assert detect_crisis("tenho vontade de me machucar").kind == "self_harm"
        assert detect_crisis("eu me corto quando fico triste").kind == "self_harm"

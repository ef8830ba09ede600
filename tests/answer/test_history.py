"""The conversation before a turn: checked once where it enters, trimmed by one rule, read by the prompts."""

from __future__ import annotations

import pytest

from pastor.answer.checks import CheckedMessage, InputError, check_message
from pastor.answer.history import BAD_LIST, BAD_MESSAGE, MAX_MESSAGES, History, Message


def exchange(i: int) -> list[dict]:
    return [{"role": "user", "content": f"pergunta {i}"}, {"role": "assistant", "content": f"resposta {i}"}]


class TestChecked:
    def test_keeps_role_and_content_of_each_message_in_order(self):
        history = History.checked(
            [{"role": "user", "content": "oi", "extra": 1}, {"role": "assistant", "content": "paz"}], 10
        )
        assert history.messages == (Message("user", "oi"), Message("assistant", "paz"))
        assert history.as_dicts() == [{"role": "user", "content": "oi"}, {"role": "assistant", "content": "paz"}]

    def test_none_is_an_empty_history_and_a_history_passes_as_it_is(self):
        assert History.checked(None, 10) == History()
        checked = History.checked(exchange(0), 10)
        assert History.checked(checked, 10) is checked

    @pytest.mark.parametrize(
        "bad",
        [
            "texto",
            {"role": "user", "content": "x"},
            [{"role": "user"}] * 0 + ["oi"],
            [{"role": "system", "content": "x"}],
            [{"role": "user"}],
            [{"role": "user", "content": 3}],
            [{"content": "x"}],
        ],
    )
    def test_a_malformed_history_is_refused_in_portuguese(self, bad):
        with pytest.raises(InputError) as refused:
            History.checked(bad, 10)
        assert str(refused.value) in (BAD_LIST, BAD_MESSAGE) and "history" in str(refused.value)

    def test_a_list_too_long_is_refused_naming_the_limit(self):
        with pytest.raises(InputError, match=f"até {MAX_MESSAGES} mensagens"):
            History.checked([{"role": "user", "content": "x"}] * (MAX_MESSAGES + 1), 10)
        assert len(History.checked([{"role": "user", "content": "x"}] * MAX_MESSAGES, 10)) == MAX_MESSAGES

    def test_contents_are_cut_at_twice_the_message_limit_and_nothing_else_is_lost(self):
        history = History.checked([{"role": "assistant", "content": "x" * 50}, {"role": "user", "content": ""}], 10)
        assert history.messages == (Message("assistant", "x" * 20), Message("user", ""))


class TestTrimming:
    def test_last_keeps_the_last_turns(self):
        history = History.checked([m for i in range(5) for m in exchange(i)], 100)
        assert [m.content for m in history.last(2).messages] == ["pergunta 3", "resposta 3", "pergunta 4", "resposta 4"]
        assert history.last(0) == History()

    def test_without_last_drops_the_last_question_and_its_answer(self):
        history = History.checked(exchange(0) + exchange(1), 100)
        assert history.without_last("pergunta 1") == History.checked(exchange(0), 100)
        alone = History.checked(exchange(0) + [{"role": "user", "content": "sem resposta"}], 100)
        assert alone.without_last("sem resposta") == History.checked(exchange(0), 100)
        assert history.without_last("outra") == history

    def test_exchanges_alternate_for_strict_providers_and_take_the_last_turns(self):
        messy = History.checked(
            [
                {"role": "assistant", "content": "olá"},
                {"role": "user", "content": "a"},
                {"role": "user", "content": " b "},
                {"role": "assistant", "content": "  "},
                {"role": "assistant", "content": "c"},
                *exchange(1),
                {"role": "user", "content": "sem resposta"},
            ],
            100,
        )
        assert messy.exchanges(10) == [
            {"role": "user", "content": "a\n\nb"},
            {"role": "assistant", "content": "c"},
            *exchange(1),
        ]
        assert messy.exchanges(1) == exchange(1) and messy.exchanges(0) == []

    def test_previous_question_is_the_last_non_blank_one_on_one_line(self):
        history = History.checked(
            [
                {"role": "user", "content": "medo\n do  futuro"},
                {"role": "user", "content": " "},
                {"role": "assistant", "content": "paz"},
            ],
            100,
        )
        assert history.previous_question(300) == "medo do futuro" and history.previous_question(4) == "medo"
        assert History().previous_question(300) == "" and not History().has_question()


class TestMessageCheckRunsOnce:
    def test_a_checked_message_is_marked_and_passes_unchanged(self):
        checked = check_message("  Estou com medo  ", 100)
        assert isinstance(checked, CheckedMessage) and checked == "Estou com medo"
        assert check_message(checked, 100) is checked

    def test_a_checked_message_over_a_smaller_limit_is_still_refused(self):
        with pytest.raises(InputError, match="o limite é 5"):
            check_message(check_message("Estou com medo", 100), 5)

"""A follow-up searched without a model: the previous question and the follow-up, searched together."""

from __future__ import annotations

from pastor.answer import prompts
from pastor.answer.history import History

# The previous question is cut to this many characters: it only has to carry the topic.
PREVIOUS_CHARS = 300


def with_previous(history: History, message: str) -> str:
    """The follow-up with the question it follows, for the search: "e o que mais a Bíblia diz sobre
    isso?" after a message about betrayal searches betrayal too. The message alone without one."""
    previous = history.previous_question(PREVIOUS_CHARS)
    return f"{previous} {message}" if previous else message


def searched_without_model(history: History, message: str) -> str:
    """What the search gets when no model can rewrite: the follow-up with the previous question when it
    points back at the conversation (`prompts.points_back`), else the message as written. A short message
    alone is not joined: on the dev pairs (bench/bench_followups.py) joining it found no more follow-ups'
    verses and cost new subjects ("ansiedade" after another question) hit@6 0.700 → 0.662."""
    if prompts.needs_rewrite(message, history) and prompts.points_back(message):
        return with_previous(history, message)
    return message

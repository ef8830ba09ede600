"""The pastors' signal: what the nearest messages' pastors opened, less what they would never open."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pastor.bible.references import named_verse_ids
from pastor.search.pastor_choices import PastorChoice, PastorChoices, load_choices, training_choices

AXES = {"luto": 0, "casamento": 1, "medo": 2}


def encode(text: str) -> np.ndarray:
    """A vector per theme word: messages about the same thing are neighbours."""
    vector = np.full(3, 0.05, dtype=np.float32)
    for word, axis in AXES.items():
        if word in text:
            vector[axis] = 1.0
    return vector / np.linalg.norm(vector)


def choice(message: str, opened: tuple[str, ...], never: tuple[str, ...] = ()) -> PastorChoice:
    return PastorChoice(message, (), "other", "plain", True, False, opened, never, "x.jsonl:1")


def test_the_nearest_messages_choices_rank_first_and_a_never_open_verse_is_held_back():
    choices = PastorChoices(
        [
            choice("luto pela mãe", ("PSA 34:18", "REV 21:4"), never=("ROM 6:4",)),
            choice("luto pelo pai", ("PSA 34:18", "JHN 11:25")),
            choice("dia de luto", ("ROM 6:4",)),
            choice("casamento acabando", ("1CO 13:4",)),
        ],
        encode,
        "test",
    )
    ranked = [verse for verse, _ in choices.ranked(encode("estou de luto"), 10)]
    assert ranked[0] == "PSA 34:18"
    assert "ROM 6:4" not in ranked  # opened once, never opened once, by neighbours as near: not suggested
    assert ranked.index("REV 21:4") < ranked.index("1CO 13:4") if "1CO 13:4" in ranked else True


def test_no_choices_rank_nothing():
    assert PastorChoices([], encode, "test").ranked(encode("luto"), 5) == []


def test_an_authors_file_reads_its_references_into_verse_ids(tmp_path):
    path = tmp_path / "author.jsonl"
    row = {
        "message": "perdi meu pai",
        "previous": [],
        "need": "grief",
        "form": "plain",
        "variety": "pt-BR",
        "distress": True,
        "asks_for_hard": False,
        "open": ["Mateus 11:28-30", "Salmos 999:1"],
        "never": ["Romanos 6:4"],
    }
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    items, unread = load_choices(path)
    assert items[0].open_ids == ("MAT 11:28", "MAT 11:29", "MAT 11:30") and items[0].never_ids == ("ROM 6:4",)
    assert unread == ["author.jsonl:1 open: Salmos 999:1"]
    assert items[0].tone_counts


def test_the_shipped_training_authors_read_whole():
    """Every reference the training authors wrote names verses of the canon (none dropped)."""
    items = training_choices()
    assert len(items) >= 600 and all(i.open_ids for i in items)
    assert named_verse_ids("2 Coríntios 1:3-4") == ["2CO 1:3", "2CO 1:4"]


@pytest.mark.parametrize("weight", ["0"])
def test_a_weight_of_zero_turns_the_signal_off(make_engine, weight):
    engine = make_engine(index=False, PASTOR_PASTORS_WEIGHT=weight)
    assert engine.resources.pastors is None

"""The blind authors' training messages: read and checked; a bad line is an error that names it."""

from __future__ import annotations

import json

import pytest

from pastor.care.training import WRITTEN_ROUTES, load_messages, load_training, training_files
from pastor.datasets import manifest


def test_the_shipped_training_data_names_each_author_and_covers_every_route():
    """Every file the router learns from is a manifest entry with an author and a role it may learn from (a
    file nobody vouched for cannot slip into the training), and together they hold every written route."""
    files = training_files()
    entries = {e.file: e for e in manifest()}
    assert len(files) >= 6
    for path in files:
        assert entries[path].author and entries[path].role in ("train", "retired"), path.name
    assert not any(e.role == "held_out" and e.file in files for e in entries.values())
    messages = load_training()
    assert {m.route for m in messages} == set(WRITTEN_ROUTES)
    assert len(messages) > 3000 and all(m.text and m.source for m in messages)


@pytest.mark.parametrize(
    "line, says",
    [
        ("{não é json", "não é JSON"),
        (json.dumps({"text": "bom dia", "route": "saudação"}), "rota em"),
        (json.dumps({"route": "crisis", "kind": "suicide_self"}), "rota em"),
        (json.dumps(["quero morrer", "crisis"]), "rota em"),
    ],
)
def test_a_bad_line_is_an_error_naming_the_file_and_the_line(tmp_path, line, says):
    path = tmp_path / "train_x.jsonl"
    good = json.dumps({"text": "como orar?", "route": "pastoral", "kind": "pastoral", "note": ""})
    path.write_text(f"{good}\n\n{line}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"train_x.jsonl, linha 3: .*{says}"):
        load_messages(path)


def test_a_good_file_keeps_text_route_kind_and_where_it_came_from(tmp_path):
    path = tmp_path / "train_x.jsonl"
    path.write_text(
        json.dumps({"text": " oi, tudo bem? ", "route": "conversational", "kind": "greeting"}) + "\n", encoding="utf-8"
    )
    (message,) = load_messages(path)
    assert (message.text, message.route, message.kind, message.source) == (
        "oi, tudo bem?",
        "conversational",
        "greeting",
        "train_x.jsonl:1",
    )

"""Trained classifiers cached under data/: read back when nothing changed, trained again when something did."""

from __future__ import annotations

import numpy as np
import pytest

from pastor.classify import cache as classifier_cache
from pastor.classify.cache import Trained, cache_key, cached_heads
from pastor.classify.linear import LinearClassifier

ROWS = [("crisis", "quero morrer"), ("ordinary", "como orar?")]


@pytest.fixture(autouse=True)
def no_memory(monkeypatch):
    """Each test starts as a new process would: nothing trained in memory."""
    monkeypatch.setattr(classifier_cache, "MEMORY", {})


class Trainer:
    """Counts its trainings; each is a tiny classifier and an array."""

    def __init__(self):
        self.calls = 0

    def __call__(self) -> Trained:
        self.calls += 1
        classifier = LinearClassifier.fit(np.eye(2), ["crisis", "ordinary"])
        return Trained({"route": classifier}, {"vectors": np.eye(2, dtype=np.float32)})


def test_the_key_changes_with_the_embedder_the_data_and_the_code():
    key = cache_key("use-multilingual", ROWS, "routes-2")
    assert key == cache_key("use-multilingual", list(ROWS), "routes-2")
    assert key != cache_key("outro-modelo", ROWS, "routes-2")
    assert key != cache_key("use-multilingual", ROWS + [("ordinary", "bom dia")], "routes-2")
    assert key != cache_key("use-multilingual", ROWS, "routes-3")


def test_a_cached_classifier_is_read_back_not_trained_again(tmp_path):
    train = Trainer()
    first = cached_heads(tmp_path, "routes", "abc", train)
    classifier_cache.MEMORY.clear()  # a new process: only the folder is left
    second = cached_heads(tmp_path, "routes", "abc", train)
    assert train.calls == 1 and not first.from_cache and second.from_cache
    assert np.allclose(second.heads["route"].weights, first.heads["route"].weights)
    assert np.array_equal(second.arrays["vectors"], first.arrays["vectors"])


def test_the_same_process_does_not_train_twice_even_without_a_folder():
    train = Trainer()
    cached_heads(None, "routes", "abc", train)
    assert cached_heads(None, "routes", "abc", train).from_cache and train.calls == 1


def test_a_new_key_trains_again_and_removes_the_old_one(tmp_path):
    train = Trainer()
    cached_heads(tmp_path, "routes", "old", train)
    cached_heads(tmp_path, "routes", "new", train)
    assert train.calls == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["routes-new"]


def test_a_damaged_cache_is_trained_again_and_repaired(tmp_path):
    train = Trainer()
    cached_heads(tmp_path, "routes", "abc", train)
    (tmp_path / "routes-abc" / "arrays.npz").unlink()
    classifier_cache.MEMORY.clear()
    assert not cached_heads(tmp_path, "routes", "abc", train).from_cache and train.calls == 2
    classifier_cache.MEMORY.clear()
    assert cached_heads(tmp_path, "routes", "abc", train).from_cache and train.calls == 2

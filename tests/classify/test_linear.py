"""The trained classifier under routing and the pastoral scope: it learns a tiny set, and is saved and read back."""

from __future__ import annotations

import numpy as np
import pytest

from pastor.classify.linear import LinearClassifier, TrainingConfig


def _clusters(seed: int = 7) -> tuple[np.ndarray, list[str]]:
    """Three labels, each a cloud of unit vectors around its own direction."""
    rng = np.random.default_rng(seed)
    centres = np.eye(3, 16) * 3
    vectors, labels = [], []
    for centre, label in zip(centres, ("crisis", "ordinary", "conversational"), strict=True):
        points = centre + rng.normal(scale=0.6, size=(20, 16))
        vectors.append(points / np.linalg.norm(points, axis=1, keepdims=True))
        labels += [label] * 20
    return np.vstack(vectors), labels


def test_a_tiny_set_is_learned_and_separated():
    vectors, labels = _clusters()
    classifier = LinearClassifier.fit(vectors, labels)
    assert classifier.labels == ("conversational", "crisis", "ordinary")
    predicted = [classifier.predict(v).label for v in vectors]
    assert predicted == labels
    probabilities = classifier.probabilities(vectors)
    assert np.allclose(probabilities.sum(axis=1), 1.0)
    fresh, _ = _clusters(seed=8)  # new points of the same clouds
    assert [classifier.predict(v).label for v in fresh] == labels


def test_a_stronger_penalty_gives_less_confident_probabilities():
    vectors, labels = _clusters()
    loose = LinearClassifier.fit(vectors, labels, TrainingConfig(l2=0.001))
    tight = LinearClassifier.fit(vectors, labels, TrainingConfig(l2=1.0))
    assert tight.probabilities(vectors).max(axis=1).mean() < loose.probabilities(vectors).max(axis=1).mean()


def test_saved_and_read_back_it_gives_the_same_probabilities(tmp_path):
    vectors, labels = _clusters()
    config = TrainingConfig(l2=0.01, iterations=200, balanced=True)
    classifier = LinearClassifier.fit(vectors, labels, config)
    classifier.save(tmp_path / "route")
    again = LinearClassifier.load(tmp_path / "route")
    assert again.labels == classifier.labels and again.config == config
    assert np.allclose(again.probabilities(vectors), classifier.probabilities(vectors))


@pytest.mark.parametrize("labels", [["crisis"] * 4, ["crisis", "ordinary"]])
def test_one_label_or_a_label_per_vector_missing_is_an_error(labels):
    with pytest.raises(ValueError, match="rótulo"):
        LinearClassifier.fit(np.eye(4), labels)

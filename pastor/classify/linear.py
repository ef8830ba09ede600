"""A multinomial logistic regression over sentence vectors: trained in numpy, saved with its configuration."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class TrainingConfig:
    """How a classifier is trained; saved beside its weights so a cached one says how it was made."""

    # The penalty on the weights, per example: chosen by leaving one author out (bench/bench_routing.py --cv);
    # 0.003 over-fits (confident crises in everyday sorrow), 0.1 loses recall.
    l2: float = 0.03
    iterations: int = 600  # accelerated gradient steps (the loss is convex: enough to converge on ~3000 rows)
    # Each label weighing the same in the loss raised the false alarms on the held-out author: the labels'
    # shares in the training data are closer to what people write.
    balanced: bool = False


# The frozen default, by name: a default argument elsewhere reads it instead of calling the class.
DEFAULT_TRAINING = TrainingConfig()


@dataclass(frozen=True)
class Prediction:
    label: str  # the most probable label
    probability: float  # its probability
    probabilities: dict[str, float]  # every label's


class LinearClassifier:
    """Labels from vectors: standardised features, one weight row per label, softmax probabilities."""

    def __init__(
        self,
        labels: Sequence[str],
        weights: np.ndarray,
        mean: np.ndarray,
        scale: np.ndarray,
        config: TrainingConfig = TrainingConfig(),
    ):
        self.labels = tuple(labels)
        self.weights = np.asarray(weights, dtype=np.float32)  # (features + 1, labels): the last row is the bias
        self.mean = np.asarray(mean, dtype=np.float32)
        self.scale = np.asarray(scale, dtype=np.float32)
        self.config = config

    @classmethod
    def fit(
        cls, vectors: np.ndarray, labels: Sequence[str], config: TrainingConfig = TrainingConfig()
    ) -> LinearClassifier:
        """Train on `vectors` (one row per example) and their `labels`; at least two different labels."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if len(vectors) != len(labels) or len(set(labels)) < 2:
            raise ValueError(f"treino precisa de um rótulo por vetor e ao menos dois rótulos ({len(set(labels))})")
        names = tuple(sorted(set(labels)))
        mean, scale = vectors.mean(axis=0), vectors.std(axis=0) + 1e-6
        features = _with_bias((vectors - mean) / scale)
        target = np.zeros((len(labels), len(names)), dtype=np.float32)
        target[np.arange(len(labels)), [names.index(label) for label in labels]] = 1.0
        counts = Counter(labels)
        weight = np.array([len(labels) / (len(names) * counts[label]) if config.balanced else 1.0 for label in labels])
        weights = _minimise(features, target, (weight / weight.mean()).astype(np.float32), config)
        return cls(names, weights, mean, scale, config)

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        """(rows, labels) probabilities, in the order of `labels`."""
        features = _with_bias((np.atleast_2d(vectors) - self.mean) / self.scale)
        return _softmax(features @ self.weights)

    def predict(self, vector: np.ndarray) -> Prediction:
        row = self.probabilities(vector)[0]
        best = int(np.argmax(row))
        return Prediction(self.labels[best], float(row[best]), dict(zip(self.labels, map(float, row), strict=True)))

    def save(self, path: Path) -> None:
        """`path`.npz holds the arrays, `path`.json the labels and the training configuration."""
        np.savez(path.with_suffix(".npz"), weights=self.weights, mean=self.mean, scale=self.scale)
        path.with_suffix(".json").write_text(
            json.dumps({"labels": self.labels, "config": asdict(self.config)}, ensure_ascii=False, indent=1),
            encoding="utf-8",
        )

    @classmethod
    def load(cls, path: Path) -> LinearClassifier:
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        with np.load(path.with_suffix(".npz")) as arrays:
            return cls(
                meta["labels"], arrays["weights"], arrays["mean"], arrays["scale"], TrainingConfig(**meta["config"])
            )


def _with_bias(features: np.ndarray) -> np.ndarray:
    return np.hstack([features, np.ones((len(features), 1), dtype=features.dtype)])


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def _minimise(features: np.ndarray, target: np.ndarray, weight: np.ndarray, config: TrainingConfig) -> np.ndarray:
    """Weighted cross-entropy plus L2 (not on the bias), by Nesterov's accelerated gradient with the step
    1/L from the loss's smoothness bound: convex, so no learning rate to tune and the same answer each run."""
    rows = len(features)
    penalty = np.full((features.shape[1], 1), config.l2, dtype=np.float32)
    penalty[-1] = 0.0
    smoothness = 0.5 * weight.max() * _largest_singular_value(features) ** 2 / rows + config.l2
    step = np.float32(1.0 / smoothness)
    current = previous = np.zeros((features.shape[1], target.shape[1]), dtype=np.float32)
    for iteration in range(1, config.iterations + 1):
        look_ahead = current + np.float32((iteration - 2) / (iteration + 1)) * (current - previous)
        error = (_softmax(features @ look_ahead) - target) * weight[:, None]
        gradient = features.T @ error / rows + penalty * look_ahead
        previous, current = current, look_ahead - step * gradient
    return current


def _largest_singular_value(features: np.ndarray, steps: int = 30) -> float:
    """By power iteration, a little over the true value (a step a little short is still a descent step)."""
    vector = np.ones(features.shape[1], dtype=np.float32)
    for _ in range(steps):
        vector = features.T @ (features @ vector)
        vector /= np.linalg.norm(vector)
    return 1.05 * float(np.linalg.norm(features @ vector))

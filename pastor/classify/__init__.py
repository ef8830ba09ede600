"""Numpy-only trained classifiers: a linear model over sentence vectors, character n-grams, their cache."""

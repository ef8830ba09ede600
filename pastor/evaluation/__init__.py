"""Evaluation of the retrieval, outside the serving path: metrics, the timed runner, the table."""

"""Benchmarks and tuning scripts: figures only, never part of the app. Run each from the repository root as a
module, e.g. `python -m bench.bench_routing --errors` (see bench/README.md)."""

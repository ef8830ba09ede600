# Tasks for developers; CI runs `.ci/run`, which calls `make lint` and the README's test command.
PYTHON ?= python

.PHONY: install lint format test-fast test bench-retrieval bench-routing bench-app

install:  ## the packages the app, the tests and the tools need
	$(PYTHON) -m pip install -r requirements.txt -r requirements-dev.txt

lint:  ## ruff (lint and format) and mypy, at zero findings
	ruff check .
	ruff format --check .
	mypy

format:  ## apply ruff's fixes and formatting
	ruff check --fix .
	ruff format .

test-fast:  ## the unit tier: no real embedder, corpus index, browser or subprocess (about two minutes)
	$(PYTHON) -m pytest -q -m unit

test:  ## every tier, as CI runs it
	$(PYTHON) -m pytest -q

bench-retrieval:  ## retrieval figures on the dev and test question sets
	$(PYTHON) -m pastor eval sets/retrieval/testset.jsonl

bench-routing:  ## routing figures on the independent dev set
	$(PYTHON) bench/bench_routing.py

bench-app:  ## first start and restart to /ready
	$(PYTHON) bench/bench_app.py

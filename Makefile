# Two commands do all the set-up on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-slow typecheck lint format bench clean i18n

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,ssh,web]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/wizard-tui play

test: $(STAMP)
	$(BIN)/ruff check wizard_tui netplay tests benchmarks
	$(BIN)/ruff format --check wizard_tui netplay tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -q -m "not slow"

# The type checker alone (wizard_tui and netplay; settings in pyproject.toml).
typecheck: $(STAMP)
	$(BIN)/mypy

# The long runs kept out of CI (tests marked slow).
test-slow: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check --fix wizard_tui netplay tests benchmarks
	$(BIN)/ruff format wizard_tui netplay tests benchmarks

# Translations: extract the messages into the template, merge it into each language's
# catalog (translate what is new or fuzzy there), compile the .mo files that ship.
LOCALE := wizard_tui/locale
i18n: $(STAMP)
	$(BIN)/pybabel extract --no-location --sort-output --omit-header -c TRANSLATORS: \
	  -k N_ -k pgettext:1c,2 -o $(LOCALE)/wizard_tui.pot wizard_tui
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -N -D wizard_tui \
	  -i $(LOCALE)/wizard_tui.pot -d $(LOCALE)
	$(BIN)/pybabel compile --statistics -D wizard_tui -d $(LOCALE)

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis

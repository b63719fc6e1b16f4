# memorelay — `make serve` and `make test` each create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CONFIG ?= config/memorelay.yaml
# pytest-xdist workers for `make test` (each file runs whole in one worker: its module fixtures,
# such as the browser, start once); TEST_WORKERS=0 runs the suite in this process alone
TEST_WORKERS ?= 2

.PHONY: serve demo test check bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

serve: $(VENV)/.installed
	$(BIN)/memorelay serve --config $(CONFIG)

# offline try-out: a local echo upstream on :8401 and the gateway on :8400 with the offline
# learner, its own database (data/demo.db) and a fresh admin key, printed; Ctrl-C stops both
demo: $(VENV)/.installed
	@key=$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(18))'); \
	echo "memorelay demo: echo upstream http://127.0.0.1:8401/v1, gateway http://127.0.0.1:8400, offline learner"; \
	echo "admin key (MEMORELAY_ADMIN_KEY): $$key   operator console: http://127.0.0.1:8400/console/"; \
	$(BIN)/python -m gateway.demo_upstream --port 8401 & upstream=$$!; \
	trap 'kill $$upstream 2>/dev/null' EXIT; \
	OPENAI_API_BASE=http://127.0.0.1:8401/v1 MEMORELAY_LEARNING_MODEL=heuristic MEMORELAY_ADMIN_KEY=$$key \
	MEMORELAY_DATABASE=$(CURDIR)/data/demo.db $(BIN)/memorelay serve --config $(CONFIG)

test: $(VENV)/.installed-dev
	@test -x /usr/bin/chromium || command -v chromium >/dev/null || \
		echo "WARNING: no Chromium found: the console browser tests will be SKIPPED (apt-get install chromium)"
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

check: $(VENV)/.installed-dev
	$(BIN)/ruff check gateway filters tests bench
	$(BIN)/ruff format --check gateway filters tests bench
	$(BIN)/mypy gateway filters tests

bench: $(VENV)/.installed-dev
	$(BIN)/python bench/relay.py
	$(BIN)/python bench/injection.py
	$(BIN)/python bench/learning.py
	$(BIN)/python bench/soak.py
	$(BIN)/python bench/replicas.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

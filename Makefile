# Two entry points for a fresh machine: `make run` and `make test` (see README.md).
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
# --no-compile: Python compiles what it imports on first use; compiling every installed file up front
# (kubernetes, pulled in by chromadb and never imported here, is the largest) took a third of the install.
PIP := $(BIN)/pip install --disable-pip-version-check --no-compile -q -c constraints.txt
Q ?= Quels sont les horaires d'ouverture du château ?
PORT ?= 8501
# Where the app listens: this machine only by default; the operator console then opens to its local
# user when APP_LOCAL_CONSOLE=true (never behind a proxy). ADDRESS=0.0.0.0 serves others and needs
# APP_OPERATOR_PASSWORD for the console.
ADDRESS ?= 127.0.0.1
# What run, dev, ask and index index first: files or folders; empty = the bundled corpus (data/corpus).
CORPUS ?=
# make api: the origins of the pages allowed to embed the widget (CORS), comma-separated.
ORIGINS ?= http://localhost:8080,http://127.0.0.1:8080
# make api listens on 2024 (langgraph dev's port) unless PORT is given.
API_PORT := $(if $(filter command line environment,$(origin PORT)),$(PORT),2024)

.PHONY: run dev api ask test lint typecheck unit setup setup-dev setup-serving index bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The bytecode of what a start imports, written once (agents/commands/bytecode.py): a start then
# compiles nothing, even where Python may not write bytecode itself.
$(VENV)/.installed: requirements.txt constraints.txt | $(BIN)/python
	$(PIP) -r requirements.txt
	$(BIN)/python -m agents.commands.bytecode
	touch $@

# The browser tests' accessibility checker (axe-core), pinned in tests/e2e/package-lock.json.
$(VENV)/.installed-dev: requirements-dev.txt requirements-minilm.txt tests/e2e/package-lock.json $(VENV)/.installed
	$(PIP) -r requirements-dev.txt
	npm ci --prefix tests/e2e --no-audit --no-fund --ignore-scripts
	touch $@

# The two LangGraph servers (langgraph dev, Aegra): requirements-serving.txt.
$(VENV)/.installed-serving: requirements-serving.txt $(VENV)/.installed
	$(PIP) -r requirements-serving.txt
	$(BIN)/python -m agents.commands.bytecode
	touch $@

setup: $(VENV)/.installed
setup-dev: $(VENV)/.installed-dev
setup-serving: $(VENV)/.installed-serving

STREAMLIT_FLAGS := --server.headless true --browser.gatherUsageStats false --client.toolbarMode minimal \
	--server.port $(PORT) --server.address $(ADDRESS)

## Install, index the bundled corpus (or CORPUS=...) and open the chat app on http://localhost:$(PORT)
## (8501 unless PORT=...). No file watcher (.streamlit/config.toml): edits need a restart.
run: setup
	$(BIN)/python -m rag index $(CORPUS)
	$(BIN)/streamlit run streamlit_app.py $(STREAMLIT_FLAGS)

## The same for development: the app reloads when a source file is saved.
dev: setup
	$(BIN)/python -m rag index $(CORPUS)
	$(BIN)/streamlit run streamlit_app.py $(STREAMLIT_FLAGS) --server.fileWatcherType auto --server.runOnSave true

## The agent served the LangGraph way for development: `langgraph dev` on http://127.0.0.1:$(PORT)
## (2024 unless PORT=...), graph id `visitor`, threads kept in .langgraph_api/ (git-ignored). ORIGINS:
## the web pages' origins allowed to call it (CORS, comma-separated). Production is Aegra on PostgreSQL:
## docs/deploy.md. LANGGRAPH_CLI_NO_ANALYTICS=1: langgraph dev would otherwise post usage analytics.
api: setup-serving
	$(BIN)/python -m rag index $(CORPUS)
	LANGGRAPH_CLI_NO_ANALYTICS=1 CORS_ALLOW_ORIGINS="$(ORIGINS)" $(BIN)/langgraph dev --no-browser --no-reload --host $(ADDRESS) --port $(API_PORT)

## Install, index, and answer one question in the terminal: make ask Q="..."
ask: setup
	$(BIN)/python -m rag index $(CORPUS)
	$(BIN)/python -m agents ask "$(Q)"

index: setup
	$(BIN)/python -m rag index $(CORPUS)
	-$(BIN)/python -m agents.visit_calendar check  # reports calendar rules the new index no longer supports

## Install the dev tools, then lint, type-check and run the whole test suite.
test: setup-dev lint typecheck unit

lint:
	$(BIN)/ruff check rag agents app_ui widget tests benchmarks streamlit_app.py
	$(BIN)/ruff format --check rag agents app_ui widget tests benchmarks streamlit_app.py

typecheck:
	$(BIN)/mypy rag agents app_ui widget streamlit_app.py

unit:
	$(BIN)/python -m pytest

## Benchmarks on the real corpus in ../shared (about 25 minutes; figures in docs/BENCHMARKS.md).
bench: setup
	$(BIN)/python -m benchmarks.retrieval_quality
	$(BIN)/python -m benchmarks.retrieval_ablation
	$(BIN)/python -m benchmarks.search_latency
	$(BIN)/python -m benchmarks.hnsw_recall
	$(BIN)/python -m benchmarks.e5_check
	$(BIN)/python -m benchmarks.indexing_speed
	$(BIN)/python -m benchmarks.agent_quality
	$(BIN)/python -m benchmarks.crawl_speed
	$(BIN)/python -m benchmarks.multiprocess_service
	$(BIN)/python -m benchmarks.calendar_quality
	$(BIN)/python -m benchmarks.calendar_speed

clean:
	rm -rf .rag_index .agent_state .pytest_cache .mypy_cache .ruff_cache

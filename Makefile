# Two commands on a fresh clone with nothing but Python 3.11 (>= 3.10) installed:
#   make book   build the HTML book, executing the chapters (cached: a second run is fast)
#   make test   unit tests, nbval over every chapter, a book build from the checked outputs,
#               and the built-HTML + headless-browser checks
# Both bootstrap .venv first and are idempotent.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= 2
NBVAL_SANITIZE := tests/nbval_sanitize.cfg
JB_FLAGS := -W -n --keep-going

.PHONY: all book test unit nbval book-checked html-tests bench results clean distclean venv

all: book

venv: $(STAMP)

# Reinstall whenever the dependencies or their pins change.
$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[book,test]'
	@touch $@

book: $(STAMP)
	$(BIN)/jupyter-book build $(JB_FLAGS) .
	@echo "Book: $(CURDIR)/_build/html/index.html"

test: $(STAMP)
	$(MAKE) unit
	$(MAKE) nbval
	$(MAKE) book-checked
	$(MAKE) html-tests

# Unit, property and reliability tests (everything except the built-HTML checks).
unit: $(STAMP)
	$(BIN)/pytest tests -n $(JOBS) -m "not builtbook" -q

# Re-execute every chapter and compare with its stored outputs (one notebook per worker).
nbval: $(STAMP)
	@if ls book/*.ipynb >/dev/null 2>&1; then \
	  $(BIN)/pytest --nbval book -n $(JOBS) --dist loadfile -q \
	    --nbval-sanitize-with $(NBVAL_SANITIZE) -p no:cacheprovider; \
	else echo "no chapter notebooks yet"; fi

# The HTML from the stored outputs that nbval has just checked: nothing is executed here.
book-checked: $(STAMP)
	@mkdir -p _build
	sed 's/^  execute_notebooks: cache/  execute_notebooks: "off"/' _config.yml > _build/_config.checked.yml
	$(BIN)/jupyter-book build $(JB_FLAGS) --config _build/_config.checked.yml .

html-tests: $(STAMP)
	COMPANION_REQUIRE_BOOK=1 $(BIN)/pytest tests/book -m builtbook -q -p no:cacheprovider

# Every benchmark (and the chapters' execution times; BENCH_CHAPTERS=0 skips them), two
# processes at a time, one thread each -> bench/results.json and bench/results.md.
bench: $(STAMP)
	$(BIN)/python bench/run_all.py

# The records behind book/results/, with the arguments they were made with (hours of CPU; see
# each script's docstring). Chapters 1-2's seed record comes from scripts/rnn_lstm_seeds.py
# (about 4 CPU-minutes per seed; its docstring shows how to run seeds in parallel and merge them).
results: $(STAMP)
	$(BIN)/python scripts/long_runs.py --cpu-budget 1000 --chunk 200 --threads 1
	$(BIN)/python scripts/lexicon_budget.py
	$(BIN)/python scripts/book_seeds.py seq2seq seq2seq_reversed --ensemble --seeds 0 1 2 3 4 --name seeds-seq2seq
	$(BIN)/python scripts/book_seeds.py rnnsearch rnnencdec --seeds 0 1 2 --name seeds-attention
	$(BIN)/python scripts/book_seeds.py rnnsearch rnnsearch_dot rnnsearch_general --seeds 0 1 2 --name ablation-attention-scoring
	$(BIN)/python scripts/book_seeds.py transformer --seeds 0 1 2 --name seeds-transformer
	$(BIN)/python scripts/transformer_ablations.py --seeds 0 1 2

clean:
	rm -rf _build .pytest_cache .hypothesis

distclean: clean
	rm -rf $(VENV) *.egg-info

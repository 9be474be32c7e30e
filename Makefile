# Two commands on a fresh clone with nothing but Python 3.11 installed (or newer: the pins of
# constraints.txt need >= 3.11; the package alone installs on 3.10):
#   make book   build the HTML book, executing the chapters (cached: a second run is fast)
#   make test   unit tests, nbval over every chapter, a book build from the checked outputs,
#               and the built-HTML + headless-browser checks
#   make test-portable   nbval again with torch, MKL and oneDNN held to AVX2 kernels: what
#               another CPU changes in the last bits of training (run after `make test`)
# Both bootstrap .venv first and are idempotent.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JOBS   ?= 2
NBVAL_SANITIZE := tests/nbval_sanitize.cfg
# Kernels another CPU would run: torch's ATen dispatch, MKL and oneDNN held to AVX2 (what many
# x86 CPUs, GitHub's hosted runners among them, run); see `make test-portable` and the README.
PORTABLE_ISA := ATEN_CPU_CAPABILITY=avx2 MKL_ENABLE_INSTRUCTIONS=AVX2 ONEDNN_MAX_CPU_ISA=AVX2
JB_FLAGS := -W -n --keep-going

.PHONY: all book test test-portable unit nbval book-checked html-tests bench results long-runs clean distclean venv

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
	$(BIN)/python scripts/build_panel.py _build/html/_static
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

# nbval once more on another CPU's kernels: on an AVX-512 machine this changes the last bits of
# every training run (a 30-step loss in the 7th digit), so an exact output that depends on them,
# or a tolerance narrower than the spread between CPUs, fails here. On a CPU without AVX-512 the
# kernels are the same as `make nbval`'s and this repeats it.
test-portable: $(STAMP)
	@echo "kernels: $$($(PORTABLE_ISA) $(BIN)/python -c 'import torch; print(torch.backends.cpu.get_cpu_capability())')"
	$(PORTABLE_ISA) $(MAKE) nbval

# The HTML from the stored outputs that nbval has just checked: nothing is executed here.
book-checked: $(STAMP)
	@mkdir -p _build
	sed 's/^  execute_notebooks: cache/  execute_notebooks: "off"/' _config.yml > _build/_config.checked.yml
	$(BIN)/jupyter-book build $(JB_FLAGS) --config _build/_config.checked.yml .
	$(BIN)/python scripts/build_panel.py _build/html/_static

html-tests: $(STAMP)
	COMPANION_REQUIRE_BOOK=1 $(BIN)/pytest tests/book -m builtbook -q -p no:cacheprovider

# Every benchmark (and the chapters' execution times; BENCH_CHAPTERS=0 skips them), two
# processes at a time, one thread each -> bench/results.json and bench/results.md.
bench: $(STAMP)
	$(BIN)/python bench/run_all.py

# The records behind book/results/, with the arguments they were made with, one process at a time
# on one thread. Every run of at most about two CPU-minutes gets five seeds (the fewest for which
# a paired claim can reach p <= 0.05). Estimated CPU time of the whole target on one thread
# (AMD EPYC, evaluation included): about 5 CPU-hours -- decoding alpha 5 min, lexicon budget
# 15 min, learning-rate search (three rates per family) 30 min, seeds-seq2seq 18 min,
# seeds-attention 20 min, attention scoring 30 min, seeds-transformer 15 min, Transformer
# ablations (9 variants x 5 seeds) 140 min, batching-transformer (4 kinds of batches x 5 seeds)
# 35 min, variations-transformer (Table 3 rows and the equal-CPU control, 5 recipes x 5 seeds)
# about 60 min, lr-search-wide (the Transformer at four rates) 10 min. Make the records from a clean commit: a record made
# from a dirty tree is marked "+dirty" (see companion.experiments.records.git_state).
# Chapters 1-2's seed record comes from scripts/rnn_lstm_seeds.py (about 4 CPU-minutes per seed;
# its docstring shows how to run seeds in parallel and merge them).
results: $(STAMP)
	$(BIN)/python scripts/decode_alpha.py
	$(BIN)/python scripts/lexicon_budget.py
	$(BIN)/python scripts/lr_search.py --factors 0.5 1 2
	$(BIN)/python scripts/lr_search.py --families transformer --factors 0.25 0.5 1 2 --name lr-search-wide
	$(BIN)/python scripts/book_seeds.py seq2seq seq2seq_reversed --ensemble --name seeds-seq2seq
	$(BIN)/python scripts/book_seeds.py rnnsearch rnnencdec --name seeds-attention
	$(BIN)/python scripts/book_seeds.py rnnsearch rnnsearch_dot rnnsearch_general --name ablation-attention-scoring
	$(BIN)/python scripts/book_seeds.py transformer --name seeds-transformer
	$(BIN)/python scripts/transformer_ablations.py
	$(BIN)/python scripts/book_seeds.py transformer transformer_mixed transformer_mixed_2150 transformer_packed \
		--name batching-transformer
	$(BIN)/python scripts/book_seeds.py transformer transformer_heads1 transformer_heads8 transformer_dropout \
		transformer_equal_cpu --name variations-transformer

clean:
	rm -rf _build .pytest_cache .hypothesis

distclean: clean
	rm -rf $(VENV) *.egg-info

# Not read by this edition's chapters: one model of every family on the full lexicon, 1000
# CPU-seconds each (about 1.5 CPU-hours), and the plateau control of chapter 4 (about 45
# CPU-minutes for five seeds; it adds rnnencdec_converged to seeds-attention).
long-runs: $(STAMP)
	$(BIN)/python scripts/long_runs.py --cpu-budget 1000 --chunk 200 --threads 1
	$(BIN)/python scripts/book_seeds.py rnnsearch rnnencdec rnnencdec_converged --name seeds-attention

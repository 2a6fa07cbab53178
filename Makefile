# The project's commands; see README.md.
SHELL := /bin/bash
export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PAGE ?=
HOST ?= 127.0.0.1:8000

# Python 3.12 from PATH, else from pyenv's versions; empty when there is none.
PYTHON ?= $(shell for p in python3.12 "$$(pyenv root 2>/dev/null)"/versions/3.12*/bin/python3.12 /usr/local/bin/python3.12 /usr/bin/python3.12; do \
	"$$p" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' >/dev/null 2>&1 && { echo "$$p"; break; }; done)

.PHONY: setup serve site test test-gpu compare check bench reports clean lock new-term new-guide new-lang i18n-status

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	@if [ -z "$(PYTHON)" ]; then echo "error: Python 3.12 not found: install python3.12 (or 'pyenv install 3.12') and run make again" >&2; exit 2; fi
	@[ -x $(PY) ] || "$(PYTHON)" -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -r requirements.lock
	@# The project itself, editable: the jax_kb package (scripts/src), its `snippets` command, pytest
	@# plugin and MkDocs plugin, so that `mkdocs serve` works in the activated environment too.
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $@

serve: $(STAMP)
	$(PY) -m mkdocs serve --strict --dev-addr $(HOST)

site: $(STAMP)
	$(PY) -m mkdocs build --strict --site-dir site

CHROMIUM := /usr/bin/chromium

# The browser tests drive Debian's Chromium; Playwright's own browser download is not used.
$(CHROMIUM):
	@command -v apt-get >/dev/null || { echo "error: install Chromium at $(CHROMIUM) (Debian package 'chromium')" >&2; exit 2; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

# Every check runs even when an earlier one fails; the exit status says whether any failed.
test: $(STAMP) $(CHROMIUM)
	@status=0; \
	$(PY) -m scripts.i18n check docs || status=1; \
	$(PY) -m scripts.lint docs || status=1; \
	$(PY) -m pytest || status=1; \
	exit $$status

# PAGE reaches the shell as an environment variable, never as recipe text: PAGE='x; cmd' runs nothing.
check: export PAGE := $(PAGE)
check: $(STAMP)
	@if [ -z "$$PAGE" ]; then echo "usage: make check PAGE=docs/glossary/vmap.md" >&2; exit 2; fi
	$(PY) -m scripts.check_page "$$PAGE"

new-term new-guide: $(STAMP)
	@if [ -z "$(NAME)" ]; then echo "usage: make $@ NAME=scan" >&2; exit 2; fi
	$(PY) -m scripts.scaffold $(patsubst new-%,%,$@) "$(NAME)"

# LANG only from the command line: the environment's locale variable is also called LANG.
new-lang: $(STAMP)
	@if [ "$(origin LANG)" != "command line" ]; then echo "usage: make new-lang LANG=de [NAME=Deutsch]" >&2; exit 2; fi
	PYTHONUTF8=1 $(PY) -m scripts.scaffold lang "$(LANG)" $(if $(NAME),--name "$(NAME)")

i18n-status: $(STAMP)
	$(PY) -m scripts.i18n status

GPU_VENV := .venv-gpu

# The examples on a GPU, into reports/gpu-<kind>.json (the kind as JAX names the device, scripts/gpu_kind.py);
# refuses (exit 2) where JAX's default backend is not a GPU.
test-gpu:
	@if [ -z "$(PYTHON)" ]; then echo "error: Python 3.12 not found: install python3.12 or pass PYTHON=..." >&2; exit 2; fi
	"$(PYTHON)" -m scripts.gpu_env $(GPU_VENV)
	XLA_PYTHON_CLIENT_PREALLOCATE=false $(GPU_VENV)/bin/python -m scripts.gpu_check
	kind=$$(XLA_PYTHON_CLIENT_PREALLOCATE=false $(GPU_VENV)/bin/python -m scripts.gpu_kind) && \
	XLA_PYTHON_CLIENT_PREALLOCATE=false $(GPU_VENV)/bin/python -m scripts.snippets docs --device gpu --require-isolation --json "reports/gpu-$$kind.json"

# Every GPU kind's report against the CPU's.
compare: $(STAMP)
	@compgen -G "reports/gpu-*.json" >/dev/null || { echo "error: no reports/gpu-<kind>.json: run make test-gpu on a GPU machine first" >&2; exit 2; }
	$(PY) -m scripts.compare reports/cpu.json reports/gpu-*.json

bench: $(STAMP)
	$(PY) -m scripts.bench
	$(PY) -m scripts.bench_scale
	$(PY) -m scripts.bench_site

# The engine's report that the site's "verified on" note reads: always a full run, nothing reused,
# and never without every protection of the page boxes.
reports: $(STAMP)
	$(PY) -m scripts.snippets docs --require-isolation --json reports/cpu.json

# Re-resolves the pins from pyproject.toml into requirements.lock.
lock:
	@if [ -z "$(PYTHON)" ]; then echo "error: Python 3.12 not found: install python3.12" >&2; exit 2; fi
	rm -rf .lock-venv && "$(PYTHON)" -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --disable-pip-version-check ".[dev]"
	.lock-venv/bin/pip freeze --exclude-editable --exclude jax-kb | sed '/^jax-kb/d' > requirements.lock
	.lock-venv/bin/pip install --dry-run --ignore-installed --quiet --report .lock-venv/gpu.json "jax[cuda12]==$$(sed -n 's/^jax==//p' requirements.lock)"
	.lock-venv/bin/python -m scripts.gpu_lock .lock-venv/gpu.json requirements.lock > requirements-gpu.lock
	rm -rf .lock-venv

clean:
	rm -rf site .cache .pytest_cache

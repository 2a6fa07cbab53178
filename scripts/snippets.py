"""python -m scripts.snippets: the snippet engine's command line (jax_kb.snippets.cli), as the Makefile and CI call it."""
import sys

from jax_kb.snippets.cli import run_cli

sys.exit(run_cli("python -m scripts.snippets"))

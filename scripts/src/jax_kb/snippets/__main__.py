import sys

from jax_kb.snippets.cli import run_cli

sys.exit(run_cli("python -m jax_kb.snippets"))

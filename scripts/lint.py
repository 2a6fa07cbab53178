"""python -m scripts.lint: the content lint (jax_kb.lint)."""
import sys

from jax_kb.lint.__main__ import main

sys.exit(main())

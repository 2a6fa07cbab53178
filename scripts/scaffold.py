"""python -m scripts.scaffold: new pages and languages (jax_kb.scaffold)."""
import sys

from jax_kb.scaffold import main

sys.exit(main())

"""python -m scripts.check_page PAGE: the fast path for one page (jax_kb.check_page)."""
import sys

from jax_kb.check_page import main

sys.exit(main(sys.argv[1:]))

"""python -m scripts.i18n: the translation tools (jax_kb.i18n)."""
import sys

from jax_kb.i18n.__main__ import main

sys.exit(main())

"""A generated corpus for the scale simulation of make bench: pages in every language from templates.

Each page is distinct (its numbers differ), its translations carry the same code with translated
comments and prose, as real translations do; every expected output is computed here, so every
block passes. Written into a temporary folder at bench time, never committed.
"""
from __future__ import annotations

from pathlib import Path

LANGUAGES = ("en", "es", "ro", "sk", "ru")
WORDS = {  # the translated parts: a heading, a sentence, a code comment
    "en": ("Generated page", "This page was generated for the benchmark.", "the result"),
    "es": ("Página generada", "Esta página se generó para la prueba de rendimiento.", "el resultado"),
    "ro": ("Pagină generată", "Această pagină a fost generată pentru test.", "rezultatul"),
    "sk": ("Generovaná stránka", "Táto stránka bola vygenerovaná pre test výkonu.", "výsledok"),
    "ru": ("Созданная страница", "Эта страница создана для измерения скорости.", "результат"),
}

# (code, expected output) of each block kind, from the page number n.
BLOCKS = [
    lambda n: (f"import jax.numpy as jnp\nprint(int(jnp.arange({n % 50 + 2}).sum()))",
               str((n % 50 + 2) * (n % 50 + 1) // 2)),
    lambda n: (f"import jax\nprint(float(jax.grad(lambda x: x ** 2)({n % 7}.0)))", str(2.0 * (n % 7))),
    lambda n: (f"import jax\nimport jax.numpy as jnp\nprint(jax.vmap(lambda x: x * {n % 5 + 1})(jnp.arange(3)).tolist())",
               str([i * (n % 5 + 1) for i in range(3)])),
    lambda n: (f"import jax\nshift = jax.jit(lambda x: x + {n % 11})\nprint(int(shift(1)))", str(1 + n % 11)),
]


def page_text(n: int, lang: str, variant: int = 0) -> str:
    """Page n in one language: 1 to 4 blocks, each with its output; `variant` changes the code."""
    heading, sentence, comment = WORDS[lang]
    parts = [f"---\ntitle: {heading} {n}\nsummary: {sentence}\nkind: guide\n---\n# {heading} {n}\n\n{sentence}\n"]
    for k in range(n % 4 + 1):
        code, output = BLOCKS[(n + k) % len(BLOCKS)](n)
        if k == 0:  # what makes each page distinct, as pages are
            code = f"page = {n}\n{code}"
        if variant:
            code = f"revision = {variant}\n{code}"
        parts.append(f"```python\n# {comment} {k}\n{code}\n```\n\n```{{.text .output}}\n{output}\n```\n")
    return "\n".join(parts)


def page_files(root: Path, n: int) -> list[Path]:
    return [root / f"page{n:04d}{'' if lang == 'en' else '.' + lang}.md" for lang in LANGUAGES]


def write_corpus(root: Path, pages: int) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for n in range(pages):
        for lang, path in zip(LANGUAGES, page_files(root, n)):
            path.write_text(page_text(n, lang), encoding="utf-8")
            written.append(path)
    return written


def change_page(root: Path, n: int) -> None:
    """A contributor's change to one page: new code in every language."""
    for lang, path in zip(LANGUAGES, page_files(root, n)):
        path.write_text(page_text(n, lang, variant=1), encoding="utf-8")

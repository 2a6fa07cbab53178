"""Small generated corpora for the shard, merge and reuse tests: pages in several languages
whose code is identical across languages, as translations are."""
from __future__ import annotations

from pathlib import Path

PAGE = """---
title: Page {n}
summary: Generated page {n}.
kind: guide
---
# Page {n}

{blocks}
"""
BLOCK = """```python
# {comment}
value_{n}_{i} = {n} * {i}
print(value_{n}_{i})
```

```{{.text .output}}
{product}
```
"""
COMMENTS = {"en": "the product", "es": "el producto", "ro": "produsul", "sk": "súčin", "ru": "произведение"}


def page_text(n: int, lang: str, blocks: int, failing: bool = False) -> str:
    body = "\n".join(BLOCK.format(comment=COMMENTS[lang], n=n, i=i, product=n * i + (1 if failing else 0))
                     for i in range(1, blocks + 1))
    return PAGE.format(n=n, blocks=body)


def write_corpus(root: Path, pages: int, languages: tuple[str, ...] = ("en", "es"),
                 failing: tuple[int, ...] = ()) -> Path:
    """`pages` pages (1 to 3 blocks each) in every language; the pages in `failing` print a wrong number."""
    for n in range(pages):
        for lang in languages:
            name = f"page{n}.md" if lang == "en" else f"page{n}.{lang}.md"
            (root / name).write_text(page_text(n, lang, 1 + n % 3, n in failing), encoding="utf-8")
    return root

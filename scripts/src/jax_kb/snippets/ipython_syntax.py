"""A notebook cell's IPython syntax as plain Python, where the meaning survives: `%timeit f(x)` and
`%time f(x)` run `f(x)` once, display settings and panels (`%matplotlib`, `%xmode`, `%tensorboard`, ...)
do nothing here, and
`!cmd` runs the shell command as IPython does, its exit status ignored. What is left (installing
packages into the environment the engine runs in, `$`-expansion, other magics) runs only in a
notebook's kernel: the cell is then not run, and the reason says which line."""
from __future__ import annotations

import re

from jax_kb.markdown import SourceLine

TIMED = re.compile(r"^(?P<indent>\s*)%(?:timeit|time)(?:\s+-[a-z](?:\s*\d+)?)*\s+(?P<code>.*)$")
CELL_TIMED = re.compile(r"^%%(?:timeit|time|capture)\b.*$")
# Settings of how the notebook shows things, and TensorBoard's panel: nothing to run outside a notebook.
DISPLAY_ONLY = re.compile(r"^\s*%(?:matplotlib|xmode|config|load_ext|reload_ext|autoreload|precision|tensorboard)\b")
SHELL = re.compile(r"^(?P<indent>\s*)!(?P<command>[^${}]+)$")
INSTALLS = re.compile(r"^\s*(?:!|%)\s*(?:pip|pip3|conda|mamba|uv|apt|apt-get)\b")
IPYTHON_ONLY = re.compile(r"^\s*(?:!|%|[A-Za-z_][\w.]*\s*=\s*[!%])|^\s*[\w.]+\?\??\s*$")


def plain_python(lines: list[SourceLine]) -> tuple[list[SourceLine], str]:
    """The cell's lines as Python (same page lines), and why it cannot run here ("" when it can)."""
    out = []
    for number, line in enumerate(lines):
        text = line.text
        if number == 0 and CELL_TIMED.match(text):
            text = ""
        elif match := TIMED.match(text):
            text = match["indent"] + match["code"]
        elif DISPLAY_ONLY.match(text):
            text = ""
        elif INSTALLS.match(text):
            return lines, (f"line {line.page_line} installs packages ({text.strip()[:60]!r}); the engine does not "
                           "change the environment it runs in: install what the page needs first")
        elif match := SHELL.match(text):
            text = f"{match['indent']}__import__('subprocess').run({match['command'].strip()!r}, shell=True)"
        elif IPYTHON_ONLY.match(text):
            return lines, (f"IPython's {text.strip().split()[0]!r} (line {line.page_line}) runs only in a "
                           "notebook's kernel, so this cell is not run here")
        out.append(SourceLine(text, line.page_line, line.include))
    return out, ""

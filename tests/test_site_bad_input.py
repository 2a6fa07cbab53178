"""`make site` on bad pages: each problem fails the strict build with a message naming the file
(and line where there is one), and one bad page does not hide the others."""
from __future__ import annotations

import shutil

import pytest

from site_build import ROOT, build_site

GOOD = """---
title: Good
summary: A page without problems.
kind: term
---
# Good
"""
BROKEN_YAML = """---
title: Broken
summary: [unclosed
kind: term
---
# Broken
"""
MISSING_INCLUDE = """---
title: Include
summary: A page whose include is missing.
kind: term
---
# Include

```python
--8<-- "nowhere/absent.py"
```
"""
DEAD_LINK = """---
title: Link
summary: A page with a link to nowhere.
kind: term
---
# Link

See [the missing page](does-not-exist.md).
"""


@pytest.fixture(scope="module")
def bad_build(tmp_path_factory):
    project = tmp_path_factory.mktemp("bad-site")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(ROOT / "scripts", project / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    if (ROOT / "overrides").exists():
        shutil.copytree(ROOT / "overrides", project / "overrides")
    (project / "snippets").mkdir()
    docs = project / "docs" / "glossary"
    docs.mkdir(parents=True)
    (project / "docs" / "index.md").write_text(GOOD.replace("kind: term\n", ""))
    for name, text in {"good": GOOD, "broken": BROKEN_YAML, "include": MISSING_INCLUDE, "link": DEAD_LINK}.items():
        (docs / f"{name}.md").write_text(text)
    return build_site(project / "site", project / "mkdocs.yml")


def test_bad_pages_fail_the_build(bad_build):
    assert bad_build.returncode != 0


def test_broken_front_matter_names_file_and_line(bad_build):
    assert "docs/glossary/broken.md:3: front matter is not valid YAML" in bad_build.stderr


def test_missing_include_names_file_line_and_snippet(bad_build):
    assert "docs/glossary/include.md:9: missing include" in bad_build.stderr
    assert "nowhere/absent.py" in bad_build.stderr


def test_dead_link_names_file_and_line(bad_build):
    assert "docs/glossary/link.md:8: link to 'does-not-exist.md': no such page" in bad_build.stderr


def test_the_build_reports_every_problem_not_only_the_first(bad_build):
    assert "Traceback" not in bad_build.stderr

import shutil
import tempfile
from pathlib import Path

import pytest

from site_build import build_site

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def built_site():
    """The real site, built once with --strict into a temporary folder."""
    target = Path(tempfile.mkdtemp(prefix="kb-site-"))
    done = build_site(target)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stderr[-6000:]}"
    yield target
    shutil.rmtree(target, ignore_errors=True)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven by Playwright: one for every browser test."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()

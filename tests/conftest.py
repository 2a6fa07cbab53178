import shutil
import tempfile
from pathlib import Path

import pytest

from site_build import build_site


@pytest.fixture(scope="session")
def built_site():
    """The real site, built once with --strict into a temporary folder."""
    target = Path(tempfile.mkdtemp(prefix="kb-site-"))
    done = build_site(target)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stderr[-6000:]}"
    yield target
    shutil.rmtree(target, ignore_errors=True)

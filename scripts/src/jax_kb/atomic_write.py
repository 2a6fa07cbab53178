"""Replacing a file so that a reader, a crash or a full disk sees the old bytes or the new ones, never a mix."""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from jax_kb.markdown.errors import InputError


def _mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _replace(path: Path, payload: bytes) -> None:
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fchmod(f.fileno(), _mode(path))
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    # The rename itself is durable only once the folder is synced.
    with contextlib.suppress(OSError):
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Writes data to a temporary file beside path, fsyncs it, and renames it over path.

    The file keeps its permission bits (a new file gets the umask's); str is written as UTF-8
    exactly as given, so line endings are the caller's. A failure (a full disk) is an InputError
    naming the file, which is then as it was.
    """
    path = Path(path)
    try:
        _replace(path, data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as exc:
        raise InputError(path, None, f"could not write the file ({exc.strerror or exc}); it is unchanged") from None

"""The one error type for input that a tool cannot use."""
from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Bad input, located in a file (and a line when there is one)."""

    def __init__(self, path: str | Path, line: int | None, message: str):
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(str(self))

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"

"""Material's templates compiled once per process, not once per language build.

mkdocs gives every build (one per language) a new Jinja environment, which compiles every
template again; this bytecode cache, shared by those environments, keeps the compiled
code, and Jinja recompiles a template whose source changed (its checksum is checked).
"""
from __future__ import annotations

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket


class MemoryBytecodeCache(BytecodeCache):
    def __init__(self):
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


CACHE = MemoryBytecodeCache()

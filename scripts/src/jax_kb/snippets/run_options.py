"""RunOptions: everything a run of the engine takes, whichever front end starts it (the command
line, the pytest plugin, check_page, a library caller); the defaults are the same for all."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from jax_kb.snippets.runs.shards import ShardSpec
from jax_kb.snippets.sandbox.protections import default_jobs

DEFAULT_OUTPUT_LIMIT = 1_000_000


@dataclass(frozen=True)
class RunOptions:
    device: str = "cpu"  # "cpu" or "gpu"; gpu never falls back to the CPU
    jobs: int = field(default_factory=default_jobs)  # pages run at once
    output_limit: int = DEFAULT_OUTPUT_LIMIT  # characters a block may print before it fails
    memory_limit: int | None = None  # bytes per page process; None: 80% of the machine shared by the jobs
    cache_dir: Path | None = None  # JAX's compilation cache; None: .cache/jax in the project's folder
    check_outputs: bool = True  # off when the outputs are being rewritten from this run
    shard: ShardSpec | None = None  # run only this part of the page groups
    shard_durations: Path | None = None  # an earlier report that balances the shards
    reuse: Path | None = None  # an earlier report whose passed results of unchanged pages are taken
    require_isolation: bool = False  # refuse to run (EngineError) where a protection of the page boxes is missing

    def problems(self) -> list[str]:
        """What makes the options unusable, before anything runs."""
        out = []
        if self.device not in ("cpu", "gpu"):
            out.append(f"device {self.device!r}: choose cpu or gpu")
        if self.jobs < 1:
            out.append("-j must be at least 1")
        if self.output_limit < 1:
            out.append(f"--output-limit {self.output_limit}: give a positive number of characters")
        return out

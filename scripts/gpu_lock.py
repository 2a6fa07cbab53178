"""Writes requirements-gpu.lock: what pip's resolution of jax[cuda12] adds to requirements.lock."""
from __future__ import annotations

import json
import sys


def normal(name: str) -> str:
    return name.lower().replace("_", "-")


def main(report: str, base_lock: str) -> int:
    with open(base_lock) as f:
        base = {normal(line.split("==")[0]) for line in f if "==" in line}
    with open(report) as f:
        installs = json.load(f)["install"]
    extra = sorted(f"{i['metadata']['name']}=={i['metadata']['version']}" for i in installs
                   if normal(i["metadata"]["name"]) not in base)
    print("# The CUDA build of the pinned JAX, on top of requirements.lock (make lock writes both).")
    print("\n".join(extra))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))

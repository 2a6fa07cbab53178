"""python -m scripts.gpu_kind: this machine's GPU kind as report names carry it (reports/gpu-<kind>.json).

The kind is JAX's device_kind of the first GPU, e.g. "NVIDIA H100 80GB HBM3" -> nvidia-h100-80gb-hbm3,
so runners of different kinds never write the same report. Exit 2 where JAX has no GPU.
"""
from __future__ import annotations

import os
import re
import sys


def slug(device_kind: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", device_kind.lower()).strip("-")


def main() -> int:
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    try:
        import jax

        devices = jax.devices("gpu")
    except Exception as exc:  # noqa: BLE001: any failure to start the GPU backend means there is no kind to name
        print(f"error: no GPU found: JAX could not start a GPU backend ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 2
    print(slug(devices[0].device_kind))
    return 0


if __name__ == "__main__":
    sys.exit(main())

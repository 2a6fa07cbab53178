"""Exit 2 unless JAX's default backend is a GPU. Without JAX_PLATFORMS, a missing or broken CUDA install falls back to
the CPU with only a warning; with JAX_PLATFORMS=cuda,cpu, JAX skips cuda without a word where no NVIDIA GPU is visible."""
from __future__ import annotations

import os
import sys


def main() -> int:
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    try:
        import jax

        backend, devices = jax.default_backend(), jax.devices()
    except Exception as exc:  # noqa: BLE001: any failure to start a backend means no usable GPU
        print(f"error: no GPU found: JAX could not start ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 2
    if backend != "gpu":
        print(f"error: no GPU found: JAX's default backend is {backend!r} ({', '.join(map(str, devices))}); "
              "make test-gpu needs a CUDA GPU and a CUDA-enabled JAX", file=sys.stderr)
        return 2
    print(f"GPU found: {devices[0].device_kind} ({len(devices)} devices), JAX {jax.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

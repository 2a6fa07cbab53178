"""The verdict on one block, decided in the engine's process from the facts its page process reported."""
from __future__ import annotations

from jax_kb.snippets.output_check import first_difference, outputs_match


def _display_name(qualname: str) -> str:
    module, _, name = qualname.rpartition(".")
    return name if module in ("builtins", "__main__") else qualname


def exception_matches(qualnames: list[str], spec: str) -> bool:
    """`raises=` matches the class or a base class, by its name or its dotted path. A dotted path
    may name a public alias of the class (`jax.errors.X` for `jax._src.errors.X`): same package,
    same class name."""
    package = spec.split(".", 1)[0]
    for qualname in qualnames:
        name = qualname.rsplit(".", 1)[-1]
        if spec in (qualname, name, _display_name(qualname)):
            return True
        if "." in spec and spec.rsplit(".", 1)[-1] == name and qualname.split(".", 1)[0] == package:
            return True
    return False


def error_of(exception: dict, kind: str | None = None, message: str | None = None) -> dict:
    return {"type": kind or _display_name(exception["qualnames"][0]),
            "message": exception["message"] if message is None else message, "frames": exception["frames"]}


def decide(block: dict, fact: dict, memory_note: str = "") -> dict:
    """{"status", "error"} for the block (as the engine sent it) from its "end" fact."""
    exc = fact["exception"]
    if fact["output_limit"]:
        return {"status": "failed", "error": error_of(exc, "OutputLimitExceeded")}
    if exc is not None and "builtins.SystemExit" in exc["qualnames"]:
        return {"status": "failed", "error": error_of(exc, "SystemExit", f"the block called sys.exit({exc.get('exit_code')})")}
    if exc is not None and memory_note and ("builtins.MemoryError" in exc["qualnames"]
                                            or "RESOURCE_EXHAUSTED" in exc["message"]):
        return {"status": "failed", "error": error_of(exc, message=f"{exc['message']}\n{memory_note}")}
    expected = block["raises"]
    if expected:
        if exc is None:
            return {"status": "failed", "error": {"type": "MissingException", "frames": [],
                                                  "message": f"expected {expected} to be raised, but nothing was raised"}}
        if not exception_matches(exc["qualnames"], expected):
            error = error_of(exc)
            return {"status": "failed", "error": {**error, "message": f"expected {expected}, got "
                                                  f"{error['type']}: {error['message']}"}}
    elif exc is not None:
        return {"status": "failed", "error": error_of(exc)}
    if block["expected"] is not None and not outputs_match(block["expected"], fact["stdout"], block["rtol"]):
        return {"status": "failed", "error": {"type": "OutputMismatch", "frames": [], "at_output": True,
                                              "message": first_difference(block["expected"], fact["stdout"], block["rtol"])}}
    return {"status": "passed", "error": None}

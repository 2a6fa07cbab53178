"""The verdict on one block, decided in the engine's process from the facts its page process reported."""
from __future__ import annotations

from jax_kb.snippets.output_check import mismatch, outputs_match


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


def exception_line(exception: dict) -> str:
    """The last line of the exception's traceback, as Python prints it: `ValueError: bad value`."""
    name = _display_name(exception["qualnames"][0])
    return f"{name}: {exception['message']}" if exception["message"] else name


def shown_output(fact: dict, raises: str | None) -> str:
    """What the block shows its reader: what it printed and, for a raises= block that raised, the
    last line of the exception's traceback after it."""
    stdout, exc = fact["stdout"], fact["exception"]
    if not raises or exc is None:
        return stdout
    return stdout + ("\n" if stdout and not stdout.endswith("\n") else "") + exception_line(exc) + "\n"


def decide(block: dict, fact: dict, memory_note: str = "") -> dict:
    """{"status", "error", "output"} for the block (its expectation: raises, expected, rtol) from its
    "end" fact; "output" is what the block shows (shown_output)."""
    output = shown_output(fact, block["raises"])
    verdict = _verdict(block, fact, output, memory_note)
    return {**verdict, "output": output}


def _verdict(block: dict, fact: dict, output: str, memory_note: str) -> dict:
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
    if block["expected"] is not None and not outputs_match(block["expected"], output, block["rtol"]):
        return {"status": "failed", "error": {"type": "OutputMismatch", "frames": [], "at_output": True,
                                              "message": mismatch(block["expected"], output, block["rtol"])}}
    return {"status": "passed", "error": None}

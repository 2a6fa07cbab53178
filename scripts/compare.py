"""python -m scripts.compare reports/cpu.json reports/gpu-<kind>.json ...: the same blocks on two devices.

Each report after the first is compared with the first (make compare: every GPU kind with the CPU).
Exit 1 on any difference in outcome or printed output (numbers to rtol 1e-3, since a GPU
uses TF32 for float32 matmuls) that a `.cpu`/`.gpu` mark does not explain.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass

from jax_kb.snippets.output_check import first_difference, outputs_match

RTOL = 1e-3


@dataclass
class Difference:
    where: str
    left: str
    right: str
    what: str
    explained: bool = False


def _device_only(block: dict) -> bool:
    """Skipped because the block is marked for the other device kind."""
    return block["status"] == "skipped" and block.get("skip") == "device"


def compare(left: dict, right: dict, rtol: float = RTOL) -> list[Difference]:
    key = lambda b: (b["file"], b["line"])  # noqa: E731
    a, b = {key(x): x for x in left["blocks"]}, {key(x): x for x in right["blocks"]}
    out = []
    for where in sorted(a.keys() | b.keys()):
        shown = f"{where[0]}:{where[1]}"
        x, y = a.get(where), b.get(where)
        if x is None or y is None:
            present = left["device"] if y is None else right["device"]
            out.append(Difference(shown, x["status"] if x else "-", y["status"] if y else "-",
                                  f"only in the {present} report"))
        elif x["digest"] != y["digest"]:
            out.append(Difference(shown, x["status"], y["status"], "the code differs between the two runs"))
        elif _device_only(x) or _device_only(y):
            if x["status"] != y["status"]:
                out.append(Difference(shown, x["status"], y["status"], "marked for one device kind", True))
        elif x["status"] != y["status"]:
            why = (x.get("error") or y.get("error") or {}).get("message", "").splitlines()[-1:] or [""]
            out.append(Difference(shown, x["status"], y["status"], f"outcome differs: {why[0]}"))
        elif x["status"] == "passed" and not outputs_match(x["stdout"], y["stdout"], rtol):
            out.append(Difference(shown, x["status"], y["status"],
                                  "printed output differs: " + first_difference(x["stdout"], y["stdout"], rtol)))
    return out


def load(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return None
    if not isinstance(report, dict) or not isinstance(report.get("blocks"), list):
        print(f"error: {path}: not a JSON report of the snippet engine: no list of blocks", file=sys.stderr)
        return None
    return report


def print_comparison(left_name: str, left: dict, right_name: str, right: dict, rtol: float) -> int:
    """The table of one pair of reports; returns the count of unexplained differences."""
    differences = compare(left, right, rtol)
    unexplained = [d for d in differences if not d.explained]
    print(f"{left_name} ({left.get('device_kind') or left['device']}) against "
          f"{right_name} ({right.get('device_kind') or right['device']}):")
    if differences:
        width = max(len(d.where) for d in differences)
        print(f"{'block':<{width}}  {left['device']:<8} {right['device']:<8} difference")
        for d in differences:
            print(f"{d.where:<{width}}  {d.left:<8} {d.right:<8} {d.what}{' (explained)' if d.explained else ''}")
    both = len({(x["file"], x["line"]) for x in left["blocks"]} & {(x["file"], x["line"]) for x in right["blocks"]})
    print(f"{both} blocks in both reports: {len(unexplained)} unexplained differences, "
          f"{len(differences) - len(unexplained)} explained by .cpu/.gpu marks")
    return len(unexplained)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.compare", description=__doc__.splitlines()[0])
    parser.add_argument("left", help="a JSON report, e.g. reports/cpu.json")
    parser.add_argument("right", nargs="+", help="reports to compare with it, e.g. reports/gpu-*.json")
    parser.add_argument("--rtol", type=float, default=RTOL)
    args = parser.parse_args(argv)
    reports = {path: load(path) for path in [args.left, *args.right]}
    if any(r is None for r in reports.values()):
        return 2
    unexplained = sum(print_comparison(args.left, reports[args.left], path, reports[path], args.rtol)
                      for path in args.right)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())

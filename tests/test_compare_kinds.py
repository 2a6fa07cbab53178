"""make compare: every GPU kind's report against the CPU's, each kind under its own report name."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scripts.gpu_kind import slug

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "compare"


def compare(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scripts.compare", *map(str, paths)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_each_report_is_compared_with_the_first_and_any_difference_fails():
    done = compare(FIXTURES / "cpu.json", FIXTURES / "cpu.json", FIXTURES / "gpu.json")
    assert done.returncode == 1
    tables = done.stdout.split(" against ")
    assert len(tables) == 3  # two comparisons, each headed "<cpu> against <other>:"
    assert "0 unexplained differences" in tables[1] and "4 unexplained differences" in tables[2]


def test_identical_kinds_pass():
    assert compare(FIXTURES / "cpu.json", FIXTURES / "cpu.json", FIXTURES / "cpu.json").returncode == 0


def test_a_report_that_is_not_one_is_a_clear_error(tmp_path):
    (tmp_path / "gpu-x.json").write_text("[]")
    done = compare(FIXTURES / "cpu.json", tmp_path / "gpu-x.json")
    assert done.returncode == 2 and "gpu-x.json: not a JSON report" in done.stderr and "Traceback" not in done.stderr


def test_gpu_kinds_become_distinct_report_names():
    assert slug("NVIDIA H100 80GB HBM3") == "nvidia-h100-80gb-hbm3"
    assert slug("NVIDIA A100-SXM4-40GB") == "nvidia-a100-sxm4-40gb"
    assert slug("NVIDIA H200") != slug("NVIDIA H100")


def test_device_only_blocks_are_known_by_their_skip_field_not_their_wording(tmp_path):
    import json

    report = json.loads((FIXTURES / "cpu.json").read_text())
    for block in report["blocks"]:
        if block.get("skip") == "device":
            block["reason"] = "reworded: only for GPUs"
    (tmp_path / "cpu.json").write_text(json.dumps(report))
    done = compare(tmp_path / "cpu.json", FIXTURES / "gpu.json")
    assert "4 unexplained differences" in done.stdout and "1 explained" in done.stdout, done.stdout

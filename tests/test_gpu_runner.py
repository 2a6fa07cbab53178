"""The GPU side, checked on the CPU: the refusal to fall back, the CPU/GPU comparison, the workflows."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.compare import compare

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "compare"


def run(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300, **kwargs)


def test_gpu_check_refuses_a_machine_without_gpu():
    done = run("-m", "scripts.gpu_check", env={"JAX_PLATFORMS": "cuda,cpu", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert "no GPU found" in done.stderr


def test_pytest_with_device_gpu_fails_every_block_with_the_reason():
    done = run("-m", "pytest", "docs/glossary/vmap.md", "--snippets-device", "gpu", "-q", "-p", "no:cacheprovider")
    assert done.returncode == 1
    assert "no GPU found" in done.stdout


@pytest.fixture(scope="module")
def differences():
    load = lambda name: json.loads((FIXTURES / name).read_text())  # noqa: E731
    return {d.where: d for d in compare(load("cpu.json"), load("gpu.json"))}


def test_equal_and_within_tolerance_are_no_difference(differences):
    assert "docs/p.md:1" not in differences and "docs/p.md:2" not in differences


def test_output_outside_tolerance_is_a_difference(differences):
    assert "printed output differs" in differences["docs/p.md:3"].what
    assert not differences["docs/p.md:3"].explained


def test_failure_on_one_side_only_is_a_difference(differences):
    d = differences["docs/p.md:4"]
    assert (d.left, d.right, d.explained) == ("passed", "failed", False) and "ValueError: bad" in d.what


def test_device_mark_explains_a_difference(differences):
    assert differences["docs/p.md:5"].explained


def test_block_on_one_side_only_is_a_difference(differences):
    assert differences["docs/p.md:6"].what == "only in the cpu report"
    assert differences["docs/p.md:7"].what == "only in the gpu report"


def test_compare_cli_prints_file_line_table_and_exits_1():
    done = run("-m", "scripts.compare", str(FIXTURES / "cpu.json"), str(FIXTURES / "gpu.json"))
    assert done.returncode == 1
    assert "docs/p.md:3" in done.stdout and "4 unexplained differences, 1 explained" in done.stdout


def test_compare_cli_exits_0_on_identical_reports():
    assert run("-m", "scripts.compare", str(FIXTURES / "cpu.json"), str(FIXTURES / "cpu.json")).returncode == 0


def test_workflows_are_valid_github_actions():
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    assert workflows
    done = run("-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", *map(str, workflows))
    assert done.returncode == 0, done.stdout + done.stderr

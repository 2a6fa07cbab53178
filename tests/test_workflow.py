"""The CI workflow: sharded examples merged into one report, GPU kinds compared with it, and the
trust rules (no credentials left behind, forks off the GPU runners, no cache from pull requests)."""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())
JOBS = WORKFLOW["jobs"]
REPO = "jax-kb/jax-kb"


def steps(job: str | None = None):
    for name, body in JOBS.items():
        if job in (None, name):
            yield from ((name, step) for step in body.get("steps", []))


def evaluate(expression: str, context: dict) -> bool:
    """A GitHub Actions expression of ==, &&, || and parentheses over the github context."""
    python = re.sub(r"\bgithub(\.[A-Za-z_]+)+", lambda m: repr(lookup(context, m[0])), expression)
    python = python.replace("&&", " and ").replace("||", " or ").replace("!cancelled()", "True")
    return bool(eval(python, {}))  # noqa: S307: the workflow file of this repository, rewritten above


def lookup(context: dict, dotted: str):
    value = context
    for part in dotted.split(".")[1:]:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def pull_request(action: str, head: str, label: str | None = None) -> dict:
    return {"event_name": "pull_request", "repository": REPO,
            "event": {"action": action, "pull_request": {"head": {"repo": {"full_name": head}}},
                      **({"label": {"name": label}} if label else {})}}


def test_no_checkout_leaves_credentials_behind():
    checkouts = [(job, s) for job, s in steps() if s.get("uses", "").startswith("actions/checkout@")]
    assert checkouts and all(s.get("with", {}).get("persist-credentials") is False for _, s in checkouts)


@pytest.mark.parametrize("context, runs", [
    ({"event_name": "push", "repository": REPO, "event": {}}, True),
    ({"event_name": "workflow_dispatch", "repository": REPO, "event": {}}, True),
    (pull_request("opened", REPO), True),
    (pull_request("opened", "stranger/jax-kb"), False),
    (pull_request("synchronize", "stranger/jax-kb", None), False),
    (pull_request("labeled", "stranger/jax-kb", "gpu-approved"), True),
    (pull_request("labeled", "stranger/jax-kb", "documentation"), False),
], ids=["push", "dispatch", "same-repository PR", "fork PR", "fork PR pushed again", "fork PR labelled by a "
        "maintainer", "fork PR with another label"])
def test_fork_pull_requests_reach_the_gpu_runners_only_by_a_maintainers_label(context, runs):
    assert evaluate(JOBS["gpu"]["if"], context) is runs
    assert "self-hosted" in JOBS["gpu"]["runs-on"]


def test_the_shard_count_is_set_in_one_place_and_makes_the_matrix(tmp_path):
    plan = JOBS["plan"]["steps"][0]
    output = tmp_path / "output"
    subprocess.run(["bash", "-c", plan["run"]], check=True,
                   env=dict(os.environ, SHARDS=str(WORKFLOW["env"]["SHARDS"]), GITHUB_OUTPUT=str(output)))
    shards = json.loads(output.read_text().strip().removeprefix("list="))
    assert shards == list(range(1, WORKFLOW["env"]["SHARDS"] + 1))
    assert JOBS["examples"]["strategy"]["matrix"]["shard"] == "${{ fromJSON(needs.plan.outputs.shards) }}"


def test_each_shard_runs_its_part_cut_by_the_same_durations_and_is_merged():
    run = next(s["run"] for _, s in steps("examples") if "--shard" in s.get("run", ""))
    assert '--shard "${{ matrix.shard }}/$SHARDS"' in run and "--shard-durations reports/cpu.json" in run
    merge = next(s["run"] for _, s in steps("merge") if "merge" in s.get("run", ""))
    assert merge.split()[-4:] == ["merge", "shards/shard-*.json", "--json", "reports/cpu.json"]
    assert JOBS["merge"]["needs"] == "examples" and "!cancelled()" in JOBS["merge"]["if"]


def test_pull_requests_reuse_mains_report_and_main_runs_everything():
    run = next(s["run"] for _, s in steps("examples") if "--shard" in s.get("run", ""))
    assert "--reuse .main-report/cpu.json" in run
    restore = next(s for _, s in steps("examples") if s.get("with", {}).get("path") == ".main-report/cpu.json")
    assert restore["if"] == "github.event_name == 'pull_request'"
    saved = next(s for _, s in steps("merge") if s.get("with", {}).get("path") == ".main-report/cpu.json")
    assert saved["uses"].startswith("actions/cache/save@") and "github.event_name == 'push'" in saved["if"]


def test_no_compilation_cache_goes_from_a_pull_request_into_the_run_that_writes_the_reports():
    for job, step in steps():
        uses = step.get("uses", "")
        if uses.startswith("actions/cache"):
            assert not uses.startswith("actions/cache@"), f"{job}: a cache that both restores and saves"
            if uses.startswith("actions/cache/save@"):
                assert "github.event_name == 'push'" in step["if"], f"{job}: saved by pull requests too"
            else:
                assert step["if"] == "github.event_name == 'pull_request'", f"{job}: restored by a main run"
    gpu = [s.get("run", "") for _, s in steps("gpu")]
    assert gpu.index("rm -rf .cache/jax") < gpu.index("make test-gpu")


def test_every_gpu_kind_has_its_runner_label_and_its_report_compared_with_the_cpu():
    gpu = JOBS["gpu"]
    assert gpu["runs-on"] == ["self-hosted", "${{ matrix.runner }}"]
    # The labels are a repository variable (a JSON list), one per kind; "gpu" where it is unset.
    assert gpu["strategy"]["matrix"]["runner"] == "${{ fromJSON(vars.GPU_RUNNERS || '[\"gpu\"]') }}"
    compare = next(s["run"] for _, s in steps("gpu") if "scripts.compare" in s.get("run", ""))
    assert compare.endswith("-m scripts.compare reports/cpu.json reports/gpu-*.json")


def test_the_published_site_reads_this_runs_merged_report():
    names = [s.get("with", {}).get("name") for _, s in steps("pages")]
    assert "cpu-report" in names
    assert [s.get("run") for _, s in steps("pages")].index("make site") > names.index("cpu-report")


def test_make_reports_stays_a_full_run_with_every_protection():
    recipe = re.search(r"^reports:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)[1]
    assert "scripts.snippets docs --require-isolation --json reports/cpu.json" in recipe
    assert "--reuse" not in recipe and "--shard" not in recipe


def test_every_run_that_writes_a_report_of_the_site_requires_the_page_boxes():
    makefile = (ROOT / "Makefile").read_text()
    gpu = re.search(r"^test-gpu:.*\n((?:\t.*\n)+)", makefile, re.M)[1]
    assert "--device gpu --require-isolation" in gpu
    shards = [s["run"] for _, s in steps("examples") if "scripts.snippets" in s.get("run", "")]
    assert shards and all("--require-isolation" in run and ".github/boxes.sh run" in run for run in shards)
    for job in ("checks", "examples"):  # unprivileged GitHub runners get user namespaces and a cgroup first
        assert any(s.get("run") == ".github/boxes.sh setup" for _, s in steps(job)), job

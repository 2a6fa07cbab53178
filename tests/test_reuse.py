"""--reuse REPORT: unchanged groups that passed take their results from the earlier report; the rest runs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine_cli import cli
from jax_kb.markdown import load_site_config
from jax_kb.markdown.pages import display_path, display_paths
from jax_kb.snippets.runs import identity
from jax_kb.snippets.runs.reuse import text_digest, unchanged_files
from tests.scale_corpus import page_text, write_corpus


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """An earlier full run (page 2 fails), then page 1 changed and page 3 given a new comment, rerun with --reuse."""
    work = tmp_path_factory.mktemp("reuse")
    (work / "docs").mkdir()
    corpus = write_corpus(work / "docs", 5, failing=(2,))
    assert cli(corpus, "-j", "2", "--json", work / "earlier.json").returncode == 1
    (corpus / "page1.md").write_text(page_text(1, "en", 2).replace("value_1_1 = 1 * 1", "value_1_1 = 1 * 1 + 0"))
    (corpus / "page1.es.md").write_text(page_text(1, "es", 2).replace("value_1_1 = 1 * 1", "value_1_1 = 1 * 1 + 0"))
    (corpus / "page3.es.md").write_text(page_text(3, "es", 1).replace("el producto", "otro comentario"))
    done = cli(corpus, "-j", "2", "--reuse", work / "earlier.json", "--json", work / "later.json")
    assert done.returncode == 1, done.stderr
    report = json.loads((work / "later.json").read_text())
    return work, done, {(Path(b["file"]).name, b["index"]): b for b in report["blocks"]}, report


def test_unchanged_passed_groups_are_reused_and_say_from_where(runs):
    work, _, blocks, _ = runs
    for name in ("page0.md", "page0.es.md", "page4.md", "page3.es.md"):
        block = blocks[(name, 0)]
        assert block["status"] == "passed" and not block["executed"]
        assert block["reused_from"]["report"] == str(work / "earlier.json") and block["reused_from"]["created"]


def test_changed_code_runs_again(runs):
    _, _, blocks, _ = runs
    assert blocks[("page1.md", 0)]["executed"] and "reused_from" not in blocks[("page1.md", 0)]
    assert blocks[("page1.md", 0)]["status"] == "passed"


def test_a_failed_group_is_never_reused(runs):
    _, _, blocks, _ = runs
    assert blocks[("page2.md", 0)]["status"] == "failed" and blocks[("page2.md", 0)]["executed"]


def test_the_summary_and_the_output_count_the_reused_results(runs):
    _, done, _, report = runs
    assert report["summary"]["reused"] == 8  # pages 0, 3, 4: 1 + 1 + 2 blocks, in two languages
    assert "5 page files unchanged since it, not read again" in done.stdout  # pages 0 and 4, page3.md
    assert "reused the results of 1 more pages, 4 pages to run" in done.stdout  # page3.es.md: a new comment


def test_a_report_of_another_setup_is_not_reused(runs, tmp_path):
    work = runs[0]
    earlier = json.loads((work / "earlier.json").read_text())
    earlier["jax"] = "0.0.1"
    (tmp_path / "old.json").write_text(json.dumps(earlier))
    done = cli(work / "docs" / "page0.md", "--reuse", tmp_path / "old.json", "--json", tmp_path / "out.json")
    assert done.returncode == 0
    assert "nothing reused, it was made by another setup (jax '0.0.1' vs" in done.stdout
    assert json.loads((tmp_path / "out.json").read_text())["summary"]["reused"] == 0


def test_an_unreadable_reuse_report_is_an_input_error_and_everything_still_runs(runs, tmp_path):
    work = runs[0]
    done = cli(work / "docs" / "page0.md", "--reuse", tmp_path / "absent.json", "--json", tmp_path / "out.json")
    assert done.returncode == 2 and "absent.json: cannot read the report" in done.stderr
    assert json.loads((tmp_path / "out.json").read_text())["summary"]["executed"] == 1


def test_a_reused_result_reused_again_still_names_the_run_that_made_it(runs, tmp_path):
    work = runs[0]
    done = cli(work / "docs" / "page0.md", "--reuse", work / "later.json", "--json", tmp_path / "out.json")
    assert done.returncode == 0
    block = json.loads((tmp_path / "out.json").read_text())["blocks"][0]
    assert block["reused_from"]["report"] == str(work / "earlier.json")


def test_the_report_records_the_digest_of_every_page_file_it_covers(runs):
    work, _, _, report = runs
    earlier = json.loads((work / "earlier.json").read_text())
    assert len(report["sources"]) == 10 and report["sources"] != earlier["sources"]
    assert {k: v for k, v in report["sources"].items() if "page0" in k} == \
        {k: v for k, v in earlier["sources"].items() if "page0" in k}


def test_only_unchanged_files_that_include_nothing_and_passed_are_not_read_again(tmp_path):
    config = load_site_config()
    texts = {"same.md": "x", "edited.md": "y", "includes.md": '--8<-- "a.py"', "failed.md": "z"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text)
    files = sorted(tmp_path.glob("*.md"))
    shown = {p.name: display_path(p, config) for p in files}
    current = identity.current("cpu")
    report = {**current, "sources": {shown[n]: text_digest(t) for n, t in texts.items()},
              "blocks": [{"file": shown[n], "index": 0, "group": "g" + n, "status": "failed" if n == "failed.md"
                          else "passed"} for n in texts]}
    report["sources"][shown["edited.md"]] = text_digest("before the edit")
    out = unchanged_files(files, report, "earlier.json", current, config)
    assert sorted(p.name for p in out.remaining) == ["edited.md", "failed.md", "includes.md"]
    assert [(e["file"], e["executed"], e["reused_from"]["report"]) for e in out.entries] == \
        [(shown["same.md"], False, "earlier.json")]
    other = unchanged_files(files, {**report, "jaxlib": "0.0.1"}, "earlier.json", current, config)
    assert other.remaining == files and other.entries == []


def test_display_paths_of_many_files_are_those_of_display_path(tmp_path, monkeypatch):
    config = load_site_config()
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    for name in ("a.md", "sub/b.md"):
        (real / name).write_text("x")
    (tmp_path / "linked").symlink_to(real, target_is_directory=True)
    (tmp_path / "file-link.md").symlink_to(real / "sub" / "b.md")
    monkeypatch.chdir(tmp_path)
    files = [real / "a.md", tmp_path / "linked" / "sub" / "b.md", tmp_path / "file-link.md",
             Path("linked/a.md"), config.root / "mkdocs.yml", config.root / "docs" / ".." / "README.md"]
    shown = display_paths(files, config)
    assert shown == [display_path(f, config) for f in files]
    assert shown[1] == shown[2] == str(real / "sub" / "b.md") and shown[3] == str(real / "a.md")
    assert shown[4:] == ["mkdocs.yml", "README.md"]


def test_shards_with_reuse_read_only_changed_files_and_merge_into_the_unsharded_run(runs, tmp_path):
    work = runs[0]
    outputs = []
    for i in (1, 2, 3):
        done = cli(work / "docs", "-j", "2", "--shard", f"{i}/3", "--shard-durations", work / "earlier.json",
                   "--reuse", work / "earlier.json", "--json", tmp_path / f"shard-{i}.json")
        assert done.returncode in (0, 1), done.stderr
        assert "5 page files unchanged since it, not read again" in done.stdout
        outputs.append(json.loads((tmp_path / f"shard-{i}.json").read_text()))
    # The groups that run (page 1, new; page 2, failed) weigh; the reused ones do not.
    assert sorted(r["summary"]["executed"] > 0 for r in outputs) == [False, True, True]
    merged = cli("merge", *(tmp_path / f"shard-{i}.json" for i in (1, 2, 3)), "--json", tmp_path / "merged.json")
    assert merged.returncode == 0, merged.stderr

    def blocks(path):
        return [{k: v for k, v in b.items() if k != "duration_s"} for b in json.loads(path.read_text())["blocks"]]
    assert blocks(tmp_path / "merged.json") == blocks(work / "later.json")
    assert json.loads((tmp_path / "merged.json").read_text())["sources"] == \
        json.loads((work / "later.json").read_text())["sources"]


def test_a_run_left_with_nothing_to_run_does_not_start_jax(monkeypatch):
    from jax_kb.snippets import Engine, RunOptions
    from jax_kb.snippets.sandbox.pool import Pool

    monkeypatch.setattr(Pool, "_start", lambda self: pytest.fail("the zygote was started for no page"))
    assert list(Engine(RunOptions(jobs=1)).run([])) == []


def test_what_is_reusable_is_decided_by_the_skip_field_not_the_wording():
    from jax_kb.snippets.runs.reuse import _reusable

    assert _reusable({"status": "skipped", "skip": "device", "reason": "reworded"})
    assert _reusable({"status": "skipped", "skip": "config", "reason": ""})
    assert not _reusable({"status": "skipped", "reason": "runs on gpu only; this run is on cpu"})
    assert not _reusable({"status": "skipped", "skip": "after_failure", "reason": "runs on "})

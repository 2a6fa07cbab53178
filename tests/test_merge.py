"""python -m scripts.snippets merge: shard reports into the report of a single run, or a clear refusal."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine_cli import cli
from tests.scale_corpus import write_corpus

VOLATILE = ("duration_s",)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Three shard reports and a single run's report of one corpus that has a failing page."""
    work = tmp_path_factory.mktemp("merge")
    (work / "docs").mkdir()
    corpus = write_corpus(work / "docs", 7, failing=(2,))
    for i in (1, 2, 3):
        assert cli(corpus, "--shard", f"{i}/3", "-j", "2", "--json", work / f"shard-{i}.json").returncode in (0, 1)
    assert cli(corpus, "-j", "2", "--json", work / "single.json").returncode == 1
    return work


def blocks(path: Path) -> list[dict]:
    return [{k: v for k, v in b.items() if k not in VOLATILE} for b in json.loads(path.read_text())["blocks"]]


def edited(source: Path, target: Path, change) -> Path:
    report = json.loads(source.read_text())
    change(report)
    target.write_text(json.dumps(report))
    return target


def test_merged_shards_equal_a_single_run(reports):
    done = cli("merge", *(reports / f"shard-{i}.json" for i in (3, 1, 2)), "--json", reports / "merged.json")
    assert done.returncode == 0, done.stderr
    merged = json.loads((reports / "merged.json").read_text())
    single = json.loads((reports / "single.json").read_text())
    assert blocks(reports / "merged.json") == blocks(reports / "single.json")
    assert merged["summary"] == single["summary"] and merged["summary"]["failed"] == 2
    assert merged["sources"] == single["sources"] and len(single["sources"]) == 14
    assert [m["shard"] for m in merged["merged_from"]] == ["3/3", "1/3", "2/3"] and "shard" not in merged


def test_each_shard_report_records_its_shard_and_the_corpus(reports):
    shard = json.loads((reports / "shard-2.json").read_text())
    single = json.loads((reports / "single.json").read_text())
    assert (shard["shard"]["index"], shard["shard"]["count"]) == (2, 3)
    assert shard["corpus"] == single["corpus"] and single["corpus"]["groups"] == 7
    assert {b["group"] for b in shard["blocks"]} == set(shard["shard"]["groups"])


def refusal(*paths: Path, out: Path) -> str:
    done = cli("merge", *paths, "--json", out)
    assert done.returncode == 2 and not out.exists()
    assert "Traceback" not in done.stderr
    return done.stderr


def test_a_missing_shard_is_refused_naming_it(reports):
    message = refusal(reports / "shard-1.json", reports / "shard-3.json", out=reports / "out.json")
    assert "groups are missing" in message and "shards 2/3 not given" in message


def test_a_shard_given_twice_is_refused(reports):
    message = refusal(*(reports / f"shard-{i}.json" for i in (1, 2, 2, 3)), out=reports / "out.json")
    assert "shard 2/3 is given twice" in message


def test_a_group_in_two_reports_is_refused_naming_its_page(reports):
    first = json.loads((reports / "shard-1.json").read_text())
    stolen = first["blocks"][0]

    def add_group(report):
        report["shard"]["groups"].append(stolen["group"])
        report["blocks"].append(stolen)
    doubled = edited(reports / "shard-2.json", reports / "doubled.json", add_group)
    message = refusal(reports / "shard-1.json", doubled, reports / "shard-3.json", out=reports / "out.json")
    assert f"the page group of {stolen['file']} is in both" in message


@pytest.mark.parametrize("key", ["jax", "jaxlib", "python", "device_kind", "engine"])
def test_reports_of_different_setups_are_refused(reports, key):
    other = edited(reports / "shard-2.json", reports / f"other-{key}.json", lambda r: r.update({key: "other"}))
    message = refusal(reports / "shard-1.json", other, reports / "shard-3.json", out=reports / "out.json")
    assert "different setups" in message and f"{key} " in message and "'other'" in message


def test_shards_of_different_corpora_are_refused(reports):
    other = edited(reports / "shard-2.json", reports / "corpus.json", lambda r: r["corpus"].update(digest="0" * 16))
    assert "different corpora" in refusal(reports / "shard-1.json", other, reports / "shard-3.json",
                                          out=reports / "out.json")


def test_shards_of_different_splits_are_refused(reports):
    other = edited(reports / "shard-2.json", reports / "split.json", lambda r: r["shard"].update(count=4))
    assert "different splits" in refusal(reports / "shard-1.json", other, out=reports / "out.json")


def test_a_file_that_is_no_report_is_refused_naming_it(reports):
    (reports / "broken.json").write_text("{not json")
    assert "broken.json:1: not a JSON report" in refusal(reports / "shard-1.json", reports / "broken.json",
                                                         out=reports / "out.json")


def test_more_shards_than_groups_leaves_empty_shards_that_still_merge(tmp_path):
    (tmp_path / "docs").mkdir()
    corpus = write_corpus(tmp_path / "docs", 1)
    for i in (1, 2):
        assert cli(corpus, "--shard", f"{i}/2", "--json", tmp_path / f"shard-{i}.json").returncode == 0
    empty = json.loads((tmp_path / "shard-2.json").read_text())
    assert empty["blocks"] == [] and empty["device_kind"] == "cpu" and empty["corpus"]["groups"] == 1
    done = cli("merge", tmp_path / "shard-1.json", tmp_path / "shard-2.json", "--json", tmp_path / "merged.json")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "merged.json").read_text())["summary"]["passed"] == 2

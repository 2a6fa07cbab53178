"""--shard I/N: every page group in exactly one shard, translations together, balanced by durations."""
from __future__ import annotations

import pytest

from jax_kb.snippets.engine import group_pages, load
from jax_kb.snippets.runs.shards import ShardSpec, group_id, parse_spec, partition, select, weights
from tests.scale_corpus import write_corpus


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    pages, errors = load([write_corpus(tmp_path_factory.mktemp("corpus"), 13, ("en", "es", "ru"))])
    assert errors == []
    return pages


@pytest.mark.parametrize("count", range(1, 9))
@pytest.mark.parametrize("timed", [False, True], ids=["by blocks", "by durations"])
def test_union_of_the_shards_is_the_whole_and_nothing_overlaps(loaded, count, timed):
    groups = group_pages(loaded, "en")
    durations = {group_id(g): 0.1 * (k % 5 + 1) for k, g in enumerate(groups)} if timed else None
    shards = partition(weights(groups, durations), count)
    ids = [gid for shard in shards for gid in shard]
    assert len(shards) == count
    assert sorted(ids) == sorted(group_id(g) for g in groups) and len(set(ids)) == len(ids)


@pytest.mark.parametrize("count", range(1, 9))
def test_each_shard_process_selects_its_part_of_the_same_split(loaded, count):
    paths = [p.page.path for i in range(1, count + 1) for p in select(loaded, ShardSpec(i, count), "en")[0]]
    assert sorted(paths) == sorted(p.page.path for p in loaded) and len(set(paths)) == len(paths)


def test_translations_of_a_page_stay_in_one_shard(loaded):
    for i in range(1, 5):
        pages = select(loaded, ShardSpec(i, 4), "en")[0]
        for page in {p.page.page_id for p in pages}:
            assert sorted(p.page.lang for p in pages if p.page.page_id == page) == ["en", "es", "ru"]


def test_the_split_does_not_depend_on_the_order_of_the_pages(loaded):
    forward = partition(weights(group_pages(loaded, "en")), 3)
    backward = partition(weights(group_pages(list(reversed(loaded)), "en")), 3)
    assert forward == backward


def test_durations_balance_the_shards(loaded):
    groups = group_pages(loaded, "en")
    heavy = group_id(groups[0])
    durations = {group_id(g): 20.0 if group_id(g) == heavy else 1.0 for g in groups}
    shards = partition(weights(groups, durations), 2)
    alone = next(s for s in shards if heavy in s)
    assert alone == [heavy]  # 20 s against the other 12 groups' 12 s


def test_durations_are_read_from_an_earlier_report(loaded):
    groups = group_pages(loaded, "en")
    slow = groups[3].pages[1].page.path  # a translation's file: the whole group weighs what it took
    report = {"blocks": [{"file": p.page.path, "duration_s": 50.0 if p.page.path == slow else 0.01}
                         for g in groups for p in g.pages]}
    mine = select(loaded, ShardSpec(1, 2), "en", report)[0]
    other = select(loaded, ShardSpec(2, 2), "en", report)[0]
    lone = mine if slow in [p.page.path for p in mine] else other
    assert {p.page.path for p in lone} == {p.page.path for p in groups[3].pages}



def test_groups_reuse_will_take_weigh_nothing_so_the_changed_ones_spread(loaded):
    groups = group_pages(loaded, "en")
    changed = {group_id(g) for g in groups[:4]}
    free = {group_id(g) for g in groups} - changed
    parts = [select(loaded, ShardSpec(i, 4), "en", free=free)[2] for i in range(1, 5)]
    assert sorted(len(changed & set(part)) for part in parts) == [1, 1, 1, 1]
    assert sorted(len(part) for part in parts) == [3, 3, 3, 4]  # the free ones spread by count


def test_groups_known_only_from_the_reuse_report_are_cut_with_the_rest(loaded):
    read = [p for p in loaded if p.page.page_id in ("page0", "page1")]
    unread = {group_id(g) for g in group_pages(loaded, "en")} - {group_id(g) for g in group_pages(read, "en")}
    cuts = [select(read, ShardSpec(i, 3), "en", unread=unread) for i in range(1, 4)]
    ids = [gid for _, _, mine in cuts for gid in mine]
    assert sorted(ids) == sorted(group_id(g) for g in group_pages(loaded, "en")) and len(set(ids)) == len(ids)
    assert cuts[0][1] == select(loaded, ShardSpec(1, 3), "en")[1]  # the same corpus as a reading of every file
    assert sorted(p.page.path for pages, _, _ in cuts for p in pages) == sorted(p.page.path for p in read)

@pytest.mark.parametrize("text", ["0/4", "5/4", "1", "a/b", "1/0"])
def test_bad_shard_specs_are_refused_with_the_expected_form(text):
    with pytest.raises(ValueError, match="expected I/N"):
        parse_spec(text)


def test_a_shard_spec_is_read():
    assert parse_spec(" 2/4 ") == ShardSpec(2, 4) and str(ShardSpec(2, 4)) == "2/4"


def test_the_engine_starts_the_longest_groups_first(loaded):
    """Within a run, the groups expected to take longest start first: by a report's seconds, else by blocks."""
    from jax_kb.snippets.runs.shards import heaviest_first

    groups = group_pages(loaded, "en")
    by_blocks = [group_id(g) for g in group_pages(heaviest_first(loaded, "en"), "en")]
    blocks = {group_id(g): len(g.pages[0].blocks) for g in groups}
    assert [blocks[g] for g in by_blocks] == sorted(blocks.values(), reverse=True)
    slowest = group_id(min(groups, key=lambda g: len(g.pages[0].blocks)))  # few blocks, yet the slowest
    report = {"blocks": [{"group": group_id(g), "executed": True, "file": "x",
                          "duration_s": 1000.0 if group_id(g) == slowest else 1.0} for g in groups]}
    ordered = heaviest_first(loaded, "en", report)
    assert group_id(group_pages(ordered, "en")[0]) == slowest
    assert sorted(p.page.path for p in ordered) == sorted(p.page.path for p in loaded)

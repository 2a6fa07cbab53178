"""Each page's last-changed date needs git history: outside a git checkout the dates plugin is
turned off before it reads any, so that a copy of the project still builds (and claims no date)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from jax_kb.site import git_dates

ROOT = Path(__file__).resolve().parents[1]


def _config(enabled: bool = True):
    plugin = SimpleNamespace(config={"enabled": enabled})
    return SimpleNamespace(plugins={git_dates.PLUGIN: plugin}), plugin


def test_the_project_is_a_git_checkout_and_a_plain_folder_is_not(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    assert git_dates.in_git_checkout(ROOT)
    assert not git_dates.in_git_checkout(tmp_path)


def test_outside_a_checkout_the_dates_plugin_is_turned_off(tmp_path):
    config, plugin = _config()
    assert git_dates.turn_off_outside_git(config, tmp_path)
    assert plugin.config["enabled"] is False


def test_in_a_checkout_the_dates_plugin_stays_on(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    config, plugin = _config()
    assert not git_dates.turn_off_outside_git(config, tmp_path)
    assert plugin.config["enabled"] is True


def test_without_git_on_the_machine_the_dates_are_off(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no git to be found
    assert not git_dates.in_git_checkout(ROOT)


def test_a_site_without_the_dates_plugin_is_left_as_it_is(tmp_path):
    assert not git_dates.turn_off_outside_git(SimpleNamespace(plugins={}), tmp_path)

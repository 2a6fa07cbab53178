"""Whether the pages' last-changed dates can be read: mkdocs-git-revision-date-localized-plugin
reads them from git, and a project that is no git checkout (a copy, a release archive) has none.

There the plugin would stop the build, or with `fallback_to_build_date` date every page the day
of the build, a change that did not happen; the site shows no date instead.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

PLUGIN = "git-revision-date-localized"


def in_git_checkout(folder: Path) -> bool:
    try:
        done = subprocess.run(["git", "-C", str(folder), "rev-parse", "--is-inside-work-tree"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):  # no git on this machine
        return False
    return done.returncode == 0 and done.stdout.strip() == "true"


def turn_off_outside_git(config, folder: Path) -> bool:
    """Turns the dates plugin off (before its own on_config) where `folder` has no git history;
    whether it did."""
    plugin = config.plugins.get(PLUGIN)
    if plugin is None or not plugin.config.get("enabled") or in_git_checkout(folder):
        return False
    plugin.config["enabled"] = False
    return True

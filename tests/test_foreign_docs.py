"""The engine on another project's docs: a plain mkdocs.yml (no i18n, no snippets) or none at all,
pages without front matter, the fence spellings other projects write, sessions, the pytest plugin
(off unless asked for) and the installed package."""
from __future__ import annotations

import html as htmllib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import markdown
import pytest
import yaml

from mkdocs.utils.yaml import yaml_load

from jax_kb.markdown import load_site_config, markdown_files, read_page
from jax_kb.snippets.blocks import page_blocks

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "foreign" / "plain"
# The checkout's tools, importable from a project elsewhere (as the installed package would be).
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300, env=env or ENV)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The fixture copied out of this repository, so that neither our mkdocs.yml nor our pytest
    settings are found above it."""
    target = tmp_path_factory.mktemp("foreign") / "plain"
    shutil.copytree(FIXTURE, target)
    return target


@pytest.fixture(scope="module")
def report(project) -> dict:
    done = run([sys.executable, "-m", "scripts.snippets", "-j", "2", "--json", "report.json"], project)
    assert done.returncode == 1, done.stdout + done.stderr  # one session is wrong on purpose
    return json.loads((project / "report.json").read_text())


def lines(report: dict, page: str) -> dict[int, dict]:
    return {b["line"]: b for b in report["blocks"] if b["file"] == f"docs/{page}"}


def block(report: dict, page: str, line: int) -> dict:
    return lines(report, page)[line]


@pytest.mark.parametrize("line", [5, 10, 14, 18, 22])
def test_every_spelling_the_site_shows_as_python_runs(report, line):
    assert block(report, "index.md", line)["status"] == "passed"


def test_language_then_braces_is_read_like_superfences(report):
    assert block(report, "index.md", 26)["status"] == "not_run"
    final = block(report, "index.md", 30)
    assert (final["status"], final["stdout"]) == ("passed", "5\n")


def test_other_tools_fences_are_left_alone(report):
    """```output, MyST cells and directives and Starlark are shown, not run, and spoil nothing."""
    assert sorted(lines(report, "index.md")) == [5, 10, 14, 18, 22, 26, 30]
    assert report["input_errors"] == []


def test_a_session_runs_as_the_interpreter_ran_it_skipping_what_doctest_skips(report):
    session = block(report, "guide/sessions.md", 3)
    assert session["status"] == "passed", session["error"]
    assert session["stdout"] == "2\nprinted\n42\n"


def test_a_python_fence_starting_with_a_prompt_is_a_session(report):
    assert block(report, "guide/sessions.md", 20)["stdout"] == "[1, 2, 3]\n(1, 3)\n"


def test_a_session_ending_in_a_traceback_expects_that_exception(report):
    assert block(report, "guide/sessions.md", 30)["status"] == "passed"


def test_a_wrong_session_output_fails_at_its_line(report):
    wrong = block(report, "guide/sessions.md", 39)
    assert wrong["status"] == "failed" and wrong["error"]["type"] == "OutputMismatch"
    assert "expected '7', got '6'" in wrong["error"]["message"]


def test_fences_hidden_from_readers_do_not_run_and_nested_ones_do(report):
    hidden = sorted((line, b["stdout"]) for line, b in lines(report, "guide/hidden.md").items())
    assert hidden == [(17, "inside an admonition: shown and run\n"), (23, "inside a list item: shown and run\n"),
                      (30, "inside a definition: shown and run\n"), (38, "inside a footnote: shown and run\n")]


def test_hidden_fences_are_lint_errors_at_their_line(project):
    done = run([sys.executable, "-m", "scripts.lint", "docs/guide/hidden.md"], project)
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert any(e.startswith("error: docs/guide/hidden.md:4: ") and "inside an HTML comment" in e for e in errors)
    assert any(e.startswith("error: docs/guide/hidden.md:11: ") and "literal code block" in e for e in errors)


def test_no_mkdocs_yml_reads_the_folder_given(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("# A\n\n```python\nprint('a')\n```\n\n--8<-- \"x.py\"\n")
    (tmp_path / "notes" / "a.de.md").write_text("# A\n\n```python\nprint('de')\n```\n")
    done = run([sys.executable, "-m", "scripts.snippets", "notes"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "notes/a.md: 1 passed" in done.stdout and "notes/a.de.md: 1 passed" in done.stdout


def test_a_missing_path_is_one_line_and_the_rest_runs(project):
    done = run([sys.executable, "-m", "scripts.snippets", "docs/no-such.md", "docs/guide/hidden.md"], project)
    assert done.returncode == 2
    assert "error: docs/no-such.md: no such file or folder" in done.stderr.splitlines()
    assert "docs/guide/hidden.md: 4 passed" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("config, message", [
    ("plugins:\n  - i18n:\n      languages:\n        - locale: en\n          default: true\n",
     "mkdocs.yml:4: i18n language 'en' has no name:"),
    ("site_name: x\nextra: !!python/object/apply:os.system ['touch constructed']\n",
     "mkdocs.yml:2: not usable YAML: could not determine a constructor for the tag"),
    ("site_name: [unclosed\n", "mkdocs.yml:2: not usable YAML"),
    ("site_name: x\n\nextra:\n  a: !!python/object/new:os.system ['touch constructed']\n",
     "mkdocs.yml:4: not usable YAML: could not determine a constructor for the tag"),
    ("site_name: x\nextra: !!python/module:constructing\n",
     "mkdocs.yml:2: not usable YAML: could not determine a constructor for the tag"),
])
def test_an_unusable_mkdocs_yml_is_exit_2_naming_it(tmp_path, config, message):
    (tmp_path / "mkdocs.yml").write_text(config)
    (tmp_path / "constructing.py").write_text("open('constructed', 'w').close()\n")  # importing it shows
    (tmp_path / "docs").mkdir()
    for tool in (["scripts.snippets"], ["scripts.lint"], ["scripts.i18n", "check"]):
        done = run([sys.executable, "-m", *tool], tmp_path)
        assert done.returncode == 2, (tool, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr, (tool, done.stderr)
        assert not (tmp_path / "constructed").exists()  # reading settings never runs what they name


def test_python_names_in_mkdocs_yml_are_read_never_imported(tmp_path):
    """A !!python/name: (Material's emoji functions, a custom fence's formatter) is a name to the tools."""
    (tmp_path / "mkdocs.yml").write_text("markdown_extensions:\n  - pymdownx.emoji:\n"
                                         "      emoji_index: !!python/name:no_such_module.index\n"
                                         "      emoji_generator: !!python/name:importing.generator\n")
    (tmp_path / "importing.py").write_text("open('imported', 'w').close()\ngenerator = None\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n```python\nprint(1)\n```\n")
    for tool in (["scripts.snippets"], ["scripts.lint"]):
        done = run([sys.executable, "-m", *tool], tmp_path)
        assert done.returncode == 0, (tool, done.stderr)
    assert not (tmp_path / "imported").exists()  # a module beside mkdocs.yml, importable, is not imported


def pytest_in(project: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], project, env)


def test_the_pytest_plugin_collects_nothing_unless_asked(project):
    done = pytest_in(project, "-p", "jax_kb.snippets.pytest_plugin", "docs", "-q")
    assert done.returncode == pytest.ExitCode.NO_TESTS_COLLECTED, done.stdout


def test_the_pytest_plugin_on_by_its_flag(project):
    done = pytest_in(project, "-p", "jax_kb.snippets.pytest_plugin", "--snippets", "docs", "-q")
    assert "1 failed, 14 passed" in done.stdout, done.stdout


def test_the_pytest_plugin_on_by_its_ini_option(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "p")
    (tmp_path / "p" / "pytest.ini").write_text("[pytest]\nsnippets = true\n")  # the plugin is installed
    done = pytest_in(tmp_path / "p", "docs/index.md", "-q")
    assert "7 passed" in done.stdout, done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The package built and installed offline into a folder of its own: no network, no build isolation."""
    work = tmp_path_factory.mktemp("install")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    built = run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(work), str(ROOT)],
                work, os.environ.copy())
    assert built.returncode == 0, built.stderr
    wheel = next(work.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "jax_kb/templates/term.md" in names and "jax_kb/ui_strings.yml" in names
    assert not [n for n in names if n.split("/")[0] not in ("jax_kb", wheel.name.split("-")[0] + "-0.2.0.dist-info")]
    done = run([*pip, "install", "--no-deps", "--no-index", "--target", str(work / "site"), str(wheel)],
               work, os.environ.copy())
    assert done.returncode == 0, done.stderr
    return work / "site"


def test_installed_package_gives_the_snippets_command(installed, project):
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = run([sys.executable, str(installed / "bin" / "snippets"), "docs/guide/hidden.md"], project, env)
    assert done.returncode == 0, done.stderr
    assert "docs/guide/hidden.md: 4 passed" in done.stdout


def test_installed_pytest_plugin_loads_by_entry_point_and_stays_off(installed, project):
    env = {**os.environ, "PYTHONPATH": str(installed)}
    off = pytest_in(project, "docs", "-q", env=env)
    assert off.returncode == pytest.ExitCode.NO_TESTS_COLLECTED, off.stdout
    on = pytest_in(project, "--snippets", "docs/guide/hidden.md", "-q", env=env)
    assert "4 passed" in on.stdout, on.stdout


PYTHON_CLASSES = ("python", "py", "python3", "py3", "pycon")


def rendered_python_code(text: str, extensions: list, configs: dict | None = None) -> list[str]:
    """The code of every block that Python-Markdown, with the site's extensions, shows readers as Python."""
    configs = dict(configs or {})
    configs["pymdownx.highlight"] = {**configs.get("pymdownx.highlight", {}), "pygments_lang_class": True}
    html = markdown.markdown(text, extensions=extensions, extension_configs=configs)
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)  # in the page source, not shown
    found = []
    for match in re.finditer(r'<div class="language-(?P<lang>\S+)[^"]*highlight">.*?<code>(?P<code>.*?)</code>', html,
                             re.S):
        if match["lang"].lower() in PYTHON_CLASSES:
            found.append(htmllib.unescape(re.sub(r"<[^>]+>", "", match["code"])).strip())
    return found


@pytest.mark.parametrize("page", ["index.md", "guide/sessions.md", "guide/hidden.md"])
def test_the_engine_runs_exactly_what_the_site_shows_as_python(page):
    """The reader's model of fences (comments, indented code, containers, spellings) against a real render."""
    config = load_site_config(FIXTURE / "mkdocs.yml")
    extensions = yaml.safe_load((FIXTURE / "mkdocs.yml").read_text())["markdown_extensions"]
    blocks = page_blocks(read_page(FIXTURE / "docs" / page, config))
    assert [b.fence.code.strip() for b in blocks] == rendered_python_code((FIXTURE / "docs" / page).read_text(),
                                                                          extensions)


def test_every_page_of_docs_runs_exactly_what_the_site_shows_as_python():
    """The same on this site's own pages, includes expanded, with the extensions of its mkdocs.yml."""
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as f:
        settings = yaml_load(f)
    extensions, configs = [], {}
    for entry in settings["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        extensions.append(name)
        configs[name] = options or {}
    config = load_site_config(ROOT / "mkdocs.yml")
    configs["pymdownx.snippets"] = config.snippets  # its base path made absolute
    differing = []
    for path in markdown_files([config.docs_dir]):
        page = read_page(path, config)
        body = re.sub(r"\A---\n.*?\n---\n", "", page.text, flags=re.S)  # front matter is not Markdown
        if [b.fence.code.strip() for b in page_blocks(page)] != rendered_python_code(body, extensions, configs):
            differing.append(page.path)
    assert differing == []


def test_pytest_collects_any_markdown_path_given(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "p")
    (tmp_path / "p" / "README.md").write_text("# Readme\n\n```python\nprint('from the readme')\n```\n")
    done = pytest_in(tmp_path / "p", "-p", "jax_kb.snippets.pytest_plugin", "--snippets", "README.md", "-q")
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout


def test_pytest_leaves_out_what_the_settings_exclude_unless_named(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "p")
    (tmp_path / "p" / "pyproject.toml").write_text('[tool.jax-kb]\nexclude = ["docs/guide"]\n')
    plugin = ("-p", "jax_kb.snippets.pytest_plugin", "--snippets", "--collect-only", "-q")
    everything = pytest_in(tmp_path / "p", *plugin, "docs").stdout
    assert "docs/index.md::line5" in everything and "docs/guide/" not in everything
    assert "docs/guide/hidden.md::line17" in pytest_in(tmp_path / "p", *plugin, "docs/guide").stdout


def test_a_conftests_own_device_option_does_not_clash_with_the_plugin(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "p")
    (tmp_path / "p" / "conftest.py").write_text(
        "def pytest_addoption(parser):\n    parser.addoption('--device', default='tpu')\n")
    (tmp_path / "p" / "test_x.py").write_text("def test_device(request):\n"
                                              "    assert request.config.getoption('device') == 'tpu'\n")
    done = pytest_in(tmp_path / "p", "-p", "jax_kb.snippets.pytest_plugin", "test_x.py", "-q")
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


def test_pytest_and_the_command_line_run_with_the_same_limits(project, tmp_path):
    """One RunOptions for every front end: the report's protections are the same."""
    cli_report, pytest_report = tmp_path / "cli.json", tmp_path / "pytest.json"
    run([sys.executable, "-m", "scripts.snippets", "docs/guide/hidden.md", "--json", str(cli_report)], project)
    pytest_in(project, "-p", "jax_kb.snippets.pytest_plugin", "--snippets", "docs/guide/hidden.md",
              "--snippets-json", str(pytest_report), "-q")
    cli, under_pytest = json.loads(cli_report.read_text()), json.loads(pytest_report.read_text())
    assert cli["protections"] == under_pytest["protections"]
    assert "GiB per page" in cli["protections"]["memory_limit"]
    assert [b["status"] for b in cli["blocks"]] == [b["status"] for b in under_pytest["blocks"]]

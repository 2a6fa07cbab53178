"""python -m scripts.scaffold term NAME | guide NAME | lang CODE [--name NAME]

A new term or guide with its complete front matter and section skeleton, whose examples pass
as written; or a new language, in mkdocs.yml and the UI strings (ui_strings.yml), so that the site
builds with it at once (its pages fall back to English until translated). Every function takes
the project root, so that it can work on a copy.
"""
from __future__ import annotations

import argparse
import json
import re
import string
import sys
from pathlib import Path

import material
import yaml

from jax_kb.atomic_write import write_atomic
from jax_kb.markdown import InputError, load_site_config
from jax_kb.markdown.site_config import find_config_file

TEMPLATES = Path(__file__).with_name("templates")
# The site's interface strings, where this repository keeps them (catalog.UI_STRINGS).
UI_STRINGS = Path("scripts/src/jax_kb/ui_strings.yml")
SECTIONS = {"term": "glossary", "guide": "guides"}
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MATERIAL_LANGUAGES = Path(material.__file__).parent / "templates" / "partials" / "languages"


class Refused(Exception):
    """What the user asked for cannot be done as asked; the message says why and what to do."""


def new_page(root: Path, kind: str, name: str) -> Path:
    """Writes docs/glossary/NAME.md (a term) or docs/guides/NAME.md (a guide); returns its path."""
    if not SLUG.match(name):
        raise Refused(f"{name!r} is not a slug: use lower-case letters, digits and hyphens, such as custom-vjp")
    docs = load_site_config(root / "mkdocs.yml").docs_dir
    # Slugs are unique across the glossary and the guides: related: and links name pages by slug.
    taken = sorted(p for p in docs.rglob(f"{name}.md"))
    if taken:
        raise Refused(f"{taken[0].relative_to(root)} already exists: choose another name (slugs are unique "
                      "across the glossary and the guides), or edit that page")
    title = name if kind == "term" else name.replace("-", " ").capitalize()
    text = string.Template((TEMPLATES / f"{kind}.md").read_text(encoding="utf-8")).substitute(title=title, slug=name)
    path = docs / SECTIONS[kind] / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text)
    return path


def _yaml_scalar(text: str) -> str:
    """The text as a YAML value, quoted only where YAML would read it as something else."""
    try:
        plain = yaml.safe_load(f"k: {text}") == {"k": text}
    except yaml.YAMLError:
        plain = False
    return text if plain else json.dumps(text, ensure_ascii=False)


def _last_line(node: yaml.Node) -> int:
    """The 0-based line of a node's last character."""
    if isinstance(node, yaml.MappingNode) and node.value and not node.flow_style:
        return _last_line(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and node.value and not node.flow_style:
        return _last_line(node.value[-1])
    end = node.end_mark
    return end.line - 1 if end.column == 0 else end.line  # a block scalar ends at the start of the next line


def _value(mapping: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(mapping, yaml.MappingNode):
        return next((v for k, v in mapping.value if k.value == key), None)
    return None


def _languages_node(text: str) -> yaml.SequenceNode:
    """plugins: - i18n: languages: in mkdocs.yml, read as nodes (with their lines) without building
    the values, so the !!python/name tags need no import."""
    plugins = _value(yaml.compose(text, Loader=yaml.SafeLoader), "plugins")
    for plugin in plugins.value if isinstance(plugins, yaml.SequenceNode) else []:
        languages = _value(_value(plugin, "i18n"), "languages")
        if isinstance(languages, yaml.SequenceNode) and languages.value and not languages.flow_style:
            return languages
    raise Refused("mkdocs.yml has no block list 'languages:' under the i18n plugin to add the language to")


def _add_to_mkdocs(config_file: Path, code: str, name: str) -> str:
    """Inserts one entry after the last language, as text: every other line (comments, the
    !!python/name tags) stays as it was. Returns the default language."""
    text = config_file.read_bytes().decode("utf-8")
    languages = _languages_node(text)
    locales = {_value(entry, "locale").value: entry for entry in languages.value if _value(entry, "locale")}
    if code in locales:
        raise Refused(f"mkdocs.yml already has the language {code!r}")
    default = next((locale for locale, entry in locales.items()
                    if getattr(_value(entry, "default"), "value", "").lower() == "true"), next(iter(locales)))
    lines = text.splitlines(keepends=True)
    first = languages.value[0]
    indent = " " * first.start_mark.column
    dash = lines[first.start_mark.line][:first.start_mark.column]  # "        - ", as the entries write it
    newline = lines[0][len(lines[0].rstrip("\r\n")):] or "\n"
    entry = [f"{dash}locale: {_yaml_scalar(code)}", f"{indent}name: {_yaml_scalar(name)}", f"{indent}build: true"]
    after = _last_line(languages.value[-1]) + 1
    if not lines[after - 1].endswith(("\n", "\r")):
        lines[after - 1] += newline
    lines[after:after] = [line + newline for line in entry]
    write_atomic(config_file, "".join(lines))
    return default


def _add_ui_strings(strings_file: Path, code: str, name: str, default: str) -> None:
    """Appends a copy of the default language's strings, to be translated; the rest is kept."""
    text = strings_file.read_text(encoding="utf-8")
    strings = yaml.safe_load(text) or {}
    if code in strings:
        return
    block = yaml.safe_dump({code: strings[default]}, allow_unicode=True, sort_keys=False, default_flow_style=False)
    separator = "" if not text or text.endswith("\n") else "\n"
    write_atomic(strings_file, f"{text}{separator}# {name}: copied from {default}, to be translated\n{block}")


def add_language(root: Path, code: str, name: str | None = None) -> list[Path]:
    """Adds the language to mkdocs.yml and the UI strings; returns the files changed."""
    if not (MATERIAL_LANGUAGES / f"{code}.html").is_file():
        known = sorted(p.stem for p in MATERIAL_LANGUAGES.glob("*.html"))
        raise Refused(f"Material for MkDocs has no interface strings for {code!r}, so the site could not be built "
                      f"with it: use one of its language codes: {', '.join(known)}")
    config_file, strings_file = root / "mkdocs.yml", root / UI_STRINGS
    default = _add_to_mkdocs(config_file, code, name or code)
    _add_ui_strings(strings_file, code, name or code, default)
    return [config_file, strings_file]


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m scripts.scaffold", description="Scaffold a page or a language.")
    commands = parser.add_subparsers(dest="command", required=True)
    for kind in SECTIONS:
        commands.add_parser(kind, help=f"a new {kind} page").add_argument("name", help="its slug, such as scan")
    lang = commands.add_parser("lang", help="a new language of the site")
    lang.add_argument("code", help="its code, such as de")
    lang.add_argument("--name", help="its name in that language, such as Deutsch (default: the code)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, root: Path | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    config_file = find_config_file()
    root = root or (config_file.parent if config_file else Path.cwd())
    try:
        if args.command == "lang":
            changed = add_language(root, args.code, args.name)
            print(f"added the language {args.code!r} to {', '.join(str(p.relative_to(root)) for p in changed)}; "
                  f"its pages fall back to English until translated (name.{args.code}.md beside name.md), "
                  f"and its strings in {UI_STRINGS} are English until translated")
        else:
            path = new_page(root, args.command, args.name).relative_to(root)
            print(f"wrote {path}: replace the placeholder text and examples, then run make check PAGE={path}")
    except (Refused, InputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

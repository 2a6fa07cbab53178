"""python -m scripts.lint on the fixtures of tests/fixtures/lint/: each check fails its fixture
at the exact line, and clean.md (look-alikes in code, in inline code, done right) passes."""
from __future__ import annotations

from pathlib import Path

import pytest

from jax_kb.lint import lint_files
from jax_kb.lint.__main__ import main
from jax_kb.markdown import load_site_config

FIXTURES = Path(__file__).parent / "fixtures" / "lint"
PREFIX = "tests/fixtures/lint/"
LANGUAGES = "text, bash, console, shell, yaml, toml, json, markdown, md, ini, diff, output, python, py, pycon, " \
            "html, css, js, javascript"
KEYS = "title, summary, kind, tags, related, aliases, translation_of"
EMBED = "tag: pages may not run or embed other documents; link to the content instead"
NO_ID = ("has no id of its own, so its id would come from its text and differ between languages: add { #id } at "
         "its end, the same id in every language")


@pytest.fixture(scope="module")
def linted():
    problems, unreadable = lint_files([FIXTURES], load_site_config())
    by_file: dict[str, list[tuple[int, str]]] = {}
    for p in problems:
        by_file.setdefault(p.path.removeprefix(PREFIX), []).append((p.line, p.message))
    return by_file, [(p.path.removeprefix(PREFIX), p.line, p.message) for p in unreadable]


def test_raw_tags(linted):
    assert linted[0]["raw-tags.md"] == [(9, f"raw <script> {EMBED}"), (11, f"raw <iframe> {EMBED}"),
                                        (13, f"raw <object> {EMBED}"), (15, f"raw <embed> {EMBED}")]


def test_event_attributes_in_html_and_attribute_lists(linted):
    assert linted[0]["event-attributes.md"] == [(9, "event attribute onerror= runs JavaScript: remove it"),
                                                (12, "event attribute onClick= runs JavaScript: remove it"),
                                                (14, "event attribute onmouseover= runs JavaScript: remove it")]


def test_javascript_urls(linted):
    assert linted[0]["javascript-url.md"] == [
        (9, "javascript: URL 'javascript:alert(1': links may not run code"),
        (11, "javascript: URL 'JavaScript:alert(2)': links may not run code"),
        (13, "javascript: URL 'java\\tscript:alert(3)': links may not run code"),
        (15, "javascript: URL 'javascript:alert(4)': links may not run code"),
    ]


def test_data_urls(linted):
    fix = "put the file in docs/ and link to it by its path"
    assert linted[0]["data-url.md"] == [(9, f"data: URL 'data:image/png;base64,iVBORw0KGgo=': {fix}"),
                                        (11, f"data: URL 'data:text/html,<b>hi</b>': {fix}")]


def test_images_without_alt_text(linted):
    assert linted[0]["no-alt.md"] == [
        (9, "image 'plot.png' has no alt text: say what it shows, as in ![a plot of the loss](plot.png)"),
        (11, "image 'loss.png' has no alt text: say what it shows, as in ![a plot of the loss](loss.png)"),
        (13, '<img> without alt text: add alt="what it shows"'),
        (15, '<img> without alt text: add alt="what it shows"'),
    ]


def test_plain_http_links(linted):
    assert linted[0]["http-link.md"] == [(line, f"plain http:// link 'http://example.com/{name}': use https://")
                                         for line, name in [(9, "jax"), (11, "autolink"), (13, "html"),
                                                            (15, "reference")]]


def test_fence_languages(linted):
    assert linted[0]["fence-language.md"] == [
        (9, f"unknown fence language 'pyhton': use one of {LANGUAGES}"),
        (13, "code fence without a language: name one, such as ```text (Python blocks: ```python)"),
        (17, f"unknown fence language 'rust': use one of {LANGUAGES}"),
    ]


def test_fence_options_of_other_languages(linted):
    assert linted[0]["fence-options.md"] == [
        (9, "unknown fence option '.no-run' on a bash block: it takes only title=, linenums=, hl_lines="),
        (13, "unknown fence option 'rtol' on a text block: it takes only title=, linenums=, hl_lines="),
    ]


def test_every_bad_python_and_output_fence_of_a_page(linted):
    assert linted[0]["python-options.md"] == [
        (9, "unknown fence option 'norun': Python blocks take .no-run, .gpu, .cpu, raises=\"Error\", "
            "timeout=\"seconds\""),
        (13, "fence options 'python raises=\"ValueError\"' must go inside braces, as in "
             "```{.python raises=\"ValueError\"}: without them the site drops the block"),
        (21, "rtol='fast' must be a positive number"),
        (25, "an .output block must come right after the Python block whose output it is"),
        (29, "a block cannot be both .gpu and .cpu"),  # once, though its .output block is checked with it
    ]


def test_fences_in_blockquotes_are_checked_and_their_code_is_not_prose(linted):
    assert linted[0]["blockquotes.md"] == [
        (9, "unknown fence option 'norun': Python blocks take .no-run, .gpu, .cpu, raises=\"Error\", "
            "timeout=\"seconds\""),
        (21, "code fence ```python is indented as a literal code block, so the site shows the fence markers as "
             "text and does not highlight it; indent it like the text around it; the snippet engine does not run it"),
    ]


def test_error_messages_in_text_blocks_that_nothing_checks(linted):
    how = ("make it an .output block (```{.text .output}) right after the raises= block, holding what the block "
           "printed and the exception's last traceback line, with ... where a part varies")
    assert linted[0]["unchecked-errors.md"] == [
        (13, f"this text block shows the error of the raises= block before it, and nothing checks it: {how}"),
        (19, f"this text block shows a traceback or an error line that nothing checks: run the code that raises it "
             f"and {how}"),
        (25, f"this text block shows a traceback or an error line that nothing checks: run the code that raises it "
             f"and {how}"),
    ]


def test_look_alikes_in_code_and_inline_code_pass(linted):
    assert "clean.md" not in linted[0]


def test_an_unreadable_page_hides_no_other(linted):
    assert linted[1] == [("unreadable/unclosed.md", 9, "code fence ``` opened here is never closed")]
    assert linted[0]["unreadable/also-bad.md"] == linted[0]["raw-tags.md"]


def test_exit_status(capsys):
    assert main([str(FIXTURES / "clean.md")]) == 0
    assert main([str(FIXTURES / "http-link.md"), str(FIXTURES / "clean.md")]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "error: tests/fixtures/lint/http-link.md:9: plain http:// link 'http://example.com/jax': use https://")
    assert main([str(FIXTURES)]) == 2
    err = capsys.readouterr().err
    assert "error: tests/fixtures/lint/unreadable/unclosed.md:9: code fence ``` opened here is never closed" in err
    assert "error: tests/fixtures/lint/raw-tags.md:9: raw <script> tag" in err
    assert main([str(FIXTURES / "nowhere")]) == 2


def test_tags_off_the_allowlist(linted):
    assert linted[0]["allowlist-tags.md"] == [
        (9, "raw <base> tag: it changes where every link of the page leads"),
        (11, "raw <meta> tag: it can reload the page elsewhere (http-equiv=refresh)"),
        (13, "raw <style> tag: it restyles the whole site and can load from other sites: use a class"),
        (15, "raw <link> tag: it loads styles or documents from other sites"),
        (17, "raw <form> tag: it sends what the reader types to another address"),
        (17, "raw <button> tag: it is not one of the tags a page may use (scripts/src/jax_kb/lint/allowlist.py)"),
        (19, "raw <svg> tag: SVG carries links and scripts of its own: save the drawing as a PNG and show it as an image"),
        (19, "attribute xlink:href= is not allowed on <a>"),
        (19, "raw <text> tag: it is not one of the tags a page may use (scripts/src/jax_kb/lint/allowlist.py)"),
        (21, "tag split by a comment or a '<' ('<scr<!-- split -->'): write the tag whole"),
    ]


def test_attributes_off_the_allowlist_at_their_own_line(linted):
    assert linted[0]["allowlist-attributes.md"] == [
        (9, "raw <button> tag: it is not one of the tags a page may use (scripts/src/jax_kb/lint/allowlist.py)"),
        (11, "attribute formaction= is not allowed on <a>"),
        (13, "style= can load from other sites and restyle the page: use a class"),
        (15, "tag split by a comment or a '<' ('<img src=\"plot.png\" alt=\"a plo'): write the tag whole"),
        (18, "event attribute ONLOAD= runs JavaScript: remove it"),
    ]


def test_url_schemes_are_read_after_character_references_are_decoded(linted):
    js = "links may not run code"
    other = "links may use only https:, mailto: or a path in the site"
    assert linted[0]["encoded-urls.md"] == [
        (9, f"javascript: URL 'javascript:alert(1)': {js}"),
        (11, f"javascript: URL 'javascript:alert(2)': {js}"),
        (13, f"javascript: URL 'javascript:alert(3)': {js}"),
        (15, f"javascript: URL 'javascript:alert(4)': {js}"),
        (17, f"vbscript: URL 'vbscript:msgbox(5)': {other}"),
        (19, f"javascript: URL 'jav&#x61;script:alert(6': {js}"),
        (21, f"javascript: URL 'javascript&colon;alert(7': {js}"),
        (23, f"vbscript: URL 'vbscript:msgbox(8': {other}"),
        (25, f"javascript: URL 'javascript://%0aalert(9)': {js}"),
        # line 27, "&amp;#106;avascript:", is decoded once, as a browser does: a path
        (29, "image '//evil.example/pixel.png' from another site: put the file in docs/ and link to it by its path"),
        (29, "image 'https://evil.example/pixel.png' from another site: put the file in docs/ and link to it by its "
             "path"),
    ]


def test_attribute_lists_are_held_to_the_allowlist(linted):
    assert linted[0]["attribute-lists.md"] == [
        (10, "event attribute onclick= runs JavaScript: remove it"),
        (12, "javascript: URL 'javascript:alert(2)': links may not run code"),
        (14, "style= can load from other sites and restyle the page: use a class"),
    ]


def test_abbreviation_definitions_are_plain_text(linted):
    plain = "its definition is a tooltip and must be plain text, without tags or character references"
    assert linted[0]["abbreviations.md"] == [(11, f"abbreviation 'JIT': {plain}"),
                                             (12, f"abbreviation 'XLA': {plain}")]


def test_comments_that_browsers_end_early_and_declarations(linted):
    early = "comment that browsers end early (<!-->, <!--->, --!>): write <!-- text -->"
    assert linted[0]["comments.md"] == [(9, early), (11, early), (13, early),
                                        (15, "raw <!DOCTYPE> declaration: pages may not have one")]


def test_front_matter_markup_at_the_field_line(linted):
    text = "the site shows it as text, so write plain text"
    assert linted[0]["front-matter.md"] == [
        (2, f"front matter 'title' has markup ('</title><scr'): {text}"),
        (3, f"front matter 'summary' has markup ('th a [link](javascript'): {text}"),
        (5, f"front matter 'tags' has markup ('<img src=x o'): {text}"),
        (6, f"front matter 'aliases' has markup ('&lt;b&gt;'): {text}"),
        (10, f"unknown front matter key 'template': pages may set only {KEYS}"),
    ]


def test_front_matter_of_another_type_or_outside_the_schema_at_its_line(linted):
    """A mapping, a set, !!binary, a date or a number would reach the templates as Python prints it."""
    assert linted[0]["front-matter-types.md"] == [
        (2, "front matter 'title' must be text, not binary data (!!binary): write it in quotes"),
        (3, "front matter 'summary' must be text, not a date: write it in quotes"),
        (4, "unknown kind 'recipe': use one of term, guide"),
        (5, "front matter 'tags' must be a list of text items, such as [a, b], not a set"),
        (6, "front matter 'related' must be a list of text items, such as [a, b], not a single text"),
        (7, "front matter 'aliases[2]' must be text, not a number: write it in quotes"),
        (8, "front matter 'translation_of' must be the hex digest that `python -m scripts.i18n mark` writes, "
            "not a number"),
        (9, f"unknown front matter key 'subtitle': pages may set only {KEYS}"),
        (10, f"unknown front matter key 'template': pages may set only {KEYS}"),
        (11, f"unknown front matter key '<img src=x onerror=alert(1)>': pages may set only {KEYS}"),
        (12, f"unknown front matter key 'hide': pages may set only {KEYS}"),
    ]


def test_ids_of_the_theme_and_the_site_are_refused_in_html_attribute_lists_and_headings(linted):
    taken = ("is one the theme or the site gives its own elements (Material's begin with __; related, start-here, "
             "letter-…): choose another")
    assert linted[0]["clobbering.md"] == [
        (9, f"id '__config' {taken}"),
        (11, f"id '__code_0' {taken}"),
        (14, f"id '__drawer' {taken}"),
        (16, f"id '__search' {taken}"),
        (18, f"heading '__toc' {NO_ID}"),
        (20, f"id 'related' {taken}"),
        (22, "attribute name= is not allowed on <a>"),
        (24, f"id 'letter-a' {taken}"),
        (28, f"id '__anything' {taken}"),
    ]


def test_every_heading_needs_an_id_of_its_own_in_markdown_and_in_raw_html(linted):
    assert linted[0]["heading-ids.md"] == [
        (9, f"heading 'Определение' {NO_ID}"),
        (11, f"heading 'Setext heading' {NO_ID}"),
        (14, f"heading 'In a blockquote' {NO_ID}"),
        (18, f"heading 'In a list item' {NO_ID}"),
        (20, "raw '<h2>' has no id=: give it one, the same in every language"),
    ]


def test_rel_opener_is_refused_in_html_and_attribute_lists(linted):
    message = ("rel=opener lets the linked page take over this tab (reverse tabnabbing): remove it; the site gives "
               'every link rel="noopener noreferrer"')
    assert linted[0]["rel-opener.md"] == [(9, message), (11, message)]


def test_trojan_source_bidirectional_controls_anywhere_and_names_that_mix_scripts_in_code(linted):
    bidi = ("bidirectional control character U+202E RIGHT-TO-LEFT OVERRIDE: it makes the text show in another "
            "order than it is read (Trojan Source); remove it")
    mixed = ("identifier 'сheck' mixes scripts (Cyrillic, Latin): it looks like a name it is not; write it in one "
             "script")
    assert linted[0]["trojan-source.md"] == [
        (9, bidi), (13, bidi), (18, mixed), (21, mixed), (24, mixed),
        (27, "invisible character U+200B ZERO WIDTH SPACE in code: it hides in a name or a string; remove it"),
    ]


def test_russian_prose_comments_and_strings_pass_and_only_a_mixed_name_in_code_is_named(linted):
    assert linted[0]["trojan-source.ru.md"] == [
        (20, "identifier 'tоtal' mixes scripts (Cyrillic, Latin): it looks like a name it is not; write it in one "
             "script")]


def test_files_in_docs_that_are_neither_pages_nor_images_are_refused():
    problems, _ = lint_files([FIXTURES / "files"], load_site_config())
    reason = ("in docs/ would be published as it is, to run or be shown with the site's authority: docs/ holds "
              "only pages and images (.png, .jpg, .jpeg, .gif, .webp, .avif)")
    assert sorted((p.path.removeprefix(PREFIX + "files/"), p.line, p.message) for p in problems) == [
        ("assets/CNAME", None, f"a file without an extension {reason}"),  # only the root's is GitHub Pages'
        ("assets/Module.MJS", None, f"a .MJS file {reason}"),
        ("assets/diagram.svg", None, f"a .svg file {reason}"),
        ("assets/evil.js", None, f"a .js file {reason}"),
        ("assets/loader", None, f"a file without an extension {reason}"),
        ("page.html", None, f"a .html file {reason}"),
    ]


def test_a_site_in_one_language_may_leave_heading_ids_to_the_text_but_not_the_themes(tmp_path):
    """Another project's docs, in one language: no id differs between languages, but `## __toc` still takes the
    theme's id."""
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n## Usage\n\n<h2>Raw</h2>\n\n## __toc\n")
    problems, unreadable = lint_files([tmp_path / "docs"], load_site_config(tmp_path / "mkdocs.yml"))
    assert unreadable == []
    assert [(p.line, p.message) for p in problems] == [
        (7, "heading '__toc' gets the id '__toc' from its text, one the theme or the site gives its own elements: "
            "give it another with { #id }")]

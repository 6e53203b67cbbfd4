"""mkdocs.yml read as data (core/siteconfig.py), for the hosts that read it themselves (``digest check``
and the other commands, the Markdown extension under Zensical): a maintainer's settings under the
digest plugin reach every host, a file MkDocs reads is read here too (Material's tags, ``!ENV``), and
a bad rule is an error that names the rule and what it must be.  The command's own handling of a
broken file (exit 2, no traceback) is in test_cli.py; the extension's (defaults and a warning) in
test_zensical_build.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError
from ruamel.yaml.error import YAMLError

from digest_plugin.core import siteconfig
from digest_plugin.core.model import Rules


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mkdocs.yml"
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the file as MkDocs reads it


def test_without_a_config_file_there_are_no_settings_and_the_team_defaults_apply(tmp_path):
    assert siteconfig.settings(None) == {}
    assert siteconfig.settings(tmp_path / "mkdocs.yml") == {}
    assert siteconfig.rules(tmp_path / "mkdocs.yml") == Rules()
    assert siteconfig.digest_option({}, "data_dir", "data") == "data"


def test_materials_python_tags_load_as_nothing_and_run_nothing(tmp_path):
    """Material's documentation has sites write ``!!python/name:…`` tags (emoji, custom fences); the
    file still reads, the tagged values as None, and a tag that would run code runs nothing."""
    ran = tmp_path / "ran"
    path = config(
        tmp_path,
        "site_name: 推理活文档\n"
        "markdown_extensions:\n"
        "  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n"
        f"hook: !!python/object/apply:pathlib.Path.touch [{str(ran)!r}]\n"
        "plugins:\n"
        "  - digest:\n"
        "      data_dir: briefs-data\n",
    )
    found = siteconfig.settings(path)
    assert found["site_name"] == "推理活文档"
    assert found["markdown_extensions"] == [{"pymdownx.emoji": {"emoji_index": None, "emoji_generator": None}}]
    assert found["hook"] is None and not ran.exists()
    assert siteconfig.digest_option(found, "data_dir", "data") == "briefs-data"


@pytest.mark.parametrize(
    ("written", "environment", "value"),
    [
        ('!ENV [DIGEST_SITE_URL, "http://127.0.0.1:8000/"]', {}, "http://127.0.0.1:8000/"),  # the shipped line
        ('!ENV [DIGEST_SITE_URL, "http://127.0.0.1:8000/"]', {"DIGEST_SITE_URL": "https://docs.example.org/"}, "https://docs.example.org/"),
        ('!ENV [FIRST_URL, SECOND_URL, "http://fallback/"]', {"SECOND_URL": "https://second/"}, "https://second/"),
        ('!ENV [FIRST_URL, SECOND_URL, "http://fallback/"]', {"FIRST_URL": "https://first/", "SECOND_URL": "https://second/"}, "https://first/"),
        ("!ENV DIGEST_SITE_URL", {"DIGEST_SITE_URL": "https://docs.example.org/"}, "https://docs.example.org/"),
        ("!ENV DIGEST_SITE_URL", {}, None),
    ],
    ids=["default", "set", "second-set", "first-wins", "scalar-set", "scalar-unset"],
)  # fmt: skip
def test_env_tags_take_the_first_variable_set_else_the_default(tmp_path, monkeypatch, written, environment, value):
    """``site_url: !ENV [DIGEST_SITE_URL, …]`` (README: "or DIGEST_SITE_URL where the site is built"):
    the feed's and the pages' links are made from the address MkDocs would use."""
    for name in ("DIGEST_SITE_URL", "FIRST_URL", "SECOND_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, set_to in environment.items():
        monkeypatch.setenv(name, set_to)
    assert siteconfig.settings(config(tmp_path, f"site_url: {written}\n"))["site_url"] == value


def test_the_shipped_mkdocs_yml_reads(monkeypatch):
    """The project's own file: its site address (``!ENV``), and the digest plugin's data folder and
    search, as written there."""
    monkeypatch.delenv("DIGEST_SITE_URL", raising=False)
    shipped = Path(__file__).resolve().parents[1] / "mkdocs.yml"
    text = shipped.read_text(encoding="utf-8")
    found = siteconfig.settings(shipped)
    (default_url,) = re.findall(r'^site_url: !ENV \[DIGEST_SITE_URL, "([^"]+)"\]$', text, re.M)
    assert found["site_url"] == default_url
    digest_block = text[text.index("  - digest:") :].split("\n  - ", 2)[0]
    (data_dir,) = re.findall(r"^      data_dir: (\S+)", digest_block, re.M)
    (search,) = re.findall(r"^      search: (\S+)", digest_block, re.M)
    assert siteconfig.digest_option(found, "data_dir", None) == data_dir
    assert siteconfig.digest_option(found, "search", None) == search


# --------------------------------------------------------------------------- the digest plugin's options


def test_an_option_is_read_from_the_digest_entry_among_the_other_plugins():
    found = {
        "plugins": [
            "search",
            {"macros": {"data_dir": "macros-data", "rules": {"archive_after_days": 1}}},
            {"digest": {"data_dir": "briefs-data", "search": "pagefind"}},
            "tags",
        ]
    }
    assert siteconfig.digest_option(found, "data_dir", "data") == "briefs-data"
    assert siteconfig.digest_option(found, "search", "material") == "pagefind"
    assert siteconfig.digest_option(found, "custom_templates", None) is None  # not set: the default


@pytest.mark.parametrize(
    "plugins",
    ["plugins:\n  - search\n  - digest\n", "plugins:\n  - digest:\n", "plugins: []\n", "site_name: x\n"],
    ids=["bare-name", "no-options", "no-plugins", "no-plugins-key"],
)
def test_a_digest_plugin_without_options_takes_the_defaults(tmp_path, plugins):
    found = siteconfig.settings(config(tmp_path, plugins))
    assert siteconfig.digest_option(found, "data_dir", "data") == "data"
    assert siteconfig.rules(tmp_path / "mkdocs.yml") == Rules()


def test_rules_set_under_the_digest_plugin_apply_and_the_others_keep_the_team_defaults(tmp_path):
    path = config(
        tmp_path,
        "plugins:\n"
        "  - other:\n"
        "      rules: {archive_after_days: 0}\n"  # another plugin's option of the same name is not read
        "  - digest:\n"
        "      rules:\n"
        "        archive_after_days: 7\n"
        "        gain_totals: {weekly-downloads: downloads}\n",
    )
    rules = siteconfig.rules(path)
    assert rules.archive_after_days == 7
    assert rules.gain_totals == {"weekly-downloads": "downloads"}
    defaults = Rules()
    assert rules.model_dump(exclude={"archive_after_days", "gain_totals"}) == defaults.model_dump(
        exclude={"archive_after_days", "gain_totals"}
    )


def test_rules_written_in_the_mapping_form_of_plugins_apply_too(tmp_path):
    """``plugins: {search: {}, digest: {rules: …}}`` is a form MkDocs accepts (config_options.Plugins:
    "A list or dict of plugins"): the same settings must reach every host."""
    path = config(
        tmp_path, "plugins:\n  search: {}\n  digest:\n    data_dir: briefs-data\n    rules: {archive_after_days: 7}\n"
    )
    assert siteconfig.digest_option(siteconfig.settings(path), "data_dir", "data") == "briefs-data"
    assert siteconfig.rules(path).archive_after_days == 7


# --------------------------------------------------------------------------- a bad rule, named with its fix


@pytest.mark.parametrize(
    ("written", "says"),
    [
        ("archive_after_days: 0", r"archive_after_days\b.*\n.*greater than or equal to 1"),
        ("archive_after_days: soon", r"archive_after_days\b.*\n.*valid integer"),
        ("citation_count_factor: 1", r"citation_count_factor\b.*\n.*greater than 1"),
        ("no_conclusion_levels: lead", r"no_conclusion_levels\b.*\n.*valid list"),
        ("gain_totals: [weekly-gain]", r"gain_totals\b.*\n.*valid dictionary"),
        ("hide_discarded: sometimes", r"hide_discarded\b.*\n.*valid boolean"),
        ("archive_after_day: 7", r"archive_after_day\b.*\n.*Extra inputs are not permitted"),
    ],
    ids=["too-small", "not-a-number", "factor-too-small", "not-a-list", "not-a-mapping", "not-a-boolean", "misspelled"],
)
def test_a_bad_rule_is_an_error_naming_the_rule_and_what_it_must_be(tmp_path, written, says):
    """A maintainer's mistake in ``rules:`` stops the reading (never the defaults in silence): the
    error names the rule as written and what its value must be."""
    path = config(tmp_path, f"plugins:\n  - digest:\n      rules:\n        {written}\n")
    with pytest.raises(ValidationError) as raised:
        siteconfig.rules(path)
    assert re.search(says, str(raised.value)), str(raised.value)


def test_yaml_that_does_not_parse_is_an_error_pointing_at_its_line(tmp_path):
    path = config(tmp_path, "site_name: x\nplugins:\n  - digest:\n      rules: {archive_after_days: 7\n")
    with pytest.raises(YAMLError, match=r"line 4\b"):
        siteconfig.settings(path)


@pytest.mark.parametrize(
    ("written", "names"),
    [("plugins:\n  - digest:\n      rules: 5\n", "rules"), ("plugins:\n  - digest: [data]\n", "digest")],
    ids=["rules-not-a-mapping", "options-not-a-mapping"],
)
def test_options_that_are_not_a_mapping_are_an_error_naming_the_option(tmp_path, written, names):
    """The message names the option and shows the form that works (what `digest check` prints)."""
    with pytest.raises(ValueError, match=rf"\b{names}\b.*must be a mapping.*`"):
        siteconfig.rules(config(tmp_path, written))

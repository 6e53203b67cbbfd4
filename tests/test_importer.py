"""`digest import`: the Markdown brief of 2026-10-21 reproduces the curated YAML, field by field.

What the text cannot give is listed in EXEMPT, each with its reason; everything else is compared.
The variants below are built from the seed text here, so each shows exactly what a person
changed: punctuation width, numbering gaps, a missing part, blank lines, bullets one per line.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import shutil
from pathlib import Path

import pytest
from helpers import copy_project, run_cli
from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from digest_plugin.authoring.importer import MARK, SCHEMA_LINE, ImportNote, import_brief
from digest_plugin.core.load import load_file, read_yaml
from digest_plugin.core.model import Brief, Outline
from digest_plugin.core.pipeline import analyse

ROOT = Path(__file__).resolve().parents[1]
SEED = (Path(__file__).parent / "fixtures" / "2026-10-21-inference-E1.md").read_text(encoding="utf-8")
CURATED_PATH = ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml"

EXEMPT = {
    "items[].id": "the editor's name for an item (llm-d-1-0); the text only numbers it, so the importer derives "
    "2026-10-21-e1-item-N; references to it (touches, cross_refs, follow-up items) are still "
    "compared, through the map from curated id to derived id by number",
    "contradictions[].id": "the editor's name (kapitsa-weekly-gain); derived as 2026-10-21-e1-cN, references "
    "(down_weighted_by) compared through the same map",
    "follow_ups[].id": "the editor's name (vllm-long-prefill-issue); derived as 2026-10-21-e1-fN",
}
NORMALISED = {
    "items[].guards": "the curated file ends item 3's guard without the 。 that the Markdown has, and keeps it on "
    "the guards of items 2, 4, 5, 6 and 7; guards are compared without a final 。",
}
SEED_WARNINGS = [
    "条目 6: level read as «部分核查» from «核实目录» (levels_from_boundary in the vocabulary file); check",
    "矛盾 1: touches items matched by shared names (条目 5 by experimental, kapitsa, stars); check",
    "矛盾 2: touches items matched by shared names (条目 3 by 0.23.0, load-format, modelexpress); check",
    "矛盾 3: touches items matched by shared names (条目 4 by lfm2.5-24b-a2b); check",
    "矛盾 3: touches entries matched by shared names (lfm2-5-dev-benchmark by lfm2.5-24b-a2b); check",
    "矛盾 4: touches items matched by shared names (条目 4 by 2.4s, issue, prefill); check",
    "矛盾 5: touches items matched by shared names (条目 6 by agent, airbnb, recsys, skill, vol.178); check",
    "citation 1605.08803: year 2016 read from 矛盾 11; check",
    "citation 1605.08803: card topic llm-infra read from 矛盾 11; check",
    "follow-up 1: items matched by shared names (条目 4 by issue, prefill); check",
    "follow-up 2: items matched by shared names (条目 6 by recsys, vol.178); check",
    "follow-up 3: items matched by shared names (条目 3 by 0.23.0, modelexpress); check",
]
"""Every warning on the seed is a link the text only suggests, or a level a rule of the vocabulary read
from words that name no level; each is right, and each is marked."""


# --------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def outline() -> Outline:
    model, findings, _ = load_file(ROOT / "data" / "outlines" / "inference.yml", Outline)
    assert findings == []
    return model


@pytest.fixture(scope="module")
def seed(outline, tmp_path_factory) -> tuple[Brief, list[ImportNote], str]:
    """The seed imported once with the outline (brief, warnings, YAML text), for the tests that only read it."""
    return imported(SEED, outline, tmp_path_factory.mktemp("seed"))


@pytest.fixture(scope="module")
def curated() -> Brief:
    model, findings, _ = load_file(CURATED_PATH, Brief)
    assert findings == []
    return model


def run(markdown: str, outline: Outline | None, tmp_path: Path, name: str = "brief.yml", **kw):
    """Import, write, load: (brief or None, warnings, yaml text, load findings)."""
    text, warnings = import_brief(markdown, outline=outline, **kw)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    brief, findings, _ = load_file(path, Brief)
    return brief, warnings, text, findings


def imported(markdown: str, outline: Outline | None, tmp_path: Path, **kw) -> tuple[Brief, list[ImportNote], str]:
    brief, warnings, text, findings = run(markdown, outline, tmp_path, **kw)
    assert findings == [], "\n".join(map(str, findings))
    return brief, warnings, text


def id_map(brief: Brief) -> dict[str, str]:
    """Curated id → the id the importer derives from the same number."""
    stem = f"{brief.date.isoformat()}-{brief.round.lower()}"
    ids = {i.id: f"{stem}-item-{i.number}" for i in brief.items}
    ids |= {c.id: f"{stem}-c{c.number}" for c in brief.contradictions}
    ids |= {f.id: f"{stem}-f{f.number}" for f in brief.follow_ups}
    return ids


def comparable(brief: Brief, ids: dict[str, str] | None = None, text=lambda s: s) -> dict:
    """The brief as plain data for comparison: references to ids mapped through ``ids``, the EXEMPT
    fields removed, the NORMALISED ones normalised, and every string passed through ``text`` (used
    to turn the curated text half-width)."""
    ids = ids or {}

    def walk(value):
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, str):
            value = ids.get(value, value)
            return value if re.fullmatch(r"https?://\S+", value) else text(value)
        return value

    data = walk(brief.model_dump(mode="json", by_alias=True))
    for path in EXEMPT:
        _apply(data, path, lambda parent, key: parent.pop(key, None))
    _apply(
        data,
        "items[].guards",
        lambda parent, key: parent.__setitem__(key, [g.removesuffix("。") for g in parent.get(key, [])]),
    )
    return data


def _apply(data: dict, path: str, change) -> None:
    """Call change(parent, key) for each field at a path like "items[].id"."""
    head, _, rest = path.partition(".")
    if head.endswith("[]"):
        for element in data.get(head[:-2], []):
            _apply(element, rest, change)
    elif rest:
        _apply(data.get(head, {}), rest, change)
    else:
        change(data, head)


def differences(expected, actual, path: str = "") -> list[str]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        return [
            d
            for k in sorted(expected.keys() | actual.keys())
            for d in differences(expected.get(k), actual.get(k), f"{path}.{k}" if path else k)
        ]
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [
            d for i, (e, a) in enumerate(zip(expected, actual, strict=True)) for d in differences(e, a, f"{path}[{i}]")
        ]
    return [] if expected == actual else [f"{path}:\n    curated:  {expected!r}\n    imported: {actual!r}"]


def assert_same(expected: dict, actual: dict) -> None:
    found = differences(expected, actual)
    assert not found, f"{len(found)} field(s) differ:\n" + "\n".join(found)


def without(brief: dict, *, items=(), contradictions=()) -> dict:
    out = dict(brief)
    out["items"] = [i for i in brief["items"] if i["number"] not in items]
    out["contradictions"] = [c for c in brief["contradictions"] if c["number"] not in contradictions]
    return out


def line_of(markdown: str, needle: str) -> int:
    return next(n for n, line in enumerate(markdown.split("\n"), 1) if needle in line)


def messages(warnings: list[ImportNote]) -> list[str]:
    return [w.message for w in warnings]


def assert_marked(warnings: list[ImportNote], text: str) -> None:
    """Every warning is also a `# digest-import:` comment in the YAML, so the editor sees it in the file."""
    comments = "\n".join(line for line in text.splitlines() if line.lstrip().startswith(f"# {MARK}:"))
    assert [w.message for w in warnings if " ".join(w.message.split()) not in comments] == []


# --------------------------------------------------------------------------- the seed


def test_exempt_ids_are_derived_from_date_round_and_number(seed):
    """The ids left out of the comparison are stable: the brief's date, round and own number."""
    brief, _, _ = seed
    assert [i.id for i in brief.items] == [f"2026-10-21-e1-item-{n}" for n in range(1, 8)]
    assert [c.id for c in brief.contradictions] == [f"2026-10-21-e1-c{n}" for n in range(1, 12)]
    assert [f.id for f in brief.follow_ups] == ["2026-10-21-e1-f1", "2026-10-21-e1-f2", "2026-10-21-e1-f3"]


def test_seed_reproduces_the_curated_brief_field_by_field(curated, seed):
    brief, _, _ = seed
    assert_same(comparable(curated, id_map(curated)), comparable(brief))


@pytest.mark.parametrize("part", ["header", "items", "contradictions", "citations", "conclusions", "follow_ups"])
def test_seed_part_by_part(part, curated, seed):
    """The same comparison, split so a failure names the part of the brief at once."""
    expected, actual = comparable(curated, id_map(curated)), comparable(seed[0])
    keys = {
        "items": ["items", "items_heading"],
        "contradictions": ["contradictions"],
        "citations": ["citations", "citations_note", "citations_not_registered"],
        "conclusions": ["conclusions"],
        "follow_ups": ["follow_ups", "follow_ups_heading"],
    }
    keys["header"] = [k for k in expected if not any(k in ks for ks in keys.values())]
    assert_same({k: expected.get(k) for k in keys[part]}, {k: actual.get(k) for k in keys[part]})


def test_seed_warnings_are_the_suggested_links_and_each_is_marked_in_the_yaml(seed):
    _, warnings, text = seed
    assert messages(warnings) == SEED_WARNINGS
    comments = [line.strip() for line in text.splitlines() if line.strip().startswith(f"# {MARK}:")]
    assert comments == [f"# {MARK}: {m}" for m in SEED_WARNINGS]
    assert warnings[0].line == line_of(SEED, "本次仅核实目录结构")  # 条目 6's boundary
    assert [w.line for w in warnings][1:7] == [line_of(SEED, f"  {n}. ") for n in (1, 2, 3, 3, 4, 5)]
    assert {w.line for w in warnings[9:]} == {line_of(SEED, "需 E2 跟进的三件事")}


def test_each_comment_sits_on_the_line_above_its_field(seed):
    _, _, text = seed
    lines = text.splitlines()
    for n, line in enumerate(lines[2:], 2):
        if line.lstrip().startswith(f"# {MARK}:"):
            following = lines[n + 1]
            assert not following.lstrip().startswith("#") or following.lstrip().startswith(f"# {MARK}:")
            assert len(following) - len(following.lstrip()) == len(line) - len(line.lstrip())


def test_yaml_layout(seed):
    """Schema line first, double-quoted text, quoted times, plain dates, plain codes."""
    _, _, text = seed
    assert text.splitlines()[0] == SCHEMA_LINE
    assert '\nwritten_at: "22:20"\n' in text
    assert "\ndate: 2026-10-21\n" in text
    assert "\n          first_collected: 2026-10-19\n" in text
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    tree = yaml.load(io.StringIO(text))
    codes = re.compile(r"[a-z0-9_-]+|E\d|S2|OpenAlex|[a-z]+(?:_[a-z]+)*")

    def walk(node, key=None):
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str):
            assert isinstance(node, DoubleQuotedScalarString) or codes.fullmatch(node), (key, node)

    walk(tree)


def test_the_imported_brief_passes_digest_check_in_place_of_the_curated_one(outline, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    text, _ = import_brief(SEED, outline=outline)
    (data / "briefs" / CURATED_PATH.name).write_text(text, encoding="utf-8")
    result = analyse(data, today=dt.date(2026, 10, 21))
    assert result.errors == [] and result.docs is not None


def test_nothing_in_the_seed_is_lost(seed):
    """Every run of words in the Markdown is in the YAML (as a value or a comment), except the format's
    own labels and headings."""
    _, _, text = seed
    structural = {
        "作者",
        "处理依据",
        "job",
        "item",
        "含",
        "参照",
        "与",
        "引用",
        "边界",
        "条目",
        "来源",
        "要点",
        "证据边界",
        "与活文档脉络的关系",
        "建议归入",
        "一",
        "二",
        "三",
        "四",
        "值得警惕的矛盾与待核实说法",
        "可引用的",
        "arXiv",
        "号",
        "本轮结论与建议动作",
        "被引",
        "卡片来源",
        "开放获取",
        "OpenAlex ID",
        "DOI",
        "首次采集",
        "上次采集",
    }  # the last two become first_collected / last_collected
    runs = re.split(r"[\s：:，,。；;、（）()「」《》·—–•①②③→⚠>\-/]+", SEED)
    lost = sorted({r for r in runs if r and r not in structural and not re.fullmatch(r"\d+\.?", r) and r not in text})
    assert lost == []


# --------------------------------------------------------------------------- variants a person makes


HALF_WIDTH = str.maketrans({"：": ": ", "，": ", ", "（": "(", "）": ")"})


def test_half_width_punctuation(curated, outline, tmp_path):
    variant = SEED.translate(HALF_WIDTH)
    brief, warnings, _ = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated), lambda s: s.translate(HALF_WIDTH)), comparable(brief))
    assert len(warnings) == len(SEED_WARNINGS)


def test_mixed_punctuation_without_spaces(curated, outline, tmp_path):
    """Half-width colons glued to the text after labels and contradiction titles (标题:正文), the rest as is."""
    variant = re.sub(r"^(\s*(?:\d+\.|条目 \d+|来源|要点|证据边界|作者|处理依据)[^：\n]*?)：", r"\1:", SEED, flags=re.M)
    assert variant.count("：") < SEED.count("：") - 40
    brief, _, _ = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated)), comparable(brief))


def _drop_block(markdown: str, start: str, end: str) -> str:
    i, j = markdown.index(start), markdown.index(end)
    return markdown[:i] + markdown[j:]


def test_numbering_gaps(curated, outline, tmp_path):
    """条目 1, 条目 3 … and 矛盾 1, 3 …: the others keep their numbers and ids; the gaps are reported."""
    variant = _drop_block(SEED, "条目 2：", "条目 3：")
    variant = _drop_block(variant, "  2. vLLM 版本口径冲突", "  3. LFM2.5")
    brief, warnings, text = imported(variant, outline, tmp_path)
    assert_marked(warnings, text)
    assert [i.number for i in brief.items] == [1, 3, 4, 5, 6, 7]
    assert [c.number for c in brief.contradictions] == [1, *range(3, 12)]
    assert brief.items[1].id == "2026-10-21-e1-item-3"
    expected = without(comparable(curated, id_map(curated)), items={2}, contradictions={2})
    assert_same(expected, comparable(brief))
    found = {(w.line, w.message) for w in warnings}
    assert (line_of(variant, "条目 3："), "条目 2 missing: numbering jumps to 3") in found
    assert (line_of(variant, "  3. LFM2.5"), "矛盾 2 missing: numbering jumps to 3") in found
    assert (line_of(variant, "一、"), "the heading says 7 条, the brief has 6 items") in found
    assert (
        line_of(variant, "条目 1（llm-d 1.0）、条目 2"),
        "the conclusions rate 条目 2, which the brief does not have",
    ) in found


def test_missing_optional_aside(curated, outline, tmp_path):
    """No " - 顺带：…" in 条目 4: its notes are simply empty, nothing to warn about."""
    start = SEED.index(" - 顺带：")
    variant = SEED[:start] + SEED[SEED.index("\n", start) :]
    brief, warnings, _ = imported(variant, outline, tmp_path)
    expected = comparable(curated, id_map(curated))
    expected["items"][3]["notes"] = []
    assert_same(expected, comparable(brief))
    assert messages(warnings) == SEED_WARNINGS


def test_missing_relation_is_left_out_marked_and_passes_digest_check(curated, outline, tmp_path):
    """No 与活文档脉络的关系 for 条目 7: the relation is not invented and not an empty string that fails
    the check either (briefs do omit it, issue 29): the key is left out, the item is marked for the
    editor, and the brief is otherwise the curated one."""
    start = SEED.index("与活文档脉络的关系：活文档的成本")
    variant = SEED[:start] + SEED[SEED.index("建议归入：§5.2 TCO 与成本换算 末尾", start) :]
    brief, warnings, text, findings = run(variant, outline, tmp_path)
    assert_marked(warnings, text)
    line = line_of(variant, "建议归入：§5.2 TCO 与成本换算 末尾")
    assert ImportNote(line, "条目 7: no 与活文档脉络的关系; relation left out (write it or ask the author)") in warnings
    assert findings == [] and brief is not None
    assert brief.items[6].relation is None
    lines = text.splitlines()
    seventh = next(n for n, x in enumerate(lines) if x.strip() == '- id: "2026-10-21-e1-item-7"')
    end = next(n for n, x in enumerate(lines) if x.startswith("contradictions:"))
    assert not any(x.strip().startswith("relation:") for x in lines[seventh:end])
    assert lines[seventh - 1].strip().startswith("#") and "条目 7: no 与活文档脉络的关系" in lines[seventh - 1]
    expected = comparable(curated, id_map(curated))
    del expected["items"][6]["relation"]
    assert_same(expected, comparable(brief))


def _one_per_line(markdown: str) -> str:
    """Bullets one per line (with a blank line between some), 建议归入 and 顺带 on their own lines,
    and a blank line doubled everywhere."""
    out = []
    for line in markdown.split("\n"):
        if line.startswith("要点"):
            head, *points = line.split(" - ")
            out += [head.rstrip(), ""] + [f"- {p}" for p in points]
        elif " - 建议归入：" in line:
            relation, rest = line.split(" - 建议归入：", 1)
            placement, *aside = rest.split(" - 顺带：")
            out += [relation, f"建议归入：{placement}"] + [f"- 顺带：{a}" for a in aside]
        else:
            out.append(line)
    return "\n".join(out).replace("\n\n", "\n\n\n")


def test_bullets_one_per_line_and_extra_blank_lines(curated, outline, tmp_path):
    variant = _one_per_line(SEED)
    assert "\n- 技术定位：vLLM" in variant and "\n建议归入：§3.1" in variant and "\n- 顺带：同源" in variant
    brief, warnings, _ = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated)), comparable(brief))
    assert messages(warnings) == SEED_WARNINGS


def test_aside_on_its_own_wrapped_lines(curated, outline, tmp_path):
    """ "- 顺带：…" on its own line, wrapped over three lines: the note is the whole aside."""
    aside = SEED[SEED.index(" - 顺带：") + 3 : SEED.index("\n", SEED.index(" - 顺带："))]
    wrapped = "- " + aside.replace("冲突", "冲突\n", 1).replace(
        "），", "），\n", 1
    )  # wrapped between Chinese characters
    assert wrapped.count("\n") == 2
    variant = SEED.replace(" - " + aside, "\n" + wrapped)
    brief, _, _ = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated)), comparable(brief))


def test_source_without_the_dot_separator(curated, outline, tmp_path):
    variant = SEED.replace("blogs-discovery.md 第 2 条 · https://", "blogs-discovery.md 第 2 条 https://")
    brief, warnings, _ = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated)), comparable(brief))
    assert messages(warnings) == SEED_WARNINGS


def test_other_bullet_marks_and_crlf(curated, outline, tmp_path):
    variant = _one_per_line(SEED).replace("\n- ", "\n* ").replace("  • ", "- ").replace("\n", "\r\n")
    brief, _, _ = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated)), comparable(brief))


def test_markdown_headings_and_bold_labels(curated, outline, tmp_path):
    """# title, ## 一、…, ### 条目 N：…, **来源**：… — the marks are layout, not text."""
    variant = re.sub(r"^(inference · E1)", r"# \1", SEED, flags=re.M)
    variant = re.sub(r"^([一二三四]、)", r"## \1", variant, flags=re.M)
    variant = re.sub(r"^(条目 \d+：)", r"### \1", variant, flags=re.M)
    variant = re.sub(r"^(来源|证据边界)：", r"**\1**：", variant, flags=re.M)
    brief, warnings, _ = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated)), comparable(brief))
    assert messages(warnings) == SEED_WARNINGS


def test_a_repeated_section_is_read_with_the_first(curated, outline, tmp_path):
    """A second "一、…" heading before 条目 5 (say, pasted from another draft): nothing is lost."""
    variant = SEED.replace("条目 5：", "一、今日该主题最重要的增量（续）\n\n条目 5：")
    brief, warnings, text = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated)), comparable(brief))
    assert any("一、今日该主题最重要的增量（续）" in m for m in messages(warnings))
    assert_marked(warnings, text)


def test_item_heading_without_colon(curated, outline, tmp_path):
    variant = SEED.replace("条目 5：", "条目 5 ")
    brief, _, _ = imported(variant, outline, tmp_path)
    assert_same(comparable(curated, id_map(curated)), comparable(brief))


# --------------------------------------------------------------------------- what cannot be placed


def test_unlabelled_paragraph_in_an_item_goes_to_notes_with_its_line(outline, tmp_path):
    stray = "这段话没有栏目标签，导入器不得悄悄丢掉它。"
    anchor = "实际生产 RDMA 延迟数据缺失。\n"
    variant = SEED.replace(anchor, anchor + "\n" + stray + "\n", 1)
    brief, warnings, text = imported(variant, outline, tmp_path)
    line = line_of(variant, stray)
    assert any(w.line == line and stray in w.message for w in warnings)
    assert brief.items[2].notes == [stray]
    assert f"# {MARK}: 条目 3: paragraph without a label, kept in notes: text not placed" in text


@pytest.mark.parametrize(
    "where, anchor",
    [
        ("header", "处理依据："),
        ("section 三", "清单内其余材料"),
    ],
)
def test_paragraph_the_format_cannot_hold_is_quoted_in_a_warning_and_a_comment(where, anchor, outline, tmp_path):
    stray = "附注：今晚网络不稳定，部分链接重试三次。"
    at = SEED.index(anchor)
    variant = SEED[:at] + "\n" + stray + "\n\n" + SEED[at:]
    _, warnings, text, findings = run(variant, outline, tmp_path)
    line = line_of(variant, stray)
    hits = [w for w in warnings if stray in w.message]
    assert hits and hits[0].line == line
    assert any(row.lstrip().startswith(f"# {MARK}:") and stray in row for row in text.splitlines())
    assert findings == []


def test_a_paragraph_of_part_two_outside_its_list_is_kept_as_its_note(outline, tmp_path):
    stray = "延续：昨日矛盾第 4 条仍待本地复现，维持封存。"
    at = SEED.index("  5. RecSys")
    variant = SEED[:at] + "\n" + stray + "\n\n" + SEED[at:]
    brief, _, _ = imported(variant, outline, tmp_path)
    assert brief.contradictions_note == stray and len(brief.contradictions) == 11


def test_unknown_label_inside_an_item_is_kept(outline, tmp_path):
    anchor = "证据边界：仅读搜索摘要"
    variant = SEED.replace(anchor, "备注：Jay 说明天再看。\n\n" + anchor, 1)
    brief, warnings, _ = imported(variant, outline, tmp_path)
    assert "备注：Jay 说明天再看。" in brief.items[2].notes
    assert any(w.line == line_of(variant, "备注：Jay") for w in warnings)


def test_without_an_outline_an_update_is_a_lead_never_a_guessed_entry(curated, tmp_path):
    brief, warnings, text, findings = run(SEED, None, tmp_path)
    assert_marked(warnings, text)
    assert findings == [] and brief is not None  # the safe reading passes the check
    kapitsa = brief.items[4].placement  # 「§1.1 Kapitsa 段数值更新」: no outline names the entry
    assert (kapitsa.action.value, kapitsa.section, kapitsa.entry) == ("mount_lead", "1.1", None)
    line = line_of(SEED, "建议归入：§1.1 Kapitsa 段数值更新")
    assert (
        ImportNote(
            line,
            "条目 5: an in-place update (原地更新) of §1.1, but no entry of that section (in the outline "
            "or created by an earlier brief) is named in 建议归入; write entry: <id>",
        )
        in warnings
    )
    assert any("places it after «v0.8»" in m for m in messages(warnings))
    assert any("places it after «Dynamo»" in m for m in messages(warnings))
    assert any("§1.1 has no entry to update; kept as a lead" in m for m in messages(warnings))


def test_known_briefs_keep_ids_unique(outline, tmp_path):
    brief, _, _ = imported(SEED, outline, tmp_path)
    assert imported(SEED, outline, tmp_path, known_briefs=[brief])[0].items[0].id == "2026-10-21-e1-item-1"
    other = brief.model_copy(update={"id": "2026-10-21-training-E1", "topic": "training"})
    again = imported(SEED, outline, tmp_path, known_briefs=[other])[0]
    assert [i.id for i in again.items][:2] == ["2026-10-21-inference-e1-item-1", "2026-10-21-inference-e1-item-2"]
    assert again.contradictions[0].id == "2026-10-21-inference-e1-c1"


def test_a_link_the_brief_states_by_number_is_not_marked(curated, outline, tmp_path):
    """ "（见条目 4）" in a follow-up names the item outright: no guess, so no warning for it."""
    variant = SEED.replace(
        "① 回溯 vLLM 长 prefill 冻结的原始 issue 与版本区间；",
        "① 回溯 vLLM 长 prefill 冻结的原始 issue 与版本区间（条目 4）；",
    )
    brief, warnings, _ = imported(variant, outline, tmp_path)
    assert [str(x) for x in brief.follow_ups[0].items] == ["2026-10-21-e1-item-4"]
    assert not any(m.startswith("follow-up 1:") for m in messages(warnings))


# --------------------------------------------------------------------------- never raises


def _cuts() -> list[tuple[str, str]]:
    lines = SEED.split("\n")
    variants = [
        (f"without line {n + 1}", "\n".join(lines[:n] + lines[n + 1 :])) for n in range(len(lines)) if lines[n].strip()
    ]
    variants += [(f"first {k}/10", SEED[: len(SEED) * k // 10]) for k in range(10)]
    variants += [
        ("empty", ""),
        ("garbage", "：：：\n条目 x：\n  1.\n• arXiv:\n需 跟进的件事：①"),
        ("only headings", "一、\n二、\n三、\n四、"),
    ]
    return variants


@pytest.mark.parametrize("name, markdown", _cuts(), ids=[n for n, _ in _cuts()])
def test_never_raises_and_always_writes_yaml(name, markdown, outline, tmp_path):
    text, warnings = import_brief(markdown, outline=outline)
    assert text.startswith(SCHEMA_LINE + "\n")
    assert_marked(warnings, text)
    path = tmp_path / "cut.yml"
    path.write_text(text, encoding="utf-8")
    tree, findings = read_yaml(path, "cut.yml")
    assert findings == [] and tree is not None
    assert all(isinstance(w, ImportNote) and w.line >= 1 for w in warnings)


# --------------------------------------------------------------------------- the rules, one word at a time


def _item(boundary: str, points: str = "- 一点", url: str = "https://example.org/x") -> str:
    header = SEED[: SEED.index("一、")]
    return (
        f"{header}一、增量（1 条）\n\n条目 1：测试（高价值）\n\n来源：a.md 第 1 条 · {url}\n\n要点：{points}\n\n"
        f"证据边界：{boundary}\n\n与活文档脉络的关系：无。 - 建议归入：§5.2 新增「x」小节。\n"
    )


@pytest.mark.parametrize(
    "boundary, level, gaps",
    [
        ("正文被截断；状态待确认。", "unverified", ["truncated", "status_unconfirmed"]),
        ("仅读搜索摘要。", "lead", ["summary_only"]),
        ("正文需登录。属线索级。", "lead", ["login_wall"]),
        ("付费墙后，仅核实目录结构。", "partially_verified", ["paywall"]),
        ("厂商自述，未给 issue，未标版本。丢弃级。", "discard", ["vendor_self_report", "no_issue_link", "no_version"]),
        ("财经媒体报道。", "unverified", ["financial_media"]),
    ],
)
def test_evidence_rules(boundary, level, gaps, outline, tmp_path):
    _, warnings, text, _ = run(_item(boundary), outline, tmp_path)
    tree = YAML(typ="safe").load(text)
    evidence = tree["items"][0]["evidence"]
    assert evidence["level"] == level and evidence.get("gaps", []) == gaps
    said_nothing = level == "unverified"  # no word on how far it was checked: the safest level, marked
    assert any("level set to unverified" in m for m in messages(warnings)) == said_nothing


@pytest.mark.parametrize(
    "url, gaps_text, kind",
    [
        ("https://blog.csdn.net/a/b", "", "community_post"),
        ("https://docs.vllm.ai/en/latest/", "", "project_docs"),
        ("https://x.substack.com/p/y", "付费墙。", "paywalled_newsletter"),
        ("https://pytorch.org/blog/z", "", "official_blog"),
    ],
)
def test_source_kind_rules(url, gaps_text, kind, outline, tmp_path):
    _, _, text, _ = run(_item(gaps_text + "未核实。", url=url), outline, tmp_path)
    assert YAML(typ="safe").load(text)["items"][0]["evidence"]["source_kinds"] == [kind]


def test_unknown_source_host_is_reported(outline, tmp_path):
    _, warnings, _, _ = run(_item("未核实。", url="https://www.example.org/news"), outline, tmp_path)
    assert any("no rule says what kind of source www.example.org is" in m for m in messages(warnings))


def test_a_brief_saved_by_a_windows_editor_imports_byte_for_byte_like_the_plain_file(tmp_path, capsys, monkeypatch):
    """A UTF-8 BOM, CRLF line ends and full-width spaces at line ends (what Windows editors and
    Chinese input methods leave) change nothing: ``digest import`` in the project, where the
    topic's outline is found from the first line, gives the same YAML as for the plain file."""
    project = copy_project(tmp_path / "project")
    plain = tmp_path / "plain.md"
    plain.write_text(SEED, encoding="utf-8")
    windows = tmp_path / "windows.md"
    lines = SEED.split("\n")
    saved = "\r\n".join(line + "\u3000" if i % 3 == 0 and line else line for i, line in enumerate(lines))
    windows.write_bytes(b"\xef\xbb\xbf" + saved.encode("utf-8"))
    outputs = []
    for source in (plain, windows):
        code, out, err = run_cli("import", str(source), "--stdout", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
        assert code == 0, err
        outputs.append((out, err.replace(str(source), "BRIEF")))
    assert outputs[0] == outputs[1]
    assert "digest-import" in outputs[0][0] and "section" in outputs[0][0]  # the outline was found: § checked

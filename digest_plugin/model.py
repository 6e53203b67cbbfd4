"""Pydantic models of a brief, the outline of a living doc, and their vocabulary.

The shape follows the team's nightly brief (see ``shared/briefs/2026-10-21-inference-E1.md``):
a header, the day's items (条目), contradictions and unverified claims (矛盾与待核实说法),
arXiv citations, conclusions and follow-ups.  Every field the brief can leave out is
optional and stays empty when it does: the tool never invents a value.

Closed vocabularies are ``Enum``s whose values are the English codes used in YAML and whose
``label`` is the Chinese word readers see on the site.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from . import arxiv

# --------------------------------------------------------------------------- vocabulary


class Vocabulary(str, Enum):
    """A closed vocabulary: YAML holds the code, the site shows ``label``."""

    @property
    def label(self) -> str:
        return _LABELS[type(self)][self.value]


class ValueRating(Vocabulary):
    high = "high"
    high_pending = "high_pending"
    refresh = "refresh"
    medium = "medium"
    filler = "filler"


class EvidenceLevel(Vocabulary):
    """How far the content itself was verified (the first half of an Admiralty-style rating)."""

    verified = "verified"
    partially_verified = "partially_verified"
    unverified = "unverified"
    lead = "lead"
    discard = "discard"


class SourceKind(Vocabulary):
    """What kind of source said it (the other half, rated apart from the content)."""

    official_blog = "official_blog"
    project_docs = "project_docs"
    personal_blog = "personal_blog"
    vendor_self_report = "vendor_self_report"
    financial_media = "financial_media"
    paywalled_newsletter = "paywalled_newsletter"
    community_post = "community_post"
    repo_card = "repo_card"
    paper_card = "paper_card"


class Gap(Vocabulary):
    """Closed gap codes: the reasons a piece of evidence falls short."""

    truncated = "truncated"
    summary_only = "summary_only"
    paywall = "paywall"
    login_wall = "login_wall"
    vendor_self_report = "vendor_self_report"
    financial_media = "financial_media"
    auto_collected = "auto_collected"
    no_version = "no_version"
    no_issue_link = "no_issue_link"
    status_unconfirmed = "status_unconfirmed"


class PlacementAction(Vocabulary):
    new_sub_entry = "new_sub_entry"
    update_in_place = "update_in_place"
    cross_reference = "cross_reference"
    footnote = "footnote"
    mount_lead = "mount_lead"


class Disposition(Vocabulary):
    """What the team decided to do with a contradiction or unverified claim."""

    blocked = "blocked"
    with_label = "with_label"
    pending_check = "pending_check"
    pending_login = "pending_login"
    kept_out = "kept_out"
    discarded = "discarded"
    down_weighted = "down_weighted"


class Status(Vocabulary):
    open = "open"
    resolved = "resolved"
    superseded = "superseded"


class ContradictionChange(Vocabulary):
    """What a later brief does to an earlier contradiction."""

    resolved = "resolved"
    reopened = "reopened"
    superseded = "superseded"


class FollowUpStatus(Vocabulary):
    open = "open"
    done = "done"
    dropped = "dropped"
    carried_over = "carried_over"


class CitationSource(Vocabulary):
    s2 = "S2"
    openalex = "OpenAlex"


_LABELS: dict[type, dict[str, str]] = {
    ValueRating: {
        "high": "高价值",
        "high_pending": "高价值但待回溯",
        "refresh": "原地刷新",
        "medium": "中等价值",
        "filler": "补白",
    },
    EvidenceLevel: {
        "verified": "已核查",
        "partially_verified": "部分核查",
        "unverified": "未核实",
        "lead": "线索级",
        "discard": "丢弃级",
    },
    SourceKind: {
        "official_blog": "官方博客",
        "project_docs": "项目文档",
        "personal_blog": "个人博客",
        "vendor_self_report": "厂商自述",
        "financial_media": "财经媒体",
        "paywalled_newsletter": "付费通讯",
        "community_post": "社区帖子",
        "repo_card": "仓库卡",
        "paper_card": "论文卡",
    },
    Gap: {
        "truncated": "正文被截断",
        "summary_only": "仅读搜索摘要",
        "paywall": "付费墙",
        "login_wall": "登录墙",
        "vendor_self_report": "厂商自述",
        "financial_media": "财经媒体报道",
        "auto_collected": "自动采集",
        "no_version": "未标版本",
        "no_issue_link": "无 PR/issue",
        "status_unconfirmed": "状态待确认",
    },
    PlacementAction: {
        "new_sub_entry": "新增子条目",
        "update_in_place": "原地更新",
        "cross_reference": "交叉引用",
        "footnote": "小注",
        "mount_lead": "挂载线索",
    },
    Disposition: {
        "blocked": "修正前不得写入",
        "with_label": "须带标注写入",
        "pending_check": "待确认",
        "pending_login": "待登录核查",
        "kept_out": "不入活文档",
        "discarded": "丢弃级",
        "down_weighted": "降权",
    },
    Status: {"open": "未解决", "resolved": "已解决", "superseded": "已被取代"},
    ContradictionChange: {"resolved": "解决", "reopened": "重新打开", "superseded": "取代"},
    FollowUpStatus: {"open": "待跟进", "done": "已完成", "dropped": "已放弃", "carried_over": "顺延"},
    CitationSource: {"S2": "S2", "OpenAlex": "OpenAlex"},
}

# --------------------------------------------------------------------------- checked strings

SLUG = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
SECTION = re.compile(r"^[1-9][0-9]?(?:\.[1-9][0-9]?)?$")
ROUND = re.compile(r"^E[1-9]$")
BRIEF_ID = re.compile(r"^\d{4}-\d{2}-\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*-E[1-9]$")


def _matches(pattern: re.Pattern[str], what: str, example: str) -> Callable[[str], str]:
    """A validator that lets through only values the whole of which match ``pattern``."""

    def check(value: str) -> str:
        if not pattern.fullmatch(value):
            raise ValueError(f"{value!r} is not a valid {what} (write it like {example!r})")
        return value

    return check


def _http_url(value: str) -> str:
    """Only absolute http(s) links reach the page: no javascript:, data: or relative URLs."""
    if not re.fullmatch(r"https?://[^\s<>\"'`]+", value):
        raise ValueError(f"{value!r} is not an http(s) URL; only links starting with http:// or https:// are allowed")
    return value


def _material_path(value: str) -> str:
    """Material paths name files in the team's store; they must not climb out of it."""
    if value.startswith(("/", "\\")) or ".." in re.split(r"[\\/]", value) or re.search(r"[\x00-\x1f]", value):
        raise ValueError(f"{value!r} is not a relative material path inside the store (no leading '/', no '..')")
    return value


Slug = Annotated[str, AfterValidator(_matches(SLUG, "id", "llm-d-1-0"))]
BriefId = Annotated[str, AfterValidator(_matches(BRIEF_ID, "brief id", "2026-10-21-inference-E1"))]
SectionNo = Annotated[str, AfterValidator(_matches(SECTION, "section number", "3.1"))]


def _arxiv_digits(value: str) -> str:
    if problem := arxiv.digits_problem(value):
        raise ValueError(problem)
    return value


ArxivId = Annotated[str, AfterValidator(_matches(arxiv.ID, "arXiv id", "1605.08803")), AfterValidator(_arxiv_digits)]
HttpUrl = Annotated[str, AfterValidator(_http_url)]
MaterialPath = Annotated[str, AfterValidator(_material_path)]


def _not_empty(value: str) -> str:
    """``min_length=1`` done in Python: pydantic's own length check makes every string keep a
    UTF-8 copy of itself (measured: +40 % memory for Chinese text, 3650 briefs)."""
    if not value:
        raise ValueError("String should have at least 1 character")
    return value


Text = Annotated[str, AfterValidator(_not_empty), Field(json_schema_extra={"minLength": 1})]


def inner_model(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds, through ``list[...]`` and ``X | None`` (for hints and key order)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        if found := inner_model(arg):
            return found
    return None


class Model(BaseModel):
    """Strict base: unknown keys are errors, so a typo in a key never silently loses data."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


# --------------------------------------------------------------------------- brief


class MaterialRef(Model):
    """A material read in the round (a file in the team's store), with the anchor inside it."""

    path: MaterialPath
    anchor: str | None = None
    first_collected: dt.date | None = None
    last_collected: dt.date | None = None


class Sources(Model):
    materials: list[MaterialRef] = Field(default_factory=list)
    urls: list[HttpUrl] = Field(default_factory=list)


class Evidence(Model):
    """The evidence boundary (证据边界): how far the item was verified, from what, and what is missing."""

    level: EvidenceLevel
    source_kinds: list[SourceKind] = Field(default_factory=list)
    gaps: list[Gap] = Field(default_factory=list)
    boundary: Text


class Figure(Model):
    """A number or short value an item states about an entry, dated so its history can be shown."""

    key: Slug
    label: Text
    value: int | float | str
    unit: str | None = None
    as_of: dt.date | None = None
    note: str | None = None
    """Why a count went down, or how it was counted (口径); required when a count drops."""


class CrossRef(Model):
    section: SectionNo
    item: Slug | None = None
    entry: Slug | None = None


class Alternative(Model):
    section: SectionNo
    note: str | None = None


class Placement(Model):
    """Where the item goes in the living doc (建议归入), and how."""

    section: SectionNo
    action: PlacementAction
    entry: Slug | None = None
    entry_title: str | None = None
    after: Slug | None = None
    alternatives: list[Alternative] = Field(default_factory=list)
    cross_refs: list[CrossRef] = Field(default_factory=list)
    as_conclusion: bool = False
    """The brief asks to write this as a conclusion (定论), not as a lead; evidence rules apply."""
    text: Text

    @model_validator(mode="after")
    def _update_names_entry(self) -> Placement:
        if self.action is PlacementAction.update_in_place and not self.entry:
            raise ValueError("an update_in_place placement must name the existing entry it updates (entry: <id>)")
        return self


class Item(Model):
    """One of the day's increments (条目)."""

    id: Slug
    number: int = Field(ge=1)
    title: Text
    value: list[ValueRating] = Field(min_length=1)
    sources: Sources
    points_note: str | None = None
    points: list[Text] = Field(min_length=1)
    evidence: Evidence
    relation: Text
    placement: Placement
    figures: list[Figure] = Field(default_factory=list)
    guards: list[Text] = Field(default_factory=list)
    notes: list[Text] = Field(default_factory=list)
    supported_by: list[ArxivId] = Field(default_factory=list)
    """Papers the item rests on; a down-weighted one never counts as support for a conclusion."""


class WithheldClaim(Model):
    """A claim that must not be written as fact while its contradiction is open.

    ``patterns`` are the literal spellings of the claim in the brief's text; wherever one
    appears outside the contradiction's callout and the register, it is withheld."""

    text: Text
    patterns: list[Text] = Field(min_length=1)
    figure: Slug | None = None


class Touches(Model):
    items: list[Slug] = Field(default_factory=list)
    entries: list[Slug] = Field(default_factory=list)
    sections: list[SectionNo] = Field(default_factory=list)
    citations: list[ArxivId] = Field(default_factory=list)


class Contradiction(Model):
    """An entry of the brief's contradiction list (值得警惕的矛盾与待核实说法)."""

    id: Slug
    number: int = Field(ge=1)
    title: Text
    text: Text
    touches: Touches = Field(default_factory=Touches)
    materials: list[MaterialRef] = Field(default_factory=list)
    withheld: list[WithheldClaim] = Field(default_factory=list)
    required_label: str | None = None
    disposition: Disposition
    status: Status = Status.open


class CitedBy(Model):
    source: CitationSource
    count: int = Field(ge=0)
    as_of: dt.date | None = None


class Citation(Model):
    """An arXiv paper the brief lists as citable (可引用的 arXiv 号)."""

    arxiv: ArxivId
    title: Text
    year: int | None = None
    card: MaterialPath | None = None
    card_topic: str | None = None
    cited_by: list[CitedBy] = Field(default_factory=list)
    openalex_id: str | None = None
    doi: str | None = None
    oa_status: str | None = None
    verified: bool = False
    use_note: str | None = None
    down_weighted_by: Slug | None = None


class FollowUp(Model):
    id: Slug
    number: int = Field(ge=1)
    round: Annotated[str, AfterValidator(_matches(ROUND, "round", "E2"))]
    text: Text
    items: list[Slug] = Field(default_factory=list)
    status: FollowUpStatus = FollowUpStatus.open


class ContradictionUpdate(Model):
    """A later brief resolves, re-opens or supersedes a contradiction of an earlier one."""

    contradiction: Slug
    change: ContradictionChange
    text: Text
    superseded_by: Slug | None = None

    @model_validator(mode="after")
    def _superseded_names_successor(self) -> ContradictionUpdate:
        if self.change is ContradictionChange.superseded and not self.superseded_by:
            raise ValueError("a superseded contradiction must name its successor (superseded_by: <contradiction id>)")
        return self


class FollowUpUpdate(Model):
    """A later brief closes a follow-up: done, dropped, or carried over to the next round."""

    follow_up: Slug
    status: FollowUpStatus
    note: str | None = None

    @model_validator(mode="after")
    def _closes(self) -> FollowUpUpdate:
        if self.status is FollowUpStatus.open:
            raise ValueError("a follow-up update closes it: status is done, dropped or carried_over")
        return self


class EvidenceUpdate(Model):
    """New evidence for an earlier item (for example once a follow-up found the missing issue)."""

    item: Slug
    evidence: Evidence
    follow_up: Slug | None = None
    note: str | None = None


class Retraction(Model):
    """A later brief withdraws an earlier item; it stays visible, struck through, and leaves the counts."""

    item: Slug
    reason: Text
    superseded_by: Slug | None = None


class Job(Model):
    checklist: str | None = None
    job_id: str | None = None
    item: str | None = None


class DocRef(Model):
    """A reference version the round read against (the living doc, the work queue)."""

    path: MaterialPath
    version: str | None = None
    reference_count: int | None = Field(default=None, ge=0)


class Brief(Model):
    """A day's brief, as the team writes it."""

    schema_: int = Field(1, alias="schema", ge=1, le=1)
    id: BriefId
    topic: Slug
    round: Annotated[str, AfterValidator(_matches(ROUND, "round", "E1"))]
    round_label: str | None = None
    title: Text
    date: dt.date
    written_at: str | None = None
    author: str | None = None
    job: Job = Field(default_factory=Job)
    materials_read: int | None = Field(default=None, ge=0)
    materials_note: str | None = None
    materials: list[MaterialRef] = Field(default_factory=list)
    living_doc: DocRef | None = None
    queue: DocRef | None = None
    scope: str | None = None
    items_heading: str | None = None
    items: list[Item] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    citations_note: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    citations_not_registered: str | None = None
    conclusions: list[Text] = Field(default_factory=list)
    follow_ups_heading: str | None = None
    follow_ups: list[FollowUp] = Field(default_factory=list)
    contradiction_updates: list[ContradictionUpdate] = Field(default_factory=list)
    follow_up_updates: list[FollowUpUpdate] = Field(default_factory=list)
    evidence_updates: list[EvidenceUpdate] = Field(default_factory=list)
    retractions: list[Retraction] = Field(default_factory=list)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# --------------------------------------------------------------------------- outline


class Section(Model):
    number: SectionNo
    title: str | None = None
    aliases: list[str] = Field(default_factory=list)


class Entry(Model):
    """An entry the living doc already holds, as far as a brief states it (nothing more)."""

    id: Slug
    section: SectionNo
    title: Text
    text: Text
    figures: list[Figure] = Field(default_factory=list)
    stated_in: BriefId


class Outline(Model):
    """The skeleton of one topic's living doc: sections, and the entries briefs refer to."""

    schema_: int = Field(1, alias="schema", ge=1, le=1)
    topic: Slug
    title: Text
    doc: DocRef
    stated_in: BriefId
    sections: list[Section]
    entries: list[Entry] = Field(default_factory=list)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# --------------------------------------------------------------------------- editorial rules


class Rules(BaseModel):
    """Defaults follow the team's practice in the 2026-10-21 brief."""

    model_config = ConfigDict(extra="forbid")

    no_conclusion_levels: list[EvidenceLevel] = [EvidenceLevel.lead, EvidenceLevel.unverified, EvidenceLevel.discard]
    no_conclusion_sources: list[SourceKind] = [SourceKind.vendor_self_report]
    gain_totals: dict[str, str] = {"weekly-gain": "stars"}
    """A figure (key) that counts a gain over a period, and the total (key) it cannot exceed."""
    citation_count_factor: float = Field(3.0, gt=1)
    """Warn when two sources' cited-by counts differ by more than this factor."""
    archive_after_days: int = Field(60, ge=1)
    """Entries, settled contradictions, closed follow-ups, citations and briefs whose last activity
    is older than this (counted back from the newest brief) move to per-year archive pages, so
    the main pages stay light however many years the doc runs."""
    allow_future_dates: bool = False
    """Accept briefs dated after today (synthetic benchmark data; never for the team's own)."""
    hide_discarded: bool = True
    """Discarded (丢弃级) contradictions and items stay off the §1–§6 pages; the register keeps them."""

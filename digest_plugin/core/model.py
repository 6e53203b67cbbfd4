"""Pydantic models of a brief, the outline of a living doc, and their vocabulary.

The shape follows the team's nightly brief (see ``shared/briefs/2026-10-21-inference-E1.md``):
a header, the day's items (条目), contradictions and unverified claims (矛盾与待核实说法),
arXiv citations, conclusions and follow-ups.  Every field the brief can leave out is
optional and stays empty when it does: the tool never invents a value.

The words the team adds to every week (value ratings, source kinds, gaps, evidence levels,
dispositions) are codes here, checked against the site's ``data/vocabulary.yml`` by
:mod:`check` (see :mod:`vocabulary`).  The few lists whose words the code acts on (statuses,
changes, outcomes, placement actions) are ``Enum``s whose ``label`` is the Chinese word.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import math
import re
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)
from pydantic_core import PydanticCustomError

from . import arxiv

# --------------------------------------------------------------------------- vocabulary


class Vocabulary(str, Enum):
    """A closed list the code acts on: YAML holds the code, the site shows ``label``."""

    @property
    def label(self) -> str:
        return _LABELS[type(self)][self.value]


class PlacementAction(Vocabulary):
    new_sub_entry = "new_sub_entry"
    update_in_place = "update_in_place"
    cross_reference = "cross_reference"
    footnote = "footnote"
    mount_lead = "mount_lead"
    new_section = "new_section"
    """Opens a sub-section the outline does not have yet (建议归入：新建 §2.6「…」)."""
    not_placed = "not_placed"
    """Kept out of the living doc (不入活文档, 仅在简报留档): the item stays whole on its brief's page
    and is on no §-page.  Briefs do this with what they keep only for the record."""
    citation_refresh = "citation_refresh"
    """The item only refreshes an earlier paper's metadata (counts, OA status) and adds no entry."""
    duplicate = "duplicate"
    """The same event as an earlier item (``duplicate_of``): linked to it, never filed twice."""

    @property
    def creates_entry(self) -> bool:
        """The item becomes an entry of its own, named by the item's id (a later brief can update it)."""
        return self in (PlacementAction.new_sub_entry, PlacementAction.new_section, PlacementAction.footnote)

    @property
    def places(self) -> bool:
        """The item goes into a § of the living doc (so its placement names the section)."""
        return self not in UNPLACED


# Words of the team's open vocabularies (data/vocabulary.yml) that the code gives a meaning to.
DISCARD = "discard"
"""The evidence level of what the team threw away: off the §1–§6 pages (``Rules.hide_discarded``)."""
DISCARDED = "discarded"
"""The disposition of a discarded contradiction: off the §1–§6 pages, drawn as a danger callout."""
BLOCKED = "blocked"
"""The disposition of a claim that must not be written until fixed: drawn as a danger callout."""
DOWN_WEIGHTED = "down_weighted"
"""The disposition that down-weights a citation (it never counts as support for a conclusion)."""


UNPLACED = frozenset({PlacementAction.not_placed, PlacementAction.citation_refresh, PlacementAction.duplicate})
"""The placements that put nothing on a §-page: the item lives on its brief's page only."""


class Status(Vocabulary):
    open = "open"
    resolved = "resolved"
    superseded = "superseded"


class ContradictionChange(Vocabulary):
    """What a later brief does to an earlier contradiction."""

    resolved = "resolved"
    reopened = "reopened"
    superseded = "superseded"
    redisposed = "redisposed"
    """Re-judged: the team now does something else with it (its ``disposition`` changes)."""


class Outcome(Vocabulary):
    """How a resolved contradiction was settled: the withheld claim held up, or it was wrong."""

    confirmed = "confirmed"
    corrected = "corrected"


class FollowUpStatus(Vocabulary):
    open = "open"
    done = "done"
    dropped = "dropped"
    carried_over = "carried_over"


class CitationSource(Vocabulary):
    s2 = "S2"
    openalex = "OpenAlex"


_LABELS: dict[type, dict[str, str]] = {
    PlacementAction: {
        "new_sub_entry": "新增子条目",
        "update_in_place": "原地更新",
        "cross_reference": "交叉引用",
        "footnote": "小注",
        "mount_lead": "挂载线索",
        "new_section": "新建小节",
        "not_placed": "不入活文档",
        "citation_refresh": "仅刷新引用",
        "duplicate": "重复条目",
    },
    Status: {"open": "未解决", "resolved": "已解决", "superseded": "已被取代"},
    ContradictionChange: {"resolved": "解决", "reopened": "重新打开", "superseded": "取代", "redisposed": "改判"},
    Outcome: {"confirmed": "证实", "corrected": "更正"},
    FollowUpStatus: {"open": "待跟进", "done": "已完成", "dropped": "已放弃", "carried_over": "顺延"},
    CitationSource: {"S2": "S2", "OpenAlex": "OpenAlex"},
}

# --------------------------------------------------------------------------- checked strings
#
# Every constraint on a single value is written once, as a pattern or a bound, and goes both into
# the check (the validators below) and into the JSON Schema editors validate against (the
# ``json_schema_extra`` of each type), so an editor's squiggle and ``digest check`` agree.  The
# patterns are written in the subset of regular expressions Python and ECMA-262 (what JSON Schema
# tools use) read alike: ``[0-9]``, not ``\d``, which in Python also matches full-width digits.

SLUG = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
SECTION = re.compile(r"^[1-9][0-9]?(?:\.[1-9][0-9]?)?$")
ROUND = re.compile(r"^E[1-9]$")
BRIEF_ID = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}-[a-z0-9]+(?:-[a-z0-9]+)*-E[1-9]$")
DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
CODE = re.compile(r"^[a-z][a-z0-9_]*$")
"""A word of an open vocabulary, as YAML holds it (``not_reproduced``)."""

_MONTH = r"(?:0[1-9]|1[0-2])"
ARXIV = re.compile(
    r"^(?:"
    rf"(?:0[0-9]|1[0-4]){_MONTH}\.[0-9]{{4}}"  # YYMM.NNNN before 2015
    rf"|(?:1[5-9]|[2-9][0-9]){_MONTH}\.[0-9]{{5}}"  # YYMM.NNNNN from 2015
    r"|[a-z-]+(?:\.[A-Z]{2})?/[0-9]{7}"  # archive(.SUBJ)/YYMMNNN before April 2007
    r")(?:v[1-9][0-9]*)?$"
)
"""What :func:`arxiv.digits_problem` and :data:`arxiv.ID` accept together, as one pattern (for the
schema), in ASCII digits only: ``arxiv.ID`` uses ``\\d``, which lets ``１６０５.０８８０３`` through in
Python, and such an id would be linked and numbered as another paper than 1605.08803."""

MAX_URL = 2000
"""Longer than any source link a brief needs (browsers and servers start refusing around 2,000)."""
NETLOC_LOOKALIKES = (
    r"\u2047\u2048\u2049\u2100\u2101\u2105\u2106\u2a74\ufe13\ufe16"
    r"\ufe55\ufe56\ufe5f\ufe6b\uff03\uff0f\uff1a\uff1f\uff20"
)
"""The characters NFKC turns into one of ``/?#@:`` (``／`` ``：`` …): ``urlsplit`` refuses them in a
host, since a browser would read them as the ASCII ones (a test recomputes the list)."""
_URL_HOST = rf"""(?:\[[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*\]|[^\s<>"'`/?#@\[\]\\:%{NETLOC_LOOKALIKES}]+)"""
_URL_PORT = r"(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})?)?"
_ENCODED_CONTROL = r"%(?:[01][0-9A-Fa-f]|7[Ff])"
"""A control character percent-encoded (``%0D%0A``, ``%00``, ``%7F``)."""
HTTP_URL = re.compile(
    rf"""^(?!.*{_ENCODED_CONTROL})https?://(?![^/?#]*@){_URL_HOST}{_URL_PORT}(?:[/?#][^\s<>"'`]*)?$"""
)
"""An absolute http(s) URL the renderer can read: a host (a name or a bracketed IPv6 address, no
credentials, no backslash, nothing percent-encoded), a port up to 65535, then anything but spaces,
quotes and ``<>``; no control character percent-encoded anywhere (``%0D%0A``)."""

MATERIAL_PATH = re.compile(r"^(?![A-Za-z]:)(?![/\\])(?!(?:.*/)?\.\.(?:/|$))[^\\\x00-\x1f]+$")
"""A relative path in the team's store, written with ``/``: no leading ``/``, no ``..`` segment, no
drive letter (``C:``), no backslash (a Windows path names no file on the build machine)."""

YEAR_FROM = 1990
"""arXiv opened in 1991: a citation year before 1990 is a typo (or not an arXiv paper)."""


def refuse(message: str, hint: str | None = None) -> PydanticCustomError:
    """A validation error whose finding carries ``hint`` (see ``load._message``)."""
    return PydanticCustomError("digest", message, {"hint": hint} if hint else None)


def _matches(pattern: re.Pattern[str], what: str, example: str) -> Callable[[str], str]:
    """A validator that lets through only values the whole of which match ``pattern``."""

    def check(value: str) -> str:
        if not pattern.fullmatch(value):
            raise ValueError(f"{value!r} is not a valid {what} (write it like {example!r})")
        return value

    return check


def _schema(pattern: re.Pattern[str], **more: Any) -> Any:
    """``pattern`` (and any other keywords) for the JSON Schema of a type, to put in ``Annotated``."""
    return Field(json_schema_extra={"pattern": pattern.pattern, **more})


CONTROL = re.compile(r"[\x00-\x1f\x7f]")
ENCODED_CONTROL = re.compile(_ENCODED_CONTROL)


def _http_url(value: str) -> str:
    """Only absolute http(s) links that the renderer can read reach the page.

    The renderer reads a source URL with ``urlsplit`` (``.hostname``, ``.port``); whatever makes
    that raise (``http://[::1``, a port past 65535) is refused here rather than at render time.
    Credentials are refused too: the site never shows them, so they only leak through the data."""
    if len(value) > MAX_URL:
        raise refuse(
            f"URL is {len(value):,} characters long; a source URL has at most {MAX_URL:,}",
            "link the page itself, not a search or tracking URL",
        )
    if not re.fullmatch(r"https?://[^\s<>\"'`]+", value):
        raise ValueError(f"{value!r} is not an http(s) URL; only links starting with http:// or https:// are allowed")
    try:
        parts = urlsplit(value)
        host = parts.hostname
        _ = parts.port
    except ValueError as exc:
        raise refuse(f"{value!r} cannot be read as a URL ({exc})", "check the brackets and the port") from None
    if CONTROL.search(value) or ENCODED_CONTROL.search(value):
        raise refuse(
            f"{value!r} holds a control character (or one percent-encoded: %00–%1F, %7F)",
            "link the page itself; a line break or NUL in a link is never meant",
        )
    if "%" in parts.netloc:
        raise refuse(
            f"{value!r} has a percent-encoded character in its host", "write the host plainly: https://host/path"
        )
    if "@" in parts.netloc:
        raise refuse(f"{value!r} carries credentials (user:password@)", "remove them: link the public page")
    if not host:
        raise refuse(f"{value!r} names no host", "write the full link, https://host/path")
    if not host.isascii():
        try:
            host.encode("idna")
        except UnicodeError:
            raise refuse(f"host {host!r} cannot be written in punycode", "check the host name") from None
    if not HTTP_URL.fullmatch(value):
        raise refuse(f"{value!r} cannot be read as a URL", "write it as https://host[:port]/path")
    return value


def not_public(host: str) -> str | None:
    """Why ``host`` names no public address (``localhost``, or an IP address that is not global:
    loopback, link-local, private, reserved), or None.  The one test: the rules warn about such a
    source URL and the renderer names it without a link."""
    if host == "localhost" or host.endswith(".localhost"):
        return "this machine"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if address.is_global:
        return None
    for kind in ("loopback", "link_local", "private"):
        if getattr(address, f"is_{kind}"):
            return kind.replace("_", "-")
    return "reserved"


def _material_path(value: str) -> str:
    """Material paths name files in the team's store; they must not climb out of it, and must name
    the same file on every machine (a Windows path does not)."""
    if not value:
        raise refuse("material path is empty", "write the path of the file in the store, e.g. inbox/jay/brief.md")
    if "\\" in value or re.match(r"[A-Za-z]:", value):
        raise refuse(
            f"{value!r} is a Windows path",
            "write the path inside the store with '/' and no drive letter, e.g. inbox/jay/brief.md",
        )
    if not MATERIAL_PATH.fullmatch(value):
        raise ValueError(f"{value!r} is not a relative material path inside the store (no leading '/', no '..')")
    return value


def _iso_date(value: Any) -> Any:
    """Dates are written YYYY-MM-DD: pydantic alone would also read ``0`` as 1970-01-01 (a Unix
    time) and ``2026-10-21T00:00:00`` as a date, which the schema (and a reader) would not."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value  # (a date made in Python: the importer's drafts)
    if isinstance(value, str) and DATE.fullmatch(value):
        return value
    raise refuse(f"{value!r} is not a date", "write it as YYYY-MM-DD, e.g. 2026-10-21")


def _figure_value(value: Any) -> Any:
    """A figure is a number or a short text; never a list, a map, true/false or NaN/infinity (which
    a chart cannot place and JSON cannot hold)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise refuse(f"{value!r} is not a number or a text", "write a number (155) or a short text")
    if isinstance(value, float) and not math.isfinite(value):
        raise refuse(f"{value!r} is not a finite number", "write the number itself")
    return value


def _year(value: int) -> int:
    if value < YEAR_FROM:
        raise refuse(f"year {value} is before {YEAR_FROM} (arXiv opened in 1991)", "write the year the paper appeared")
    return value


Slug = Annotated[str, AfterValidator(_matches(SLUG, "id", "llm-d-1-0")), _schema(SLUG)]
BriefId = Annotated[str, AfterValidator(_matches(BRIEF_ID, "brief id", "2026-10-21-inference-E1")), _schema(BRIEF_ID)]
SectionNo = Annotated[str, AfterValidator(_matches(SECTION, "section number", "3.1")), _schema(SECTION)]


def _words_of(kind: str) -> Any:
    """The schema of a word of the open vocabulary ``kind``: any code here (:mod:`check` holds it
    against the site's vocabulary file, which a brief alone cannot see); ``digest schema`` turns
    the marker into the list of the site's words, so an editor's completion offers them."""
    return Field(json_schema_extra={"pattern": CODE.pattern, "x-vocabulary": kind})


_is_code = AfterValidator(_matches(CODE, "vocabulary code", "not_reproduced"))
ValueRating = Annotated[str, _is_code, _words_of("value_ratings")]
EvidenceLevel = Annotated[str, _is_code, _words_of("evidence_levels")]
SourceKind = Annotated[str, _is_code, _words_of("source_kinds")]
Gap = Annotated[str, _is_code, _words_of("gaps")]
Disposition = Annotated[str, _is_code, _words_of("dispositions")]


def _arxiv_digits(value: str) -> str:
    if problem := arxiv.digits_problem(value):
        raise ValueError(problem)
    if not ARXIV.fullmatch(value):  # full-width digits, which arxiv.ID (\d) lets through
        raise ValueError(f"{value!r} is not a valid arXiv id (write it in ASCII digits, like '1605.08803')")
    return value


ArxivId = Annotated[
    str,
    AfterValidator(_matches(arxiv.ID, "arXiv id", "1605.08803")),
    AfterValidator(_arxiv_digits),
    _schema(ARXIV),
]
HttpUrl = Annotated[str, AfterValidator(_http_url), _schema(HTTP_URL, maxLength=MAX_URL)]

DOI = re.compile(r"^10\.\d{4,9}/[-._;()/:A-Za-z0-9<>\[\]+]+$")
"""A DOI as Crossref hands them out: ``10.`` a registrant of four to nine digits, ``/`` and a suffix
without spaces, quotes, ``%``, ``#`` or ``?`` (it goes into ``https://doi.org/<doi>`` as it is)."""
Doi = Annotated[str, AfterValidator(_matches(DOI, "DOI", "10.48550/arXiv.1605.08803")), _schema(DOI)]
MaterialPath = Annotated[str, AfterValidator(_material_path), _schema(MATERIAL_PATH)]
Date = Annotated[dt.date, BeforeValidator(_iso_date), _schema(DATE)]
# Numbers and booleans are strict (StrictInt, StrictBool): YAML 1.2 reads ``"155"`` and ``yes`` as
# text, and the schema (``integer``, ``boolean``) refuses them; lax validation would quietly turn
# them into 155 and True here, and ``digest check`` would pass what an editor's schema refuses.
Count = Annotated[StrictInt, Field(ge=0)]
Number = Annotated[StrictInt, Field(ge=1)]
Year = Annotated[StrictInt, AfterValidator(_year), Field(json_schema_extra={"minimum": YEAR_FROM})]
FigureValue = Annotated[StrictInt | StrictFloat | StrictStr, BeforeValidator(_figure_value)]


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


def _requires_when(key: str, value: str, needed: str) -> dict[str, Any]:
    """The JSON Schema of a model validator: when ``key`` is ``value``, ``needed`` must be given."""
    return {
        "if": {"properties": {key: {"const": value}}, "required": [key]},
        "then": {"properties": {needed: {"type": "string"}}, "required": [needed]},
    }


class Model(BaseModel):
    """Strict base: unknown keys are errors, so a typo in a key never silently loses data."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


# --------------------------------------------------------------------------- brief


class MaterialRef(Model):
    """A material read in the round (a file in the team's store), with the anchor inside it."""

    path: MaterialPath
    anchor: str | None = None
    first_collected: Date | None = None
    last_collected: Date | None = None


class Sources(Model):
    materials: list[MaterialRef] = Field(default_factory=list)
    urls: list[HttpUrl] = Field(default_factory=list)


class Evidence(Model):
    """The evidence boundary (证据边界): how far the item was verified, from what, and what is missing."""

    level: EvidenceLevel
    source_kinds: list[SourceKind] = Field(default_factory=list)
    gaps: list[Gap] = Field(default_factory=list)
    boundary: Text | None = None
    """The 证据边界 as written; left out when the brief has none (the level is then 未核实, never a guess)."""


class Figure(Model):
    """A number or short value an item states about an entry, dated so its history can be shown."""

    key: Slug
    label: Text
    value: FigureValue
    unit: str | None = None
    as_of: Date | None = None
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
    """Where the item goes in the living doc (建议归入), and how.

    ``section`` is left out only when the item goes nowhere (``not_placed``, ``citation_refresh``,
    ``duplicate``): a brief legitimately keeps some items out of the doc, and the model has a word
    for that rather than an empty § number that fails the check."""

    section: SectionNo | None = None
    action: PlacementAction
    entry: Slug | None = None
    entry_title: str | None = None
    section_title: str | None = None
    """The title of the section a ``new_section`` placement opens (新建 §2.6「…」)."""
    after: Slug | None = None
    alternatives: list[Alternative] = Field(default_factory=list)
    cross_refs: list[CrossRef] = Field(default_factory=list)
    as_conclusion: StrictBool = False
    """The brief asks to write this as a conclusion (定论), not as a lead; evidence rules apply."""
    duplicate_of: Slug | None = None
    """The earlier item this one repeats (``action: duplicate``)."""
    entries: list[Slug] = Field(default_factory=list)
    """Further entries the same in-place update changes (「一次发布碰到三个已有条目」): each shows it."""
    text: Text | None = None
    """The 建议归入 as written; left out when the brief has none (the item is then kept out of the doc
    until the editor places it)."""

    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                _requires_when("action", "update_in_place", "entry"),
                _requires_when("action", "new_section", "section_title"),
                _requires_when("action", "duplicate", "duplicate_of"),
                {
                    "if": {"properties": {"action": {"enum": ["not_placed", "citation_refresh", "duplicate"]}}},
                    "else": {"required": ["section"]},
                },
            ]
        }
    )

    @model_validator(mode="after")
    def _update_names_entry(self) -> Placement:
        if self.action.places and self.section is None:
            raise ValueError(
                f'a {self.action.value} placement names its section (section: "3.1"); '
                "an item kept out of the doc is action: not_placed"
            )
        if self.action is PlacementAction.duplicate and not self.duplicate_of:
            raise ValueError("a duplicate placement names the earlier item it repeats (duplicate_of: <item id>)")
        if self.duplicate_of is not None and self.action is not PlacementAction.duplicate:
            raise ValueError("duplicate_of belongs to action: duplicate")
        if self.entries and self.action is not PlacementAction.update_in_place:
            raise ValueError("entries (more entries updated in place) belong to action: update_in_place")
        if self.action is PlacementAction.update_in_place and not self.entry:
            raise ValueError("an update_in_place placement must name the existing entry it updates (entry: <id>)")
        if self.action is PlacementAction.new_section and not self.section_title:
            raise ValueError("a new_section placement gives the new section's title (section_title: …)")
        return self


class Item(Model):
    """One of the day's increments (条目)."""

    id: Slug
    number: Number
    mark: Text | None = None
    """How the brief's heading numbered it, when not 「条目 N」 (「#增1」, 「No.3」, 「A2」): a later night may
    name the item so, in its writer's numbering (「昨晚霁的 #增1」)."""
    title: Text
    value: list[ValueRating] = Field(default_factory=list)
    """The brief's value rating(s); briefs do omit it (none: the site shows 未评级, never a guess)."""
    sources: Sources
    points_note: str | None = None
    points: list[Text] = Field(default_factory=list)
    """The 要点; a brief may give none the importer can read (its text then stays in ``notes``)."""
    evidence: Evidence
    relation: Text | None = None
    """与活文档脉络的关系 as written; left out when the brief has none (never made up)."""
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
    number: Number
    mark: Text | None = None
    """How the brief numbered it, when with a numeral of its own (「❶」): a later night may name the
    contradiction so (「昨晚宁的 ❶」)."""
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
    count: Count
    as_of: Date | None = None


class Citation(Model):
    """An arXiv paper the brief lists as citable (可引用的 arXiv 号)."""

    arxiv: ArxivId
    title: Text
    year: Year | None = None
    authors: list[Text] = Field(default_factory=list)
    """As the brief gives them (none: the card and the bibliography show none, never a guess)."""
    venue: Text | None = None
    card: MaterialPath | None = None
    card_topic: str | None = None
    cited_by: list[CitedBy] = Field(default_factory=list)
    openalex_id: str | None = None
    doi: Doi | None = None
    oa_status: str | None = None
    verified: StrictBool = False
    """Only ``true`` or ``false``: YAML 1.2 reads ``yes``/``no`` as text, and a lax bool would turn
    ``no`` into False and ``"yes"`` into True behind the editor's back."""
    use_note: str | None = None
    down_weighted_by: Slug | None = None
    refresh: StrictBool = False
    """The paper was cited before; this brief lists it again only to give new counts."""
    withdrawn: StrictBool = False
    """Its authors withdrew it (arXiv withdrawal): it keeps its number and is shown 已撤稿 from this
    brief on; a conclusion that rests on it gets a warning."""


class FollowUp(Model):
    id: Slug
    number: Number
    mark: Text | None = None
    """How the brief's list numbered it, when with a label of its writer's (「T4」, 「N1」): a later night may
    name the follow-up so (「昨晚宁的交班单里，T4 完工」)."""
    round: Annotated[str, AfterValidator(_matches(ROUND, "round", "E2")), _schema(ROUND)]
    text: Text
    items: list[Slug] = Field(default_factory=list)
    status: FollowUpStatus = FollowUpStatus.open


class Correction(Model):
    """What a contradiction showed to be wrong: a figure (``key``) or a withheld claim (``claim``),
    the wrong value, the right one, and why."""

    key: Slug | None = None
    """The figure (``figures[].key``) the correction is about."""
    claim: Text | None = None
    """Or the withheld claim (``withheld[].text`` of the contradiction) it is about: the claim
    stays withheld for good, and the register shows what it was corrected to."""
    old: FigureValue
    new: FigureValue
    reason: Text
    label: str | None = None
    unit: str | None = None
    item: Slug | None = None
    """The item that stated the wrong value, where the contradiction touches several."""
    entry: Slug | None = None
    """The living-doc entry that holds the figure, where the contradiction touches several."""

    model_config = ConfigDict(json_schema_extra={"oneOf": [{"required": ["key"]}, {"required": ["claim"]}]})

    @model_validator(mode="after")
    def _names_what(self) -> Correction:
        if (self.key is None) == (self.claim is None):
            raise ValueError(
                "a correction names the figure (key: …) or the withheld claim (claim: …) it corrects, one of them"
            )
        return self


class ContradictionUpdate(Model):
    """A later brief resolves, re-opens or supersedes a contradiction of an earlier one.

    A resolution says how it was settled (``outcome``): the withheld claim was *confirmed* (it may
    now be published) or *corrected* (it never may: ``corrections`` name the wrong figure and the
    right one, and the wrong value disappears from the entry's values and chart)."""

    contradiction: Slug
    change: ContradictionChange
    text: Text
    superseded_by: Slug | None = None
    outcome: Outcome | None = None
    corrections: list[Correction] = Field(default_factory=list)
    disposition: Disposition | None = None
    """What the team now does with a re-judged (``redisposed``) contradiction."""
    number: Number | None = None
    """Its place in this brief's contradiction list, where the brief restates it as a numbered
    line: a later "10-27 矛盾 2" then finds it."""

    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                _requires_when("change", "superseded", "superseded_by"),
                _requires_when("change", "redisposed", "disposition"),
            ]
        }
    )

    @model_validator(mode="after")
    def _superseded_names_successor(self) -> ContradictionUpdate:
        if self.change is ContradictionChange.superseded and not self.superseded_by:
            raise ValueError("a superseded contradiction must name its successor (superseded_by: <contradiction id>)")
        if self.outcome is not None and self.change is not ContradictionChange.resolved:
            raise ValueError("an outcome says how a resolved contradiction was settled: use it with change: resolved")
        if self.outcome is Outcome.corrected and not self.corrections:
            raise ValueError("a corrected contradiction names what it corrects (corrections: - key, old, new, reason)")
        if self.corrections and self.outcome is not Outcome.corrected:
            raise ValueError("corrections belong to a contradiction resolved with outcome: corrected")
        if self.change is ContradictionChange.redisposed and not self.disposition:
            raise ValueError("a re-judged contradiction names its new disposition (disposition: <code>)")
        if self.disposition is not None and self.change is not ContradictionChange.redisposed:
            raise ValueError("a new disposition belongs to change: redisposed")
        return self


class FollowUpUpdate(Model):
    """A later brief closes a follow-up: done, dropped, or carried over to the next round."""

    follow_up: Slug
    status: FollowUpStatus
    note: str | None = None
    number: Number | None = None
    """Its place in this brief's follow-up list, where the brief restates it (① … 顺延)."""

    model_config = ConfigDict(
        json_schema_extra={"if": {"properties": {"status": {"const": "open"}}, "required": ["status"]}, "then": False}
    )

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


class SectionRename(Model):
    """A brief renames a section: it keeps its number and anchors, the old title goes to its history."""

    section: SectionNo
    title: Text
    text: Text
    """The brief's words."""


class EntryMove(Model):
    """A brief moves an entry to another section: it keeps its id and history; the section it left
    says where it went, and old links still land on it."""

    entry: Slug
    to: SectionNo
    text: Text


class EntrySplit(Model):
    """A brief splits an entry in two (or more): the parts are this brief's items, each placed as a
    new entry; the old entry keeps its history and every part points to the others."""

    entry: Slug
    into: list[Slug] = Field(min_length=2)
    text: Text


class Erratum(Model):
    """A correction of an earlier brief itself (勘误): shown on both briefs' pages and applied to what
    the earlier brief placed, dated by the brief that corrects."""

    brief: BriefId
    item: Slug | None = None
    old: Text
    new: Text
    text: Text


class BackRef(Model):
    """A reference in the brief's text to something an earlier brief said, and what it names.

    Kept so a reviewer can check every resolution the importer (or an editor) made: 「10-21 矛盾清单
    2」 → contradiction ``modelexpress-vllm-version`` of ``2026-10-21-inference-E1``."""

    text: Text
    """The reference as written."""
    part: Annotated[str, Field(pattern=r"^(items|contradictions|citations|conclusions|follow_ups)$")]
    at: StrictStr | StrictInt
    """Where in that part: an item or contradiction id, a list number, ``note``, or a conclusion's
    1-based index."""
    kind: Annotated[str, Field(pattern=r"^(item|contradiction|follow_up|entry|section|citation)$")]
    brief: BriefId
    id: Text


QUESTION_AT = re.compile(r"^[a-z_]+(?:\[[0-9]+\]|\.[a-z_]+)*$")
_AT_STEP = re.compile(r"([a-z_]+)|\[([0-9]+)\]")


def place_path(at: str) -> list[str | int]:
    """A place as keys and list indexes: ``items[2].placement`` → ``["items", 2, "placement"]``."""
    return [int(index) if index else key for key, index in _AT_STEP.findall(at)]


"""Where a question's answer writes, as ``digest check`` names places: ``items[2].placement``."""

AnswerValue = StrictStr | StrictInt | StrictBool | list[StrictStr] | list[dict[str, StrictStr | list[StrictStr]]] | None
"""What an answer writes: a word, a number, a flag, a list of words, or a list of small mappings
(the claims a contradiction withholds: ``[{text: …, patterns: […]}]``)."""


class Choice(Model):
    """One answer to an importer's question: what the editor reads, and what choosing it writes."""

    label: Text
    set: dict[Annotated[str, Field(pattern=r"^[a-z_]+$")], AnswerValue] = Field(default_factory=dict)
    """Keys of the value at the question's ``at`` and their new values; ``null`` removes a key."""


class Question(Model):
    """A reading the importer could not decide, put to the editor (``digest review``).

    Until it is answered, the data holds the safe reading (``reading``): the one that publishes
    nothing new — a claim stays withheld, an update that cannot be attached is a lead in the named
    section.  The site shows the question as 待编辑确认 and publishes the safe reading."""

    id: Slug
    at: Annotated[str, AfterValidator(_matches(QUESTION_AT, "place", "items[2].placement")), _schema(QUESTION_AT)]
    ask: Text
    reading: Text
    """What the data says until the question is answered (the safe reading)."""
    context: str | None = None
    """The brief's own words the question is about."""
    line: Number | None = None
    """The line of the Markdown brief it comes from."""
    choices: list[Choice] = Field(min_length=1)
    """Ranked, the likeliest first."""

    @property
    def path(self) -> list[str | int]:
        return place_path(self.at)


class Job(Model):
    checklist: str | None = None
    job_id: str | None = None
    item: str | None = None


class DocRef(Model):
    """A reference version the round read against (the living doc, the work queue)."""

    path: MaterialPath
    version: str | None = None
    reference_count: Count | None = None


class Brief(Model):
    """A day's brief, as the team writes it."""

    schema_: StrictInt = Field(1, alias="schema", ge=1, le=1)
    id: BriefId
    topic: Slug
    round: Annotated[str, AfterValidator(_matches(ROUND, "round", "E1")), _schema(ROUND)]
    round_label: str | None = None
    title: Text
    date: Date
    written_at: str | None = None
    author: str | None = None
    job: Job = Field(default_factory=Job)
    materials_read: Count | None = None
    materials_note: str | None = None
    materials: list[MaterialRef] = Field(default_factory=list)
    living_doc: DocRef | None = None
    queue: DocRef | None = None
    scope: str | None = None
    items_heading: str | None = None
    items: list[Item] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    contradictions_note: str | None = None
    """What part 二 says outside its numbered list (「延续：…」, 「今日无矛盾。」)."""
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
    section_renames: list[SectionRename] = Field(default_factory=list)
    moves: list[EntryMove] = Field(default_factory=list)
    splits: list[EntrySplit] = Field(default_factory=list)
    errata: list[Erratum] = Field(default_factory=list)
    back_refs: list[BackRef] = Field(default_factory=list)
    questions: list[Question] = Field(default_factory=list)
    """What the importer asks the editor (``digest review``); each shows as 待编辑确认 until answered."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    def questions_on(self, item: Item) -> list[Question]:
        """The open questions about one of this brief's items (``at`` inside ``items[i]``)."""
        if not self.questions:
            return []
        index = next((i for i, x in enumerate(self.items) if x.id == item.id), None)
        return [q for q in self.questions if index is not None and re.match(rf"items\[{index}\](?![0-9])", q.at)]


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


# --------------------------------------------------------------------------- vocabulary file

VOCABULARIES: dict[str, str] = {
    "value_ratings": "a value rating",
    "evidence_levels": "an evidence level",
    "source_kinds": "a source kind",
    "gaps": "an evidence gap",
    "dispositions": "a disposition",
}
"""The open vocabularies a site keeps, by their key in the vocabulary file, and what a word is called."""


def _short_form(value: Any) -> Any:
    """``not_reproduced: 未复现`` is the short way to write ``{label: 未复现}``."""
    return {"label": value} if isinstance(value, str) else value


def _vocabulary_code(value: str) -> str:
    if not CODE.fullmatch(value):
        raise refuse(
            f"{value!r} is not a vocabulary code",
            "write it in lower-case ASCII words joined by '_', e.g. not_reproduced",
        )
    return value


class Word(Model):
    """One word: the label readers see, what it means, and other spellings briefs use for it."""

    label: Annotated[str, Field(min_length=1)]
    meaning: str | None = None
    aliases: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)
    """Other ways the team writes it in a brief (未在本地复现 for 未复现): the importer reads them."""
    kind: str | None = None
    """Dispositions only: what a callout with this disposition is, in a word readers see first
    (矛盾, 待核实, 不入活文档, 降权); without it a callout is a 矛盾."""
    style: Annotated[str, Field(pattern=r"^[a-z]+$")] | None = None
    """Dispositions only: the Material admonition type its open callouts take (``warning``,
    ``danger``, ``question``, ``info``, ``failure`` …: its colour and icon); ``warning`` without it."""


Words = dict[Annotated[str, AfterValidator(_vocabulary_code)], Annotated[Word, BeforeValidator(_short_form)]]

WORDING_ACTS: dict[str, str] = {
    # 建议归入: how an item goes into the doc
    "update_in_place": "an in-place update of an entry the doc has (原地更新)",
    "mount_lead": "a lead line hung under an entry (挂线索)",
    "footnote": "a footnote (小注)",
    "new_sub_entry": "a new entry (新增子条目)",
    "cross_reference": "a cross-reference from another section (交叉引用)",
    "not_placed": "kept out of the doc, only in the brief's record (不入活文档)",
    "citation_refresh": "only a paper's metadata refreshed, no entry (只刷新元数据)",
    "duplicate": "the same event as an earlier item, not filed twice (不重复入档)",
    # what happened to an earlier contradiction
    "reopened": "an earlier contradiction opened again (重开)",
    "corrected": "settled: the claim was wrong, corrected (更正)",
    "superseded": "replaced by tonight's contradiction (取代)",
    "redisposed": "re-judged: something else is done with it (改判)",
    "confirmed": "settled: the claim held up, a withheld claim may be written (证实)",
    "kept": "restated, nothing changes (维持)",
    "resolved": "settled, without saying how (结案)",
    # what happened to an earlier follow-up
    "follow_up_dropped": "a follow-up given up (放弃)",
    "follow_up_carried": "a follow-up carried over to the next round (顺延)",
    "follow_up_done": "a follow-up done (完成)",
    # the rest
    "retracted": "an earlier item withdrawn (撤回)",
    "replaced_by_this": "the retracted item is replaced by the item that says so (由本条替代)",
    "withheld": "a claim kept out of the doc until settled (不上活文档)",
    "withheld_until": "the condition a quoted claim waits for, right before it (…之前，「claim」)",
    "yesterday": "the night before tonight, when a brief points back (昨天, 昨晚)",
    "day_before": "the night before that (前天)",
    "three_back": "three nights before tonight (大前天)",
    "previous_round": "the round before this one (前一轮)",
    "days_ahead": "a night to come, when a list is handed on (明天, 下一轮)",
    "renamed": "a section renamed, its number kept (改名为「…」)",
    "moved": "an entry moved to another section (挪到 §…)",
    "split": "an earlier entry split in two or more, each part one of tonight's items (一分为二)",
    "erratum": "a correction of an earlier brief itself, at the start of its paragraph (勘误：…)",
    "corrected_to": "the words between what an earlier brief wrote wrong and what is right (「旧」应为「新」)",
    "field_sources": "another label for an item's 来源 (出处)",
    "field_points": "another label for an item's 要点",
    "field_evidence": "another label for an item's 证据边界 (边界)",
    "field_relation": "another label for an item's 与活文档脉络的关系 (关系)",
    "field_placement": "another label for an item's 建议归入 (归入)",
    "field_aside": "another label for an item's aside, kept in its notes (顺带)",
    "withdrawn": "a cited paper withdrawn by its authors (撤稿)",
    "source_noun": "the last word of a kind of source an evidence boundary opens with (纪要, 回复, 公告)",
}
"""The acts the importer reads a brief's wording for.  The acts are the code's (it acts on them);
the phrases that say them are the team's, in ``wordings:`` of the vocabulary file."""


def _wording_act(value: str) -> str:
    if value not in WORDING_ACTS:
        raise refuse(
            f"{value!r} is not an act the importer reads",
            "use one of: " + ", ".join(WORDING_ACTS),
        )
    return value


Wordings = dict[
    Annotated[str, AfterValidator(_wording_act)], list[Annotated[str, Field(min_length=1), AfterValidator(str.strip)]]
]


def _month_day(value: str) -> str:
    """「12-24」: a month and a day that some year has (02-29 included)."""
    refused = refuse(f"{value!r} is not a month and day", 'write it as "MM-DD", quoted: "12-24"')
    m = re.fullmatch(r"(\d{2})-(\d{2})", value)
    if m is None:
        raise refused
    try:
        dt.date(2000, int(m[1]), int(m[2]))  # a leap year: 02-29 is a day
    except ValueError:
        raise refused from None
    return value


MonthDay = Annotated[StrictStr, AfterValidator(_month_day)]


class LevelWords(Model):
    """One row of ``levels_from_boundary``: words in a 证据边界 that set an item's evidence level."""

    level: Annotated[str, AfterValidator(_vocabulary_code)]
    """A code of ``evidence_levels`` (``digest check`` refuses a level the vocabulary lacks)."""
    words: list[Annotated[str, Field(min_length=1), AfterValidator(str.strip)]] = Field(min_length=1)


class VocabularyFile(Model):
    """``data/vocabulary.yml`` (or the ``vocabulary:`` block of an outline, which adds to it)."""

    schema_: StrictInt = Field(1, alias="schema", ge=1, le=1)
    value_ratings: Words = Field(default_factory=dict)
    evidence_levels: Words = Field(default_factory=dict)
    """From the most solid to the least: the order is the rank."""
    source_kinds: Words = Field(default_factory=dict)
    gaps: Words = Field(default_factory=dict)
    dispositions: Words = Field(default_factory=dict)
    wordings: Wordings = Field(default_factory=dict)
    """The phrases briefs use for each act the importer reads (``confirmed: [证实, 坐实, 落实]``): a new
    wording is a line here, not a change to the code."""
    named_days: dict[Annotated[str, Field(min_length=1), AfterValidator(str.strip)], MonthDay] = Field(
        default_factory=dict
    )
    """Days a brief names by a name, not a date (``平安夜: "12-24"``, ``元旦: "01-01"``): the importer reads
    「平安夜岑的第 3 条」 as the brief of that day (of this year, or the year before when it is still to come)."""
    levels_from_boundary: list[LevelWords] | None = None
    """What a 证据边界 says about how far an item was checked, and the level it sets: tried top to
    bottom, the first row with a word in the boundary (or the points) wins, so the team decides
    whether 全文已读 means 部分核查 and which word wins when a boundary says two things
    (「仅读搜索摘要……未核实」 is 线索级).  None: the package's rows."""
    source_kinds_by_host: (
        dict[Annotated[str, Field(min_length=1)], Annotated[str, AfterValidator(_vocabulary_code)]] | None
    ) = None
    """Which kind of source a link is, by its host (``arxiv.org: paper``): the importer's reading of a
    source line; a host matches itself and its subdomains.  None: the package's rules."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Outline(Model):
    """The skeleton of one topic's living doc: sections, and the entries briefs refer to."""

    schema_: StrictInt = Field(1, alias="schema", ge=1, le=1)
    topic: Slug
    title: Text
    doc: DocRef
    stated_in: BriefId
    sections: list[Section]
    entries: list[Entry] = Field(default_factory=list)
    vocabulary: VocabularyFile | None = None
    """Words this topic adds to the site's ``data/vocabulary.yml``."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# --------------------------------------------------------------------------- editorial rules


class Rules(BaseModel):
    """Defaults follow the team's practice in the 2026-10-21 brief."""

    model_config = ConfigDict(extra="forbid")

    no_conclusion_levels: list[str] = ["lead", "unverified", DISCARD]
    """Evidence levels (codes of the vocabulary) too weak to carry a conclusion (定论)."""
    no_conclusion_sources: list[str] = ["vendor_self_report"]
    """Source kinds that cannot carry a conclusion on their own."""
    gain_totals: dict[str, str] = {"weekly-gain": "stars"}
    """A figure (key) that counts a gain over a period, and the total (key) it cannot exceed."""
    citation_count_factor: float = Field(3.0, gt=1)
    """Warn when two sources' cited-by counts differ by more than this factor."""
    archive_after_days: int = Field(21, ge=1)
    """Entries, contradictions, follow-ups, citations and briefs whose last activity is older than
    this (counted back from the newest brief) move to per-month archive pages, so the main pages
    stay light however many years the doc runs.  Three weeks: at the team's pace (7 items and 10
    contradictions a night) the heaviest main page, the register, stays under 500 KB (at 60 days
    it held some 600 contradictions, 1.2 MB)."""
    allow_future_dates: bool = False
    """Accept briefs dated after today (synthetic benchmark data; never for the team's own)."""
    hide_discarded: bool = True
    """Discarded (丢弃级) contradictions and items stay off the §1–§6 pages; the register keeps them."""

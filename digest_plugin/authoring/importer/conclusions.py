"""Part 四, conclusions and the follow-up list."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ...core.model import FollowUpStatus
from ...core.vocabulary import fold
from . import lists
from .backrefs import History
from .common import (
    BULLET,
    HEADING_NIGHT,
    Code,
    Draft,
    Line,
    Part,
    one_line,
    own_labels,
    shared_run,
    split_outside,
    strip_end,
    without_asides,
)
from .earlier import night_before
from .markdown import list_entries
from .numbers import small_number
from .updates import last_status
from .words import conclusion_ratings

# --- follow-ups
FOLLOW_UPS = re.compile(
    r"^(?P<heading>[^：:]{0,24}?(?:跟进的(?P<count>[^：:]*?)件?事?|的(?P<count2>[一二三四五六七八九十两\d]+)件事"
    r"|待办(?:[（(][^）)]*[）)])?|(?:待|需要?)跟进(?:事项|项)?|留给[^：:]{0,6}|要做|后续|要收尾的?))\s*[：:]\s*(?P<body>.*)$",
    re.S,
)
"""The list that opens follow-ups, however it is headed: 需 E2 跟进的三件事, 交给明晚 E1 的三件事,
下轮待办（含顺延）, 明日待办, 留给周三, 下周一前要做, 后续, 本周要收尾的."""
STATUS_LIST = re.compile(
    r"^(?P<heading>(?![^：:]*新)[^：:]{0,16}(?:跟进(?:情况|盘点|清点|结算)?|顺延清单|收尾与遗留))\s*[：:]"
)
"""A list that only reports what became of earlier follow-ups (跟进盘点, 顺延清单 …): its lines stay
conclusions, where the back-references are read; its heading is kept.  A heading that says 新
(新跟进, 新增跟进) opens tonight's list instead."""
BARE_FOLLOW_UPS = re.compile(r"^(?:待|需要?)?跟进(?:事项|项)?$")
"""「五、跟进」, 「### 跟进事项」: a heading of one word may head a report or tonight's list.  Over a list that ends
part 四 and says no status, it is tonight's list, each entry asked (:func:`_last_list_as_follow_ups`)."""
EARLIER_IN_HEADING = re.compile(rf"{HEADING_NIGHT}|昨|前天|前一轮|上一?轮|上周")
"""A heading that names an earlier night (10-21 交给 E2 的三件事) heads what became of that night's
list, not a new one."""
ROUND_IN_HEADING = re.compile(r"\bE(?P<n>\d)\b")
RESTATED = re.compile(r"顺延|同前|继续")
"""A line of a new list that carries an earlier follow-up on (① 本地复现长 prefill 冻结（顺延，内容同前））."""


NEW_MARK = re.compile(r"^新增\s*[：:]\s*")
"""「③ 新增：…」: the writer says the entry is new, whatever earlier follow-up it mentions."""


TASK_BOX = re.compile(r"^\[ ?\]\s*")
"""An open task box leading a line (「- [ ] 岑周一回来查…」): the list's form, not the follow-up's words."""

FOLLOW_UP_MARK = re.compile(r"[①②③④⑤⑥⑦⑧⑨⑩]|[（(]\d+[）)]")


def read_conclusions(
    part: Part,
    stem: str,
    round_: str | None,
    draft: Draft,
    today: dt.date | None = None,
    history: History | None = None,
) -> dict[str, Any]:
    """Bullets are conclusions, except "需 E2 跟进的三件事：①…②…③…", which holds the follow-ups; then
    the numbered lists by their shape (:mod:`.lists`): tonight's new follow-ups, and what became of
    an earlier night's."""
    blocks = (
        lists.block_lists(part.lines, history.follow_up_labels()) if today is not None and history is not None else []
    )
    taken = {n for b in blocks if not b.earlier for n in b.lines}  # tonight's list leaves the conclusions
    out = _read_bullets(
        Part(part.kind, part.heading, part.line, [x for x in part.lines if x.number not in taken]), stem, round_, draft
    )
    if today is None or history is None:
        return out
    _quoted_answers(out, draft)
    found = list(blocks)
    for i, text in enumerate(out["conclusions"]):
        line = draft.origins.get(("conclusions", i), part.line)
        if any(b.line == line for b in blocks) or FOLLOW_UPS.match(text):
            continue  # a heading of a list above, or a list the patterns above have read
        inline = lists.inline_lists(text, line)
        if STATUS_LIST.match(text):
            # 「跟进：…完工；…接着挂。交给明天的下一棒：（1）…」: a report, then a new list; only the list is new
            inline = [x for x in inline if not x.earlier and not STATUS_LIST.match(x.heading + "：")]
        found += inline
    last = night_before(draft.earlier, today)
    in_paragraph: list[str] = []  # the follow-ups read from a list inside a paragraph: a later list may displace them
    for numbered in sorted(found, key=lambda b: b.line):
        displaced = None
        if in_paragraph and not numbered.earlier and _collides(numbered, out, in_paragraph):
            displaced = _displace(out, in_paragraph, draft)
            in_paragraph = []
        read = {str(f["id"]) for f in out.get("follow_ups", [])}
        if not numbered.earlier and (night := history.night_dated(numbered.heading, today)) is not None:
            numbered.night = night  # 「平安夜岑的 (1)–(4)：」: that night's follow-ups, by their numbers
        elif last is not None and lists.reports_on_writer(numbered, last):
            numbered.night = last.date
            draft.warn(
                numbered.line,
                f"follow-ups: the list «{numbered.heading}» names {last.author}, who wrote {last.date.isoformat()[5:]}: "
                "read as what became of that night's follow-ups, by their numbers; check",
            )
        _numbered_list(numbered, out, stem, round_, today, history, draft)
        added = [i for i, f in enumerate(out.get("follow_ups", [])) if str(f["id"]) not in read]
        if not numbered.lines:
            in_paragraph += [str(out["follow_ups"][i]["id"]) for i in added]
        elif displaced is not None and not lists.hands_on(numbered.heading, draft.words.wording("days_ahead")):
            for i in added:
                draft.warn(
                    numbered.line,
                    f"follow-ups: «{one_line(displaced)[:40]}» above also numbers a list; the later list, «{numbered.heading}», "
                    "is read as tonight's follow-ups and the other stays a conclusion: check which one is",
                    ("follow_ups", i),
                )
    if not out.get("follow_ups"):
        _last_list_as_follow_ups(part, out, stem, round_, draft)
        if not out.get("follow_ups") and out.get("conclusions"):
            draft.warn(
                part.line,
                "follow-ups: no list for the next round was found in part 四 (every brief of the team's pattern "
                "ends on one); if this one has it, move its lines to follow_ups",
                ("conclusions",),
            )
    elif in_paragraph and len(in_paragraph) == len(out["follow_ups"]) and _trailing_list(part, draft) is not None:
        # 「今晚七条：①…⑦」 in a paragraph, then 「### W02-7 值守交接」 over the bullets that end part 四: the
        # inline run recaps tonight; the list the brief ends on is its next round
        displaced = _displace(out, in_paragraph, draft)
        _last_list_as_follow_ups(part, out, stem, round_, draft, displaced)
    return out


def _collides(numbered: lists.NumberedList, out: dict[str, Any], in_paragraph: list[str]) -> bool:
    """Whether a list of its own lines numbers an entry as a list inside a paragraph above did (「今晚六条：①…⑥」
    then 「### 交给周日」 with 1.–4.): two lists cannot both be tonight's follow-ups numbered 1, 2, 3."""
    numbers = {f["number"] for f in out.get("follow_ups", []) if str(f["id"]) in in_paragraph}
    return bool(numbered.lines) and any(entry.number in numbers for entry in numbered.entries)


def _displace(out: dict[str, Any], in_paragraph: list[str], draft: Draft) -> str:
    """The follow-ups a paragraph's inline list gave way to a later list of its own lines: in the team's
    pattern the brief ends on its list for the next round, and an inline run of ①②③ above it is a recap of
    tonight's items or conclusions.  The paragraph stays a conclusion, so nothing is lost; the editor is
    asked on each follow-up the later list gives (see :func:`read_conclusions`).  Returns the displaced text."""
    follow_ups = out["follow_ups"]
    kept = [i for i, f in enumerate(follow_ups) if str(f["id"]) not in in_paragraph]
    gone = [follow_ups[i] for i in range(len(follow_ups)) if i not in kept]
    origins = {i: draft.origins.pop(("follow_ups", i), None) for i in range(len(follow_ups))}
    draft.renumbered("follow_ups", kept)
    out["follow_ups"] = [follow_ups[i] for i in kept]
    for new, old in enumerate(kept):
        if (origin := origins[old]) is not None:
            draft.origins[("follow_ups", new)] = origin
    out.pop("follow_ups_heading", None)
    return "；".join(str(f["text"]) for f in gone)


def _last_list_as_follow_ups(
    part: Part, out: dict[str, Any], stem: str, round_: str | None, draft: Draft, displaced: str | None = None
) -> None:
    """No follow-up list read, yet part 四 ends in a list under a heading of its own (「### 明天接着做」 and
    「- …」 lines, unnumbered): the list a brief ends on is its next round in the team's pattern.  It is read
    as tonight's follow-ups, each asked about, rather than left among the conclusions, where no later night
    would find it and nothing would ask.  Not when the heading points back at an earlier night, or a line says
    what became of a follow-up: that is a report, and stays with the conclusions (:mod:`.unread` asks).

    ``displaced``: the text of an inline list read first, which this list displaced (it stays a conclusion):
    the question then names it, unless the heading hands the list to a night to come."""
    found = _trailing_list(part, draft)
    if found is None:
        return
    heading, title, texts = found
    taken = {heading.number} | {line.number for line, _ in texts}
    origins = [draft.origins.pop(("conclusions", i), None) for i in range(len(out["conclusions"]))]
    kept = [i for i, origin in enumerate(origins) if origin not in taken]
    for i in set(range(len(origins))) - set(kept):
        draft.settled(("conclusions", i))  # 「… is not a bullet」 said of the heading: it heads the list now
    draft.renumbered("conclusions", kept)
    out["conclusions"] = [out["conclusions"][i] for i in kept]
    for new, old in enumerate(kept):
        if (origin := origins[old]) is not None:
            draft.origins[("conclusions", new)] = origin
    out["follow_ups_heading"] = title
    follow_ups = out.setdefault("follow_ups", [])
    handed = lists.hands_on(title, draft.words.wording("days_ahead"))
    labels = own_labels([text for _, text in texts], LABELLED)
    for number, (line, text) in enumerate(texts, 1):
        draft.origins[("follow_ups", number - 1)] = line.number
        mark, text = labels[number - 1] if labels else (None, text)
        follow_ups.append(_opened(stem, number, round_ or "", text, mark))
        if handed:
            continue  # the heading hands the list to a night to come: follow-ups, nothing to ask
        why = (
            f"«{one_line(displaced)[:40]}» above also numbers a list, and stays a conclusion; "
            if displaced is not None
            else ""
        )
        draft.warn(
            line.number,
            f"follow-ups: {why}the list «{title}» that ends part 四 is read as tonight's follow-ups (numbered 1, 2, 3 … "
            "in order); if it holds conclusions instead, move it back",
            ("follow_ups", number - 1),
        )


LABELLED = re.compile(
    r"^(?P<word>[\u4e00-\u9fffA-Za-z]{1,4})(?P<sep>[-‐－]|\s?)(?P<n>\d{1,2})(?=\s*[〔［\[（(｜|:：\s])\s*(?P<text>.*)$"
)
"""「工单 1〔Jay〕…」, 「F-1〔Jay〕…」: a bullet led by the list's own label and its number."""


def _trailing_list(part: Part, draft: Draft) -> tuple[Line, str, list[tuple[Line, str]]] | None:
    """The bullets part 四 ends on, under a heading of their own that does not point back at an earlier
    night, most of them saying nothing of what became of a follow-up (a list for the next round may restate
    one or two carried on, 「（顺延）」; a report says it of most): (heading, its title, (line, text) of each)."""
    tail: list[Line] = []
    heading: Line | None = None
    nested = False  # 「- 后续：」 over indented bullets: the bullet heads them
    for line in reversed(part.lines):
        if not line.text.strip():
            continue
        indented = line.text.startswith((" ", "\t"))
        # the part's last bullets, all at the top level or all indented under the bullet above them
        if BULLET.match(line.text) and (indented if nested else not indented or not tail):
            nested = nested or indented
            tail.append(line)
            continue
        heading = line
        break
    head = lists.HEADING.match(heading.text) if heading is not None else None
    if heading is None or head is None or not tail or lists.ENTRY.match(heading.text):
        return None
    title = lists.heading_title(head)
    texts = [(line, strip_end(TASK_BOX.sub("", BULLET.match(line.text)["text"]))) for line in reversed(tail)]  # type: ignore[index]
    said = sum(last_status(text, draft.words) is not None for _, text in texts)
    if (
        lists.EARLIER.search(title)
        or (STATUS_LIST.match(title + "：") and not BARE_FOLLOW_UPS.match(title))
        or said * 2 > len(texts)
    ):
        return None
    return heading, title, texts


def _opened(stem: str, number: int, round_: str, text: str, mark: str | None = None) -> dict[str, Any]:
    """A follow-up tonight opens, as the YAML writes it (its label kept when the list gave it one)."""
    return {
        "id": Code(f"{stem}-f{number}"),
        "number": number,
        **({"mark": mark} if mark else {}),
        "round": Code(round_),
        "text": text,
        "status": FollowUpStatus.open,
    }


QUOTE = re.compile(r"^\s*>\s?")


def _quoted_answers(out: dict[str, Any], draft: Draft) -> None:
    """「> *** NEXT 接-1 周五钟的 H100 时段：…」 and under it 「办妥，见第 1 件。」: a writer quotes an earlier
    follow-up and answers it in the paragraph below.  The quote is that follow-up when it restates a
    good part of one open follow-up's text (and of no other); the answer's last follow-up word
    (``wordings: follow_up_*``) is its status.  An answer with no such word says nothing read here,
    and the follow-up stays for the editor's question (:mod:`.unread`).  The paragraphs stay conclusions."""
    conclusions = out["conclusions"]
    for quote, answer in zip(conclusions, [*conclusions[1:], ""][: len(conclusions)], strict=True):
        if not QUOTE.match(quote) or not answer or QUOTE.match(answer):
            continue
        target = _quoted_follow_up(QUOTE.sub("", quote), draft)
        status = last_status(answer, draft.words)
        if target is not None and status is not None:
            _add_update(out, {"follow_up": target, "status": status, "note": strip_end(answer)})


def _quoted_follow_up(quote: str, draft: Draft) -> str | None:
    """The one open earlier follow-up a quote restates: they share a run of at least a third of the
    follow-up's text (and eight characters), and no other follow-up shares as long a run."""
    wanted = fold(quote)
    runs = {f.id: (shared_run(wanted, fold(f.text)), len(fold(f.text))) for f in _open_follow_ups(draft)}
    best = max((run for run, _ in runs.values()), default=0)
    hits = [fid for fid, (run, size) in runs.items() if run == best and run >= max(8, size / 3)]
    return hits[0] if len(hits) == 1 else None


def _open_follow_ups(draft: Draft) -> list[Any]:
    """The earlier nights' follow-ups not done or dropped before tonight."""
    closed = {u.follow_up for b in draft.earlier for u in b.follow_up_updates if u.status.value in ("done", "dropped")}
    return [f for b in draft.earlier for f in b.follow_ups if f.id not in closed]


def _carried_tonight(out: dict[str, Any]) -> set[str]:
    """The earlier follow-ups tonight already says are carried over and no line of tonight's list has
    restated yet (one that has carries its number there)."""
    return {
        str(u["follow_up"])
        for u in out.get("follow_up_updates", [])
        if u["status"] == FollowUpStatus.carried_over and "number" not in u
    }


def _add_update(out: dict[str, Any], update: dict[str, Any]) -> None:
    """One update per follow-up: the first reading of its status stands; a later line that restates
    it in tonight's list gives it its number there (a later 「昨天的 ③」 then finds it)."""
    known = {str(u["follow_up"]): u for u in out.get("follow_up_updates", [])}
    if (earlier := known.get(str(update["follow_up"]))) is not None:
        if "number" in update and "number" not in earlier:
            earlier["number"] = update["number"]
        return
    out.setdefault("follow_up_updates", []).append({**update, "follow_up": Code(str(update["follow_up"]))})


BOXES = {
    "x": FollowUpStatus.done,
    "X": FollowUpStatus.done,
    "✓": FollowUpStatus.done,
    ">": FollowUpStatus.carried_over,
    "-": FollowUpStatus.dropped,
}
"""A task box's status, in a list of what became of an earlier night's follow-ups, where no word says it:
done 「[x]」, forwarded 「[>]」 (carried over), cancelled 「[-]」 (Obsidian's Tasks plugin and most themes)."""


def _numbered_list(
    numbered: lists.NumberedList,
    out: dict[str, Any],
    stem: str,
    round_: str | None,
    today: dt.date,
    history: History,
    draft: Draft,
) -> None:
    """Entry by entry: one that names an earlier follow-up (or whose list the heading dates back)
    says what became of it; in a list that points back at no night, any other entry is a new
    follow-up of tonight (an entry that restates an earlier one carries it over, its number kept)."""
    named = ROUND_IN_HEADING.search(numbered.heading)
    follow_round = f"E{named['n']}" if named else (round_ or "")
    follow_ups = out.setdefault("follow_ups", [])
    taken = {f["number"] for f in follow_ups}
    for entry in numbered.entries:
        new = bool(NEW_MARK.match(entry.text))
        targets = [] if new else lists.earlier_follow_ups(numbered, entry, today, history, round_)
        status = last_status(entry.text, draft.words)
        if status is None and numbered.earlier:
            status = BOXES.get(entry.box or "")  # 「- [x] （甲）…」 in the list of what became of an earlier night's
        if targets:
            if status is None and not numbered.earlier:
                status = FollowUpStatus.carried_over  # restated in tonight's list: carried on
            for fid in targets if status is not None else []:
                update: dict[str, Any] = {"follow_up": fid, "status": status, "note": entry.text}
                if not numbered.earlier:
                    update["number"] = entry.number
                _add_update(out, update)
            continue
        if numbered.earlier or entry.number in taken:
            continue
        if not new and (old := _carried_on(entry.text, draft, _carried_tonight(out))):
            # 「> 接-1 …」 answered 「留待周五（Ⓐ）」 above, then restated as Ⓐ: the same follow-up, its number here
            _add_update(out, {"follow_up": old, "status": FollowUpStatus.carried_over, "number": entry.number})
            continue
        taken.add(entry.number)
        out.setdefault("follow_ups_heading", numbered.heading)
        draft.origins[("follow_ups", len(follow_ups))] = entry.line
        follow_ups.append(_opened(stem, entry.number, follow_round, NEW_MARK.sub("", entry.text), entry.mark))
    if not follow_ups:
        del out["follow_ups"]


def _read_bullets(part: Part, stem: str, round_: str | None, draft: Draft) -> dict[str, Any]:
    bullets, others = list_entries(part.lines, BULLET)
    out: dict[str, Any] = {"conclusions": [], "_ratings": conclusion_ratings(bullets, draft)}
    for line, text in sorted(bullets + others):
        bullet = BULLET.match(text)
        body = bullet["text"] if bullet else text
        m = FOLLOW_UPS.match(body)
        if m and EARLIER_IN_HEADING.search(m["heading"]):
            m = None  # a status list about an earlier night's follow-ups: conclusions
        if not m and (status := STATUS_LIST.match(body) or FOLLOW_UPS.match(body)):
            if not EARLIER_IN_HEADING.search(status["heading"]):  # 「10-21 交给 E2 的三件事」 heads no list of tonight
                out.setdefault("follow_ups_heading", status["heading"].strip())
        elif m:
            if "follow_ups" in out:
                draft.warn(line, "a second follow-up list; its follow-ups are numbered on", ("follow_ups_heading",))
            out["follow_ups_heading"] = m["heading"].strip()
            earlier = out.setdefault("follow_ups", [])
            new, carried = _read_follow_ups(m, line, stem, round_, len(earlier), draft)
            earlier.extend(new)
            out.setdefault("follow_up_updates", []).extend(carried)
            continue
        out["conclusions"].append(body)
        draft.origins[("conclusions", len(out["conclusions"]) - 1)] = line
        if not bullet:
            draft.warn(
                line,
                f"section 四: «{one_line(text)[:40]}…» is not a bullet; kept as a conclusion",
                ("conclusions", len(out["conclusions"]) - 1),
            )
    return out


def _read_follow_ups(
    m: re.Match[str], line: int, stem: str, round_: str | None, before: int, draft: Draft
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """① … ② … ③ …: one follow-up each (numbered as written), for the round the heading names;
    a line that carries an earlier open follow-up on (顺延) is an update of it, not a new one."""
    named = ROUND_IN_HEADING.search(m["heading"])
    follow_round = f"E{named['n']}" if named else (round_ or "")
    if not named:
        draft.warn(
            line,
            f"follow-ups: the heading names no round; round set to this brief's ({follow_round or 'empty'})",
            ("follow_ups", before, "round"),
        )
    body = m["body"]
    marks = list(FOLLOW_UP_MARK.finditer(body))
    if marks:
        if lead := strip_end(body[: marks[0].start()]):
            draft.unplaced(line, lead, "follow-ups: text before ①", ("follow_ups_heading",))
        pieces = [
            (_mark_number(mk.group(0)), strip_end(body[mk.end() : nxt.start() if nxt else len(body)]))
            for mk, nxt in zip(marks, [*marks[1:], None], strict=True)
        ]
    else:  # 0: no number written; 「待办：复现 ITL；问维护者默认值。」 is a list all the same, one entry a clause
        pieces = [(0, strip_end(clause)) for clause in split_outside(body, "；;")]
    pieces = [(n, t) for n, t in pieces if t]
    count = m["count"] or m["count2"]
    said = small_number(count.strip()[:1]) if count else None
    if said is not None and said != len(pieces):
        draft.warn(line, f"follow-ups: the heading counts {said}, the list has {len(pieces)}", ("follow_ups_heading",))
    unsure = not marks and len(pieces) > 1 and said != len(pieces)
    follow_ups: list[dict[str, Any]] = []
    carried: list[dict[str, Any]] = []
    for position, (written, text) in enumerate(pieces, before + 1):
        number = written or position
        if RESTATED.search(text) and (old := _carried_on(text, draft)):
            carried.append(
                {"follow_up": Code(old), "status": FollowUpStatus.carried_over, "number": number, "note": text}
            )
            continue
        draft.origins[("follow_ups", len(follow_ups) + before)] = line
        if unsure:
            draft.warn(
                line,
                f"follow-ups: «{one_line(m['heading'])}» numbers nothing; each clause between 「；」 is read as a "
                "follow-up of its own: join them if they are one",
                ("follow_ups", len(follow_ups) + before),
            )
        follow_ups.append(_opened(stem, number, follow_round, NEW_MARK.sub("", text)))
    return follow_ups, carried


def _mark_number(mark: str) -> int:
    """① → 1, （2） → 2."""
    circled = "①②③④⑤⑥⑦⑧⑨⑩"
    return circled.index(mark) + 1 if mark in circled else int(re.sub(r"\D", "", mark))


CARRIED_RUN = 8
"""How many characters in a row a restated line shares with the earlier follow-up it carries on."""


def _carried_on(text: str, draft: Draft, among: set[str] | None = None) -> str | None:
    """The one earlier follow-up, still open (and of ``among``, when given: those tonight carries over), that a
    restated line names: they share a run of at least eight characters (本地复现长 prefill 冻结); shorter runs
    are the team's stock phrases (「那句的节点数」 asked of two different vendors).  None when no single one
    does (never guessed)."""
    wanted = fold(without_asides(text))
    candidates = [f for f in _open_follow_ups(draft) if among is None or f.id in among]
    runs = {f.id: shared_run(wanted, fold(f.text)) for f in candidates}
    best = max(runs.values(), default=0)
    hits = [fid for fid, run in runs.items() if run == best]
    return hits[0] if best >= CARRIED_RUN and len(hits) == 1 else None

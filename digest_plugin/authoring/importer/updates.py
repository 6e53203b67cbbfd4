"""What tonight's brief says about earlier nights, turned into updates.

From the second night on, a brief mostly talks about earlier ones: 「10-21 矛盾 1 更正（+175 → +58，…）」,
「上周四的第 4 条矛盾证实」, 「前一轮跟进 ③ 由此完成」, 「撤回：10-23 条目 3 …由本条目替代」.  Each
back-reference is resolved by :mod:`.backrefs` (never guessed), and the words around it say what
happened: a contradiction resolved (confirmed or corrected), re-opened, superseded or re-judged; a
follow-up done, dropped or carried over; an item retracted; an earlier item given new evidence by an
item of tonight.  Every reference becomes a ``back_refs`` row, so a reviewer sees each resolution;
one that names no single id is marked ``# digest-import:`` and warned about.

A numbered line of part 二 that only restates an earlier contradiction (「2. Kapitsa 周增（重开 10-21
矛盾清单 1）：…」) is that contradiction's update, with its number in tonight's list: it does not open
a new one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...core.model import UNPLACED, Contradiction, ContradictionChange, FollowUpStatus, Outcome, PlacementAction
from ...core.vocabulary import Vocabulary, fold
from .backrefs import UNDATED, History, Reference, find_references
from .common import OWN_LABEL, QUOTED, Code, Draft, split_outside, without_asides
from .contradictions import SECTION_HOLD
from .numbers import ROMAN, small_number

# What happened to what a reference names, by the acts of ``wordings:`` in the vocabulary file (the
# phrases are the team's data).  Order matters: the first act that matches in the reference's own
# clause wins (不成立 before 成立, 只完成一半…顺延 is carried over).
CONTRADICTION_ACTS = ("reopened", "corrected", "superseded", "redisposed", "confirmed", "kept", "resolved")
FOLLOW_UP_ACTS: list[tuple[FollowUpStatus, str]] = [
    (FollowUpStatus.dropped, "follow_up_dropped"),
    (FollowUpStatus.carried_over, "follow_up_carried"),
    (FollowUpStatus.done, "follow_up_done"),
]


def last_status(text: str, words: Vocabulary, *, recaps: bool = True) -> FollowUpStatus | None:
    """The status the last follow-up word of ``text`` says (「顺延一次，今天完成」 is done), or None.

    With ``recaps=False`` a word right after another night (「11月5日 顺延之后就一直挂着」) is not counted:
    it tells what that night did, not what tonight does."""
    said = [
        (m.start(), status)
        for status, act in FOLLOW_UP_ACTS
        for m in words.wording(act).finditer(text)
        if recaps or not RECAP.search(text[max(0, m.start() - 12) : m.start()])
    ]
    return max(said, key=lambda x: x[0])[1] if said else None


RECAP = re.compile(
    r"(?:\d{1,2}\s*月\s*\d{1,2}\s*[日号]|\d{1,2}[-/]\d{1,2}|(?:上)?(?:周|礼拜|星期)[一二三四五六日天]|昨[天晚日]|前[天晚])"
    r"\s*(?:[\u4e00-\u9fff]{1,2}|[A-Za-z]{2,12})?\s*(?:已经?|就|曾|又)?\s*$"
)
"""Another night right before a status word, or that night and its writer: the word recaps what that night
did (「11月5日 顺延」, 「周一乔撂下了」)."""


REPLACED_BY_NUMBER = re.compile(
    r"[由以](?:今日|今天|本轮)?(?:条目|条|第)\s*(?P<n>\d+|[一二三四五六七八九十])\s*(?:项|条|笔|件)?(?:的?[^，,；;。]{0,6})?\s*"
    r"(?:替代|取代|替换|替下|接替|补上|顶上|补记)"
)
"""「由条目 4 替代」, 「由条 4 替换」, 「由第 4 项接替」, 「由第 2 条的两行补上」, 「由第一条那一行顶上」, 「以第 1 笔那一行补记」:
tonight's item that replaces the retracted one (in the writer's counter: 条, 项, 笔, 件)."""
REPLACED_WITH = re.compile(
    r"(?:换成|换上|改用|代之以)\s*(?:今晚|今天|本轮)?的?\s*第\s*(?P<n>\d{1,2}|[一二三四五六七八九十])\s*[条项]"
)
"""「换成第三条那一行」: the retracted line gives way to tonight's item N."""
THIS_ITEM = ("本条", "本条目", "本项", "本件", "此条", "这条")
"""How an item names itself in its own text (「由本条顶掉」)."""
TODAYS_CONTRADICTION = re.compile(r"(?:今日|今天|本轮)(?:的)?矛盾\s*(?:第\s*)?(?P<n>\d+)")
TODAYS_ITEM = re.compile(r"(?:见|由)?(?:今日|今天|本轮)?条目\s*(?P<n>\d+)")
REASON = re.compile(r"原因\s*[：:]\s*(?P<reason>[^。]+。?)")
QUOTED_PAIR = re.compile(
    r"(?:旧\s*)?「(?P<qold>[^」]+)」\s*(?:更正为|改为|改成|应为|→|->|⟶)\s*(?:新\s*)?「(?P<qnew>[^」]+)」"
)
"""Both values quoted: read before any bare arrow in the same words (「矛盾 1（GB200 那一行）→ 数字换掉：旧「…」→ 新「…」」
says the change with its first arrow and the values with its second)."""
ARROW = re.compile(QUOTED_PAIR.pattern + r"|(?P<old>[^（(，,；;：:→「」]+?)\s*→\s*(?P<new>[^，,）)；;。]+)")
"""The wrong value and the right one: 「+175 → +58」, 「「v0.30.0–v0.30.1」更正为「v0.29.2–…」」."""
QUOTED_ARROW = re.compile(r"「[^」]+」\s*(?:→|->|⟶|⇒)\s*(?:新\s*)?「[^」]+」")
"""One quoted claim turned into another: a change of that claim, whatever the words around it say."""
CLAUSE_END = "；;。\n"
LEAD_TAG = re.compile(r"[〔［\[](?P<status>[^〕］\]\n]{1,10})[〕］\]]\s*$")
"""A status in brackets right before a reference, leading its line: 「〔递给 Leo〕日·杉·一）…」."""
STATUS_HEADING = re.compile(
    r"^(?P<heading>[^：:]{0,16}(?:跟进(?:情况|盘点|清点|结算)?|顺延清单|收尾与遗留|[^：:]{0,8}交给[^：:]*件事))\s*[：:](?P<rest>.*)$",
    re.S,
)
"""A conclusion that reports what became of earlier follow-ups (or heads the lines that do)."""
PAST = re.compile(r"自\s*\S{0,10}?(?:更正|证实|解决)后|(?:更正|证实)后未再")
NEGATED = re.compile(r"(?:不够|不足以|不能|不可|不会|尚未|还没有?|没有|并未|未能|不|未|没|难以?)\s*$")
"""Words right before a confirming word that say it did not happen (「不够解封」, 「尚未证实」)."""
TOLD_CONFIRMED = "told-confirmed"
"""What :meth:`_State.change` says of a confirmation told as a thing done (「…转绿了」): no change, and a question."""
TONIGHT = re.compile(r"今天|今晚|今日|本轮|刚刚")


def _told_as_done(text: str, m: re.Match[str]) -> bool:
    """A word that confirms a claim, right before 「了」 and with no 「今天」 before it in its clause (「把异议 2 转绿了」):
    a confirmation told as done, which may be an earlier night's.  Confirming is the one reading that publishes a
    withheld claim, so it is not read from a retelling."""
    clause_start = max(text.rfind(c, 0, m.start()) for c in "，,。；;：:") + 1
    return text[m.end() : m.end() + 1] == "了" and not TONIGHT.search(text[clause_start : m.start()])


PAST_LEAD = re.compile(r"已于|已经|此前已")
"""「已于 10-27 更正」, 「已经证实」: a change an earlier night made, when a word for one follows within a few
characters; 「慢的那截已经不在拥塞上了」 says how things stand, not that anything was done before."""
DISPOSITION_PHRASE = re.compile(r"(?P<label>暂挂\w{0,2}|转交\s*[\w-]+\s*主题|转交|移交)")


@dataclass(frozen=True)
class _Piece:
    """A text of tonight's brief that may refer back: where it is, for the ``back_refs`` row."""

    part: str
    at: str | int
    text: str
    line: int
    item: str | None = None
    """The item of tonight the text belongs to (its relation, placement, notes)."""
    lookup: str | None = None
    """The part to read references as, when not ``part``: a follow-up status list's lines."""
    default: FollowUpStatus | None = None
    """The status a list's heading gives its lines (顺延清单 → carried over)."""


def read_updates(brief: dict[str, Any], draft: Draft, history: History) -> None:
    """Fill ``contradiction_updates``, ``follow_up_updates``, ``evidence_updates``, ``retractions``
    and ``back_refs`` from the back-references of ``brief`` (a draft), and fill an in-place
    update's missing entry from the item it names."""
    today = brief.get("date")
    if not isinstance(today, dt.date) or not draft.earlier:
        return
    state = _State(brief, draft, history, today)
    state.restated_contradictions()
    for piece in state.pieces():
        state.read(piece)
    state.finish()


class _State:
    def __init__(self, brief: dict[str, Any], draft: Draft, history: History, today: dt.date) -> None:
        self.brief, self.draft, self.history, self.today = brief, draft, history, today
        self.round = brief.get("round")
        self.contradictions: dict[str, dict[str, Any]] = {}
        self.asked: dict[str, tuple[int, str]] = {}
        """Contradiction updates read from weak words, each with the question that marks it."""
        self.follow_ups: dict[str, dict[str, Any]] = {
            str(u["follow_up"]): u for u in brief.get("follow_up_updates", [])
        }
        self.evidence: dict[str, dict[str, Any]] = {}
        self.retractions: dict[str, dict[str, Any]] = {}
        self.rows: list[dict[str, Any]] = []
        self.earlier: dict[str, Contradiction] = {c.id: c for b in draft.earlier for c in b.contradictions}
        self.earlier_follow_ups = {f.id: f for b in draft.earlier for f in b.follow_ups}
        self.released: set[str] = set()
        """Earlier doubts whose claim a later night confirmed, and none has re-opened since."""
        for b in sorted(draft.earlier, key=lambda b: b.date):
            for u in b.contradiction_updates:
                if u.change is ContradictionChange.resolved and u.outcome is Outcome.confirmed:
                    self.released.add(u.contradiction)
                elif u.change is ContradictionChange.reopened:
                    self.released.discard(u.contradiction)
        self.created = {i.id for b in draft.earlier for i in b.items if i.placement.action.creates_entry}
        """Items of earlier briefs that are entries of their own (an in-place update may name them)."""
        self.line = 1
        """The Markdown line of the piece being read, for warnings."""
        words = draft.words
        self.contradiction_words = [(act, words.wording(act)) for act in CONTRADICTION_ACTS]
        self.retract = words.wording("retracted")
        self.doubts: dict[tuple[str, str], tuple[int, str]] = {}
        """Warnings held back until every piece is read: a later line may settle them."""

    # ------------------------------------------------------------------ where references are

    def refs(self, text: str, part: str) -> list[Reference]:
        return find_references(text, self.today, self.history, part=part, round=self.round)

    def pieces(self) -> Iterator[_Piece]:
        for i, item in enumerate(self.brief.get("items", [])):
            line = self.draft.origins.get(("items", i), 1)
            texts = [item.get("relation", ""), item.get("placement", {}).get("text", ""), *item.get("notes", [])]
            for text in texts:
                if text:
                    yield _Piece("items", str(item["id"]), text, line, str(item["id"]))
        for i, c in enumerate(self.brief.get("contradictions", [])):
            line = self.draft.origins.get(("contradictions", i), 1)
            yield _Piece("contradictions", str(c["id"]), f"{c['title']}：{c['text']}", line)
        if note := self.brief.get("contradictions_note"):
            for text in note.split("\n"):
                yield _Piece("contradictions", "note", text, 1)
        status_list = False
        for i, text in enumerate(self.brief.get("conclusions", [])):
            line = self.draft.origins.get(("conclusions", i), 1)
            heading = STATUS_HEADING.match(text)
            if heading:
                status_list = not heading["rest"].strip()  # a heading alone: the next lines are its list
            listed = bool(heading) or (status_list and i > 0)
            default = FollowUpStatus.carried_over if heading and "顺延" in heading["heading"] else None
            yield _Piece(
                "conclusions",
                i + 1,
                text,
                line,
                lookup="follow_up_status" if listed else None,
                default=default,
            )

    # ------------------------------------------------------------------ part 二: restated lines

    def restated_contradictions(self) -> None:
        """A numbered line of part 二 whose head names an earlier contradiction restates it."""
        kept, indexes = [], []
        for index, c in enumerate(self.brief.get("contradictions", [])):
            named = [r for r in self.refs(c["title"], "contradictions") if r.kind == "contradiction" and r.id]
            if len(named) == 1 and named[0].id:
                ref, cid = named[0], named[0].id
                change = self.change(c["title"], c["title"]) or self.change(c["text"], c["text"])
                update = self.contradiction_update(cid, change, f"{c['title']}：{c['text']}", c["text"])
                if update is not None:
                    update["number"] = c["number"]
                    self.row(ref, "contradictions", c["number"])
                    continue
            kept.append(c)
            indexes.append(index)
        self.brief["contradictions"] = kept
        self.draft.renumbered("contradictions", indexes)

    def released_again(self, cid: str, change: str | None, after: str) -> str | None:
        """A doubt an earlier night released, named again.  With a quoted claim and a hold on a section
        (「…放行作废，打回：「X」——§5.1 重新锁上，不出包」) in words the team has not named, it is read as re-opened:
        the reading that withholds the claim again, and asked.  A word that confirms it is no news (it was
        confirmed already; the line retells that, or says something a word of it hides): no change is read, and the
        editor is asked whether it was re-opened."""
        if QUOTED.search(after) and SECTION_HOLD.search(after):
            self.doubts.setdefault(
                (cid, "reopened"),
                (
                    self.line,
                    f"contradiction {cid} was released on an earlier night and is held again here in words no "
                    "wording names: read as re-opened (its claim withheld again); check, and add the verb to "
                    "wordings: reopened",
                ),
            )
            return "reopened"
        if change == "confirmed":
            self.doubts.setdefault(
                (cid, "confirmed again"),
                (
                    self.line,
                    f"contradiction {cid} was released on an earlier night and is called confirmed here again: read "
                    "as no change; was it re-opened (its claim withheld again)?",
                ),
            )
        return None

    def restated_by_label(self, update: dict[str, Any], head: str) -> None:
        """A paragraph of part 二 led by the writer's own label and number, then the earlier doubt it is about
        (「缺陷 Q-1（回归失败，打回）T-4 澄 乙-2——…」): it restates that doubt as tonight's number 1, which a later
        night names (「D020 汀 Q-1」), when tonight's new doubts do not hold that number."""
        m = OWN_LABEL.match(head.strip())
        if m is None or "number" in update:
            return
        number = int(m["n"])
        if number not in {c["number"] for c in self.brief.get("contradictions", [])}:
            update["number"] = number

    # ------------------------------------------------------------------ reading one piece

    def read(self, piece: _Piece) -> None:
        self.line = piece.line
        refs = self.refs(piece.text, piece.lookup or piece.part)
        own = {c["number"] for c in self.brief.get("contradictions", [])}
        for k, ref in enumerate(refs):
            if ref.id is None and ref.kind == "contradiction" and _undated_own(ref, own):
                continue  # 「矛盾 1」 with no date, and tonight has a 矛盾 1: tonight's own
            if ref.id is None:
                self.draft.warn(
                    piece.line,
                    f"«{ref.text}» names no single earlier {ref.kind.replace('_', '-')}"
                    + (f" ({', '.join(ref.candidates)})" if ref.candidates else "")
                    + f": {ref.problem or 'unresolved'}; write the update by hand if it changes anything",
                    ("back_refs",),
                )
                continue
            self.row(ref, piece.part, piece.at)
            scope = _shared_scope(piece.text, refs, k, self.draft.words if ref.kind == "follow_up" else None)
            before = _clause_before(piece.text, refs[k - 1].end if k else 0, ref.start)
            if ref.kind == "contradiction":
                alone = not any(r.kind == "contradiction" for i, r in enumerate(refs) if i != k)
                if not self.says_change(scope) and not any(r.kind == "contradiction" for r in refs[k + 1 :]):
                    scope = _clause_after(piece.text, ref.end, len(piece.text))  # past the other references
                if not self.says_change(scope) and alone and piece.part == "contradictions":
                    scope = piece.text[ref.end :]  # the one doubt a line of part 二 names: the line is about it
                if not self.says_change(scope):
                    scope += _item_status(piece.text, ref.end)  # 「…；§3.2 照写。【成立】」 ends its list item
                change = self.change(scope, before + scope)
                if change == TOLD_CONFIRMED:
                    change = None
                    self.doubts.setdefault(
                        (ref.id, "told"),
                        (
                            piece.line,
                            f"contradiction {ref.id} is called confirmed as a thing done (「…了」), which may retell "
                            "an earlier night: read as no change tonight (its claim stays as it was); was it confirmed "
                            "tonight?",
                        ),
                    )
                if change in (None, "confirmed") and ref.id in self.released:
                    change = self.released_again(ref.id, change, piece.text[ref.end :])
                update = self.contradiction_update(ref.id, change, _clause(piece.text, ref.start), scope)
                if update is not None and k == 0 and piece.part == "contradictions":
                    self.restated_by_label(update, piece.text[: ref.start])
            elif ref.kind == "follow_up":
                said = scope or before
                if (lead := LEAD_TAG.search(before)) and last_status(said, self.draft.words) is None:
                    said = (
                        f"〔{lead['status']}〕{said}"  # 「· 〔交了卷〕日·杉·二）NIXL 那句的条件——…」: it leads the line
                    )
                self.follow_up_update(ref.id, said, piece, _sentence_after(piece.text, ref.end))
            elif ref.kind == "item" and (
                self.retract.search(before)
                or self.retract.search(_head_before(piece.text, ref.start))
                or self.retract.search(scope[:4])
                or self._retracts_in_phrase(scope)
            ):
                self.retraction(ref.id, piece)
            elif ref.kind in ("item", "entry") and piece.item is not None:
                self.entry_named(ref.id, piece.item, explicit=ref.kind == "item")

    def _retracts_in_phrase(self, scope: str) -> bool:
        """「岑第 3 条开的那一条整条删去」: the verb a few words on, in the phrase the reference opens (up to its
        first comma), and told as tonight's act, not an earlier night's (「已于 11-02 撤回」)."""
        phrase = re.split(r"[，,；;。]", scope, maxsplit=1)[0]
        verb = self.retract.search(phrase)
        # 「1.1.1 已被维护者撤掉」 tells what someone else did to a release, not what tonight does to the item
        return (
            verb is not None
            and not PAST.search(phrase)
            and not PAST_LEAD.search(phrase)
            and not re.search(r"[已被]", phrase[: verb.start()][-8:])
        )

    def says_change(self, text: str) -> bool:
        """Whether ``text`` has a word for what happened to a contradiction (any of the team's)."""
        return any(words.search(text) for _, words in self.contradiction_words)

    def _told_as_past(self, scope: str) -> bool:
        """「已于 10-27 更正」: 已于 / 已经 / 此前已 and, within fourteen characters of the same clause, a word
        for a change."""
        for lead in PAST_LEAD.finditer(scope):
            after = re.split(r"[，,。；;]", scope[lead.end() : lead.end() + 14], maxsplit=1)[0]
            if any(words.search(after) for _, words in self.contradiction_words):
                return True
        return False

    def change(self, scope: str, whole: str) -> str | None:
        """What the words around a reference say happened; 「已于 10-27 更正」, 「自 10-29 更正后」 tell
        of an earlier night's change, which that night's brief recorded: nothing happens tonight."""
        if PAST.search(scope) or self._told_as_past(scope):
            return "kept"
        # 「23/11 疑点 1（…，26/11 改列暂挂）纠正：…」: the bracket retells a past night; the words outside it
        # say what happens tonight, and are read first
        bare = without_asides(scope)
        for text in (bare, scope, whole):
            for change, words in self.contradiction_words:
                if m := words.search(text):
                    if change == "confirmed" and NEGATED.search(text[max(0, m.start() - 4) : m.start()]):
                        return "kept"  # 「不够解封，原样封着」, 「尚未证实」: what did not happen
                    if change == "confirmed" and _told_as_done(text, m):
                        return TOLD_CONFIRMED
                    return change
            if text is bare and QUOTED_ARROW.search(bare):
                # 「旧「低 52%」→ 新「约低 26%」」 in no words the team has named: one claim replaced by another
                # is a correction, whatever the verb (the claim stays withheld; the new value is its basis).
                # It is said outside the brackets, so it outweighs a word inside them (「（周一晾成暂挂观察）
                # 改过来：旧「…」→ 新「…」」: the bracket retells what a past night did)
                return "corrected"
        if self.known_disposition(bare):
            # 「矛盾 2（…）→ 降到丢弃级」: no word the team has named, but a disposition's label said of it; read as
            # re-judged to that and asked (a re-judged claim stays withheld: nothing is published by the reading)
            return "relabelled"
        return None

    # ------------------------------------------------------------------ contradictions

    def contradiction_update(self, cid: str, change: str | None, text: str, scope: str) -> dict[str, Any] | None:
        if change in (None, "kept"):
            return None
        if (
            cid in self.contradictions
            and change == "corrected"
            and self.contradictions[cid].get("outcome") is Outcome.confirmed
        ):
            # one text says it held up, another that it was corrected: the reading that publishes nothing
            del self.contradictions[cid]
            self.draft.warn(
                self.line,
                f"contradiction {cid} is called both confirmed and corrected; read as corrected (the claim stays "
                "withheld); check",
                ("contradiction_updates",),
            )
        if cid in self.contradictions:
            known = self.contradictions[cid]
            said = known.get("corrections", [{}])[0]
            if (
                change == "corrected"
                and said.get("new") == ""
                and (ARROW.search(scope) or QUOTED_PAIR.search(text))  # a later line says how
                and (fix := self.correction(cid, self.earlier.get(cid), scope, text)) is not None
            ):
                known["text"] = text.strip()
                known["corrections"] = [fix]
                self.doubts.pop((cid, "arrow"), None)
            return known
        earlier = self.earlier.get(cid)
        update: dict[str, Any] = {"contradiction": Code(cid), "text": text.strip()}
        if change == "reopened":
            update["change"] = ContradictionChange.reopened
        elif change == "superseded":
            successor = TODAYS_CONTRADICTION.search(scope)
            todays = {c["number"]: c["id"] for c in self.brief.get("contradictions", [])}
            if not successor or int(successor["n"]) not in todays:
                self.doubts.setdefault(
                    (cid, "successor"),
                    (
                        self.line,
                        f"contradiction {cid} is called superseded, but by no numbered contradiction of "
                        "tonight; write the update by hand",
                    ),
                )
                return None
            update["change"] = ContradictionChange.superseded
            update["superseded_by"] = Code(todays[int(successor["n"])])
        elif change == "relabelled":
            named = self.known_disposition(without_asides(scope))
            if named is None:
                return None
            update["change"] = ContradictionChange.redisposed
            update["disposition"] = Code(named)
            self.asked[cid] = (
                self.line,
                f"contradiction {cid}: read as re-judged to «{self.draft.words.label('dispositions', named)}», the "
                "disposition its line names, though no word for re-judging (改判) stands there; check",
            )
        elif change == "redisposed":
            phrase = DISPOSITION_PHRASE.search(scope) or DISPOSITION_PHRASE.search(text)
            where = scope if DISPOSITION_PHRASE.search(scope) else text
            said = list(DISPOSITION_PHRASE.finditer(where))
            ending = None
            last = self.last_known_disposition(where) if phrase is not None and said else None
            if last is not None and last[1] > said[-1].start():
                # 「平安夜岑记成暂挂观察……——结论：归丢弃级」: the disposition the line ends on is tonight's; the
                # phrase before it retells an earlier night's
                phrase, ending = None, last[0]
            if phrase is None:  # 「改判丢弃级」: a disposition the vocabulary has, by its label or an alias
                named = ending or self.known_disposition(scope) or self.known_disposition(text)
                if named is None:
                    return None
                update["change"] = ContradictionChange.redisposed
                update["disposition"] = Code(named)
                self.contradictions[cid] = update
                return update
            label = (
                "转交其他主题" if phrase["label"].startswith("转交") and "主题" in phrase["label"] else phrase["label"]
            )
            update["change"] = ContradictionChange.redisposed
            update["disposition"] = Code(self.draft.code("dispositions", label, 1))
        elif change == "confirmed":
            update["change"] = ContradictionChange.resolved
            update["outcome"] = Outcome.confirmed
        elif change == "corrected":
            fix = self.correction(cid, earlier, scope or text, text)
            if fix is None:
                return None
            update["change"] = ContradictionChange.resolved
            update["outcome"] = Outcome.corrected
            update["corrections"] = [fix]
        else:  # resolved, with no word for how: only safe when nothing was withheld
            if earlier is not None and earlier.withheld:
                self.draft.warn(
                    self.line,
                    f"contradiction {cid} is called settled, but not whether its withheld claim was "
                    "confirmed (证实) or corrected (更正); write the update by hand",
                    ("contradiction_updates",),
                )
                return None
            update["change"] = ContradictionChange.resolved
        self.contradictions[cid] = update
        return update

    def last_known_disposition(self, text: str) -> tuple[str, int] | None:
        """The disposition the text names last by its label or an alias, and where (longest spelling first)."""
        found: tuple[str, int] | None = None
        for spelling, code in sorted(self.draft.words.spellings("dispositions"), key=lambda sc: -len(sc[0])):
            if len(spelling) >= 2 and (at := text.rfind(spelling)) >= 0 and (found is None or at > found[1]):
                found = (code, at)
        return found

    def known_disposition(self, text: str) -> str | None:
        """The disposition whose label or alias the text spells (the longest, so 丢弃级 is not 丢弃)."""
        spelled = sorted(self.draft.words.spellings("dispositions"), key=lambda sc: -len(sc[0]))
        return next((code for spelling, code in spelled if len(spelling) >= 2 and spelling in text), None)

    def correction(self, cid: str, earlier: Contradiction | None, scope: str, whole: str = "") -> dict[str, Any] | None:
        """「（+175 → +58，采集器把…混用）」: the wrong value, the right one, and why; about the
        figure the contradiction withheld, else its one withheld claim.  ``whole``: the line the verb stands
        in, whose 「旧「…」→ 新「…」」 counts when the words after the verb give none (「改读数：旧「…」→ 新「…」。
        ——改读数」, the verb said again at the end)."""
        arrow = QUOTED_PAIR.search(scope) or ARROW.search(scope)
        if arrow is None and whole and (arrow := QUOTED_PAIR.search(whole)) is not None:
            scope = whole
        old, new = (
            (
                _value(arrow.groupdict().get("old") or arrow["qold"]),
                _value(arrow.groupdict().get("new") or arrow["qnew"]),
            )
            if arrow
            else ("", "")
        )
        rest = scope[arrow.end() :] if arrow else scope
        reason = rest.strip(" ，,）)；;。") or scope.strip()
        correction: dict[str, Any] = {}
        figures = [w.figure for w in earlier.withheld if w.figure] if earlier else []
        claims = [w.text for w in earlier.withheld] if earlier else []
        stated = self.figures_valued(old) if old != "" else []
        if len(set(figures)) == 1:
            correction["key"] = Code(figures[0])
        elif len(claims) == 1:
            correction["claim"] = claims[0]
        elif len({key for key, _ in stated}) == 1:  # the one figure an earlier item gave that value
            correction["key"] = Code(stated[-1][0])
            correction["item"] = Code(stated[-1][1])
        elif isinstance(old, str) and old and (earlier is None or not claims or old in claims):
            correction["claim"] = old  # no single figure or claim to name: the wrong words as written
        elif isinstance(old, str) and old and len(holding := [c for c in claims if old in c]) == 1:
            correction["claim"] = holding[0]  # 「旧「不到 8 秒」」: the words of the one withheld claim that hold it
        else:  # nothing to name what was wrong: left open (its claim stays withheld), for the editor
            self.draft.warn(
                self.line,
                f"contradiction {cid} is called corrected, but neither a figure, a claim nor a 「旧 → 新」 says "
                "what was wrong; left open (write the update by hand)",
                ("contradiction_updates",),
            )
            return None
        if not arrow:
            self.doubts[(cid, "arrow")] = (
                self.line,
                f"contradiction {cid} is corrected, but no 「旧 → 新」 says to what; write old: and new:",
            )
        correction.update(old=old if old != "" else (claims[0] if claims else ""), new=new, reason=reason or "—")
        return correction

    def figures_valued(self, value: Any) -> list[tuple[str, str]]:
        """(figure key, item id) of every earlier item's figure that has ``value``, oldest first."""
        wanted = fold(str(value))
        return [
            (f.key, item.id)
            for b in self.draft.earlier
            for item in b.items
            for f in item.figures
            if fold(str(f.value)) == wanted
        ]

    # ------------------------------------------------------------------ follow-ups, retractions, entries

    def follow_up_update(self, fid: str, scope: str, piece: _Piece, sentence: str = "") -> None:
        """Tonight's status of an earlier follow-up, from the words after it (``scope``).  When they only
        recap what another night did (「，11月5日 顺延之后就一直挂在清单外面；…这件划掉。」), the rest of the
        sentence says what tonight does."""
        words = self.draft.words
        status = last_status(scope, words, recaps=False)
        if status is None and last_status(scope, words) is not None:
            # only what another night did: tonight's word may come later in the sentence; if none does,
            # nothing is read (the editor is asked, :mod:`.unread`), never the recap taken for tonight
            status = last_status(sentence, words, recaps=False)
            if status is None:
                return
        status = status or piece.default
        if status is None:
            return
        if fid in self.follow_ups:  # (read from a list of part 四 already): its evidence, once
            if status is FollowUpStatus.done and self.follow_ups[fid]["status"] is FollowUpStatus.done:
                self.evidence_from(fid, scope, piece)
            return
        note = _trim(scope)
        self.follow_ups[fid] = {"follow_up": Code(fid), "status": status, "note": note or scope}
        if status is FollowUpStatus.done:
            self.evidence_from(fid, scope, piece)

    def evidence_from(self, fid: str, scope: str, piece: _Piece) -> None:
        """A follow-up done by an item of tonight brings the evidence its items lacked."""
        follow_up = self.earlier_follow_ups.get(fid)
        if follow_up is None or not follow_up.items:
            return
        items = {i["number"]: i for i in self.brief.get("items", [])}
        by = piece.item
        if by is None and (m := TODAYS_ITEM.search(scope)) and int(m["n"]) in items:
            by = str(items[int(m["n"])]["id"])
        source = next((i for i in self.brief.get("items", []) if str(i["id"]) == by), None)
        if source is None or "evidence" not in source:
            return
        placement = source.get("placement", {})
        updated = {str(e) for e in (placement.get("entry"), *placement.get("entries", [])) if e}
        for old in follow_up.items:
            action = placement.get("action")
            if getattr(action, "value", action) == "update_in_place" and (self.history.entry_of(old) or old) in updated:
                continue  # the item updates that entry in place: its evidence is the update's, once (issue 34)
            self.evidence.setdefault(
                old,
                {
                    "item": Code(old),
                    "follow_up": Code(fid),
                    "note": _trim(scope),
                    "evidence": source["evidence"],
                },
            )

    def retraction(self, item_id: str, piece: _Piece) -> None:
        """The retraction of an earlier item, with tonight's item that replaces it; a second mention
        (the conclusions' summary, then the line under the items) adds what the first lacked."""
        if (known := self.retractions.get(item_id)) is not None:
            if "superseded_by" not in known and (again := self._retraction(item_id, piece)).get("superseded_by"):
                known["superseded_by"], known["reason"] = again["superseded_by"], again["reason"]
            return
        self.retractions[item_id] = self._retraction(item_id, piece)

    def _retraction(self, item_id: str, piece: _Piece) -> dict[str, Any]:
        text = piece.text
        reason = REASON.search(text)
        retraction: dict[str, Any] = {"item": Code(item_id), "reason": (reason["reason"] if reason else text).strip()}
        numbered = REPLACED_BY_NUMBER.search(text) or REPLACED_WITH.search(text)
        items = {i["number"]: i["id"] for i in self.brief.get("items", [])}
        if numbered and small_number(numbered["n"]) in items:
            retraction["superseded_by"] = Code(items[small_number(numbered["n"])])
        elif self.draft.words.wording("replaced_by_this").search(text) and piece.item:
            retraction["superseded_by"] = Code(piece.item)
        elif successor := self._successor(text, piece):
            retraction["superseded_by"] = Code(successor)
        return retraction

    def _successor(self, text: str, piece: _Piece) -> str | None:
        """Tonight's item that replaces a retracted one, named 「由 <it> <verb>」 with any verb the team
        uses to retract or supersede (「由本条顶掉」, 「整行由 iii 顶掉」, 「由 No.2 撤换」): 「本条」 is the
        item the text belongs to; any other name must be one of tonight's items exactly (its mark as
        written, its number, a roman numeral), or nothing is read.  An item named by its mark (「由 I-03 重写」)
        needs no known verb: a retraction's clause that hands the line to one of tonight's items names its successor."""
        verbs = [self.draft.words.wording(act) for act in ("retracted", "superseded")]
        for by in re.finditer(r"由\s*", text):
            window = text[by.end() : by.end() + 16]
            found = [m for v in verbs if (m := v.search(window)) and 0 < m.start() <= 10]
            if not found:
                continue
            who = window[: min(m.start() for m in found)].strip(" 　来")
            if who in THIS_ITEM:
                return piece.item
            named = {str(i["id"]) for i in self.brief.get("items", []) if who and _names_item(who, i)}
            if len(named) == 1:
                return named.pop()
        for by in re.finditer(r"由\s*(?P<who>[A-Za-z]{0,3}[-‐]?\d{1,2}|[①-⑳])\s*(?=[\u4e00-\u9fff]{1,3})", text):
            # 「由 I-03 重写」: one of tonight's items by its own mark, then a verb the wordings may not know
            named = {str(i["id"]) for i in self.brief.get("items", []) if _names_item(by["who"], i)}
            if len(named) == 1:
                return named.pop()
        return self._retracting_item(text, verbs)

    def _retracting_item(self, text: str, verbs: list[re.Pattern[str]]) -> str | None:
        """「条 4 回滚 1129 岚（五），§2.6 本地层换一行」, 「iii §2.6 … 重写，顶掉上周日岚（二）那一行」: a clause
        that opens with one of tonight's items and retracts says that item replaces what it retracts —
        when the item puts something in the doc (one kept out replaces nothing)."""
        found: set[str] = set()
        for clause in re.split(r"[；;。\n]", text):
            if not any(v.search(clause) for v in verbs):
                continue
            words = re.split(r"[\s，,、]+", re.split(r"[：:]", clause, maxsplit=1)[-1].strip())
            heads = [" ".join(words[:2]), words[0]] if words else []
            for item in self.brief.get("items", []):
                action = item.get("placement", {}).get("action")
                placed = action is not None and PlacementAction(getattr(action, "value", action)) not in UNPLACED
                if placed and any(h and _names_item(h, item) for h in heads):
                    found.add(str(item["id"]))
        return found.pop() if len(found) == 1 else None

    def entry_named(self, target: str, item_id: str, explicit: bool = False) -> None:
        """An in-place update whose entry the placement did not name, but whose text names the one
        earlier item that created an entry (「10-22 深读条目 4 挂进 §5.2 …的那篇论文」).  Named by date and
        number (「10-24 条目 2 建的那条子条目」) it is settled, the ``back_refs`` row shows it; named by an
        entry's name only, the editor is asked to check."""
        index, item = next(
            ((n, i) for n, i in enumerate(self.brief.get("items", [])) if str(i["id"]) == item_id), (0, None)
        )
        if item is None or item["placement"].get("entry"):
            return
        if getattr(item["placement"].get("action"), "value", None) != "update_in_place":
            return
        if target in self.created:
            item["placement"]["entry"] = Code(target)
            at = ("items", index, "placement", "entry")
            self.draft.settled(at)  # the doubt is settled, by the reference (which the note names)
            if explicit:
                return
            self.draft.warn(
                self.draft.origins.get(("items", index), 1),
                f"条目 {item['number']}: the entry it updates in place is {target}, the item its text names; check",
                at,
            )

    # ------------------------------------------------------------------ the result

    def row(self, ref: Reference, part: str, at: str | int) -> None:
        row = {"text": ref.text, "part": part, "at": at, "kind": ref.kind, "brief": ref.brief, "id": ref.id}
        if row not in self.rows:
            self.rows.append(row)

    def finish(self) -> None:
        for (cid, what), (line, message) in self.doubts.items():
            if what != "successor" or cid not in self.contradictions:
                self.draft.warn(line, message, ("contradiction_updates",))
        order = list(self.contradictions)
        for cid, (line, message) in self.asked.items():
            if cid in self.contradictions:
                index = len(self.brief.get("contradiction_updates", [])) + order.index(cid)
                self.draft.warn(line, message, ("contradiction_updates", index))
        b = self.brief
        for key, found in (
            ("contradiction_updates", list(self.contradictions.values())),
            ("evidence_updates", list(self.evidence.values())),
            ("retractions", list(self.retractions.values())),
        ):
            if found:
                b[key] = b.get(key, []) + found
        if self.follow_ups:
            b["follow_up_updates"] = list(self.follow_ups.values())
        if self.rows:
            b["back_refs"] = self.rows


def _undated_own(ref: Reference, own: set[int]) -> bool:
    """An undated 「矛盾 N」 that tonight's own list has (the writer's own contradiction)."""
    numbers = [int(n) for n in re.findall(r"\d+", ref.text)]
    return bool(ref.problem and ref.problem.startswith(UNDATED)) and len(numbers) == 1 and numbers[0] in own


def _trim(text: str) -> str:
    """A clause without the punctuation around it: 「——完成，」 → 「完成」."""
    return re.sub(r"^[\s：:—\-，,。；;]+|[\s：:—\-，,。；;]+$", "", text)


def _clause(text: str, at: int) -> str:
    start = max(max(text.rfind(c, 0, at) for c in CLAUSE_END) + 1, _bullet_start(text, 0, at))
    ends = [i for i in (text.find(c, at) for c in CLAUSE_END) if i >= 0]
    end = min(ends) + 1 if ends else len(text)
    if tag := STATUS_TAG.match(text, end):
        end = tag.end()
    return text[start:end].strip()


BULLET_IN_LINE = re.compile(r"(?:^|(?<=[\s】。；;）)]))[•∙*]\s")
"""A list item that a paragraph joined to the one before it (「…【成立】 ∙ 昨天砚那封疑 1…」): where a
statement starts, so the last item's words are not read as this one's.  (Not 「-」 or 「·」, which also
part the words of one statement: 「C1 - 已更正」, 「乔 · 12-14」.)"""
STATUS = r"【[^】\n]{1,8}】"
STATUS_TAG = re.compile(rf"\s*{STATUS}")
"""A status in brackets after a clause's end (「…1 月中旬。【未变】」): the end of that clause's statement."""
ITEM_STATUS = re.compile(rf"(?:{STATUS}|（[^（）\n]{{1,10}}）)$")
"""The status in brackets that ends a list item: 「【成立】」, or after the item's last sentence 「。（查到底了，放开）」."""


def _item_status(text: str, at: int) -> str:
    """The status in brackets that ends the list item holding ``at`` (「∙ … C-1 …；§3.2 照写。【成立】」), or ''."""
    nxt = BULLET_IN_LINE.search(text, at)
    item = text[at : nxt.start() if nxt else len(text)].rstrip()
    tag = ITEM_STATUS.search(item)
    return tag.group(0) if tag else ""


def _bullet_start(text: str, start: int, end: int) -> int:
    """Where the last list item before ``end`` starts its words, or ``start``."""
    return max((m.end() for m in BULLET_IN_LINE.finditer(text, start, end)), default=start)


def _clause_after(text: str, start: int, end: int) -> str:
    """From ``start`` to the clause's end (「；」 「。」 or a line's end), a 「；」 inside brackets not counting:
    「12-01 C1（4K 对照；前天改列）#校准 「快 12%」→「快约 3%」」 is one clause; a status in brackets right
    after it (「。【未变】」) is its own, and the next list item (「 ∙ …」) is not."""
    line = text[start:end].split("\n", 1)[0]
    clause = split_outside(line, CLAUSE_END.replace("\n", ""))[0]
    after = start + len(clause) + 1
    if after <= end and (tag := STATUS_TAG.match(text, after)) and tag.end() <= end:
        return text[start : tag.end()]
    if item := BULLET_IN_LINE.search(clause):
        return clause[: item.start()]
    return clause


RUN_JOIN = re.compile(r"[\s、，,和及与/]*")
"""What may stand between two references of one run: 「① ③ 顺延」, 「②、③ 均顺延」, 「① 和 ③ 顺延」."""


DESCRIBED_JOIN = re.compile(r"[^，,。；;、：:\n]{1,20}、\s*")
"""A few words of description and an enumeration comma between two references of one run: 「T1 回放、T2 LMCache
的 issue、T3 价目页都还没着落，接着挂」 lists three follow-ups, one status for all."""


def _shared_scope(text: str, refs: list[Reference], k: int, words: Vocabulary | None = None) -> str:
    """The words after reference ``k`` that say what happened to it.  References of one kind written
    as a run (「① ③ 顺延」) share the words after the run's last one: each of them is carried over,
    not only the last (issue 34: ① was left with no update).  With ``words``, a run may describe each
    reference between them (「T1 回放、T2 …的 issue、T3 价目页都还没着落，接着挂」), when no follow-up status
    word stands in a description (「T1 完工、T2 顺延」 are two statuses)."""
    ref = refs[k]
    while k + 1 < len(refs) and refs[k + 1].kind == ref.kind:
        gap = text[refs[k].end : refs[k + 1].start]
        described = words is not None and DESCRIBED_JOIN.fullmatch(gap) and last_status(gap, words) is None
        if not (RUN_JOIN.fullmatch(gap) or described):
            break
        k += 1
    end = refs[k + 1].start if k + 1 < len(refs) else len(text)
    if (row_end := TABLE_ROW_END.search(text, refs[k].end, end)) is not None:
        end = row_end.start() + 1  # a table's row ends its reference's say: 「| … | 按不修复关闭 | … | | next row」
    return _clause_after(text, refs[k].end, end)


TABLE_ROW_END = re.compile(r"\|\s+\|(?=\s*\S)")
"""Where a row of a table read as one paragraph ends and the next begins: 「… |」 then 「| …」."""


def _sentence_after(text: str, start: int) -> str:
    """From ``start`` to the end of its sentence (「。」 or the line's end)."""
    line = text[start:].split("\n", 1)[0]
    return line.split("。", 1)[0]


def _head_before(text: str, end: int) -> str:
    """The head a line opens with when it ends in a colon right before ``end`` (「退货，不换：腊月初九澄 ④ …」: the
    head 「退货，不换」 says what happens to what follows, commas and all); empty when there is none."""
    start = max(text.rfind(c, 0, end) for c in "；;。\n") + 1
    head = text[start:end].rstrip()
    return head if head.endswith(("：", ":")) and len(head) <= 16 else ""


def _clause_before(text: str, start: int, end: int) -> str:
    cut = max(text.rfind(c, start, end) for c in "；;。\n，,")
    return text[max(start, cut + 1, _bullet_start(text, start, end)) : end]


def _value(text: str) -> Any:
    """``+175`` or ``周增 +175`` → 175 (a figure as the YAML holds it), anything else as written;
    a leading 旧 / 新 (「旧 580+ / 29 → 新 561 / 28」) says which side, and is not part of the value."""
    bare = re.sub(r"^[旧新]\s*", "", text.strip())
    number = re.fullmatch(r"(?:[\u4e00-\u9fff]{1,6}\s*)?\+?(\d+)", bare.replace(",", ""))
    return int(number[1]) if number else bare


def _names_item(who: str, item: dict[str, Any]) -> bool:
    """Whether ``who`` names this item of tonight: its mark as written (「I-3」, 「No.2」), its number
    (「条 4」, 「第 4 项」, 「#4」) or a roman numeral (「iii」)."""
    if item.get("mark") and who.replace(" ", "") == str(item["mark"]).replace(" ", ""):
        return True
    bare = re.sub(r"^(?:今日|今天|本轮)?(?:条目|条|第|No\.?|#|I-)\s*|\s*(?:项|条|件|[.、])$", "", who, flags=re.I)
    number = small_number(bare) if bare else None
    if number is None:
        number = ROMAN.get(bare.lower())
    return number == item.get("number")

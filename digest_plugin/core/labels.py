"""Every word the site shows a reader, in one table.

The renderer, the generated pages, the feed and the charts take their words from here and
nowhere else, so the site's language is this one file: a second language is a copy of it with
the right-hand sides translated (the ``{placeholders}`` stay).  Words that come from the data —
what a brief says, the outline's section titles, the vocabularies' labels (:mod:`model`) — are
not here: they are the team's, not the site's.

Templates use :meth:`str.format` with named fields; every field is filled with text that is
already escaped for its output (the callers do that), so a template never sees raw brief text.
"""

from __future__ import annotations

from typing import Final

# --------------------------------------------------------------------------- shared pieces

SEP: Final = " · "
LIST_SEP: Final = "、"
CLAUSE_SEP: Final = "；"
COMMA: Final = "，"
BRIEF_NAME: Final = "{date} {round} 简报"
"""A brief as the site names it: '2026-10-21 E1 简报'."""
CALLOUT_KIND: Final = "矛盾"
"""What a callout is when its disposition's word names no ``kind``."""
CONTRADICTION_NAME: Final = "矛盾 {number}"
CONTRADICTION_NAME_DATED: Final = "{date} 矛盾 {number}"
"""Once several briefs each number their own contradictions from 1."""
PLACE_REGISTERED_CONTRADICTION: Final = "矛盾 {number}（登记）"
"""A bibliography back-link to a contradiction on the register."""
SECTION_TITLE: Final = "§{number} {title}"
SECTION_UNTITLED: Final = "§{number}（未命名）"
EMPTY_NONE: Final = "无。"

# --------------------------------------------------------------------------- withheld claims

WITHHELD: Final = "〔暂扣，见{name}〕"
WITHHELD_DATED: Final = "〔暂扣，见 {name}〕"
WITHHELD_AGAIN: Final = "〔暂扣〕"
"""The same claim again in the same entry: the first mark already names and links the contradiction."""
WITHHELD_LATER: Final = "〔暂扣，见今日文档的 {name}〕"
"""In a past view, a claim withheld by a contradiction a later brief opened: today's word holds there too,
and the callout is not in the past view, so the mark names it without a link."""
RELEASED_LATER: Final = "（{date} 的简报已解除暂扣；此处按 {night} 当晚的状态，仍暂扣）"
"""In a past view, a callout whose claim a later brief released (confirmed)."""
AS_OF_BANNER: Final = "这是 {night} 当晚的活文档：只合并了这一晚及之前的简报；今日暂扣的说法在这里同样暂扣。"
"""At the top of every page of a past view (``digest build --as-of``)."""
FOLDED: Final = "〔一句涉及暂扣说法，已略，见{name}〕"
"""A sentence about a withheld value, folded on the section page (the brief's page shows it whole)."""
FOLDED_AGAIN: Final = "〔一句已略〕"
LAST_CHANGED: Final = "最近变更 {date}"
FRESH: Final = {"new": "新", "changed": "有更新"}
"""What the latest brief did to an entry, marked beside its title on the section page."""
"""When the contradiction's name starts with a date (several briefs)."""

# --------------------------------------------------------------------------- items and entries


ITEM_REF: Final = "{brief} 条目 {number}"
MATERIAL_FIRST_COLLECTED: Final = "首次采集 {date}"
MATERIAL_LAST_COLLECTED: Final = "上次采集 {date}"
MATERIAL_NOTE: Final = "（{notes}）"

BOUNDARY: Final = "证据边界"
BASELINE_BADGE: Final = "活文档既有 · 本系统未复核"
"""The badge of an entry the living doc already had: nothing here assessed it."""
BASELINE_MEANING: Final = "这一条来自活文档原有内容，没有经过每晚简报的证据评定；不要把它当作已核查。"
TIP_ASSESSED: Final = "评定：{where}"
TIP_LEGEND: Final = "各等级、缺口与来源类型的含义 →"
SCALE_FULL: Final = "●"
SCALE_EMPTY: Final = "○"
LEGEND_LEVELS: Final = "证据等级（由强到弱）"
LEGEND_LEVELS_NOTE: Final = "徽章先写等级：实心圆越多，内容本身核实得越充分。颜色只是辅助，等级总以文字写出。"
LEGEND_GAPS: Final = "证据缺口"
LEGEND_KINDS: Final = "来源类型"
LEGEND_VALUES: Final = "价值评级"
LEGEND_DISPOSITIONS: Final = "矛盾的处置方式"
LEGEND_TERMS: Final = "团队用语"
LEGEND_TERM_ROWS: Final = (
    ("E1", "每晚的预消化轮：读当天清单里的材料，写出当天的简报。"),
    ("E2", "深读轮：按 E1 留下的跟进事项回到原始出处（issue、全文、源码）核对。"),
    ("简报", "一轮阅读的产出：条目、矛盾与待核实说法、可引用的 arXiv 号、结论与跟进。"),
    ("证据边界", "一条内容核实到了哪里、没核实什么；写在每条内容下方。"),
    ("暂扣", "矛盾未解决时，被要求「不得写入」的说法在别处显示为「暂扣」，只在矛盾提示框和登记页里引用。"),
    ("活文档既有", "活文档原有的条目，没有经过简报的证据评定。"),
    ("新 / 有更新", "标在条目标题旁：最近一份简报新增了这一条，或改动了它。"),
    ("最近变更", "这一条最后一次被简报改动的日期。"),
    ("一句已略", "在章节页上，专门谈论暂扣数值的句子折叠为一个标记；简报页上保留整句（数值仍暂扣）。"),
    ("矛盾 / 待核实 / 不入活文档 / 降权", "提示框的种类，由简报给出的处置决定；编号沿用简报矛盾清单的编号。"),
)
"""The team's terms a reader meets on the site, explained on the legend page."""
LEGEND_MEANING_NONE: Final = "（词表中没有写说明）"
RELATED_CONTRADICTIONS: Final = "⚠ 相关矛盾："
POINTS_NOTE: Final = "要点（{note}）："
SOURCES: Final = "来源"
RELATION: Final = "与活文档脉络的关系"
PLACEMENT: Final = "建议归入"
PLACEMENT_NOT_GIVEN: Final = "（简报未写建议归入，待编辑确认）"
BOUNDARY_NOT_GIVEN: Final = "（简报未写证据边界，按未核实处理）"
ALTERNATIVES: Final = "（备选：{links}）"
ALTERNATIVE_NOTE: Final = "{link}（{note}）"
"""An alternative section with the brief's own words about it (「或独立进 §3.2」)."""
CROSS_REFS: Final = "（交叉引用：{links}）"
GUARD_MARK: Final = "⚠ "
FIGURES_HEAD: Final = ("数值", "当前", "日期", "历史")
FIGURE_AS_OF: Final = "截至 {date}"
FIGURE_SKIPPED: Final = "更早 {count} 个数值略；"
FIGURE_EARLIER: Final = "此前："
HISTORY: Final = "历史"
HISTORY_BASELINE: Final = "活文档 {version}（据 {source}）："
HISTORY_KINDS: Final = {
    "placed": "归入",
    "updated": "原地更新",
    "evidence": "证据变更",
    "retracted": "撤回",
    "corrected": "更正",
    "moved": "移动",
    "split": "拆分",
    "erratum": "勘误",
}
ENTRY_MOVED_FROM: Final = "由 {brief} 自 §{section} 移来"
ENTRY_MOVED_OUT: Final = "「{title}」已由 {brief} 移至 {link}"
ENTRY_SPLIT_INTO: Final = "已由 {brief} 拆分为：{links}"
ENTRY_SPLIT_FROM: Final = "拆自：{link}"
ENTRY_ERRATUM: Final = "勘误（{brief}）：「{old}」应为「{new}」——{text}"
SECTION_FORMER_TITLE: Final = "曾用名「{title}」，{brief} 更名"
BRIEF_ERRATA: Final = "勘误"
BRIEF_ERRATUM_MADE: Final = "本简报更正 {target}：「{old}」应为「{new}」——{text}"
BRIEF_ERRATUM_RECEIVED: Final = "{brief} 更正本简报{item}：「{old}」应为「{new}」——{text}"
REFERENCE_WITHDRAWN: Final = "已撤稿（{date}，据 {brief}）"
CORRECTION: Final = "{label}{old} → {new}（{reason}）"
"""A figure a contradiction showed wrong: the wrong value, the right one, why."""
OUTCOME: Final = " · {outcome}"
"""After a resolved contradiction's status: how it was settled (证实 / 更正)."""
HISTORY_GAP: Final = "…… 其间 {hidden} 次变动，见当时的简报页（{first} 起）"
FOOTNOTE: Final = "（小注）"
RETRACTED: Final = "已撤回（{brief}）：{reason}{successor}"
RETRACTED_SUCCESSOR: Final = "，由 {item} 取代"
BASELINE_ORIGIN: Final = "活文档 {version} 既有条目，据 {source}"
STUB: Final = "↔ 交叉引用："
STUB_HOME: Final = "（§{section}，{brief}）"
SECTION_EMPTY: Final = "本节暂无来自简报的条目。"
SECTION_OPENED: Final = "由 {brief}新建"
"""Under the heading of a section a brief opened (not the outline): '由 2026-10-23 E1 简报新建'."""

# --------------------------------------------------------------------------- contradictions

CONTRADICTION_REGISTER_LINK: Final = "登记页"
CONTRADICTION_TOUCHES: Final = "涉及："
CONTRADICTION_ITEMS: Final = "条目："
CONTRADICTION_CITES: Final = "引用："
CONTRADICTION_MATERIALS: Final = "材料："
"""Where in the round's materials the contradiction was read (its path and place)."""
CONTRADICTION_SOURCE: Final = "来源："
WITHHELD_CLAIMS: Final = "暂扣说法"
WITHHELD_CLAIMS_OPEN: Final = "（修正前不得作为事实写入）"
WITHHELD_CLAIMS_SETTLED: Final = "（矛盾已不再未解决，可以写入）"
WITHHELD_CLAIMS_CORRECTED: Final = "（已更正：说法有误，不得写入）"
REQUIRED_LABEL: Final = "必须带标注"
SUPERSEDED_BY: Final = "，由 {successor} 取代"

# --------------------------------------------------------------------------- archives

ARCHIVE_SECTION: Final = "本页列出近 {days} 天内有变动的条目；更早的按最后变动月份归档：{links}"
ARCHIVE_SECTION_MONTH: Final = "{month} 月（{count} 条）"
ARCHIVE_MONTH: Final = "{month} 月"
ARCHIVE_YEAR: Final = "{year} 年：{months}"
ARCHIVE_YEAR_SEP: Final = "；"
ARCHIVE_OTHER: Final = "本页列出近 {days} 天内有变动的{noun}；更早的按最后变动月份归档：{links}"
OLDER_OPEN: Final = "其中 {count} 条仍未解决、近 {days} 天无变动的，在它们最后变动那个月的归档页上。"
OLDER_PENDING: Final = "其中 {count} 项仍待跟进、近 {days} 天无变动的，在它们最后变动那个月的归档页上。"
SECTION_OLDER_OPEN: Final = "本节另有 {count} 条仍未解决、近 {days} 天无变动的矛盾，在登记表的归档页上：{links}"
ARCHIVE_NOUNS: Final = {"register": "矛盾", "bibliography": "新增引用", "follow-ups": "跟进事项", "briefs": "简报"}

# --------------------------------------------------------------------------- register, bibliography, follow-ups

REGISTER_SUMMARY: Final = "共 {total} 条矛盾与待核实说法，其中 {open} 条未解决。"
REGISTER_BY_DISPOSITION: Final = "处置"
PENDING_FOLLOW_UPS: Final = "待跟进："
PENDING_FOLLOW_UP_STATE: Final = "（{round} 轮核查{status}）"
"""After a pending follow-up on an entry: which round is to check it next (E2: the deep read), and its state when not simply open (已顺延)."""
SECTION_STATUS: Final = "本节 {count} 条 · 最近变更 {date}（{brief}）"
"""At the top of a section page: how many entries, and when (and by which brief) one last changed."""
SECTION_NEXT_CHECK: Final = " · 待跟进 {count} 项，下次核查：{rounds}"
SECTION_NEXT_CHECK_ROUND: Final = "{round} 轮"
"""Before the follow-ups still open on an entry, each linked to the follow-up list."""
DISPUTE_TAG: Final = "〔{disposition} · {date}〕"
"""An inline dispute tag after an entry's title (Wikipedia's {{disputed inline}}): short, dated, linked."""
REQUIRED_LABEL_TAG: Final = "须标注：{label}"
REGISTER_TOTAL: Final = "合计"
REGISTER_BY_STATUS: Final = "按状态"
REGISTER_BY_SECTION: Final = "按章节"
REGISTER_GROUP: Final = "{name}（{count}）"
REGISTER_BY_DISPOSITION_GROUPS: Final = "按处置"
SEE_CONTRADICTION: Final = "见{link}"
"""「见下方矛盾清单第 11 条」 as the site says it: the brief's layout words (上方/下方) are true only in
its Markdown, so the phrase becomes a link to the contradiction (or to the brief's list)."""
CONTRADICTION_LIST: Final = "矛盾清单"
POSITIONAL_REFERENCE: Final = r"见[上下]方矛盾清单(?:第\s*(\d+)\s*条)?"
"""How a brief's Markdown points at its own contradictions list (group 1: the number), to be linked."""
REGISTER_GROUPS: Final = "分组索引（按状态、处置、章节）"
FILTER_REGISTER: Final = "筛选登记"
FILTER_SECTION: Final = "筛选条目"
FILTER_STATUS: Final = "状态"
FILTER_DISPOSITION: Final = "处置"
FILTER_SECTIONS: Final = "章节"
FILTER_LEVEL: Final = "证据等级"
FILTER_FRESH: Final = "最近一期"
FILTER_ALL: Final = "全部"
FILTER_RESET: Final = "清除筛选"
FILTER_COUNT: Final = "显示 {shown} / {total} 条"
"""Filled in by the script (``{shown}``, ``{total}`` stay as they are here)."""
BIBLIOGRAPHY_SUMMARY: Final = "活文档既有引用 {existing} 条（{version}），简报新增 {added} 条，编号自 {first} 起。"
REFERENCE_CITED_BY: Final = "被引 {count}（{source}{as_of}）"
REFERENCE_AS_OF: Final = "，截至 {date}"
REFERENCE_OPENALEX: Final = "OpenAlex {id}"
REFERENCE_DOI: Final = "DOI {link}"
REFERENCE_OA: Final = "开放获取：{status}"
REFERENCE_OA_EXPLAINED: Final = "{word}（{explained}）"
"""The source's word first, the explanation beside it: a reader comparing with OpenAlex finds ``green``."""
OPEN_ACCESS: Final = {
    "gold": "金色：期刊开放",
    "green": "绿色：存于开放仓储",
    "hybrid": "混合",
    "bronze": "铜色：免费阅读，无开放许可",
    "diamond": "钻石：期刊开放，作者免费",
    "closed": "未开放",
}
"""OpenAlex's ``oa_status`` words (its documentation's closed list) explained for readers; shown beside
the word, never instead of it."""
JOB_ID: Final = "清单任务 {id}"
JOB_ITEM: Final = "清单项 {item}"
REFERENCE_CARD: Final = "卡片 {path}"
REFERENCE_CARD_TOPIC: Final = "（卡片主题 {topic}）"
REFERENCE_VERIFIED: Final = "已核实"
REFERENCE_UNVERIFIED: Final = "未核实"
REFERENCE_FROM: Final = " · 来自 {brief}"
REFERENCE_USE: Final = "用途：{note}"
REFERENCE_DOWN_WEIGHTED: Final = "⚠ 降权：不作为结论依据，见 {contradiction}"
REFERENCE_BACK: Final = "引用处："
CITE_REFERENCE: Final = "参考文献 [{number}] →"
FOLLOW_UPS_SUMMARY: Final = "待跟进 {pending} 项，已关闭 {closed} 项。"
FOLLOW_UPS_NONE: Final = "目前没有待跟进事项。"
FOLLOW_UPS_CLOSED: Final = "已关闭"
FOLLOW_UP_META: Final = "（{status} · 出自 {brief}{items}{story}）"
FOLLOW_UP_ITEMS: Final = " · 条目：{items}"

# --------------------------------------------------------------------------- brief pages

CHANGE_KINDS: Final = {
    "sections_opened": "新建小节",
    "entries_added": "新增条目",
    "entries_updated": "更新条目",
    "entries_retracted": "撤回条目",
    "evidence_changed": "证据变更",
    "contradictions_opened": "新开矛盾",
    "contradictions_resolved": "解决矛盾",
    "contradictions_reopened": "重开矛盾",
    "contradictions_superseded": "取代矛盾",
    "contradictions_redisposed": "改判矛盾",
    "citations_added": "新增引用",
    "follow_ups_opened": "新开跟进",
    "follow_ups_closed": "关闭跟进",
    "follow_ups_carried": "顺延跟进",
}
"""What a brief can do to the living doc (see ``doc.CHANGE_KINDS``)."""
CHANGE_ROW: Final = "{label} {count}：{links}"
NO_CHANGES: Final = "这份简报没有改动活文档。"
NO_CHANGES_SHORT: Final = "无改动"
BRIEF_CHANGES: Final = "这份简报对活文档的改动"
BRIEF_META: Final = "简报信息（作者、处理依据、材料、参照版本）"
BRIEF_ITEMS: Final = "一、{heading}"
BRIEF_ITEMS_DEFAULT: Final = "条目"
BRIEF_ITEM_TITLE: Final = "条目 {number}：{title}"
BRIEF_ITEM_PLACED: Final = "已归入 "
BRIEF_ITEM_NOT_PLACED: Final = "未归入活文档："
BRIEF_ITEM_DUPLICATE: Final = "与 {date} 条目 {number} 为同一事件（不重复归档）"
PENDING: Final = "待编辑确认"
"""An open question of the importer: what is shown is its safe reading until an editor answers."""
PENDING_TIP: Final = "导入时有一处读法未定，编辑确认前按最稳妥的读法发布"
BRIEF_QUESTIONS: Final = "待编辑确认（{count}）"
BRIEF_QUESTION_READING: Final = "确认前按此发布："
BRIEF_QUESTION_CHOICES: Final = "候选："
UNRATED: Final = "未评级"
"""An item whose brief gives no value rating: said, never guessed."""
BRIEF_CONTRADICTIONS: Final = "二、值得警惕的矛盾与待核实说法"
BRIEF_CITATIONS: Final = "三、可引用的 arXiv 号"
BRIEF_CITATIONS_NOTE: Final = "{note}："
BRIEF_CONCLUSIONS: Final = "四、本轮结论与建议动作"
BRIEF_FOLLOW_UPS_DEFAULT: Final = "跟进事项"
BRIEF_HEADER: Final = {
    "topic": "主题",
    "round": "轮次",
    "date": "日期",
    "author": "作者",
    "job": "处理依据",
    "materials": "材料",
    "living_doc": "活文档参照",
    "queue": "队列参照",
    "scope": "边界",
}
BRIEF_REF_COUNT: Final = "，引用→{count}"
BRIEF_COUNTS: Final = "条目 {items} · 矛盾与待核实 {contradictions} · arXiv 引用 {citations} · 跟进 {follow_ups}"

# --------------------------------------------------------------------------- home and briefs index

NO_BRIEFS: Final = "还没有简报。"
FEED_LINK: Final = "订阅（Atom）"
OVERVIEW_LATEST: Final = "最新简报：{brief}（{counts}）"
OVERVIEW_OPEN: Final = "未解决的矛盾与待核实说法："
OVERVIEW_OPEN_COUNT: Final = "{count} 条"
OVERVIEW_FOLLOW_UPS: Final = "待跟进："
OVERVIEW_FOLLOW_UPS_COUNT: Final = "{count} 项"
OVERVIEW_REFERENCES: Final = "参考文献："
OVERVIEW_REFERENCES_COUNT: Final = "共 {count} 条"
OVERVIEW_REFERENCES_ADDED: Final = "（简报新增 {count} 条）"
OVERVIEW_BRIEFS: Final = "全部简报："
OVERVIEW_BRIEFS_COUNT: Final = "{count} 份"
OVERVIEW_TABLE_HEAD: Final = ("章节", "条目", "未解决矛盾")
OVERVIEW_CHART: Final = "各章节条目数与未解决矛盾数"
OVERVIEW_OPEN_LIST: Final = "未解决的矛盾"
OVERVIEW_TIMELINE: Final = "简报时间线"

# --------------------------------------------------------------------------- charts

CHART_ROW: Final = "{label}：条目 {entries}，未解决矛盾 {open}"
CHART_POINT: Final = "{date}：{value}"

# --------------------------------------------------------------------------- generated pages and feed

PAGE_REGISTER: Final = "矛盾与待核实登记"
PAGE_LEGEND: Final = "图例：证据等级与团队用语"
PAGE_BIBLIOGRAPHY: Final = "参考文献"
PAGE_FOLLOW_UPS: Final = "待跟进事项"
PAGE_BRIEFS: Final = "简报"
PAGE_CHANGES: Final = "活文档每晚变更 · {month}"
"""A month's page of what each night changed (issue 32)."""
NIGHT_CHANGES_HEADING: Final = "{night} 这一晚的变更"
NIGHT_CHANGES_BRIEFS: Final = "当晚简报：{briefs}"
NIGHT_CHANGES_NONE: Final = "这一晚的简报没有改动活文档。"
NIGHT_CHANGES_LINK: Final = "这一晚对活文档的全部变更"
"""On a brief's page: the link to its night on the changes page."""
NIGHT_CHANGES_INTRO: Final = (
    "每一晚合并简报之后，活文档与前一晚相比变了什么：新增、更新、撤回、迁移的条目，开启、解决、重开、取代的矛盾，"
    "暂扣与放开的说法，新增的引用，开启、关闭与顺延的跟进。今日暂扣的说法在这里同样暂扣。"
)
NIGHT_CHANGES_MONTHS: Final = "其他月份："
NIGHT_REDIRECT: Final = "{night} 这一晚的变更在这里："
PAGE_PAST: Final = "往日的活文档"
"""The past views' page (issue 32): the doc as it stood on any night."""
PAST_TITLE: Final = "{night} 当晚的活文档"
PAST_REDIRECT: Final = "{night} 当晚的活文档在这里："
PAST_BANNER: Final = "这是 {night} 当晚的活文档（{view}）：只合并了这一晚及之前的简报；今日暂扣的说法在这里同样暂扣；链接通往今天的页面。"
"""The banner of a past view ({view}: §N or the register); the script fills it in."""
PAST_NEAREST: Final = "{asked} 没有简报，显示的是此前最近的一晚 {night}。"
PAST_HEADING: Final = "当晚的内容"
PAST_LOADING: Final = "正在载入往日的活文档……"
PAST_FAILED: Final = "这一晚的数据没能载入，请稍后重试。"
PAST_EMPTY: Final = "这一晚这一部分没有条目。"
PAST_NONE: Final = "还没有任何简报：没有往日的活文档可看。"
PAST_NOSCRIPT: Final = "往日的活文档由页面脚本从站点数据拼出，请启用脚本。"
PAST_STEPS: Final = "按晚翻看"
PAST_PREV: Final = "← 前一晚"
PAST_NEXT: Final = "后一晚 →"
PAST_TODAY: Final = "今天的活文档"
PAST_PICK: Final = "选一晚："
PAST_PICK_SECTION: Final = "看本节往日的样子："
PAST_GO: Final = "查看"
PAST_VIEWS: Final = "看哪一部分"
PAST_REGISTER: Final = "矛盾登记"
PAST_COMPARE: Final = "与另一晚对比："
PAST_COMPARE_GO: Final = "对比"
PAST_COMPARE_OFF: Final = "不再对比"
PAST_COMPARED: Final = "对比 {from} 与 {to} 两晚的活文档（{view}）：{to} 比 {from} 新出现、不再出现、有变化的条目与矛盾，每一条都是当晚的样子；今日暂扣的说法在这里同样暂扣；链接通往今天的页面。"
"""The banner of a comparison of two nights (issue 32); the script fills it in."""
PAST_ADDED: Final = "{to} 新出现（{count}）"
PAST_GONE: Final = "{to} 不再出现（{count}）：已移走、已归档或已拆分"
PAST_CHANGED: Final = "有变化（{count}）：先是 {from} 的样子，再是 {to} 的样子"
PAST_SAME: Final = "这两晚这一部分没有不同。"
PAST_WHAT_MOVED: Final = "位置：§{from} → §{to}"
"""Above a changed pair: what differs, read from the two pieces the renderer made ({from}, {to}: their
sections, levels or statuses as each piece shows them)."""
PAST_WHAT_LEVEL: Final = "证据等级：{from} → {to}"
PAST_WHAT_RETRACTED: Final = "已撤回"
PAST_WHAT_STATUS: Final = "状态：{from} → {to}"
PAST_WHAT_OTHER: Final = "内容或出处有更新"
PAST_WHAT_SEP: Final = "；"
PAST_NIGHTS: Final = "{from} 之后到 {to}，每一晚改了什么（逐类列出）："
"""Under a comparison: each night between the two, linked to its section of the changes pages."""
PAST_MONTHS: Final = "{from} 之后到 {to} 共 {count} 晚，每月改了什么："
PAST_THEN: Final = "{night} 的样子："
PAST_LINK: Final = "这一晚的活文档（当晚的样子）"
"""On a brief's page: the link to the doc as it stood after its night."""
NIGHT_CHANGE_KINDS: Final = {
    "sections_opened": "新建小节",
    "sections_removed": "移除小节",
    "sections_retitled": "小节改名",
    "entries_added": "新增条目",
    "entries_removed": "移除条目",
    "entries_updated": "更新条目",
    "entries_retracted": "撤回条目",
    "entries_moved": "迁移条目",
    "entries_split": "拆分条目",
    "errata_applied": "勘误",
    "evidence_changed": "证据变更",
    "contradictions_opened": "新开矛盾",
    "contradictions_removed": "移除矛盾",
    "contradictions_resolved": "解决矛盾",
    "contradictions_reopened": "重开矛盾",
    "contradictions_superseded": "取代矛盾",
    "contradictions_redisposed": "改判矛盾",
    "claims_withheld": "开始暂扣的说法",
    "claims_released": "不再暂扣的说法",
    "citations_added": "新增引用",
    "citations_withdrawn": "作者撤稿",
    "citations_removed": "移除引用",
    "citations_renumbered": "引用改号",
    "follow_ups_opened": "新开跟进",
    "follow_ups_removed": "移除跟进",
    "follow_ups_closed": "关闭跟进",
    "follow_ups_carried": "顺延跟进",
}
"""Every kind of change between two nights (``core.changes.KINDS``), as a changes page names it."""
NIGHT_CHANGE_NO_CHANGE: Final = "新的更新（内容未变）"
NIGHT_CHANGE_FROM: Final = "原在 §{section}"
NIGHT_CHANGE_BY: Final = "由 {name} 暂扣"
PAGE_ARCHIVE: Final = "{name} · {month} 归档"
PAGE_SECTION_ARCHIVE: Final = "§{section} · {month} 归档"
PAGE_BRIEF: Final = "简报 {date} · {topic} · {round}"
FEED_TITLE: Final = "{title} · 简报"

# --------------------------------------------------------------------------- theme

SEARCH_DIALOG: Final = "搜索"
SERVE_ERRORS: Final = "简报数据有错误，本预览仍显示上一次正确的版本；修正并保存后自动更新。"

# --------------------------------------------------------------------------- search (Pagefind, in Material's box)

SEARCH_UI: Final = {
    "open": "搜索",
    "placeholder": "搜索",
    "reset": "清空",
    "initial": "键入以开始搜索",
    "searching": "正在搜索……",
    "none": "没有找到符合条件的结果",
    "one": "找到 1 个符合条件的结果",
    "other": "找到 {count} 个符合条件的结果",
    "error": "搜索索引未能载入",
}
"""The words of the search box (written into assets/digest/search.js as data, JSON-encoded)."""
SEARCH_UI_PREVIEW: Final = {
    "error": "预览的搜索索引还在后台生成，请稍后再试",
    "note": "预览：搜索索引在后台生成，可能还没有收录最近的修改",
}
"""What a preview's search box says instead (``digest serve``: the index is made in the background)."""

"""Synthetic briefs with the real brief's shape and size, deterministic from a seed.

    python benchmarks/synth.py --days 365 --out /tmp/bench-data

writes ``outlines/inference.yml`` (the real outline) and ``briefs/`` with the real 2026-10-21 brief
followed by N-1 synthetic days: ~7 items (one in-place update of Kapitsa with a dated figure),
~10 contradictions (a few withholding a claim), 2 citations (some papers cited again), 3
follow-ups, and, from the second day on, resolutions of earlier contradictions, closed
follow-ups, an evidence update and now and then a retraction.  Chinese text is cut from the
real brief so sizes and character mix match (~12–14 KB a brief).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml"
SECTIONS = ["1.1", "1.2", "2.1", "2.2", "2.3", "2.4", "2.5", "3.1", "3.2", "5.1", "5.2", "5.3", "6.1", "6.2"]
LEVELS = ["verified", "partially_verified", "unverified", "lead"]
GAPS = ["truncated", "summary_only", "paywall", "login_wall", "vendor_self_report", "no_version", "no_issue_link"]
DISPOSITIONS = ["with_label", "pending_check", "pending_login", "kept_out", "blocked", "down_weighted"]


def _sentences() -> list[str]:
    """Clauses of the real brief, to make text of the right script and length."""
    text = (ROOT / "tests" / "fixtures" / "2026-10-21-inference-E1.md").read_text(encoding="utf-8")
    parts = [p.strip(" -") for line in text.splitlines() for p in line.replace("。", "。\n").splitlines()]
    return [p for p in parts if 12 <= len(p) <= 160 and "http" not in p]


def q(text: str) -> str:
    """``text`` as a double-quoted YAML scalar (JSON's string syntax is YAML's)."""
    return json.dumps(text, ensure_ascii=False)


class Writer:
    """One synthetic brief a day; remembers what is still open so later days can close it."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.lines = _sentences()
        self.open_contradictions: list[str] = []
        self.open_follow_ups: list[str] = []
        self.items: list[str] = []
        self.papers: list[str] = []
        self.stars = 155

    def say(self, n: int = 1) -> str:
        """``n`` random clauses of the real brief, run together."""
        return "".join(self.rng.choice(self.lines) for _ in range(n))

    def brief(self, day: int, date: dt.date) -> str:
        """The YAML text of day ``day``'s brief, dated ``date``."""
        r, say = self.rng, self.say
        stem = f"d{day}"
        out = [
            "schema: 1",
            f'id: "{date}-inference-E1"',
            "topic: inference",
            "round: E1",
            f'title: "inference · E1 预消化简报（{date}）〔合成〕"',
            f"date: {date}",
            'written_at: "22:20"',
            "author: Synth",
            f"scope: {q(say())}",
            "items:",
        ]
        new_items = []
        for n in range(1, 8):
            item = f"{stem}-item-{n}"
            update = n == 5
            section = "1.1" if update else r.choice(SECTIONS)
            level = r.choice(LEVELS)
            out += [
                f"  - id: {item}",
                f"    number: {n}",
                f"    title: {q(say()[:60])}",
                "    value: [medium]",
                "    sources:",
                "      materials:",
                f'        - path: "inbox/synth/{date}-brief.md"',
                f'          anchor: "第 {n} 条"',
                "      urls:",
                f'        - "https://example.org/{date}/{n}"',
                "    points:",
                *[f"      - {q(say())}" for _ in range(2)],
                "    evidence:",
                f"      level: {level}",
                f"      gaps: [{r.choice(GAPS)}]",
                f"      boundary: {q(say())}",
                f"    relation: {q(say())}",
                "    placement:",
                f'      section: "{section}"',
                "      action: update_in_place\n      entry: kapitsa" if update else "      action: new_sub_entry",
                f"      text: {q(say())}",
            ]
            if update:
                self.stars += r.randint(0, 9)
                out += [
                    "    figures:",
                    "      - key: stars",
                    '        label: "Stars"',
                    f"        value: {self.stars}",
                    f"        as_of: {date}",
                ]
            else:
                new_items.append(item)
        out.append("contradictions:")
        new_contradictions = []
        for n in range(1, 11):
            cid = f"{stem}-c{n}"
            touches = r.sample(new_items, 1)
            out += [
                f"  - id: {cid}",
                f"    number: {n}",
                f"    title: {q(say()[:40])}",
                f"    text: {q(say())}",
                "    touches:",
                f"      items: [{touches[0]}]",
                f"    disposition: {r.choice(DISPOSITIONS)}",
            ]
            if n == 1:
                out += [
                    "    withheld:",
                    f'      - text: "合成暂扣说法 {day}"',
                    f'        patterns: ["合成暂扣说法 {day}"]',
                ]
            new_contradictions.append(cid)
        out.append("citations:")
        for n in range(2):
            if self.papers and r.random() < 0.2:
                paper = r.choice(self.papers)
            else:
                paper = f"{26 + day // 3650:02d}{(day // 300) % 12 + 1:02d}.{10000 + day * 2 + n:05d}"
                self.papers.append(paper)
            out += [
                f'  - arxiv: "{paper}"',
                f"    title: {q('Synthetic paper ' + paper)}",
                "    cited_by:",
                f"      - source: S2\n        count: {r.randint(40, 90)}",
                f"      - source: OpenAlex\n        count: {r.randint(40, 90)}",
            ]
        out.append("conclusions:")
        out += [f"  - {q(say())}" for _ in range(3)]
        out.append("follow_ups:")
        new_follow_ups = []
        for n in range(1, 4):
            fid = f"{stem}-f{n}"
            out += [
                f"  - id: {fid}",
                f"    number: {n}",
                "    round: E2",
                f"    text: {q(say())}",
                f"    items: [{r.choice(new_items)}]",
            ]
            new_follow_ups.append(fid)
        if self.open_contradictions:
            out.append("contradiction_updates:")
            for cid in [self.open_contradictions.pop(0) for _ in range(min(10, len(self.open_contradictions)))]:
                out += [f"  - contradiction: {cid}", "    change: resolved", f"    text: {q(say())}"]
        if self.open_follow_ups:
            out.append("follow_up_updates:")
            for fid in [self.open_follow_ups.pop(0) for _ in range(min(3, len(self.open_follow_ups)))]:
                status = r.choice(["done", "dropped", "carried_over"])
                out += [f"  - follow_up: {fid}", f"    status: {status}"]
                if status == "carried_over":  # still pending: a later day closes it
                    self.open_follow_ups.append(fid)
        if self.items:
            out += [
                "evidence_updates:",
                f"  - item: {r.choice(self.items[-40:])}",
                "    evidence:",
                "      level: partially_verified",
                f"      boundary: {q(say())}",
            ]
            if day % 10 == 0:
                out += ["retractions:", f"  - item: {self.items.pop(0)}", f"    reason: {q(say())}"]
        self.items += new_items
        self.open_contradictions += new_contradictions
        self.open_follow_ups += new_follow_ups
        return "\n".join(out) + "\n"


def generate(days: int, out: Path, seed: int = 20261021) -> Path:
    """Write a data folder of ``days`` briefs (the real one first) under ``out``; return it."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    (out / "briefs").mkdir(parents=True)
    shutil.copytree(ROOT / "data" / "outlines", out / "outlines")
    shutil.copy(REAL, out / "briefs" / REAL.name)
    writer = Writer(seed)
    start = dt.date(2026, 10, 21)
    for day in range(1, days):
        date = start + dt.timedelta(days=day)
        (out / "briefs" / f"{date}-inference-E1.yml").write_text(writer.brief(day, date), encoding="utf-8")
    return out


def main() -> None:
    """Write the data folder and print its path."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=20261021)
    args = parser.parse_args()
    print(generate(args.days, args.out, args.seed))


if __name__ == "__main__":
    main()

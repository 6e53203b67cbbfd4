"""Edit brief files without losing a comment: the frequent changes, as small safe operations.

Every edit goes through ruamel.yaml's round-trip mode (comments, key order, quoting and blank
lines survive), is checked against the whole data folder before anything is written (an edit
that would not validate is refused), and is written atomically (a temporary file in the same
folder, then a rename), so a crash never leaves half a brief behind.  The brief's folder is
locked from reading to writing, so two edits at the same time both land, one after the other
(see :mod:`.files`: the lock, the temporary files, the scratch view the check reads, and what
removes them when a command is killed).
"""

from __future__ import annotations

import datetime as dt
import io
import os  # noqa: F401 - tests patch edit.os.replace to simulate a failing disk
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from ..core import files
from ..core.findings import Finding
from ..core.model import ContradictionChange, FollowUpStatus, Outcome, Rules
from ..core.pipeline import analyse


class EditError(Exception):
    """The edit was refused; nothing was written."""

    def __init__(self, message: str, findings: list[Finding] | None = None):
        super().__init__(message)
        self.findings = findings or []


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap a long Chinese line
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def q(text: str) -> DoubleQuotedScalarString:
    """Text written by an edit is double-quoted, like the rest of a brief."""
    quoted: DoubleQuotedScalarString = DoubleQuotedScalarString(text)  # ruamel types ``__new__`` as returning Any
    return quoted


@dataclass(frozen=True)
class Checks:
    """What an edit is validated with: the site's editorial rules (``mkdocs.yml``) and today's date,
    so an edit is refused exactly when ``digest check`` would then fail."""

    rules: Rules | None = None
    today: dt.date | None = None
    warnings: list[Finding] = field(default_factory=list)
    """Filled by the edit: what ``digest check`` will warn about once it is written."""


def edit_brief(
    path: Path,
    change: Callable[[CommentedMap], None],
    *,
    data_dir: Path | None = None,
    checks: Checks | None = None,
    finish: Callable[[str], str] | None = None,
) -> str:
    """Apply ``change`` to the brief at ``path``; validate the whole data folder; write atomically.

    ``finish`` may then change the text itself (``digest review`` removes the comment lines that
    marked the question it answered: comments are lines, not values of the tree).

    The brief's folder is locked from reading to writing (a concurrent edit waits for this one).
    Returns the new text.  Raises EditError (writing nothing) when the result has any error, and
    :class:`.files.FileError` (an ``OSError``, writing nothing) when a file cannot be read or written."""
    path = Path(path)
    data_dir = Path(data_dir) if data_dir else path.parent.parent
    with files.locked(path.parent):
        with files.failing("read", path):
            source = path.read_text(encoding="utf-8")
        yaml = _yaml()
        tree = yaml.load(source)
        change(tree)
        out = io.StringIO()
        yaml.dump(tree, out)
        text = finish(out.getvalue()) if finish else out.getvalue()
        with files.staged(path, text) as staged:
            _validate(staged, path, data_dir, checks or Checks())
            files.commit(staged, path)
    return text


def _validate(staged: Path, path: Path, data_dir: Path, checks: Checks) -> None:
    """Check the data folder as it would be with ``staged`` in place of ``path``.

    The check reads a view of the data folder made of symbolic links (nothing is copied) in a
    hidden scratch folder beside the brief, removed afterwards, or by the next run if this one is killed."""
    try:
        path.resolve().relative_to(data_dir.resolve())
    except ValueError:
        raise EditError(f"{path} is not inside the data folder {data_dir}; nothing was written") from None
    with files.scratch(path.parent) as tmp:
        view = tmp / (data_dir.resolve().name or "data")
        files.mirror(data_dir, view, path, staged)
        files.pause("validating")
        result = analyse(view, rules=checks.rules, relative_to=tmp, today=checks.today)
    if result.errors:
        raise EditError("the edited brief would not validate; nothing was written", result.errors)
    checks.warnings[:] = result.warnings


def _list(tree: CommentedMap, key: str) -> CommentedSeq:
    """The brief's list under ``key``, created at the end of the file if the brief has none yet."""
    if key not in tree or not tree[key]:  # absent, null or an empty flow list `[]`: start a block list
        tree[key] = CommentedSeq()
    seq: CommentedSeq = tree[key]  # a list in the brief loads as a CommentedSeq in round-trip mode
    return seq


def _entry(**fields: Any) -> CommentedMap:
    entry = CommentedMap()
    for key, value in fields.items():
        if value is not None:
            entry[key] = (
                q(value)
                if isinstance(value, str)
                and key
                not in {
                    "contradiction",
                    "follow_up",
                    "item",
                    "change",
                    "status",
                    "superseded_by",
                    "level",
                    "arxiv",
                    "outcome",
                    "key",
                    "disposition",
                }
                else value
            )
    return entry


# --------------------------------------------------------------------------- the frequent edits


def resolve_contradiction(
    path: Path,
    contradiction: str,
    text: str,
    *,
    change: str = "resolved",
    superseded_by: str | None = None,
    outcome: str | None = None,
    corrections: Sequence[tuple[str, str, str, str]] = (),
    disposition: str | None = None,
    data_dir: Path | None = None,
    checks: Checks | None = None,
) -> str:
    """Record in this brief that an earlier contradiction is resolved (or re-opened, superseded, or
    re-judged with a new ``disposition``).

    ``outcome`` says how a resolution settled it (``confirmed`` / ``corrected``); each correction
    is (figure key, wrong value, right value, reason), values written as in YAML."""
    ContradictionChange(change)
    if outcome is not None:
        Outcome(outcome)

    def add(tree: CommentedMap) -> None:
        entry = _entry(
            contradiction=contradiction,
            change=change,
            text=text,
            superseded_by=superseded_by,
            outcome=outcome,
            disposition=disposition,
        )
        if corrections:
            fixes = CommentedSeq()
            for key, old, new, reason in corrections:
                fixes.append(_entry(key=key, old=_number(old), new=_number(new), reason=reason))
            entry["corrections"] = fixes
        _list(tree, "contradiction_updates").append(entry)

    return edit_brief(path, add, data_dir=data_dir, checks=checks)


def _number(value: str) -> int | float | str:
    """A value typed on the command line, as YAML would read it: a number if it is one."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            continue
    return value


def close_follow_up(
    path: Path,
    follow_up: str,
    status: str = "done",
    note: str | None = None,
    *,
    data_dir: Path | None = None,
    checks: Checks | None = None,
) -> str:
    """Record in this brief that an earlier follow-up is done, dropped or carried over."""
    FollowUpStatus(status)
    return edit_brief(
        path,
        lambda t: _list(t, "follow_up_updates").append(_entry(follow_up=follow_up, status=status, note=note)),
        data_dir=data_dir,
        checks=checks,
    )


def set_evidence(
    path: Path,
    item: str,
    level: str,
    *,
    boundary: str | None = None,
    gaps: list[str] | None = None,
    source_kinds: list[str] | None = None,
    follow_up: str | None = None,
    data_dir: Path | None = None,
    checks: Checks | None = None,
) -> str:
    """Set an item's evidence: in place if the item is in this brief; on this brief's item that
    updates the earlier item's entry in place (that item's evidence is what the entry shows); else
    as this brief's one evidence update of the item, replaced when it exists.  A second update
    would leave two words on one entry, the later winning over the in-place update (issue 34)."""

    def fill(evidence: CommentedMap) -> None:
        evidence["level"] = level
        if source_kinds is not None:
            evidence["source_kinds"] = _flow(source_kinds)
        if gaps is not None:
            evidence["gaps"] = _flow(gaps)
        if boundary is not None:
            evidence["boundary"] = q(boundary)

    def change(tree: CommentedMap) -> None:
        items = tree.get("items") or []
        own = next((i for i in items if i.get("id") == item), None)
        updating = next((i for i in items if item in _updated_in_place(i)), None)
        target = own if own is not None else updating
        if target is not None:
            fill(target["evidence"])
            return
        known = next((u for u in tree.get("evidence_updates") or [] if u.get("item") == item), None)
        if known is not None:
            fill(known["evidence"])
            if follow_up is not None:
                known["follow_up"] = follow_up
            return
        if boundary is None:
            raise EditError(f"item '{item}' is in an earlier brief: give the new evidence boundary (--boundary)")
        evidence = CommentedMap(level=level)
        kinds = source_kinds if source_kinds is not None else _earlier_source_kinds(path, item)
        if kinds:
            evidence["source_kinds"] = _flow(kinds)  # kept: an update that says nothing of them keeps the badge's
        if gaps:
            evidence["gaps"] = _flow(gaps)
        evidence["boundary"] = q(boundary)
        _list(tree, "evidence_updates").append(_entry(item=item, follow_up=follow_up, evidence=evidence))

    return edit_brief(path, change, data_dir=data_dir, checks=checks)


def _updated_in_place(item: Any) -> list[str]:
    """The entries a brief's item updates in place (none for any other placement)."""
    placement = item.get("placement") or {}
    if placement.get("action") != "update_in_place":
        return []
    return [str(e) for e in (placement.get("entry"), *(placement.get("entries") or [])) if e]


def _earlier_source_kinds(path: Path, item: str) -> list[str]:
    """The source kinds the earlier brief gave ``item`` (read from the briefs next to ``path``)."""
    safe = YAML(typ="safe")
    for other in sorted(path.parent.glob("*.y*ml")):
        if other == path:
            continue
        try:
            tree = safe.load(other.read_text(encoding="utf-8"))
        except Exception:  # noqa: BLE001 - another brief's problem is `digest check`'s to report
            continue
        for found in (tree or {}).get("items") or [] if isinstance(tree, dict) else []:
            if isinstance(found, dict) and found.get("id") == item:
                return [str(k) for k in (found.get("evidence") or {}).get("source_kinds") or []]
    return []


def add_citation(
    path: Path,
    arxiv: str,
    title: str,
    *,
    s2: int | None = None,
    openalex: int | None = None,
    use_note: str | None = None,
    data_dir: Path | None = None,
    checks: Checks | None = None,
) -> str:
    """Add an arXiv citation to this brief (numbered at build time after the existing ones)."""
    cited_by = CommentedSeq()
    for source, count in (("S2", s2), ("OpenAlex", openalex)):
        if count is not None:
            cited_by.append(CommentedMap(source=source, count=count))
    entry = _entry(arxiv=q(arxiv), title=title, use_note=use_note)
    if cited_by:
        entry.insert(2, "cited_by", cited_by)
    return edit_brief(path, lambda t: _list(t, "citations").append(entry), data_dir=data_dir, checks=checks)


def _flow(values: list[str]) -> CommentedSeq:
    seq = CommentedSeq(values)
    seq.fa.set_flow_style()
    return seq


def add_words(path: Path, words: dict[str, dict[str, str]], brief: str, default_text: str) -> None:
    """Add the new words an import met to the vocabulary file at ``path`` (made from
    ``default_text`` when the site has none), each marked ``# digest-import:`` for the reviewer.

    Round-trip: the file's comments, order and quoting stay; written atomically under the lock."""
    path = Path(path)
    with files.locked(path.parent):
        if path.is_file():
            with files.failing("read", path):
                source = path.read_text(encoding="utf-8")
        else:
            source = default_text
        yaml = _yaml()
        tree = yaml.load(source)
        for kind, new in words.items():
            section = tree.get(kind)
            if section is None:
                section = tree[kind] = CommentedMap()
            for code, label in new.items():
                if code in section:
                    continue
                section[code] = q(label)
                section.yaml_add_eol_comment(
                    f"# digest-import: new word in {brief}; rename the code (here and in the brief) if you like",
                    code,
                )
        out = io.StringIO()
        yaml.dump(tree, out)
        with files.staged(path, out.getvalue()) as staged:
            files.commit(staged, path)

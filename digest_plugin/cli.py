"""The ``digest`` command.

``digest check [DATA_DIR]`` validates every brief, the outlines and the references between them,
and applies the editorial rules, exactly as ``mkdocs build`` does.  Exit codes: 0 clean,
1 anything wrong (error or warning), 2 bad usage.  ``digest diff BASE_REF`` prints, as Markdown
for a pull-request comment, what the change does to the living doc.  ``digest schema`` prints
the brief's JSON Schema.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .core import files
from .core.files import FileError, create
from .core.findings import DataError
from .core.report import format_json, format_text

# The rest is imported by the command that uses it: ``digest`` starts in about half the time when it
# does not load the importer, the renderer and both hosts for a command that needs none of them (every
# command needs the model, a quarter of a second of pydantic).
if TYPE_CHECKING:
    from .authoring import review
    from .authoring.edit import Checks
    from .core.doc import LivingDoc
    from .core.model import Brief, Outline
    from .core.pipeline import Result
    from .site.leaks import Leak


def _data_at(ref: str, data_dir: Path, into: Path) -> Path | None:
    """Extract ``data_dir`` as it was at git ``ref`` into ``into``; None if it did not exist there."""
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=data_dir, capture_output=True, text=True)
    if top.returncode != 0:
        raise SystemExit(f"digest diff: {data_dir} is not inside a git repository")
    rel = data_dir.resolve().relative_to(Path(top.stdout.strip()).resolve()).as_posix()
    archive = subprocess.run(["git", "archive", "--format=tar", ref, rel], cwd=top.stdout.strip(), capture_output=True)
    if archive.returncode != 0:
        if b"not a valid object name" in archive.stderr or b"not a tree object" in archive.stderr:
            raise SystemExit(f"digest diff: unknown git ref '{ref}'")
        return None  # the data folder did not exist at that ref: everything is new
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / rel


def _run_edit(a: argparse.Namespace, c: Checks) -> str:
    """The editing command ``a.command`` (resolve, close-follow-up, set-evidence, cite) with its arguments;
    the brief written."""
    from .authoring import edit

    if a.command == "resolve":
        return edit.resolve_contradiction(
            a.brief,
            a.contradiction,
            a.text,
            change=a.change,
            superseded_by=a.superseded_by,
            outcome=a.outcome,
            corrections=[tuple(x) for x in a.correct or []],
            disposition=a.disposition,
            checks=c,
        )
    if a.command == "close-follow-up":
        return edit.close_follow_up(a.brief, a.follow_up, a.status, a.note, checks=c)
    if a.command == "set-evidence":
        return edit.set_evidence(
            a.brief,
            a.item,
            a.level,
            boundary=a.boundary,
            gaps=a.gaps,
            source_kinds=a.source_kinds,
            follow_up=a.follow_up,
            checks=c,
        )
    return edit.add_citation(a.brief, a.arxiv, a.title, s2=a.s2, openalex=a.openalex, use_note=a.use_note, checks=c)


def _cannot(target: Path, exc: OSError) -> int:
    """A file that could not be read or written, as one line (``TARGET: error: cannot write …: why``); exit 1.

    The writing commands write whole files or nothing, so nothing was written when this is said."""
    if isinstance(exc, FileError):
        why = str(exc)
    else:
        where = exc.filename if exc.filename is not None else target
        why = f"cannot write {where}: {exc.strerror or exc}"
    print(f"{target}: error: {why}", file=sys.stderr)
    return 1


def _edit(args: argparse.Namespace) -> int:
    """Run one editing command; on refusal print why (compiler style) and write nothing."""
    from .authoring.edit import Checks, EditError
    from .core import siteconfig

    if not args.brief.is_file():
        print(f"{args.brief}: error: no such brief file", file=sys.stderr)
        return 2
    try:
        checks = Checks(siteconfig.rules(args.config), dt.date.today())  # the same rules and day as `digest check`
    except Exception as exc:  # noqa: BLE001 - a broken mkdocs.yml is the user's to fix, not a traceback
        print(f"{args.config}: error: cannot read digest rules: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    try:
        _run_edit(args, checks)
    except EditError as exc:
        print(f"{args.brief}: error: {exc}", file=sys.stderr)
        if exc.findings:
            print(format_text(exc.findings, Path.cwd()), file=sys.stderr)
        return 1
    except OSError as exc:  # read-only folder, full disk, busy folder…: one line, nothing written
        return _cannot(args.brief, exc)
    print(f"{args.brief}: updated")
    if checks.warnings:  # written, but `digest check` (and a strict build) will say this
        print(format_text(checks.warnings, Path.cwd()), file=sys.stderr)
    return 0


def _review(args: argparse.Namespace) -> int:
    """List the importer's open questions, or write answers: given (``--answer``), or asked one by
    one at the terminal.  An answer that would not validate is refused and writes nothing."""
    from .authoring import review
    from .authoring.edit import Checks, EditError
    from .core import siteconfig
    from .core.load import load_one
    from .core.model import Brief

    paths = sorted((args.data / "briefs").glob("*.yml"))
    loaded = [(path, load_one(path, Brief)[0]) for path in paths]
    found = review.open_questions([(path, b) for path, b in loaded if b is not None])
    root = Path.cwd()
    if args.list or (not args.answer and not sys.stdin.isatty()):
        print(review.as_json(found, root) if args.format == "json" else review.as_text(found, root), end="")
        return 0
    try:
        checks = Checks(siteconfig.rules(args.config), dt.date.today())
    except Exception as exc:  # noqa: BLE001 - a broken mkdocs.yml is the user's to fix, not a traceback
        print(f"{args.config}: error: cannot read digest rules: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    by_id = {o.question.id: o for o in found}
    try:
        answers = [review.parse_answer(a) for a in args.answer] or _ask(found)
    except EditError as exc:
        print(f"digest review: error: {exc}", file=sys.stderr)
        return 2
    code = 0
    for question_id, choice in answers:
        where = by_id.get(question_id)
        if where is None:
            print(f"digest review: error: no open question {question_id!r} (digest review --list)", file=sys.stderr)
            code = 1
            continue
        try:
            review.answer(where.path, question_id, choice, data_dir=args.data, checks=checks)
        except EditError as exc:
            print(f"{where.path}: error: {exc}", file=sys.stderr)
            if exc.findings:
                print(format_text(exc.findings, Path.cwd()), file=sys.stderr)
            code = 1
        except OSError as exc:
            code = _cannot(where.path, exc)
        else:
            print(f"{where.path}: {question_id} answered ({choice})")
    return code


def _ask(found: list[review.OpenQuestion]) -> list[tuple[str, str]]:
    """Each open question at the terminal: a number picks a candidate, k keeps the reading, s skips."""
    from .authoring import review

    answers = []
    for o in found:
        print(review.as_text([o], Path.cwd()), end="")
        reply = input(f"{o.question.id} [1-{len(o.question.choices)}, k=keep, s=skip]: ").strip().lower()
        if reply in ("k", review.KEEP):
            answers.append((o.question.id, review.KEEP))
        elif reply.isdigit():
            answers.append((o.question.id, reply))
    return answers


ARGUMENT_HELP = {
    "--format": "text (compiler-style lines) or json (for scripts)",
    "base_ref": "the git ref to compare with (origin/main in a pull request)",
    "site_dir": "the built site to read (default: site)",
    "--data": "the data folder (default: data)",
    "--config": "mkdocs.yml whose digest `rules` apply",
    "markdown": "the brief in the team's Markdown pattern",
    "--docs": "the docs folder to write the generated pages into",
    "--host": "mkdocs (the plugin) or zensical (generated pages + the extension)",
    "--topic": "the topic's slug (inference)",
    "brief": "the brief YAML to edit (tonight's)",
    "contradiction": "the id of the earlier contradiction",
    "follow_up": "the id of the earlier follow-up",
    "--status": "done, dropped or carried_over",
    "--note": "what the brief says about it, in its words",
    "item": "the id of the item (this brief's or an earlier one's)",
    "arxiv": "the arXiv id (2309.06180, v2 allowed)",
    "--title": "the paper's title",
    "--s2": "cited-by count on Semantic Scholar",
    "--openalex": "cited-by count on OpenAlex",
    "--use-note": "what the brief cites it for",
    "what": "brief, outline or vocabulary",
}
"""The help of arguments that repeat across commands (a command's own wording, where it has one, wins)."""


def _explain(parser: argparse.ArgumentParser) -> None:
    """Every argument of every command says what it is in ``digest SUB --help``."""
    for action in parser._subparsers._group_actions if parser._subparsers else []:
        for sub in getattr(action, "choices", {}).values():
            for argument in sub._actions:
                key = argument.option_strings[-1] if argument.option_strings else argument.dest
                if argument.help is None and key in ARGUMENT_HELP:
                    argument.help = ARGUMENT_HELP[key]


def _data_folder(args: argparse.Namespace) -> None:
    """One data folder, however given: ``--data``, the positional folder of ``check`` and ``diff``, or
    the ``data_dir`` of the digest plugin in ``--config`` (``mkdocs.yml``), else ``data``."""
    from .core import siteconfig

    if not hasattr(args, "data_opt") and args.command not in ("import", "new"):
        return
    given = getattr(args, "data_opt", None) or getattr(args, "data_dir", None) or getattr(args, "data", None)
    if given is None:
        try:
            given = Path(siteconfig.digest_option(siteconfig.settings(args.config), "data_dir", "data"))
        except Exception:  # noqa: BLE001 - an unreadable mkdocs.yml: the usual folder; the command says more
            given = Path("data")
    if args.command in ("check", "diff"):
        args.data_dir = given
    else:
        args.data = given


def _tidy(args: argparse.Namespace) -> None:
    """Remove what a killed edit left in the data folder (staged files, scratch views) before this
    command reads or writes it, whatever the command: the next run of anything cleans up."""
    folder = getattr(args, "data_dir", None) or getattr(args, "data", None)
    brief = getattr(args, "brief", None)
    if folder is None and isinstance(brief, Path) and brief.parent.name == "briefs":
        folder = brief.parent.parent  # an edit's brief in <data>/briefs/ (its own folder it cleans anyway)
    if isinstance(folder, Path) and folder.is_dir():
        files.tidy_data(folder)


def _new(args: argparse.Namespace) -> int:
    """Scaffold a day's brief; never overwrite one; a file that cannot be written is one line, not a traceback."""
    from .authoring.scaffold import brief_path, new_brief, next_round

    args.round = args.round or next_round(args.data, args.topic, args.date)
    try:
        path = new_brief(args.data, args.topic, args.date, args.round)
    except FileExistsError as exc:
        print(f"digest new: {exc}; edit it instead", file=sys.stderr)
        return 1
    except OSError as exc:
        return _cannot(brief_path(args.data, args.topic, args.date, args.round), exc)
    print(path)
    return 0


def _merged(data_dir: Path, config: Path) -> Result | None:
    """The merged docs, or None after printing what is wrong (the same findings as `digest check`)."""
    from .core import siteconfig
    from .core.pipeline import analyse

    result = analyse(data_dir, rules=siteconfig.rules(config), relative_to=Path.cwd())
    if result.docs is None:
        print(format_text(result.findings, Path.cwd()), file=sys.stderr)
        return None
    return result


def _pages(args: argparse.Namespace) -> int:
    """Generated pages as files, so that a host without plugins builds the same site."""
    from .core import siteconfig
    from .site.pages import write_pages

    result = _merged(args.data, args.config)
    if result is None or result.docs is None:  # _merged has said what is wrong
        return 1
    settings = siteconfig.settings(args.config)
    past = bool(siteconfig.digest_option(settings, "past_views", True))
    written = write_pages(
        args.docs, result.docs, settings.get("site_url"), settings.get("use_directory_urls", True), past=past
    )
    print(f"{len(written)} generated files in {args.docs}")
    return 0


def _readable(data_dir: Path) -> tuple[list[Brief], dict[str, Outline]]:
    """The briefs and outlines of a data folder that load, each on its own: one broken brief (the
    import of last night, not yet fixed) must not hide the others from tonight's import."""
    from .core.load import load_one
    from .core.model import Brief, Outline

    briefs: list[Brief] = []
    outlines: dict[str, Outline] = {}
    for path in sorted((Path(data_dir) / "outlines").glob("*.yml")):
        outline, _, _ = load_one(path, Outline)
        if outline is not None:
            outlines[outline.topic] = outline
    for path in sorted((Path(data_dir) / "briefs").glob("*.yml")):
        brief, _, _ = load_one(path, Brief)
        if brief is not None:
            briefs.append(brief)
    return briefs, outlines


def _import(args: argparse.Namespace) -> int:
    """Import a Markdown brief; print what the editor must check as `file:line: warning: …`."""
    from .authoring.edit import add_words
    from .authoring.importer import FILE_NAME, import_full, normalized
    from .core.load import site_vocabulary
    from .core.vocabulary import FILE as VOCABULARY_FILE
    from .core.vocabulary import default_text

    try:
        markdown = normalized(args.markdown.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{args.markdown}:1: error: cannot read: {exc}", file=sys.stderr)
        return 1
    known, outlines = _readable(args.data)
    topic = re.search(r"（(\w[\w-]*)）|^(\w[\w-]*)\s*·", markdown, re.M)
    named = FILE_NAME.match(args.markdown.stem)  # the team's <date>-<topic>-<round>.md
    candidates = [(topic.group(1) or topic.group(2)) if topic else None, named["topic"] if named else None]
    name = next((c for c in candidates if c in outlines), candidates[0])  # 「增量（1）」 names no topic
    try:
        words = site_vocabulary(args.data)
    except DataError as exc:
        print(format_text(exc.findings, Path.cwd()), file=sys.stderr)
        return 1
    try:
        done = import_full(
            markdown,
            outline=outlines.get(name) if name else None,
            known_briefs=known,
            vocabulary=words,
            name=args.markdown.stem,
        )
    except Exception as exc:  # noqa: BLE001 - a brief no one foresaw is the importer's bug, never a traceback
        print(
            f"{args.markdown}:1: error: the importer failed on this brief ({type(exc).__name__}: {exc}); nothing was "
            "written (write the brief's YAML by hand this time, and report the brief so the importer learns it)",
            file=sys.stderr,
        )
        return 1
    text, notes = done.text, done.notes
    for note in notes:
        print(f"{args.markdown}:{note.line}: warning: {note.message}", file=sys.stderr)
    if args.stdout:
        print(text, end="")
        return 0
    brief_id = re.search(r'^id: "([^"]+)"', text, re.M)
    out = args.output or args.data / "briefs" / f"{brief_id.group(1) if brief_id else args.markdown.stem}.yml"
    try:
        create(out, text)  # whole or nothing, never over an existing file
    except FileExistsError:
        print(f"{out}: error: already exists; use -o to write elsewhere", file=sys.stderr)
        return 1
    except OSError as exc:
        return _cannot(out, exc)
    if done.new_words:
        where = args.data / VOCABULARY_FILE
        try:
            add_words(where, done.new_words, out.stem, default_text())
        except OSError as exc:
            return _cannot(where, exc)
        print(f"{where}: new words proposed (marked # digest-import:), check them", file=sys.stderr)
    print(out)
    return 0


def _diff(args: argparse.Namespace) -> int:
    """What the change since ``args.base_ref`` does to the living doc, as Markdown; or, with ``--from``
    (and ``--to``), what changed between two nights' views of the doc (:mod:`core.asof`)."""
    from .authoring.diff import diff_docs, diff_json
    from .core.asof import as_of_docs
    from .core.pipeline import analyse

    if (args.base_ref is None) == (args.since is None) or (args.until and not args.since):
        print(
            f"{args.config}: error: give a git ref (`digest diff origin/main`) or a night (`digest diff --from "
            "2026-10-21 [--to 2026-10-22]`), one of the two",
            file=sys.stderr,
        )
        return 2
    if args.since and args.until and args.until < args.since:
        print(f"{args.config}: error: --to {args.until} is before --from {args.since}; swap them", file=sys.stderr)
        return 2
    after = _merged(args.data_dir, args.config)
    if after is None or after.docs is None:  # _merged has said what is wrong
        return 1
    docs = after.docs
    if args.since:
        before: dict[str, LivingDoc] | None = as_of_docs(docs, args.since, after.rules)
        docs = as_of_docs(docs, args.until, after.rules) if args.until else docs
    else:
        with tempfile.TemporaryDirectory() as tmp:
            base_dir = _data_at(args.base_ref, args.data_dir, Path(tmp))
            before = analyse(base_dir, rules=after.rules).docs if base_dir and base_dir.is_dir() else None
    if args.format == "json":
        print(json.dumps(diff_json(before or {}, docs), ensure_ascii=False, indent=2, sort_keys=True))
    else:
        print(diff_docs(before or {}, docs), end="")
    return 0


def _leaked(site: Path, docs: Any) -> bool:
    """Read a built site for withheld claims (the independent checker); each one as ``file: error: …``."""
    from .site.leaks import find_leaks

    return _report_leaks(site, find_leaks(site, docs))


def _report_leaks(site: Path, leaks: list[Leak]) -> bool:
    """Each leak as ``file: error: …``; whether there was one."""
    for leak in sorted(leaks):
        print(f"{site / leak.file}: error: {leak.message}", file=sys.stderr)
    return bool(leaks)


def _verify(args: argparse.Namespace) -> int:
    """Read a built site (any host's) for withheld claims; exit 1 if one is visible anywhere."""
    site = Path(args.site_dir)
    if not site.is_dir():
        print(f"{site}: error: no built site here (build it first, or name its folder)", file=sys.stderr)
        return 2
    result = _merged(args.data_dir, args.config)
    if result is None or result.docs is None:  # _merged has said what is wrong
        return 1
    if _leaked(site, result.docs):
        return 1
    pages = sum(1 for _ in site.rglob("*.html"))
    print(f"ok: no withheld claim in {pages} pages, the feeds or the search index of {site}")
    return 0


def _zensical_search_on(settings: dict[str, Any]) -> bool:
    """Whether Zensical runs its own search: unless ``- search: enabled: false`` says otherwise
    (Zensical searches even when ``plugins`` does not list it)."""
    for plugin in settings.get("plugins") or []:
        entry: dict[str, Any] = {plugin: {}} if isinstance(plugin, str) else dict(plugin)
        for name, options in entry.items():
            if name in ("search", "material/search"):
                return bool((options or {}).get("enabled", True))
    return True


def _build(args: argparse.Namespace) -> int:
    """One command for a whole build on either host: for Zensical (which runs no plugins) the
    generated pages, the build, Pagefind's index and the independent leak check, each step only
    when the one before succeeded; for MkDocs, its strict build (the plugin does the rest)."""
    from .core import siteconfig
    from .core.asof import as_of_docs
    from .core.workers import Worker, give_back_memory
    from .hosts import zensical_host
    from .site import searchindex
    from .site.layout import Layout
    from .site.leaks import LeakCheck
    from .site.pages import past_data, write_into, write_pages

    root = args.config.resolve().parent
    if args.host == "mkdocs":
        command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(args.config)]
        if args.site_dir:
            command += ["-d", str(args.site_dir)]
        done = subprocess.run(command, check=False, env=_as_of_env(args))
        return done.returncode
    if args.site_dir:
        return _mkdocs_only(args, "--site-dir")
    result = _merged(args.data, args.config)
    if result is None or result.docs is None:  # _merged has said what is wrong
        return 1
    if args.as_of:
        result.docs = as_of_docs(result.docs, args.as_of, result.rules)
    settings = siteconfig.settings(args.config)
    past = bool(siteconfig.digest_option(settings, "past_views", True))
    written = write_pages(
        root / settings.get("docs_dir", "docs"),
        result.docs,
        settings.get("site_url"),
        settings.get("use_directory_urls", True),
        past=past,
        past_data=False,
    )
    # Every night's views, rendered by a worker while Zensical builds (forked before its threads
    # start), written into the site after it as the MkDocs plugin does: serially they come on top.
    views = Worker(past_data, {t: Layout(doc, past=True) for t, doc in result.docs.items()}) if past else None
    if siteconfig.digest_option(settings, "search", "material") == "pagefind" and _zensical_search_on(settings):
        print(
            f"{args.config}: warning: Zensical's own search is on with `search: pagefind`: it takes "
            "`data-search-exclude` off the pages, so Pagefind would index what they keep out of search "
            "(the claims quoted in their callouts); add `- search: {enabled: false}` under `plugins`",
            file=sys.stderr,
        )
    site = root / settings.get("site_dir", "site")
    try:
        zensical_host.build(args.config, settings, args.data, result.docs, written, past=past)
        if views is not None:  # before the site is read for leaks
            write_into(site, views.result())
    except zensical_host.ZensicalError as exc:
        print(f"{args.config}: error: {exc}", file=sys.stderr)
        return 1
    finally:
        if views is not None:
            views.close()
    if args.as_of:
        _banner_on_every_page(site, args.as_of)
    check = LeakCheck(result.docs)
    del result, written  # the merged docs are done with: Pagefind's memory comes on top of what is held
    give_back_memory()
    if siteconfig.digest_option(settings, "search", "material") == "pagefind":
        try:
            leaks = searchindex.build_beside(site, lambda skip: check.site(site, skip=skip))
        except searchindex.SearchIndexError as exc:
            print(f"{site}: error: {exc}", file=sys.stderr)
            return 1
    else:
        leaks = check.site(site)
    if _report_leaks(site, leaks):
        return 1
    print(
        f"ok: {site} built with zensical, searched by {siteconfig.digest_option(settings, 'search', 'material')}, no withheld claim in it"
    )
    return 0


def _serve(args: argparse.Namespace) -> int:
    """The preview on either host.

    MkDocs: ``mkdocs serve --dirty``, under which the plugin converts again only the pages whose
    content an edit changed (:mod:`preview`) and MkDocs leaves the others as they are.  This process
    becomes MkDocs (``exec``), so stopping it stops the server.

    Zensical (which runs no plugins): the generated pages are written, ``zensical serve`` runs
    beside this process, and each change under the data folder writes the pages again (a new
    brief's page, archive pages that come or go; unchanged files are left alone).  Zensical
    re-renders and reloads the browser itself, since ``mkdocs.yml`` lists the data folder under
    ``watch:``; the extension reads the data again when a file changed."""
    if args.host == "zensical":
        return _mkdocs_only(args, "--as-of") if args.as_of else _serve_zensical(args)
    command = [sys.executable, "-m", "mkdocs", "serve", "--dirty", "-f", str(args.config)]
    if args.dev_addr:
        command += ["-a", args.dev_addr]
    env = dict(_as_of_env(args), NO_MKDOCS_2_WARNING=os.environ.get("NO_MKDOCS_2_WARNING", "1"))
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, command, env)


def _banner_on_every_page(site: Path, night: dt.date) -> None:
    """A past view built by Zensical (which runs no plugin to add it as MkDocs does): the banner put on
    every page it wrote, but the theme's 404, as on MkDocs."""
    from .site.pages import with_as_of_banner

    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).as_posix() != "404.html":
            page.write_text(with_as_of_banner(page.read_text(encoding="utf-8"), night), encoding="utf-8")


def _as_of_env(args: argparse.Namespace) -> dict[str, str]:
    """The environment MkDocs runs in: with ``DIGEST_AS_OF`` for ``--as-of`` (the plugin reads it)."""
    from .core.asof import AS_OF_VARIABLE

    env = {k: v for k, v in os.environ.items() if k != AS_OF_VARIABLE}
    if args.as_of:
        env[AS_OF_VARIABLE] = args.as_of.isoformat()
    return env


def _mkdocs_only(args: argparse.Namespace, option: str) -> int:
    print(
        f"{args.config}: error: {option} works with the MkDocs host for now; run `digest {args.command} {option} …` "
        "without `--host zensical`",
        file=sys.stderr,
    )
    return 2


def _serve_zensical(args: argparse.Namespace) -> int:
    from .core import siteconfig
    from .site.pages import write_pages

    root = args.config.resolve().parent
    settings = siteconfig.settings(args.config)
    watched = [str(w).rstrip("/") for w in settings.get("watch") or []]
    if args.data.as_posix().rstrip("/") not in watched and str(args.data.resolve()) not in watched:
        print(
            f"{args.config}: error: Zensical re-renders on a data edit only if mkdocs.yml lists the data "
            f"folder under `watch:` (add `watch: [{args.data.as_posix()}]`)",
            file=sys.stderr,
        )
        return 1
    docs_dir = root / settings.get("docs_dir", "docs")

    def write() -> bool:
        result = _merged(args.data, args.config)  # prints what is wrong; the last good pages stay
        if result is None or result.docs is None:
            return False
        write_pages(docs_dir, result.docs, settings.get("site_url"), settings.get("use_directory_urls", True))
        return True

    if not write():
        return 1
    command = [sys.executable, "-m", "zensical", "serve"] + (["-a", args.dev_addr] if args.dev_addr else [])
    server = subprocess.Popen(command, cwd=root)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop the server too (finally, below)
    try:
        stamp = _stamp(args.data)
        while server.poll() is None:
            time.sleep(0.3)
            now = _stamp(args.data)
            if now != stamp:
                stamp = now
                if write():
                    print("digest: generated pages written again after a data edit", file=sys.stderr)
        return server.returncode or 0
    except KeyboardInterrupt:
        return 0
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()


def _stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Every YAML file under ``folder`` with its size and time: a change, a new file or a deleted one."""
    found = []
    for path in sorted(folder.rglob("*.yml")):
        with contextlib.suppress(OSError):
            stat = path.stat()
            found.append((str(path), stat.st_size, stat.st_mtime_ns))
    return tuple(found)


def _export(args: argparse.Namespace) -> int:
    """The merged doc as JSON for other tools: every statement with its provenance (export.py)."""
    from .core import siteconfig
    from .core.asof import as_of_docs
    from .site.export import export
    from .site.layout import layouts

    result = _merged(args.data, args.config)
    if result is None or result.docs is None:  # _merged has said what is wrong
        return 1
    settings = siteconfig.settings(args.config)
    docs = as_of_docs(result.docs, args.as_of, result.rules) if args.as_of else result.docs
    data = export(layouts(docs), bool(settings.get("use_directory_urls", True)))
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return 0
    if not args.output.parent.is_dir():
        print(f"{args.output}: error: cannot write: no folder {args.output.parent} (create it first)", file=sys.stderr)
        return 1
    try:
        with files.locked(args.output.parent), files.staged(args.output, text) as tmp:
            files.commit(tmp, args.output)
    except OSError as exc:
        return _cannot(args.output, exc)
    statements = sum(len(t["statements"]) for t in data["topics"])
    print(f"{args.output}: {statements} statements in {len(data['topics'])} topic(s)")
    return 0


def _schema(args: argparse.Namespace) -> int:
    """The schema editors validate against, listing the site's words in each vocabulary field."""
    from .core.load import site_vocabulary
    from .core.vocabulary import schema_of

    try:
        words = site_vocabulary(args.data)
    except DataError as exc:
        print(format_text(exc.findings, Path.cwd()), file=sys.stderr)
        return 1
    print(json.dumps(schema_of(args.what, words), ensure_ascii=False, indent=2))
    return 0


class _Commands:
    """``add_subparsers()`` whose commands describe themselves: ``digest SUB --help`` opens with the
    same line ``digest --help`` lists for SUB (argparse shows a ``help=`` only in the parent's list)."""

    def __init__(self, actions: Any) -> None:
        self.actions = actions

    def add_parser(self, name: str, *, help: str, **more: Any) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = self.actions.add_parser(
            name, help=help, description=help[:1].upper() + help[1:] + ".", **more
        )
        return parser


def _version() -> str:
    """The installed package's version (what ``pip`` installed from pyproject.toml)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("digest-plugin")
    except PackageNotFoundError:
        return "unknown"


def _check(args: argparse.Namespace) -> int:
    """``digest check``: every finding located, as text on stderr or JSON on stdout."""
    from .core import siteconfig
    from .core.pipeline import analyse

    try:
        rules = siteconfig.rules(args.config)
    except Exception as exc:  # noqa: BLE001 - unreadable YAML, a wrong shape or invalid rules: a broken mkdocs.yml is the user's to fix, not a traceback
        print(f"{args.config}: error: cannot read digest rules: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    result = analyse(
        args.data_dir, rules=rules, relative_to=Path.cwd(), today=dt.date.today(), cache_dir=args.cache_dir
    )
    if args.format == "json":
        print(format_json(result.findings))
    elif result.findings:
        print(format_text(result.findings, Path.cwd()), file=sys.stderr)
    else:
        docs = result.docs or {}
        briefs = sum(len(d.briefs) for d in docs.values())
        print(f"ok: {len(docs)} topic{'s' if len(docs) != 1 else ''}, {briefs} brief{'s' if briefs != 1 else ''}")
    return 1 if result.findings else 0


# --------------------------------------------------------------------------- the subcommands' arguments


def _data_given_or_configured(p: argparse.ArgumentParser) -> None:
    """``check`` and ``diff``: the data folder as a positional argument or ``--data``, else mkdocs.yml's."""
    p.add_argument("data_dir", nargs="?", default=None, type=Path, help="the data folder (or --data)")
    p.add_argument("--data", dest="data_opt", type=Path, help="the data folder (default: the digest plugin's data_dir)")


def _data_configured(p: argparse.ArgumentParser) -> None:
    """``--data``, else the digest plugin's ``data_dir`` in mkdocs.yml (resolved by :func:`_data_folder`)."""
    p.add_argument("--data", default=None, type=Path, help="the data folder (default: the digest plugin's data_dir)")


def _data(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", default=Path("data"), type=Path)


def _check_arguments(p: argparse.ArgumentParser) -> None:
    _data_given_or_configured(p)
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument(
        "--cache-dir",
        type=Path,
        default=Path(".cache/digest"),
        help="parsed briefs kept between runs, shared with the build (default: .cache/digest)",
    )


def _diff_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("base_ref", nargs="?", help="a git ref: what the change since it does to the doc")
    p.add_argument("--from", dest="since", type=_night, metavar="YYYY-MM-DD", help="what changed after this night …")
    p.add_argument("--to", dest="until", type=_night, metavar="YYYY-MM-DD", help="… up to this one (default: today)")
    _data_given_or_configured(p)
    p.add_argument(
        "--format", choices=["markdown", "json"], default="markdown", help="json: the same changes, for scripts"
    )


def _verify_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("site_dir", nargs="?", default="site", type=Path)
    p.add_argument("--data", dest="data_dir", default=Path("data"), type=Path)


def _import_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("markdown", type=Path)
    p.add_argument("-o", "--output", type=Path, help="where to write (default: DATA/briefs/<id>.yml)")
    _data_configured(p)
    p.add_argument("--stdout", action="store_true", help="print the YAML instead of writing a file")


def _review_arguments(p: argparse.ArgumentParser) -> None:
    _data(p)
    p.add_argument("--list", action="store_true", help="list the open questions and exit")
    p.add_argument("--format", choices=["text", "json"], default="text", help="how --list prints them")
    p.add_argument("--answer", action="append", default=[], metavar="ID=CHOICE", help="a candidate's number, or keep")


def _pages_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--docs", default=Path("docs"), type=Path)
    _data(p)


def _host_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", choices=("mkdocs", "zensical"), default="mkdocs")
    _data(p)
    _as_of_argument(p)


def _build_arguments(p: argparse.ArgumentParser) -> None:
    _host_arguments(p)
    p.add_argument("-d", "--site-dir", type=Path, help="write the site here (default: mkdocs.yml's site_dir)")


def _night(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"«{value}» is not a night; write it as YYYY-MM-DD (e.g. 2026-10-22)"
        ) from None


def _as_of_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--as-of",
        type=_night,
        metavar="YYYY-MM-DD",
        help="the doc as it stood after that night's briefs (today's withholdings still apply)",
    )


def _serve_arguments(p: argparse.ArgumentParser) -> None:
    _host_arguments(p)
    p.add_argument("-a", "--dev-addr", help="IP:PORT to serve on (default: mkdocs.yml's, else 127.0.0.1:8000)")


def _export_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", type=Path, help="write to this file (atomically) instead of standard output")
    _data(p)
    _as_of_argument(p)


def _new_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--topic", required=True)
    p.add_argument("--date", required=True, type=dt.date.fromisoformat, help="YYYY-MM-DD")
    p.add_argument("--round", help="E1, E2 … (default: the night's next round: E1, or E3 after an E2)")
    _data_configured(p)


def _resolve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("brief", type=Path)
    p.add_argument("contradiction")
    p.add_argument("--text", required=True, help="the resolution, in the brief's words")
    p.add_argument(
        "--change",
        default="resolved",
        choices=["resolved", "reopened", "superseded", "redisposed"],
        help="what happened to it (redisposed: re-judged, with --disposition)",
    )
    p.add_argument("--superseded-by", help="with --change superseded: tonight's contradiction that replaces it")
    p.add_argument("--disposition", help="with --change redisposed: its new disposition (a code of the vocabulary)")
    p.add_argument(
        "--outcome",
        choices=["confirmed", "corrected"],
        help="how a resolution settled it: the claim held, or was wrong",
    )
    p.add_argument(
        "--correct",
        nargs=4,
        action="append",
        metavar=("FIGURE", "WRONG", "RIGHT", "REASON"),
        help="with --outcome corrected: the figure key, its wrong and right values, and why (repeatable)",
    )


def _close_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("brief", type=Path)
    p.add_argument("follow_up")
    p.add_argument("--status", default="done", choices=["done", "dropped", "carried_over"])
    p.add_argument("--note")


def _codes(value: str) -> list[str]:
    return [g for g in value.split(",") if g]


def _evidence_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("brief", type=Path)
    p.add_argument("item")
    p.add_argument(
        "--level", required=True, help="a word of evidence_levels in data/vocabulary.yml (partially_verified …)"
    )
    p.add_argument("--boundary", help="the new 证据边界 (required for an item of an earlier brief)")
    p.add_argument("--gaps", type=_codes, help="comma-separated gap codes (gaps: …)")
    p.add_argument(
        "--source-kinds",
        type=_codes,
        help="comma-separated source kind codes (source_kinds: …); an update of an earlier item keeps its kinds without it",
    )
    p.add_argument("--follow-up", help="the follow-up whose work brought this evidence")


def _cite_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("brief", type=Path)
    p.add_argument("arxiv")
    p.add_argument("--title", required=True)
    p.add_argument("--s2", type=int)
    p.add_argument("--openalex", type=int)
    p.add_argument("--use-note")


def _schema_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", nargs="?", choices=["brief", "outline", "vocabulary"], default="brief")
    p.add_argument(
        "--data", default=Path("data"), type=Path, help="the data folder whose vocabulary.yml the schema lists"
    )


class Command(NamedTuple):
    """One subcommand: its name, the line ``digest --help`` lists, its own arguments, what runs it,
    and whether it reads mkdocs.yml (``--config``, the shared parent's one option)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    config: bool = True


COMMANDS: tuple[Command, ...] = (
    Command("check", "validate the data like a compiler (exit 0 clean, 1 problems)", _check_arguments, _check),
    Command(
        "diff",
        "what the change since BASE_REF (or between two nights: --from, --to) does to the living doc",
        _diff_arguments,
        _diff,
    ),
    Command("verify", "read a built site for withheld claims (any host; exit 1 if found)", _verify_arguments, _verify),
    Command("import", "turn a brief in the team's Markdown pattern into brief YAML", _import_arguments, _import),
    Command(
        "review",
        "answer the importer's questions (待编辑确认) without editing YAML; --list shows them",
        _review_arguments,
        _review,
    ),
    Command("pages", "write the generated pages into the docs folder (for Zensical)", _pages_arguments, _pages),
    Command(
        "build",
        "build the site on a host: pages, build, search index, leak check (exit 1 on a problem)",
        _build_arguments,
        _build,
    ),
    Command("serve", "preview the site, converting again only the pages an edit changes", _serve_arguments, _serve),
    Command(
        "export",
        "the merged doc as JSON: statements with provenance, contradictions, citations",
        _export_arguments,
        _export,
    ),
    Command("new", "scaffold an empty brief for a day", _new_arguments, _new),
    Command("resolve", "record in BRIEF that an earlier contradiction is resolved", _resolve_arguments, _edit),
    Command("close-follow-up", "record in BRIEF that an earlier follow-up is closed", _close_arguments, _edit),
    Command("set-evidence", "set an item's evidence level (in place, or as an update)", _evidence_arguments, _edit),
    Command("cite", "add an arXiv citation to BRIEF", _cite_arguments, _edit),
    Command(
        "schema",
        "print the JSON Schema of a brief (or of an outline, or of the vocabulary file)",
        _schema_arguments,
        _schema,
        config=False,
    ),
)
"""Every subcommand, in the order ``digest --help`` lists them."""


def parser() -> argparse.ArgumentParser:
    """The ``digest`` command line: one subparser per :data:`COMMANDS` row, ``--config`` shared."""
    top = argparse.ArgumentParser(prog="digest", description="Tools for the team's brief data.")
    top.add_argument("--version", action="version", version=f"digest {_version()}")
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument(
        "--config",
        type=Path,
        default=Path("mkdocs.yml"),
        help="mkdocs.yml: the digest plugin's data_dir and rules (default: ./mkdocs.yml)",
    )
    sub = _Commands(top.add_subparsers(dest="command", required=True))
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, parents=[shared] if command.config else [])
        command.arguments(p)
        p.set_defaults(run=command.run)
    _explain(top)
    return top


def main(argv: list[str] | None = None) -> int:
    """The ``digest`` command line; returns the exit code (0 clean, 1 problems, 2 bad usage)."""
    args = parser().parse_args(argv)
    _data_folder(args)
    _tidy(args)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


if __name__ == "__main__":
    sys.exit(main())

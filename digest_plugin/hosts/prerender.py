"""Render the generated pages' directives on both cores during a one-off build.

Why: MkDocs converts pages one after another in one process, and at ten years of briefs rendering
the directives of the generated pages (one per brief, the archive months) is about a third of the
build.  The build machine has two cores.

How: the build converts pages from the front as usual, and a forked worker
(:class:`~digest_plugin.core.workers.Worker`) renders pages from the back; they meet wherever the work
runs out, so neither waits on a guess of what each page costs.  Before rendering a page each side
writes how far it has come into a shared page of memory and reads how far the other has come:

* the build takes page ``i`` if the worker has not reached it; else it waits for the worker's
  result (the worker stops at the first page the build has taken);
* a page both took is rendered twice, identically (the build uses its own);
* a page neither took, or one the worker could not render (a directive or template error), or
  every page of a worker that failed, is rendered by the build, which logs what went wrong.

So the split can only make a build faster, never different.  The worker's blocks come back as
plain data (marshal: nothing read back can run code) and reach the extension as the page's
``prepared`` blocks, as a preview's do.  The worker writes each page to a file with no name as
soon as it is rendered, and the build reads each one back as it reaches it: neither process holds
half the site's HTML at once (at ten years that was ~0.4 GB in each, the build's peak memory).
"""

from __future__ import annotations

import marshal
import mmap
import struct
import tempfile
from collections.abc import Callable, Mapping, Sequence

from ..core.workers import Worker
from ..site.templating import TemplateProblem
from ..site.text import Block, Heading, Raw
from .extension import DirectiveError, PageContext, directives, render_directive

Sent = str | tuple[int, str, str, bool]
"""A block as plain data: a Raw's HTML, or a Heading as (level, anchor, text, searched)."""
Page = tuple[list[list[Sent]], list[str]]
"""A page's directives' blocks and the anchors they gave, as written to the pages' file."""
Rendered = dict[str, int]
"""Page path → where its :data:`Page` starts in the pages' file."""

FRONT, BACK = 0, 8
"""Offsets in the shared page: the build's next page; the worker's last page taken."""


class Prerender:
    """The generated pages' directives, rendered by the build from the front and by a worker from
    the back.  ``take`` is called as the host reaches each page; ``close`` when the pages are done."""

    def __init__(self, stubs: Mapping[str, str], context: Callable[[str], PageContext]) -> None:
        """``stubs``: the generated pages' Markdown, in the order the host converts them."""
        self.paths: Sequence[str] = [path for path, stub in stubs.items() if directives(stub)]
        self.index = {path: i for i, path in enumerate(self.paths)}
        self.stubs = stubs
        self.context = context
        self.shared = mmap.mmap(-1, 16)  # anonymous and shared: the worker sees the build's writes
        self._write(FRONT, 0)
        self._write(BACK, len(self.paths))
        self.results: Rendered | None = None
        self.pages = tempfile.TemporaryFile()  # noqa: SIM115 - shared with the worker; close() ends it
        self.taken = 0
        """How many pages the build took from the worker."""
        self.worker: Worker[Rendered] | None = Worker(self._from_back) if len(self.paths) > 1 else None

    def _write(self, offset: int, value: int) -> None:
        struct.pack_into("q", self.shared, offset, value)

    def _read(self, offset: int) -> int:
        value: int = struct.unpack_from("q", self.shared, offset)[0]
        return value

    def _from_back(self) -> Rendered:
        """The worker: render pages from the last one down, until the build has reached them."""
        done: Rendered = {}
        for i in range(len(self.paths) - 1, -1, -1):
            self._write(BACK, i)
            if i < self._read(FRONT):
                break
            path = self.paths[i]
            ctx = self.context(path)
            try:
                blocks = [render_directive(ctx, args) for args in directives(self.stubs[path])]
            except (DirectiveError, TemplateProblem):
                continue  # the build renders it again and reports the error where MkDocs counts it
            done[path] = self.pages.tell()
            page: Page = ([[_send(b) for b in group] for group in blocks], sorted(ctx.anchors))
            marshal.dump(page, self.pages)
        self.pages.flush()
        return done

    def take(self, ctx: PageContext) -> None:
        """Give ``ctx`` its page's blocks if the worker rendered them; else leave it to the
        extension to render them here (and tell the worker this page is taken)."""
        i = self.index.get(ctx.page)
        if i is None:
            return
        if self.results is None:
            self._write(FRONT, i + 1)
            if i < self._read(BACK) or self.worker is None:
                return
            self.results = self.worker.result()
        offset = self.results.pop(ctx.page, None)
        if offset is None:
            return
        try:  # the worker has ended: the file is read by the build alone
            self.pages.seek(offset)
            groups, anchors = marshal.load(self.pages)
        except (OSError, EOFError, ValueError, TypeError):
            return  # unreadable: rendered here like any page the worker did not take
        ctx.prepared = [[_receive(b) for b in group] for group in groups]
        ctx.anchors.update(anchors)
        self.taken += 1

    def close(self) -> None:
        """Stop a worker whose result was never needed, and let go of what is left."""
        if self.worker is not None:
            self.worker.close()
        self.results = None
        self.pages.close()
        self.shared.close()


def _send(block: Block) -> Sent:
    return block.html if isinstance(block, Raw) else (block.level, block.anchor, block.text, block.searched)


def _receive(sent: Sent) -> Block:
    return Raw(sent) if isinstance(sent, str) else Heading(*sent)

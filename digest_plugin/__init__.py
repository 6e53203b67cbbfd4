"""digest: merge the team's daily briefs into its living docs at build time.

The pure core (model → findings → load → check/rules → merge → layout → render) imports nothing
of MkDocs; ``plugin`` adapts it to MkDocs, ``extension`` to any Python-Markdown host (Zensical
too), ``macros`` to mkdocs-macros, ``cli`` to the command line.  DEVELOPING.md has the picture.
"""

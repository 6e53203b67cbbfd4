"""digest: merge the team's daily briefs into its living docs at build time.

The core (model → load → check → merge → render) does not import MkDocs; ``plugin`` and
``macros`` adapt it to MkDocs and mkdocs-macros, ``extension`` to any Python-Markdown host.
"""

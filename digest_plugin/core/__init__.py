"""The pure core: a brief's shapes and the team's words (``model``, ``vocabulary``), located problems
(``findings``, ``report``), reading the data folder (``load``, ``fastyaml``, ``files``, ``workers``),
checking it (``check``, ``rules``), and the merge (``merge``) into the frozen living doc (``doc``);
``pipeline`` runs load → check → merge.  Nothing here imports MkDocs, Python-Markdown or Jinja.
"""

"""The site, from the merged doc: where everything lives (``layout``), the HTML through one text path
(``render``, with ``templating``'s sandboxed, overridable templates and ``chart``'s SVG), the feed and
the export, which pages exist (``pages``), the search index (``searchindex``) and the independent
check of the written site for withheld claims (``leaks``).  Still no MkDocs, no Python-Markdown.
"""

"""The hosts: the MkDocs plugin (``plugin``), the Python-Markdown extension (``extension``; Zensical
runs it too), the mkdocs-macros pluglet (``macros``), Zensical's build (``zensical_host``), a preview's
page plan (``preview``), generated pages rendered on the second core (``prerender``) and the atomic
publish (``siteswap``).  Each hands off to the core and the site; none decides what the doc says.
"""

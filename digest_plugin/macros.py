"""The mkdocs-macros pluglet's public name: ``modules: [digest_plugin.macros]`` in ``mkdocs.yml``.  It
lives in :mod:`digest_plugin.hosts.macros`; this name stays so a site's configuration does not change
when the package's folders do.
"""

from .hosts.macros import define_env

__all__ = ["define_env"]

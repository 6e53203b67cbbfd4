"""The Python-Markdown extension's public name: ``markdown_extensions: [digest_plugin.extension]`` in
``mkdocs.yml`` (MkDocs and Zensical alike).  It lives in :mod:`digest_plugin.hosts.extension`; this
name stays so a site's configuration does not change when the package's folders do.
"""

from .hosts.extension import DigestExtension, makeExtension

__all__ = ["DigestExtension", "makeExtension"]

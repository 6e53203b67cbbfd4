"""Authoring, beside the hosts: the Markdown importer (``importer``), edits that keep comments and
quoting (``edit``), a new night's brief (``scaffold``), the pull request's summary (``diff``) and the
importer's questions answered (``review``).
"""

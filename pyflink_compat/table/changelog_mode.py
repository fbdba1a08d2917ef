"""ChangelogMode (mirror of ``pyflink.table.changelog_mode``): the kinds of changes a changelog holds."""

__all__ = ['ChangelogMode']


class ChangelogMode(object):
    """The set of changes contained in a changelog. PyFlink's wraps the Java object; ours holds the row kinds by
    their short names (``+I``, ``-U``, ``+U``, ``-D``) in its place."""

    def __init__(self, j_changelog_mode):
        self._kinds = frozenset(j_changelog_mode)

    @staticmethod
    def insert_only():
        """Shortcut for a simple INSERT-only changelog."""
        return ChangelogMode({"+I"})

    @staticmethod
    def upsert():
        """Shortcut for an upsert changelog: idempotent updates on a key, without UPDATE_BEFORE rows."""
        return ChangelogMode({"+I", "+U", "-D"})

    @staticmethod
    def all():
        """Shortcut for a changelog that can contain all row kinds."""
        return ChangelogMode({"+I", "-U", "+U", "-D"})

    def __eq__(self, other):
        return isinstance(other, ChangelogMode) and other._kinds == self._kinds

    def __hash__(self):
        return hash(self._kinds)

    def __repr__(self):
        return "ChangelogMode[%s]" % ", ".join(kind for kind in ("+I", "-U", "+U", "-D") if kind in self._kinds)

"""Mirror of ``pyflink.common.utils``: the base of PyFlink's wrappers of Java objects."""


class JavaObjectWrapper(object):
    """Holds the object it wraps (in PyFlink a Java object; here whatever the mirror keeps)."""

    def __init__(self, j_object):
        self._j_object = j_object

    def get_java_object(self):
        return self._j_object

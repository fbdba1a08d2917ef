"""Errors pyflink-compat raises where PyFlink would raise a Java exception.

PyFlink forwards builder validation to Java; failures reach Python as
``py4j.protocol.Py4JJavaError`` whose text is ``"An error occurred while calling
oNN.method.\\n: java.lang.SomeException: message"``. We raise a subclass of
``Py4JJavaError`` (py4j ships with pyspark) carrying the same Java class name and
message, so ``except Py4JJavaError`` in a user's job keeps working and the text
users grep for is unchanged. No JVM is involved.
"""
from py4j.protocol import Py4JJavaError

PORTING_GUIDE = "porting_guide/README.md"


class JavaStyleError(Py4JJavaError):
    """A Java-side exception reproduced in Python: ``java_class`` and ``message``."""

    def __init__(self, java_class: str, message: str, method: str = "build", cause: "JavaStyleError" = None):
        # Py4JJavaError.__init__ expects a live Java object; set its fields ourselves.
        self.args = (message,)
        self.java_class = java_class
        self.message = message
        self.method = method
        self.errmsg = "An error occurred while calling %s" % method
        self.java_exception = None
        self.cause = cause              # the Java exception's cause, shown as "Caused by: ..." as a trace shows it

    def _thrown(self) -> str:
        # Java's Throwable.toString(): the class, then ": message" unless the message is null
        return self.java_class if self.message is None else "%s: %s" % (self.java_class, self.message)

    def __str__(self):
        text = "An error occurred while calling %s.\n: %s" % (self.method, self._thrown())
        cause = self.cause
        while cause is not None:
            text += "\nCaused by: %s" % cause._thrown()
            cause = cause.cause
        return text

    def __repr__(self):
        return "%s(%r, %r)" % (type(self).__name__, self.java_class, self.message)

    def __reduce__(self):
        return (type(self), (self.java_class, self.message, self.method, self.cause))


class PythonSideJavaError(Py4JJavaError, RuntimeError):
    """An error raised on our side where PyFlink raises a ``Py4JJavaError`` (a job's failure, a Kafka client's),
    so that a job's ``except Py4JJavaError`` catches it; its text is the message alone."""

    def __init__(self, message: str):
        Exception.__init__(self, message)
        self.errmsg = message
        self.java_exception = None

    def __str__(self):
        return self.args[0] if self.args else ""


def null_pointer(message: str, method: str = "build") -> JavaStyleError:
    return JavaStyleError("java.lang.NullPointerException", message, method)


def illegal_state(message: str, method: str = "build") -> JavaStyleError:
    return JavaStyleError("java.lang.IllegalStateException", message, method)


def illegal_argument(message: str, method: str = "build") -> JavaStyleError:
    return JavaStyleError("java.lang.IllegalArgumentException", message, method)


class UnsupportedFeatureError(NotImplementedError):
    """Raised by every mirrored name whose behaviour pyflink-compat does not provide (yet)."""

    def __init__(self, name: str, section: str = "unsupported-apis", reason: str = ""):
        self.name = name
        self.section = section
        text = "%s is not supported by pyflink-compat yet" % name
        if reason:
            text += " (%s)" % reason
        text += ". See %s#%s." % (PORTING_GUIDE, section)
        super().__init__(text)


def unsupported(qualified_name: str, section: str = "unsupported-apis", reason: str = ""):
    """A method body that raises UnsupportedFeatureError naming ``qualified_name``.

    Use it to define mirrored methods we do not implement, so that calling them
    gives a clear error rather than an AttributeError::

        class DataStream:
            union = unsupported("DataStream.union", "multi-input-streams")
    """

    def method(*args, **kwargs):
        raise UnsupportedFeatureError(qualified_name, section, reason)

    method.__name__ = qualified_name.rsplit(".", 1)[-1]
    method.__qualname__ = qualified_name
    method.__doc__ = "Not supported by pyflink-compat yet: raises UnsupportedFeatureError."
    method._pyflink_compat_unsupported = True
    return method


def no_effect(reason: str):
    """Marks a mirrored method that is accepted and does nothing a job could observe on Spark, for ``reason``
    (the API parity report lists these apart from the implemented ones)."""

    def mark(function):
        function._pyflink_compat_no_effect = reason
        return function
    return mark


def unsupported_class(qualified_name: str, section: str = "unsupported-apis", reason: str = ""):
    """A class that exists (so imports work) but raises UnsupportedFeatureError when constructed."""

    def __init__(self, *args, **kwargs):
        raise UnsupportedFeatureError(qualified_name, section, reason)

    short = qualified_name.rsplit(".", 1)[-1]
    cls = type(short, (object,), {
        "__init__": __init__,
        "__doc__": "Not supported by pyflink-compat yet: constructing it raises UnsupportedFeatureError.",
        "_pyflink_compat_unsupported": True,
    })
    return cls


class JavaException(Exception):
    """PyFlink's Python form of a Table API Java exception (``pyflink.util.exceptions``): its text is the Java
    exception's (``org.apache.flink.table.api.TableException: message``)."""

    def __init__(self, stack_trace: str):
        self.stack_trace = stack_trace

    def __str__(self):
        return self.stack_trace


class TableException(JavaException):
    """General Exception for all errors during table handling."""


class CatalogException(JavaException):
    """A catalog's failure."""


class DatabaseNotExistException(JavaException):
    """No database of that name exists."""


class DatabaseAlreadyExistException(JavaException):
    """A database of that name exists already."""


class TableAlreadyExistException(JavaException):
    """A table of that name exists already."""


class TableNotExistException(JavaException):
    """No table of that name exists."""


class FunctionAlreadyExistException(JavaException):
    """A function of that name exists already."""


class FunctionNotExistException(JavaException):
    """No function of that name exists."""


def table_exception(message: str) -> TableException:
    """Flink's TableException as PyFlink raises it in Python."""
    return TableException("org.apache.flink.table.api.TableException: %s" % message)

"""Which operator a failure comes from: the operator whose function raised, found from the Python traceback
of the failed task (its frames name files and lines; each operator's function has a place in the job's code).
"""
import re
import types
from typing import Iterable, List, Optional, Tuple

from pyflink_compat.plan import graph

_FRAME = re.compile(r'File "([^"]+)", line (\d+), in ')
# Classes of these packages are machinery: only the user's own classes and functions are located.
_MACHINERY_MODULES = ("pyflink_compat", "pyflink", "pyspark", "builtins", "abc", "typing")
_DEPTH = 3


def failing_operator(sinks: Iterable[graph.Node], text: str) -> Optional[str]:
    """The name of the operator whose user function raised the error in ``text`` (a task's failure with its
    Python traceback): the innermost frame in the code of an operator's function. None when no frame is."""
    if "Traceback (most recent call last):" not in text:
        return None
    frames = _FRAME.findall(text.split("Traceback (most recent call last):")[-1])
    if not frames:
        return None
    places = _function_places(sinks)
    for filename, line in reversed(frames):
        line = int(line)
        for place_file, first, last, name in places:
            if place_file == filename and first <= line <= last:
                return name
    return None


def _function_places(sinks) -> List[Tuple[str, int, int, str]]:
    """(file, first line, last line, operator name) of every function of the job's operators."""
    places, seen = [], set()
    for node in _nodes(sinks):
        for code in _codes(node.payload, 0):
            if id(code) in seen:
                continue
            seen.add(id(code))
            lines = [line for _, _, line in code.co_lines() if line is not None]
            places.append((code.co_filename, code.co_firstlineno, max(lines or [code.co_firstlineno]), node.name))
    return places


def _nodes(sinks) -> List[graph.Node]:
    found, stack, seen = [], list(sinks), set()
    while stack:
        node = stack.pop()
        if node is None or node.id in seen:
            continue
        seen.add(node.id)
        found.append(node)
        stack.append(node.input)
        stack.extend(node.inputs)
    return found


def _is_machinery(obj) -> bool:
    """A class or function of pyflink-compat, PyFlink, pyspark or Python itself."""
    return (getattr(obj, "__module__", None) or "").split(".")[0] in _MACHINERY_MODULES


def _codes(obj, depth: int):
    """The code objects of the user's functions in an operator's payload: a function, the methods of a
    user's function class, or what one of our wrappers (a window's functions, a key selector) holds."""
    if obj is None or depth > _DEPTH:
        return
    if isinstance(obj, (types.FunctionType, types.MethodType)):
        function = getattr(obj, "__func__", obj)
        if not _is_machinery(function):
            yield function.__code__
        return
    if isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _codes(item, depth + 1)
        return
    cls = type(obj)
    if not _is_machinery(cls):
        for klass in cls.__mro__:
            if _is_machinery(klass):
                continue
            for member in vars(klass).values():
                function = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
                if isinstance(function, types.FunctionType):
                    yield function.__code__
        return                        # a user's object: its attributes are its own business
    attributes = getattr(obj, "__dict__", None)
    if attributes is None:
        attributes = {name: getattr(obj, name, None) for name in getattr(cls, "__slots__", ())}
    for value in attributes.values():
        yield from _codes(value, depth + 1)


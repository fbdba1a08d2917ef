"""Row and RowKind behaviour probes, printed one per line; run under real PyFlink and under pyflink-compat
(with ``--compat``: the pyflink names resolve to pyflink_compat) and compared by test_row_semantics.py."""
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.common import Row
from pyflink.common.types import RowKind
out = []
def t(label, f):
    try:
        out.append("%s: %r" % (label, f()))
    except Exception as e:
        out.append("%s: raises %s: %s" % (label, type(e).__name__, e))
r = Row(1, "a", None); n = Row(name="x", age=3); 
t("repr pos", lambda: repr(r)); t("str pos", lambda: str(r)); t("repr named", lambda: repr(n)); t("str named", lambda: str(n))
t("named order", lambda: list(Row(b=1, a=2)))
t("as_dict", lambda: n.as_dict()); t("as_dict pos", lambda: r.as_dict())
t("as_dict recursive", lambda: Row(a=Row(b=1)).as_dict(True))
t("getattr", lambda: n.name); t("getitem name", lambda: n["age"]); t("getitem idx", lambda: n[1])
t("getattr missing", lambda: n.zzz); t("getitem missing", lambda: n["zzz"])
t("eq", lambda: Row(1, 2) == Row(1, 2)); t("eq tuple", lambda: Row(1, 2) == (1, 2)); t("eq kinds", lambda: Row(1) == Row(1).__class__(1))
def kind():
    x = Row(1); x.set_row_kind(RowKind.DELETE); return (x == Row(1), x.get_row_kind(), repr(x), str(x))
t("kind", kind)
t("len", lambda: len(n)); t("hash", lambda: hash(Row(1, 2)) == hash(Row(1, 2)))
t("factory", lambda: repr(Row("a", "b")(1, 2)))
t("contains", lambda: "name" in n); t("contains v", lambda: 3 in n)
t("setattr", lambda: (setattr(n, "age", 4), n.age))
t("iter", lambda: list(n)); t("tuple", lambda: tuple(r))
t("pickle", lambda: __import__("pickle").loads(__import__("pickle").dumps(n)) == n)
t("kind str", lambda: str(RowKind.UPDATE_BEFORE)); t("kind repr", lambda: repr(RowKind.INSERT))
t("mixed", lambda: Row(1, a=2))
t("lt", lambda: Row(1, 2) < Row(1, 3))
t("add", lambda: Row(1) + Row(2))
print("\n".join(out))

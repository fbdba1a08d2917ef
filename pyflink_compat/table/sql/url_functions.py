"""Flink's PARSE_URL, INET_ATON and INET_NTOA.

PARSE_URL reads its URL as Java's ``java.net.URL`` does (NULL where that refuses it): spaces and control characters
around it are dropped, and a leading ``url:``; the protocol (lower-cased) must be one Java has a handler for (http,
https, ftp, file, jar, mailto, jrt, jmod); the reference is what follows the first '#', the query what follows the
first '?' before it; after ``//`` comes the authority, up to the next '/' (or '?'), of an optional user info before
an '@' (two '@'s: neither user info nor host), a host (an IPv6 one in brackets) and an optional port, a Java int.
Nothing is decoded or normalized. ``mailto:`` URLs have all as their path and no reference; ``jar:`` ones need
``!/`` after a URL."""
import ipaddress
from typing import Optional

import attrs

_HANDLERS = frozenset(("http", "https", "ftp", "file", "jar", "mailto", "jrt", "jmod"))
_PARTS = ("HOST", "PATH", "QUERY", "REF", "PROTOCOL", "FILE", "AUTHORITY", "USERINFO")


@attrs.frozen
class JavaUrl:
    protocol: str
    host: str = ""
    authority: Optional[str] = None
    user_info: Optional[str] = None
    path: str = ""
    query: Optional[str] = None
    ref: Optional[str] = None

    @property
    def file(self) -> str:
        return self.path if self.query is None else self.path + "?" + self.query

    def part(self, name: str) -> Optional[str]:
        return {"HOST": self.host, "PATH": self.path, "QUERY": self.query, "REF": self.ref,
                "PROTOCOL": self.protocol, "FILE": self.file, "AUTHORITY": self.authority,
                "USERINFO": self.user_info}.get(name)


def _valid_protocol(name: str) -> bool:
    return bool(name) and name[0].isascii() and name[0].isalpha() and \
        all(c.isascii() and (c.isalnum() or c in ".+-") for c in name)


def _java_int(text: str) -> int:
    """Java's Integer.parseInt (an optional sign, ASCII digits, within 32 bits)."""
    digits = text[1:] if text[:1] in "+-" else text
    if not digits or not all("0" <= c <= "9" for c in digits):
        raise ValueError(text)
    value = int(text)
    if not -2 ** 31 <= value < 2 ** 31:
        raise ValueError(text)
    return value


def java_url(spec: str) -> Optional[JavaUrl]:
    """``spec`` read as Java's ``new URL(spec)``; None for a MalformedURLException."""
    start, limit = 0, len(spec)
    while limit > 0 and spec[limit - 1] <= " ":
        limit -= 1
    while start < limit and spec[start] <= " ":
        start += 1
    if spec[start:start + 4].lower() == "url:":
        start += 4
    protocol = None
    for i in range(start, limit):
        c = spec[i]
        if c == "/":
            break
        if c == ":":
            name = spec[start:i].lower()
            if _valid_protocol(name):
                protocol, start = name, i + 1
            break
    if protocol is None or protocol not in _HANDLERS:
        return None
    ref = None
    hash_at = spec.find("#", start, limit)
    if hash_at >= 0:
        ref, limit = spec[hash_at + 1:limit], hash_at
    if protocol == "mailto":
        path, _, query = spec[start:limit].partition("?")
        return JavaUrl(protocol, path=path, query=query if "?" in spec[start:limit] else None)
    if protocol == "jar":
        file = spec[start:limit]
        bang = file.find("!/")
        if bang < 0 or java_url(file[:bang]) is None:
            return None
        path, mark, query = file.partition("?")
        return JavaUrl(protocol, path=path, query=query if mark else None, ref=ref)
    return _hierarchical(protocol, spec, start, limit, ref)


def _hierarchical(protocol: str, spec: str, start: int, limit: int, ref: Optional[str]) -> Optional[JavaUrl]:
    """The rest of a URL of the protocols of Java's default parsing (http, https, ftp, file, jrt, jmod)."""
    query = None
    query_at = spec.find("?")
    if 0 <= query_at < limit:
        query, limit = spec[query_at + 1:limit], query_at
    host, authority, user_info = "", None, None
    if spec.startswith("//", start) and start <= limit - 2:
        start += 2
        end = spec.find("/", start)
        if end < 0 or end > limit:
            end = spec.find("?", start)
            if end < 0 or end > limit:
                end = limit
        authority = spec[start:end]
        start = end
        found = _host_and_port(authority)
        if found is None:
            return None
        host, user_info = found
    path = spec[start:limit] if start < limit else ""      # after an authority: from its '/' on
    return JavaUrl(protocol, host=host, authority=authority, user_info=user_info, path=path, query=query, ref=ref)


def _host_and_port(authority: str):
    """(host, user info) of an authority, None when Java refuses its host or port."""
    user_info, host = None, authority
    if "@" in authority:
        if authority.count("@") > 1:
            return "", None
        user_info, host = authority.split("@")
    port_text = None
    if host.startswith("["):
        close = host.find("]")
        if close <= 2:
            return None
        literal, rest = host[1:close], host[close + 1:]
        if not _ipv6(literal):
            return None
        if rest:
            if not rest.startswith(":") or len(rest) == 1:
                return None
            port_text = rest[1:]
        host = host[:close + 1]
    elif ":" in host:
        host, port_text = host.split(":", 1)
        port_text = port_text or None
    if port_text is not None:
        try:
            port = _java_int(port_text)
        except ValueError:
            return None
        if port < -1:
            return None
    return host, user_info


def _ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
        return True
    except ValueError:
        return False


def parse_url(url: str, part: str, key: Optional[str] = None) -> Optional[str]:
    """PARSE_URL(url, part [, key]): the part (HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY or USERINFO, as
    written) of the URL, NULL for another part or a URL Java refuses; with a key, the value of the query's first
    ``key=value`` (the key taken literally, the value up to the next '&'), for the QUERY part only."""
    if part not in _PARTS:
        return None
    parsed = java_url(url)
    if parsed is None:
        return None
    if key is None:
        return parsed.part(part)
    if part != "QUERY" or parsed.query is None:
        return None
    for piece in parsed.query.split("&"):
        name, equals, value = piece.partition("=")
        if equals and name == key:
            return value
    return None


def inet_aton(text: str) -> Optional[int]:
    """INET_ATON: an IPv4 address of one to four dot-separated decimal numbers (each 0 to 255, leading zeros
    allowed; the last one is the lowest byte, the ones before the highest bytes: '1.2' is 1.0.0.2) as a number;
    NULL for anything else."""
    parts = text.split(".")
    if len(parts) > 4 or not all(part and all("0" <= c <= "9" for c in part) for part in parts):
        return None
    numbers = [int(part) for part in parts]
    if any(number > 255 for number in numbers):
        return None
    value = 0
    for shift, number in zip((24, 16, 8), numbers[:-1]):
        value |= number << shift
    return value | numbers[-1]


def inet_ntoa(number: int) -> Optional[str]:
    """INET_NTOA: the dotted IPv4 address of a number from 0 to 2^32 - 1; NULL for another."""
    if not 0 <= number <= 0xFFFFFFFF:
        return None
    return ".".join(str((number >> shift) & 0xFF) for shift in (24, 16, 8, 0))

"""UNHEX, ENCODE / DECODE, INET_ATON / INET_NTOA, PARSE_URL, STR_TO_MAP, JSON_QUOTE / JSON_UNQUOTE, SIMILAR TO and
CURRENT_DATABASE: their types and values (NULLs, empty and invalid texts, charsets, regex delimiters, escapes, odd
patterns), their validation errors and the errors they fail a job with; run under real PyFlink and under
pyflink-compat (``--compat``) and compared by test_string_url_json_functions.py."""
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES "
                  "(1, 'b', CAST(3232235777 AS BIGINT), 'http://u:p@Ex.com:8080/a/./b.html?x=1&y=&x=2#f', 'k=1;j'), "
                  "(2, CAST(NULL AS STRING), CAST(NULL AS BIGINT), CAST(NULL AS STRING), CAST(NULL AS STRING))) "
                  "AS T(i, s, n, u, t)")
URL = "'http://user:pw@example.com:8080/p/a.html?x=1&y=2#frag'"
COLUMNS = [
    # UNHEX: an odd length gives a zero byte first; any other character NULL
    "UNHEX('414243')", "UNHEX(s)", "UNHEX('')", "UNHEX('abc')", "UNHEX('1')", "UNHEX('g12')", "UNHEX('4g')",
    "UNHEX(' 41')", "UNHEX('e282AC')", "UNHEX(CAST(NULL AS STRING))", "X'00ff'", "X''",
    # ENCODE / DECODE: Java's charsets, names and aliases in any case
    "ENCODE('abc', 'UTF-8')", "ENCODE(s, 'utf8')", "ENCODE('é€😀', 'UTF-16')", "ENCODE('', 'UTF-16')",
    "ENCODE('ab', 'utf-16le')", "ENCODE('😀', 'UTF-32')", "ENCODE('é€', 'latin1')", "ENCODE('€😀', 'US-ASCII')",
    "ENCODE('€', 'Cp1252')", "ENCODE('Жx', 'KOI8-R')",
    "DECODE(ENCODE('abc', 'UTF-8'), 'UTF-8')", "DECODE(X'4142', 'utf-8')", "DECODE(X'', 'UTF-8')",
    "DECODE(UNHEX(s), 'UTF-8')", "DECODE(UNHEX('ff41'), 'UTF-8')", "DECODE(UNHEX('c0af41'), 'UTF-8')",
    "DECODE(UNHEX('eda080'), 'UTF-8')", "DECODE(UNHEX('eda041'), 'UTF-8')", "DECODE(UNHEX('e282e282ac'), 'UTF-8')",
    "DECODE(UNHEX('f09f9841'), 'UTF-8')", "DECODE(UNHEX('410042'), 'UTF-8')", "DECODE(UNHEX('feff0041'), 'UTF-16')",
    "DECODE(UNHEX('fffe4100'), 'UTF-16')", "DECODE(UNHEX('0041'), 'UTF-16')", "DECODE(UNHEX('d8000041'), 'UTF-16BE')",
    "DECODE(UNHEX('d83dde00'), 'UTF-16BE')", "DECODE(UNHEX('0041d8'), 'UTF-16')", "DECODE(UNHEX('feff0041'), 'UTF-16LE')",
    "DECODE(UNHEX('0000feff00000041'), 'UTF-32BE')", "DECODE(UNHEX('0000004100'), 'UTF-32')",
    "DECODE(UNHEX('80'), 'US-ASCII')", "DECODE(UNHEX('80'), 'windows-1252')", "DECODE(UNHEX('81'), 'windows-1252')",
    "DECODE(UNHEX('e9'), 'ISO-8859-1')", "DECODE(UNHEX('4142'), CAST(NULL AS STRING))",
    # INET_ATON / INET_NTOA
    "INET_ATON('127.0.0.1')", "INET_ATON('255.255.255.255')", "INET_ATON('256.0.0.1')", "INET_ATON('1.2.3')",
    "INET_ATON('1.2')", "INET_ATON('1')", "INET_ATON('1.2.65535')", "INET_ATON('001.02.3.0255')",
    "INET_ATON('1.2.3.4.5')", "INET_ATON('1..2.3')", "INET_ATON('1.2.3.')", "INET_ATON(' 1.2.3.4')",
    "INET_ATON('-1.2.3.4')", "INET_ATON('0x1.2.3.4')", "INET_ATON('')", "INET_ATON(s)", "INET_ATON('a.b.c.d')",
    "INET_NTOA(2130706433)", "INET_NTOA(n)", "INET_NTOA(i)", "INET_NTOA(0)", "INET_NTOA(-1)", "INET_NTOA(4294967296)",
    "INET_NTOA(CAST(4294967295 AS BIGINT))", "INET_NTOA(CAST(7 AS TINYINT))", "INET_NTOA(CAST(NULL AS INT))",
    # PARSE_URL: java.net.URL's parts, NULL for a URL it refuses, a part it has not or a missing key
    "PARSE_URL(%s, 'HOST')" % URL, "PARSE_URL(%s, 'PATH')" % URL, "PARSE_URL(%s, 'QUERY')" % URL,
    "PARSE_URL(%s, 'REF')" % URL, "PARSE_URL(%s, 'PROTOCOL')" % URL, "PARSE_URL(%s, 'FILE')" % URL,
    "PARSE_URL(%s, 'AUTHORITY')" % URL, "PARSE_URL(%s, 'USERINFO')" % URL, "PARSE_URL(%s, 'host')" % URL,
    "PARSE_URL(%s, 'PORT')" % URL, "PARSE_URL(%s, 'QUERY', 'y')" % URL, "PARSE_URL(%s, 'QUERY', 'z')" % URL,
    "PARSE_URL(%s, 'HOST', 'y')" % URL, "PARSE_URL(u, 'HOST')", "PARSE_URL(u, 'PATH')", "PARSE_URL(u, 'QUERY', 'x')",
    "PARSE_URL(u, 'QUERY', 'y')", "PARSE_URL(u, 'QUERY', s)", "PARSE_URL('http://a.com', s)",
    "PARSE_URL('http://example.com', 'PATH')", "PARSE_URL('http://example.com', 'QUERY')",
    "PARSE_URL('http://example.com/?#', 'QUERY')", "PARSE_URL('http://example.com/?#', 'REF')",
    "PARSE_URL('http://a.com?', 'FILE')", "PARSE_URL('HTTPS://EXAMPLE.com:443/a%20b', 'PROTOCOL')",
    "PARSE_URL('HTTPS://EXAMPLE.com:443/a%20b', 'HOST')", "PARSE_URL('HTTPS://EXAMPLE.com:443/a%20b', 'PATH')",
    "PARSE_URL('file:///tmp/x', 'HOST')", "PARSE_URL('mailto:a@b.com?subject=x#f', 'PATH')",
    "PARSE_URL('mailto:a@b.com?subject=x#f', 'REF')", "PARSE_URL('jar:file:/a.jar!/b', 'PATH')",
    "PARSE_URL('jar:http://a.com/x.jar', 'PATH')", "PARSE_URL('foo://a.com/x', 'HOST')",
    "PARSE_URL('example.com/a', 'HOST')", "PARSE_URL('not a url', 'HOST')", "PARSE_URL('', 'HOST')",
    "PARSE_URL('http:x', 'PATH')", "PARSE_URL('http:/x', 'AUTHORITY')", "PARSE_URL('http://[::1]:80/x', 'HOST')",
    "PARSE_URL('http://[zz]/', 'HOST')", "PARSE_URL('http://u@a.com:x/', 'HOST')", "PARSE_URL('http://a.com:-2/', 'HOST')",
    "PARSE_URL('http://a@b@c/', 'HOST')", "PARSE_URL(' url:http://a.com/x ', 'PATH')",
    "PARSE_URL('http://a.com/a/../b', 'PATH')", "PARSE_URL('http://a.com#a?b', 'REF')",
    "PARSE_URL('http://a.com/p?a=1&ba=2&a=3', 'QUERY', 'a')", "PARSE_URL('http://a.com/p?a*=1', 'QUERY', 'a*')",
    "PARSE_URL('http://a.com/p?aa=1', 'QUERY', 'a*')", "PARSE_URL('http://a.com/p?=1', 'QUERY', '')",
    "PARSE_URL('http://a.com/p?a', 'QUERY', 'a')", "PARSE_URL('http://a.com/p?a=1=2', 'QUERY', 'a')",
    "CURRENT_DATABASE()",
    # JSON_QUOTE / JSON_UNQUOTE
    "JSON_QUOTE('a\"b\\c/d')", "JSON_QUOTE(s)", "JSON_QUOTE('')", "JSON_QUOTE('é€😀')",
    "JSON_QUOTE(CHR(10) || CHR(13) || CHR(8) || CHR(12) || CHR(9))", "JSON_QUOTE(CHR(1) || CHR(127) || CHR(128))",
    "JSON_QUOTE('''<>&')", "JSON_UNQUOTE('\"a\\\"b\"')", "JSON_UNQUOTE('\"\\u0041\\n\\t\\/\\\\\"')",
    "JSON_UNQUOTE('\"\\ud83d\\ude00\"')", "JSON_UNQUOTE('\"\\ud83d\"')", "JSON_UNQUOTE('\"\"')", "JSON_UNQUOTE('\"')",
    "JSON_UNQUOTE('abc')", "JSON_UNQUOTE('[1,2]')", "JSON_UNQUOTE('123')", "JSON_UNQUOTE(' \"a\" ')",
    "JSON_UNQUOTE('\"abc')", "JSON_UNQUOTE('\"a\\\"')", "JSON_UNQUOTE('\"\\x\"')", "JSON_UNQUOTE('\"\\U00e9\"')",
    "JSON_UNQUOTE('\"\\u00e\"')", "JSON_UNQUOTE('\"tab' || CHR(9) || '\"')", "JSON_UNQUOTE('\"a\" \"b\"')",
    "JSON_UNQUOTE('\"a\"b\"')", "JSON_UNQUOTE('\"a\"\\x\"')", "JSON_UNQUOTE('\"a\" \"\\u004G\"')",
    "JSON_UNQUOTE('\"a\"\\\"')", "JSON_UNQUOTE(s)", "JSON_UNQUOTE(JSON_QUOTE('x\"\\é'))", "JSON_UNQUOTE(CAST(NULL AS STRING))",
    # SIMILAR TO: % _ | * + ? {m,n} ( ) [ ], whole-value matches
    "'abc' SIMILAR TO 'a%'", "'abc' SIMILAR TO 'A%'", "'' SIMILAR TO ''", "'a' SIMILAR TO ''", "'abc' SIMILAR TO 'a_c'",
    "'abc' SIMILAR TO '(a|b)+c'", "'ab' SIMILAR TO 'a|b'", "'aaa' SIMILAR TO 'a{2,3}'", "'abc' SIMILAR TO '[a-c]*'",
    "'d' SIMILAR TO '[^a-c]'", "'-' SIMILAR TO '[a-]'", "'a.c' SIMILAR TO 'a.c'", "'abc' SIMILAR TO 'a.c'",
    "'a^b' SIMILAR TO 'a^b'", "'ab' SIMILAR TO '^ab'", "'a$b' SIMILAR TO 'a$b'", "'ab' SIMILAR TO 'ab$'",
    "'a\\b' SIMILAR TO 'a\\b'", "'a1' SIMILAR TO 'a\\d'", "'a' || CHR(10) || 'b' SIMILAR TO 'a%b'",
    "'a' || CHR(10) || 'b' SIMILAR TO 'a_b'", "'a' || CHR(10) SIMILAR TO 'a'", "'😀' SIMILAR TO '_'",
    "'b1' SIMILAR TO '[[:ALPHA:]][[:DIGIT:]]'", "'a' SIMILAR TO '[[:alpha:][:DIGIT:]]'", "'b' SIMILAR TO '[:ALPHA:]'",
    "CHR(9) SIMILAR TO '[[:SPACE:]]'", "CHR(9) SIMILAR TO '[[:WHITESPACE:]]'", "'aB' SIMILAR TO '(?i)ab'",
    "'a' SIMILAR TO 'a{1}{2}'", "'a' SIMILAR TO '%*'", "'a%' SIMILAR TO 'a\\%' ESCAPE '\\'", "'a_' SIMILAR TO 'a!_' ESCAPE '!'",
    "'a*' SIMILAR TO 'a!*' ESCAPE '!'", "'a!' SIMILAR TO 'a!!' ESCAPE '!'", "'(a)' SIMILAR TO '!(a!)' ESCAPE '!'",
    "'%' SIMILAR TO '[!%]' ESCAPE '!'", "'a\\b' SIMILAR TO 'a\\\\b' ESCAPE '\\'", "'a' SIMILAR TO 'aa' ESCAPE 'a'",
    "s SIMILAR TO 'b'", "'b' SIMILAR TO s", "s NOT SIMILAR TO '%'", "'abc' NOT SIMILAR TO 'a_'",
    "'a' SIMILAR TO 'a' ESCAPE s", "'a' SIMILAR TO 'a' ESCAPE CAST(NULL AS STRING)",
    "'x' NOT SIMILAR TO 'x' ESCAPE '!'",
    # STR_TO_MAP read back: entries in Flink's HashMap order, duplicates, regex delimiters
    "CAST(STR_TO_MAP('a=1,a=2,b') AS STRING)", "CAST(STR_TO_MAP('x=1,=2') AS STRING)",
    "CAST(STR_TO_MAP('=2,x=1') AS STRING)", "CARDINALITY(STR_TO_MAP('a=1,b=2,a=3'))", "STR_TO_MAP('a=1,b=2')['b']",
    "STR_TO_MAP('a')['a']"]
query = t_env.sql_query("SELECT %s FROM v" % ", ".join("%s AS c%d" % (column, n) for n, column in enumerate(COLUMNS)))
print(query.get_resolved_schema())
for row in query.execute().collect():
    for n, value in enumerate(row):
        print(n, repr(value))
# maps and binary strings in the tableau (PyFlink's collect() cannot read a map with a NULL value back)
MAPS = ["STR_TO_MAP('a=1,b=2')", "STR_TO_MAP('a=1=2,=3,b=,c')", "STR_TO_MAP(',a=1,,')", "STR_TO_MAP('')",
        "STR_TO_MAP(t, ';', '=')", "STR_TO_MAP('a:1;b:2', ';', ':')", "STR_TO_MAP('a1b22c', '[0-9]+', 'x')",
        "STR_TO_MAP('x1y22z', '[yz]', '[0-9]+')", "STR_TO_MAP('a|b=1', '|', '=')", "STR_TO_MAP('a=1', '', '')",
        "STR_TO_MAP('a.b=1', '.', '=')", "STR_TO_MAP('a=1, b=2')", "STR_TO_MAP('é=1,😀=2,A=3,𝐀=4')",
        "STR_TO_MAP('q=0,w=1,e=2,r=3,t=4,y=5,u=6,i=7,o=8,p=9,a=10,s=11,d=12,f=13,g=14,h=15,j=16,k=17')",
        "STR_TO_MAP('=0,x=1,y=2,xy=3,abc=4,zz=5,hello=6,k1=7,é=8')", "STR_TO_MAP(s)", "STR_TO_MAP('a=1', s, '=')",
        "UNHEX('00112233445566778899aabbccddeeff00')", "ENCODE(s, 'UTF-8')", "UNHEX('')", "X'0A'"]
maps = t_env.sql_query("SELECT %s FROM v" % ", ".join("%s AS m%d" % (column, n) for n, column in enumerate(MAPS)))
print(maps.get_resolved_schema())
maps.execute().print()


def message(error: Exception) -> str:
    """The error's telling line (without positions in the SQL text): a validation error's (with the call it
    names on the line after), or the Java exception a failed job names as its root cause."""
    text = str(error)
    lines = text.splitlines()
    top = 1 if text.startswith("An error") and len(lines) > 1 else 0
    line = lines[top] + (" " + lines[top + 1] if lines[top].endswith(":") and len(lines) > top + 1 else "")
    failed = re.search(r" failed in [^:]*: (.*)", line)
    if failed:
        line = failed.group(1)
    elif "Failed to fetch next result" in line:
        line = [each for each in lines if each.startswith("Caused by: ")][-1][len("Caused by: "):]
    return re.sub(r"From line \d+, column \d+ to line \d+, column \d+: ", "", line)


VALIDATION = ["UNHEX(1)", "UNHEX(X'41')", "UNHEX('41', 1)", "ENCODE('a')", "ENCODE(1, 'UTF-8')",
              "ENCODE('a', NULL)", "ENCODE(X'41', 'UTF-8')", "DECODE('abc', 'UTF-8')", "DECODE(X'41', 'UTF-8', 'x')",
              "DECODE(NULL, 'UTF-8')", "INET_ATON(1)", "INET_ATON()", "INET_NTOA('1')", "INET_NTOA(1.5)",
              "PARSE_URL('http://a')", "PARSE_URL(1, 'HOST')", "PARSE_URL('a', 'QUERY', 1)", "PARSE_URL(NULL, 'HOST')",
              "STR_TO_MAP('a', ',')", "STR_TO_MAP(1)", "STR_TO_MAP(NULL)", "JSON_QUOTE(1)", "JSON_UNQUOTE()",
              "JSON_QUOTE('a', 'b')", "CURRENT_DATABASE(1)", "1 SIMILAR TO '1'", "'a' SIMILAR TO 1",
              "'a' SIMILAR TO 'a' ESCAPE 1", "NULL SIMILAR TO 'a'", "'a' SIMILAR TO NULL", "X'4'"]
for bad in VALIDATION:
    try:
        t_env.sql_query("SELECT %s FROM v" % bad)
        print(bad, "no error")
    except Exception as e:
        print(bad, message(e))
# errors of a running job (each one is a job: a few only)
FAILING = ["ENCODE('abc', 'nope')", "'ab' SIMILAR TO 'a!b' ESCAPE '!'", "'a' SIMILAR TO 'a' ESCAPE 'ab'",
           "'a' SIMILAR TO '[%]'", "'abc' SIMILAR TO '(ab'", "JSON_UNQUOTE('\"a\" \"\\u12\"')",
           "STR_TO_MAP('a=1', '(', '=')"]
for bad in FAILING:
    try:
        with t_env.sql_query("SELECT %s FROM v" % bad).execute().collect() as rows:
            print(bad, "no error", [row[0] for row in rows])
    except Exception as e:
        print(bad, message(e))

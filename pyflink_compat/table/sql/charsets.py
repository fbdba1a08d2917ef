"""Java's charsets for Flink's ENCODE(text, charset) and DECODE(bytes, charset): Java's String.getBytes(charset)
and new String(bytes, charset), which replace what a charset cannot encode (by its replacement, '?' for most) and
what it cannot decode (by U+FFFD).

A charset is looked up as Java looks it up: by its canonical name or one of its aliases, in any case. The table
holds the charsets of Java 17 (Flink 2.3's runtime) whose encoding and decoding Python's codec of the same charset
reproduces byte for byte (checked against Java's on every single byte, a byte run of 0 to 255 and texts of several
scripts), and the UTF ones, decoded here as Java decodes them: UTF-8 takes an encoded surrogate (ED A0..BF ..) as
one malformed sequence, UTF-16 takes a high surrogate and the unit after it as one, UTF-16 and UTF-32 read a byte
order mark (big-endian without one) and UTF-16 writes one. A name Java does not know fails as Java fails it
(``UnsupportedEncodingException``); a charset Java knows and this table has not is not supported here."""
import codecs

from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError

# Java's canonical name: (Python's codec, Java's aliases)
_CHARSETS = {
    'GB18030': ('gb18030', 'gb18030-2022'),
    'IBM00858': ('cp858', '858 PC-Multilingual-850+euro ccsid00858 cp00858 cp858 ibm-858 ibm858'),
    'IBM437': ('cp437', '437 cp437 cspc8codepage437 ibm-437 ibm437 windows-437'),
    'IBM775': ('cp775', '775 cp775 ibm-775 ibm775'),
    'IBM850': ('cp850', '850 cp850 cspc850multilingual ibm-850 ibm850'),
    'IBM852': ('cp852', '852 cp852 csPCp852 ibm-852 ibm852'),
    'IBM855': ('cp855', '855 cp855 cspcp855 ibm-855 ibm855'),
    'IBM857': ('cp857', '857 cp857 csIBM857 ibm-857 ibm857'),
    'IBM860': ('cp860', '860 cp860 csIBM860 ibm-860 ibm860'),
    'IBM861': ('cp861', '861 cp-is cp861 csIBM861 ibm-861 ibm861'),
    'IBM862': ('cp862', '862 cp862 csIBM862 cspc862latinhebrew ibm-862 ibm862'),
    'IBM863': ('cp863', '863 cp863 csIBM863 ibm-863 ibm863'),
    'IBM864': ('cp864', '864 cp864 csIBM864 ibm-864 ibm864'),
    'IBM865': ('cp865', '865 cp865 csIBM865 ibm-865 ibm865'),
    'IBM866': ('cp866', '866 cp866 csIBM866 ibm-866 ibm866'),
    'IBM869': ('cp869', '869 cp-gr cp869 csIBM869 ibm-869 ibm869'),
    'ISO-8859-1': ('iso8859-1', '819 8859_1 IBM-819 IBM819 ISO8859-1 ISO8859_1 ISO_8859-1 ISO_8859-1:1987 ISO_8859_1 '
                                'cp819 csISOLatin1 iso-ir-100 l1 latin1'),
    'ISO-8859-13': ('iso8859-13', '8859_13 ISO8859-13 iso8859_13 iso_8859-13'),
    'ISO-8859-15': ('iso8859-15', '8859_15 923 IBM-923 IBM923 ISO-8859-15 ISO8859-15 ISO8859_15 ISO8859_15_FDIS '
                                  'ISO_8859-15 L9 LATIN0 LATIN9 Latin-9 cp923 csISO885915 csISOlatin0 csISOlatin9'),
    'ISO-8859-16': ('iso8859-16', 'ISO8859_16 ISO_8859-16 ISO_8859-16:2001 csISO885916 iso-ir-226 l10 latin10'),
    'ISO-8859-2': ('iso8859-2', '8859_2 912 ISO8859-2 ISO_8859-2 ISO_8859-2:1987 cp912 csISOLatin2 ibm-912 ibm912 '
                                'iso-ir-101 iso8859_2 l2 latin2'),
    'ISO-8859-3': ('iso8859-3', '8859_3 913 ISO8859-3 ISO_8859-3 ISO_8859-3:1988 cp913 csISOLatin3 ibm-913 ibm913 '
                                'iso-ir-109 iso8859_3 l3 latin3'),
    'ISO-8859-4': ('iso8859-4', '8859_4 914 ISO_8859-4 ISO_8859-4:1988 cp914 csISOLatin4 ibm-914 ibm914 iso-ir-110 '
                                'iso8859-4 iso8859_4 l4 latin4'),
    'ISO-8859-5': ('iso8859-5', '8859_5 915 ISO8859-5 ISO_8859-5 ISO_8859-5:1988 cp915 csISOLatinCyrillic cyrillic '
                                'ibm-915 ibm915 iso-ir-144 iso8859_5'),
    'ISO-8859-6': ('iso8859-6', '1089 8859_6 ASMO-708 ECMA-114 ISO8859-6 ISO_8859-6 ISO_8859-6:1987 arabic cp1089 '
                                'csISOLatinArabic ibm-1089 ibm1089 iso-ir-127 iso8859_6'),
    'ISO-8859-7': ('iso8859-7', '813 8859_7 ECMA-118 ELOT_928 ISO_8859-7 ISO_8859-7:1987 cp813 csISOLatinGreek greek '
                                'greek8 ibm-813 ibm813 iso-ir-126 iso8859-7 iso8859_7 sun_eu_greek'),
    'ISO-8859-8': ('iso8859-8', '8859_8 916 ISO8859-8 ISO_8859-8 ISO_8859-8:1988 cp916 csISOLatinHebrew hebrew '
                                'ibm-916 ibm916 iso-ir-138 iso8859_8'),
    'ISO-8859-9': ('iso8859-9', '8859_9 920 ISO8859-9 ISO_8859-9 ISO_8859-9:1989 cp920 csISOLatin5 ibm-920 ibm920 '
                                'iso-ir-148 iso8859_9 l5 latin5'),
    'KOI8-R': ('koi8-r', 'cskoi8r koi8 koi8_r'),
    'KOI8-U': ('koi8-u', 'koi8_u'),
    'US-ASCII': ('ascii', '646 ANSI_X3.4-1968 ANSI_X3.4-1986 ASCII IBM367 ISO646-US ISO_646.irv:1991 ascii7 cp367 '
                          'csASCII default iso-ir-6 iso_646.irv:1983 us'),
    'UTF-16': ('utf-16', 'UTF_16 UnicodeBig unicode utf16'),
    'UTF-16BE': ('utf-16-be', 'ISO-10646-UCS-2 UTF_16BE UnicodeBigUnmarked X-UTF-16BE'),
    'UTF-16LE': ('utf-16-le', 'UTF_16LE UnicodeLittleUnmarked X-UTF-16LE'),
    'UTF-32': ('utf-32', 'UTF32 UTF_32'),
    'UTF-32BE': ('utf-32-be', 'UTF_32BE X-UTF-32BE'),
    'UTF-32LE': ('utf-32-le', 'UTF_32LE X-UTF-32LE'),
    'UTF-8': ('utf-8', 'UTF8 unicode-1-1-utf-8'),
    'windows-1250': ('cp1250', 'cp1250 cp5346'),
    'windows-1251': ('cp1251', 'ansi-1251 cp1251 cp5347'),
    'windows-1252': ('cp1252', 'cp1252 cp5348 ibm-1252 ibm1252'),
    'windows-1253': ('cp1253', 'cp1253 cp5349'),
    'windows-1254': ('cp1254', 'cp1254 cp5350'),
    'windows-1255': ('cp1255', 'cp1255'),
    'windows-1256': ('cp1256', 'cp1256'),
    'windows-1257': ('cp1257', 'cp1257 cp5353'),
    'windows-1258': ('cp1258', 'cp1258'),
    'x-IBM737': ('cp737', '737 cp737 ibm-737 ibm737'),
    'x-iso-8859-11': ('iso8859-11', 'iso-8859-11 iso8859_11'),
    'x-MacCentralEurope': ('mac-latin2', 'MacCentralEurope'),
    'x-MacRoman': ('mac-roman', 'MacRoman'),
}
_BY_NAME = {}
for _canonical, (_codec, _aliases) in _CHARSETS.items():
    for _name in [_canonical] + _aliases.split():
        _BY_NAME[_name.lower()] = _canonical

# Java 17's other charsets (canonical names and aliases, lower case): known to Java, not reproduced here
_OTHER_JAVA_CHARSETS = frozenset("""
037 1006 1025 1026 1046 1047 1097 1098 1112 1122 1123 1124 1129 1140 1141 1142 1143 1144 1145 1146 1147 1148 1149
1166 1364 1381 1383 273 277 278 280 284 285 290 29626c 297 300 33722 420 424 500 5601 833 834 838 856 868 870 871
874 875 918 921 922 930 932 933 935 937 939 942 942c 943 943c 948 949 949c 950 964 970 big5 big5-hkscs
big5-hkscs-2001 big5-hkscs:unicode3.0 big5_hkscs big5_hkscs_2001 big5_solaris big5hk big5hk-2001 big5hkscs
big5hkscs-2001 ccsid01140 ccsid01141 ccsid01142 ccsid01143 ccsid01144 ccsid01145 ccsid01146 ccsid01147 ccsid01148
ccsid01149 cesu-8 cesu8 cns11643 cp-ar cp01140 cp01141 cp01142 cp01143 cp01144 cp01145 cp01146 cp01147 cp01148
cp01149 cp037 cp1006 cp1025 cp1026 cp1046 cp1047 cp1097 cp1098 cp1112 cp1122 cp1123 cp1124 cp1129 cp1140 cp1141
cp1142 cp1143 cp1144 cp1145 cp1146 cp1147 cp1148 cp1149 cp1166 cp1364 cp1381 cp1383 cp273 cp277 cp278 cp280 cp284
cp285 cp290 cp29626c cp297 cp300 cp33722 cp420 cp424 cp500 cp50220 cp50221 cp833 cp834 cp838 cp856 cp868 cp870 cp871
cp874 cp875 cp918 cp921 cp922 cp930 cp932 cp933 cp935 cp936 cp937 cp939 cp942 cp942c cp943 cp943c cp948 cp949 cp949c
cp950 cp964 cp970 cpeuccn cpibm284 cpibm285 cpibm297 cpibm37 cs-ebcdic-cp-ca cs-ebcdic-cp-nl cs-ebcdic-cp-us cs-
ebcdic-cp-wt csbig5 cscesu-8 cseuckr cseucpkdfmtjapanese cshalfwidthkatakana csibm037 csibm278 csibm284 csibm285
csibm290 csibm297 csibm420 csibm424 csibm500 csibm868 csibm870 csibm871 csiso153gost1976874 csiso159jisx02121990
csiso2022cn csiso2022jp csiso2022jp2 csiso2022kr csiso87jisx0208 csjisencoding csshiftjis cswindows31j ebcdic-cp-ar1
ebcdic-cp-ar2 ebcdic-cp-bh ebcdic-cp-ca ebcdic-cp-ch ebcdic-cp-fr ebcdic-cp-gb ebcdic-cp-he ebcdic-cp-is ebcdic-cp-
nl ebcdic-cp-roece ebcdic-cp-se ebcdic-cp-us ebcdic-cp-wt ebcdic-cp-yu ebcdic-de-273+euro ebcdic-dk-277+euro ebcdic-
es-284+euro ebcdic-fi-278+euro ebcdic-fr-277+euro ebcdic-gb ebcdic-gb-285+euro ebcdic-international-500+euro ebcdic-
it-280+euro ebcdic-jp-kana ebcdic-no-277+euro ebcdic-s-871+euro ebcdic-se-278+euro ebcdic-sv ebcdic-us-037+euro euc-
cn euc-jp euc-jp-linux euc-kr euc-tw euc_cn euc_jp euc_jp_linux euc_jp_solaris euc_kr euc_tw euccn eucjis eucjp
eucjp-open euckr euctw extended_unix_code_packed_format_for_japanese gb2312 gb2312-1980 gb2312-80 gbk ibm-037
ibm-1006 ibm-1025 ibm-1026 ibm-1046 ibm-1047 ibm-1097 ibm-1098 ibm-1112 ibm-1122 ibm-1123 ibm-1124 ibm-1129 ibm-1140
ibm-1141 ibm-1142 ibm-1143 ibm-1144 ibm-1145 ibm-1146 ibm-1147 ibm-1148 ibm-1149 ibm-1166 ibm-1364 ibm-1381 ibm-1383
ibm-273 ibm-277 ibm-278 ibm-280 ibm-284 ibm-285 ibm-290 ibm-29626c ibm-297 ibm-300 ibm-33722 ibm-33722_vascii_vpua
ibm-37 ibm-420 ibm-424 ibm-500 ibm-5050 ibm-833 ibm-834 ibm-838 ibm-856 ibm-868 ibm-870 ibm-871 ibm-874 ibm-875
ibm-918 ibm-921 ibm-922 ibm-930 ibm-932 ibm-933 ibm-935 ibm-937 ibm-939 ibm-942 ibm-942c ibm-943 ibm-943c ibm-948
ibm-949 ibm-949c ibm-950 ibm-964 ibm-970 ibm-euccn ibm-eucjp ibm-euckr ibm-euctw ibm-thai ibm01140 ibm01141 ibm01142
ibm01143 ibm01144 ibm01145 ibm01146 ibm01147 ibm01148 ibm01149 ibm037 ibm1006 ibm1025 ibm1026 ibm1046 ibm1047
ibm1097 ibm1098 ibm1112 ibm1122 ibm1123 ibm1124 ibm1129 ibm1140 ibm1141 ibm1142 ibm1143 ibm1144 ibm1145 ibm1146
ibm1147 ibm1148 ibm1149 ibm1166 ibm1364 ibm1381 ibm1383 ibm273 ibm277 ibm278 ibm280 ibm284 ibm285 ibm290 ibm29626c
ibm297 ibm300 ibm33722 ibm420 ibm424 ibm500 ibm833 ibm834 ibm838 ibm856 ibm868 ibm870 ibm871 ibm874 ibm875 ibm918
ibm921 ibm922 ibm930 ibm932 ibm933 ibm935 ibm937 ibm939 ibm942 ibm942c ibm943 ibm943c ibm948 ibm949 ibm949c ibm950
ibm964 ibm970 ibmeuccn iscii iscii91 iso-2022-cn iso-2022-cn-cns iso-2022-cn-gb iso-2022-jp iso-2022-jp-2
iso-2022-kr iso-ir-153 iso-ir-159 iso-ir-87 iso2022cn iso2022cn_cns iso2022cn_gb iso2022jp iso2022jp2 iso2022kr jis
jis0201 jis0208 jis0212 jis_c6226-1983 jis_encoding jis_x0201 jis_x0208-1983 jis_x0212-1990 jisautodetect johab
ks_c_5601-1987 ksc5601 ksc5601-1987 ksc5601-1992 ksc5601_1987 ksc5601_1992 ksc_5601 macarabic maccroatian
maccyrillic macdingbat macgreek machebrew maciceland macromania macsymbol macthai macturkish macukraine ms-874
ms1361 ms50220 ms50221 ms874 ms932 ms932-0213 ms932:2004 ms932_0213 ms936 ms949 ms950 ms950_hkscs ms950_hkscs_xp
ms_936 ms_949 ms_kanji pck shift-jis shift_jis shift_jis:2004 shift_jis_0213:2004 sjis sjis-0213 sjis:2004 sjis_0213
sjis_0213:2004 st_sev_358-88 tis-620 tis620 tis620.2533 unicodelittle utf-32be-bom utf-32le-bom utf_32be_bom
utf_32le_bom windows-31j windows-874 windows-932 windows-932-0213 windows-932:2004 windows-936 windows-949
windows-950 windows-iso2022jp windows949 x-big5-hkscs-2001 x-big5-solaris x-euc-cn x-euc-jp x-euc-jp-linux x-euc-tw
x-eucjp x-eucjp-open x-ibm1006 x-ibm1025 x-ibm1046 x-ibm1097 x-ibm1098 x-ibm1112 x-ibm1122 x-ibm1123 x-ibm1124
x-ibm1129 x-ibm1166 x-ibm1364 x-ibm1381 x-ibm1383 x-ibm29626c x-ibm300 x-ibm33722 x-ibm833 x-ibm834 x-ibm856
x-ibm874 x-ibm875 x-ibm921 x-ibm922 x-ibm930 x-ibm932 x-ibm933 x-ibm935 x-ibm937 x-ibm939 x-ibm942 x-ibm942c
x-ibm943 x-ibm943c x-ibm948 x-ibm949 x-ibm949c x-ibm950 x-ibm964 x-ibm970 x-iscii91 x-iso-2022-cn-cns x-iso-2022-cn-
gb x-jis0208 x-jisautodetect x-johab x-macarabic x-maccroatian x-maccyrillic x-macdingbat x-macgreek x-machebrew
x-maciceland x-macromania x-macsymbol x-macthai x-macturkish x-macukraine x-ms932_0213 x-ms950-hkscs x-ms950-hkscs-
xp x-mswin-936 x-pck x-sjis x-sjis_0213 x-utf-16le-bom x-utf-32be-bom x-utf-32le-bom x-windows-50220 x-windows-50221
x-windows-874 x-windows-949 x-windows-950 x-windows-iso2022jp x0201 x0208 x0212
""".split())


def charset(name: str) -> str:
    """Java's canonical name of the charset ``name``; raises Java's UnsupportedEncodingException for a name Java
    does not know, UnsupportedFeatureError for a charset Java has and pyflink-compat has not."""
    canonical = _BY_NAME.get(name.lower())
    if canonical is not None:
        return canonical
    if name.lower() in _OTHER_JAVA_CHARSETS:
        raise UnsupportedFeatureError("ENCODE / DECODE with the charset %s" % name, "table-api",
                                      "the charsets supported are UTF-8, UTF-16(BE/LE), UTF-32(BE/LE), US-ASCII, "
                                      "ISO-8859-n, windows-125n, KOI8-R / -U, GB18030, Mac Roman / Central "
                                      "European and the IBM PC code pages")
    raise JavaStyleError("java.io.UnsupportedEncodingException", name, "executeSql")


def encode(text: str, name: str) -> bytes:
    """Java's ``text.getBytes(name)``."""
    canonical = charset(name)
    if canonical == "UTF-16":                 # big-endian after a byte order mark (none for an empty text)
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be") if text else b""
    if canonical == "UTF-32":                 # big-endian, no byte order mark
        return text.encode("utf-32-be")
    return text.encode(_CHARSETS[canonical][0], "replace")


def decode(data: bytes, name: str) -> str:
    """Java's ``new String(data, name)`` (a lone surrogate it makes as '?', as Flink's strings hold it)."""
    canonical = charset(name)
    data = bytes(data)
    if canonical == "UTF-8":
        return data.decode("utf-8", "java_utf8_replace")
    if canonical.startswith("UTF-16"):
        big = canonical != "UTF-16LE"
        if canonical == "UTF-16" and data[:2] in (codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE):
            big, data = data[:2] == codecs.BOM_UTF16_BE, data[2:]
        return _utf16(data, big)
    if canonical.startswith("UTF-32"):
        big = canonical != "UTF-32LE"
        if canonical == "UTF-32" and data[:4] == codecs.BOM_UTF32_LE:
            big, data = False, data[4:]
        elif data[:4] == (codecs.BOM_UTF32_BE if big else codecs.BOM_UTF32_LE):
            data = data[4:]                   # Java drops a leading byte order mark of UTF-32BE / LE too
        return _utf32(data, big)
    return data.decode(_CHARSETS[canonical][0], "replace")


def _java_utf8_replace(error: UnicodeDecodeError):
    """U+FFFD for a malformed UTF-8 sequence as Java counts them: Python's maximal subparts, but an encoded
    surrogate (ED, A0..BF, a continuation byte) is one sequence, and so is ED A0..BF before any other byte."""
    data, start = error.object, error.start
    if data[start] == 0xED and start + 1 < len(data) and 0xA0 <= data[start + 1] <= 0xBF:
        whole = start + 2 < len(data) and 0x80 <= data[start + 2] <= 0xBF
        return "\ufffd", start + (3 if whole else 2)
    return "\ufffd", error.end


codecs.register_error("java_utf8_replace", _java_utf8_replace)


def _utf16(data: bytes, big: bool) -> str:
    """UTF-16 code units to text: a pair of surrogates is one character; a high surrogate not followed by a low
    one is malformed together with the unit (or the odd byte) after it, a lone low surrogate and an odd byte at
    the end alone."""
    order = "big" if big else "little"
    units = [int.from_bytes(data[i:i + 2], order) for i in range(0, len(data) - 1, 2)]
    out, i = [], 0
    odd_byte_taken = False
    while i < len(units):
        unit = units[i]
        if 0xD800 <= unit <= 0xDBFF:
            if i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
                out.append(chr(0x10000 + ((unit - 0xD800) << 10) + units[i + 1] - 0xDC00))
            else:
                out.append("\ufffd")
                odd_byte_taken = i + 1 >= len(units)
            i += 2
            continue
        out.append("\ufffd" if 0xDC00 <= unit <= 0xDFFF else chr(unit))
        i += 1
    if len(data) % 2 and not odd_byte_taken:
        out.append("\ufffd")
    return "".join(out)


def _utf32(data: bytes, big: bool) -> str:
    order = "big" if big else "little"
    out = []
    for i in range(0, len(data) - 3, 4):
        code = int.from_bytes(data[i:i + 4], order)
        if code > 0x10FFFF:
            out.append("\ufffd")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("?")
        else:
            out.append(chr(code))
    if len(data) % 4:
        out.append("\ufffd")
    return "".join(out)

"""jq 1.7's fromjson, for the texts Python's json refuses: what jq accepts
(NaN, nan, Infinity, a leading +, leading zeros) and, for what it refuses,
its message ("Invalid literal at line 2, column 0"), which the report shows
for a summary that is not JSON. A port of jq 1.7.1's src/jv_parse.c (the
one-value parser: jv_parse_sized), byte by byte as it reads."""

import re

MAX_PARSING_DEPTH = 256
_INVALID = object()
_NUMBER = re.compile(rb"[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[iI][nN][fF]([iI][nN][iI][tT][yY])?|[nN][aA][nN])")
_BOM = b"\xef\xbb\xbf"


class _Parser:
    def __init__(self, data):
        self.line, self.column = 1, 0
        self.stack = []          # ["a", list] | ["o", dict] | ["k", key]
        self.next = _INVALID
        self.token = bytearray()
        self.st = "normal"
        self.eof = False
        self.malformed_bom = False
        i = 0
        while i < len(data) and i < 3:
            if data[i] == _BOM[i]:
                i += 1
            else:
                if i != 0:
                    self.malformed_bom = True
                break
        self.buf, self.pos = data[i:], 0

    def value(self, v):
        if self.next is not _INVALID:
            return "Expected separator between values"
        self.next = v
        return None

    def token_(self, ch):
        s, top = self.stack, (self.stack[-1] if self.stack else None)
        if ch in "[{":
            if len(s) >= MAX_PARSING_DEPTH:
                return "Exceeds depth limit for parsing"
            if self.next is not _INVALID:
                return "Expected separator between values"
            s.append(["a", []] if ch == "[" else ["o", {}])
        elif ch == ":":
            if self.next is _INVALID:
                return "Expected string key before ':'"
            if top is None or top[0] != "o":
                return "':' not as part of an object"
            if not isinstance(self.next, str):
                return "Object keys must be strings"
            s.append(["k", self.next])
            self.next = _INVALID
        elif ch == ",":
            if self.next is _INVALID:
                return "Expected value before ','"
            if top is None:
                return "',' not as part of an object or array"
            if top[0] == "a":
                top[1].append(self.next)
                self.next = _INVALID
            elif top[0] == "k":
                s[-2][1][top[1]] = self.next
                s.pop()
                self.next = _INVALID
            else:
                return "Objects must consist of key:value pairs"
        elif ch == "]":
            if top is None or top[0] != "a":
                return "Unmatched ']'"
            if self.next is not _INVALID:
                top[1].append(self.next)
                self.next = _INVALID
            elif len(top[1]) != 0:
                return "Expected another array element"
            self.next = s.pop()[1]
        elif ch == "}":
            if top is None:
                return "Unmatched '}'"
            if self.next is not _INVALID:
                if top[0] != "k":
                    return "Objects must consist of key:value pairs"
                s[-2][1][top[1]] = self.next
                s.pop()
                self.next = _INVALID
            else:
                if top[0] != "o":
                    return "Unmatched '}'"
                if len(top[1]) != 0:
                    return "Expected another key-value pair"
            self.next = s.pop()[1]
        return None

    def found_string(self):
        b, out, i, n = bytes(self.token), bytearray(), 0, len(self.token)
        while i < n:
            c = b[i]
            i += 1
            if c == 0x5c:
                if i >= n:
                    return "Expected escape character at end of string"
                c = b[i]
                i += 1
                simple = {0x5c: b"\\", 0x22: b'"', 0x2f: b"/", 0x62: b"\b", 0x66: b"\f", 0x74: b"\t", 0x6e: b"\n", 0x72: b"\r"}
                if c in simple:
                    out += simple[c]
                elif c == 0x75:
                    if i + 4 > n:
                        return "Invalid \\uXXXX escape"
                    h = _unhex4(b[i:i + 4])
                    if h < 0:
                        return "Invalid characters in \\uXXXX escape"
                    cp = h
                    i += 4
                    if 0xD800 <= cp <= 0xDBFF:
                        if i + 6 > n or b[i] != 0x5c or b[i + 1] != 0x75:
                            return "Invalid \\uXXXX\\uXXXX surrogate pair escape"
                        sur = _unhex4(b[i + 2:i + 6])
                        if not (0xDC00 <= sur <= 0xDFFF):
                            return "Invalid \\uXXXX\\uXXXX surrogate pair escape"
                        i += 6
                        cp = 0x10000 + (((cp - 0xD800) << 10) | (sur - 0xDC00))
                    if cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
                        cp = 0xFFFD
                    out += chr(cp).encode()
                else:
                    return "Invalid escape"
            else:
                if c <= 0x1f:
                    return "Invalid string: control characters from U+0000 through U+001F must be escaped"
                out.append(c)
        m = self.value(out.decode("utf-8", errors="replace"))
        if m:
            return m
        self.token = bytearray()
        return None

    def check_literal(self):
        t = bytes(self.token)
        if not t:
            return None
        pattern, v = None, None
        if t[:1] == b"t":
            pattern, v = b"true", True
        elif t[:1] == b"f":
            pattern, v = b"false", False
        elif t[:2] == b"nu":
            pattern, v = b"null", None
        if pattern is not None:
            if t != pattern:
                return "Invalid literal"
            m = self.value(v)
        else:
            if not _NUMBER.fullmatch(t):
                return "Invalid numeric literal"
            m = self.value(int(t) if re.fullmatch(rb"-?\d+", t) else float(t))
        if m:
            return m
        self.token = bytearray()
        return None

    def check_done(self):
        if not self.stack and self.next is not _INVALID:
            out, self.next = self.next, _INVALID
            return True, out
        return False, None

    def scan(self, ch):
        """None, ("ok", value) or an error message."""
        self.column += 1
        if ch == 0x0a:
            self.line += 1
            self.column = 0
        answer = None
        if self.st == "normal":
            c = chr(ch)
            cls = "ws" if c in " \t\r\n" else "quote" if c == '"' else "struct" if c in "[,]{:}" else "lit"
            if cls != "lit":
                m = self.check_literal()
                if m:
                    return m
                done, v = self.check_done()
                if done:
                    answer = ("ok", v)
            if cls == "lit":
                self.token.append(ch)
            elif cls == "quote":
                self.st = "string"
            elif cls == "struct":
                m = self.token_(c)
                if m:
                    return m
            done, v = self.check_done()
            if done:
                answer = ("ok", v)
        else:
            if ch == 0x22 and self.st == "string":
                m = self.found_string()
                if m:
                    return m
                self.st = "normal"
                done, v = self.check_done()
                if done:
                    answer = ("ok", v)
            else:
                self.token.append(ch)
                self.st = "escape" if ch == 0x5c and self.st == "string" else "string"
        return answer

    def next_value(self):
        """("value", v), ("error", message) or ("none",)."""
        if self.eof or self.buf is None:
            return ("none",)
        if self.malformed_bom:
            return ("error", "Malformed BOM")
        msg = None
        while msg is None and self.pos < len(self.buf):
            ch = self.buf[self.pos]
            self.pos += 1
            msg = self.scan(ch)
        if isinstance(msg, tuple):
            return ("value", msg[1])
        if msg:
            e = "%s at line %d, column %d" % (msg, self.line, self.column)
            self.buf = None
            return ("error", e)
        self.eof = True
        if self.st != "normal":
            return ("error", "Unfinished string at EOF at line %d, column %d" % (self.line, self.column))
        m = self.check_literal()
        if m:
            return ("error", "%s at EOF at line %d, column %d" % (m, self.line, self.column))
        if self.stack:
            return ("error", "Unfinished JSON term at EOF at line %d, column %d" % (self.line, self.column))
        v, self.next = self.next, _INVALID
        return ("none",) if v is _INVALID else ("value", v)


def _unhex4(b):
    try:
        return int(b, 16) if re.fullmatch(rb"[0-9a-fA-F]{4}", b) else -1
    except ValueError:
        return -1


def fromjson(data):
    """jq's fromjson of the bytes data: {"ok": value} or {"err": its
    message, without the text it parsed}."""
    p = _Parser(data)
    first = p.next_value()
    if first[0] == "value":
        second = p.next_value()
        if second[0] == "value":
            return {"err": "Unexpected extra JSON values"}
        if second[0] == "error":
            return {"err": second[1]}
        return {"ok": first[1]}
    if first[0] == "error":
        return {"err": first[1]}
    return {"err": "Expected JSON value"}

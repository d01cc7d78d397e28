"""Message framing on a byte stream: one JSON text per line (the host's default) or LSP's Content-Length headers.

Both readers take a binary file object whose `readline`/`read` block until data arrives (a pipe), and yield the
body of each message as bytes; they stop at end of file. A last line without its newline still counts, as the
host's own reader does.
"""

from __future__ import annotations

from typing import BinaryIO, Iterator

NEWLINE = "newline"
CONTENT_LENGTH = "content-length"
FRAMINGS = (NEWLINE, CONTENT_LENGTH)


class FramingError(Exception):
    """The stream broke the framing (a header without Content-Length, a body cut short)."""


def encode(body: bytes, framing: str = NEWLINE) -> bytes:
    """Frames one compact JSON text (which must not contain a raw newline when framing by lines)."""
    if framing == NEWLINE:
        if b"\n" in body:
            raise ValueError("a newline-framed message must not contain a newline")
        return body + b"\n"
    if framing == CONTENT_LENGTH:
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    raise ValueError(f"unknown framing {framing!r}; expected one of {FRAMINGS}")


def read_lines(stream: BinaryIO) -> Iterator[bytes]:
    """Yields each non-blank line without its `\\n` (and one trailing `\\r`)."""
    while True:
        line = stream.readline()
        if not line:
            return
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        if line.strip():
            yield line


def read_content_length(stream: BinaryIO) -> Iterator[bytes]:
    """Yields each body framed by `Content-Length: N` headers and a blank line (other headers are ignored)."""
    while True:
        length = None
        saw_header = False
        while True:
            header = stream.readline()
            if not header:
                if saw_header:
                    raise FramingError("end of stream inside a header block")
                return
            text = header.rstrip(b"\r\n")
            if not text:
                if saw_header:
                    break
                continue  # blank lines between messages
            saw_header = True
            name, sep, value = text.partition(b":")
            if not sep:
                raise FramingError(f"malformed header line {text[:80]!r}")
            if name.strip().lower() == b"content-length":
                try:
                    length = int(value.strip())
                except ValueError:
                    raise FramingError(f"bad Content-Length {value.strip()[:40]!r}") from None
                if length < 0:
                    raise FramingError(f"negative Content-Length {length}")
        if length is None:
            raise FramingError("header block without Content-Length")
        body = _read_exactly(stream, length)
        if body is None:
            raise FramingError(f"end of stream inside a {length}-byte body")
        yield body


def _read_exactly(stream: BinaryIO, count: int):
    chunks = []
    remaining = count
    while remaining > 0:
        chunk = stream.read(remaining)
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def reader(stream: BinaryIO, framing: str = NEWLINE) -> Iterator[bytes]:
    """The message reader for `framing`."""
    if framing == NEWLINE:
        return read_lines(stream)
    if framing == CONTENT_LENGTH:
        return read_content_length(stream)
    raise ValueError(f"unknown framing {framing!r}; expected one of {FRAMINGS}")

"""Framing: the readers split a byte stream into message bodies however the bytes arrive."""

import io
import random
import unittest

from transition_host_client import framing


class Trickle(io.RawIOBase):
    """A stream that hands out at most `chunk` bytes per read, as a pipe may."""

    def __init__(self, data: bytes, chunks):
        self._data = data
        self._chunks = chunks
        self._position = 0

    def readable(self):
        return True

    def readinto(self, buffer):
        if self._position >= len(self._data):
            return 0
        size = min(len(buffer), next(self._chunks), len(self._data) - self._position)
        buffer[:size] = self._data[self._position : self._position + size]
        self._position += size
        return size


def trickle(data: bytes, chunks) -> io.BufferedReader:
    # A tiny buffer so that the BufferedReader really sees the chunking.
    return io.BufferedReader(Trickle(data, iter(chunks)), buffer_size=1)


def ones():
    while True:
        yield 1


class NewlineFramingTests(unittest.TestCase):
    def test_lines_crlf_blank_lines_and_a_last_line_without_newline(self):
        data = b'{"a":1}\n\r\n\n{"b":2}\r\n   \n{"c":3}'
        self.assertEqual(list(framing.read_lines(io.BytesIO(data))), [b'{"a":1}', b'{"b":2}', b'{"c":3}'])

    def test_byte_by_byte_gives_the_same_messages(self):
        data = b'{"a":1}\n{"b":"x\\ny"}\r\n'
        self.assertEqual(list(framing.read_lines(trickle(data, ones()))), [b'{"a":1}', b'{"b":"x\\ny"}'])

    def test_only_one_carriage_return_is_stripped(self):
        self.assertEqual(list(framing.read_lines(io.BytesIO(b"x\r\r\n"))), [b"x\r"])

    def test_encode_appends_one_newline_and_refuses_embedded_ones(self):
        self.assertEqual(framing.encode(b"{}"), b"{}\n")
        with self.assertRaises(ValueError):
            framing.encode(b'{"a":\n1}')


class ContentLengthFramingTests(unittest.TestCase):
    def test_encode_counts_bytes_not_characters(self):
        body = '{"s":"é"}'.encode()
        self.assertEqual(len(body), 10)
        self.assertEqual(framing.encode(body, framing.CONTENT_LENGTH), b"Content-Length: 10\r\n\r\n" + body)

    def test_round_trip_with_other_headers_and_random_chunking(self):
        bodies = [b"{}", '{"text":"ünïcode"}'.encode(), b"[" + b"1," * 500 + b"1]"]
        stream = b""
        for index, body in enumerate(bodies):
            if index == 1:
                stream += b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
            stream += b"content-length: %d\r\n\r\n" % len(body) + body
        generator = random.Random(7)
        chunks = (generator.randint(1, 9) for _ in iter(int, 1))
        self.assertEqual(list(framing.read_content_length(trickle(stream, chunks))), bodies)

    def test_a_body_cut_short_is_a_framing_error(self):
        with self.assertRaises(framing.FramingError):
            list(framing.read_content_length(io.BytesIO(b"Content-Length: 10\r\n\r\n{}")))

    def test_headers_without_length_are_a_framing_error(self):
        with self.assertRaises(framing.FramingError):
            list(framing.read_content_length(io.BytesIO(b"Content-Type: x\r\n\r\n{}")))

    def test_end_of_stream_between_messages_is_clean(self):
        self.assertEqual(list(framing.read_content_length(io.BytesIO(b"Content-Length: 2\r\n\r\n{}\r\n"))), [b"{}"])


if __name__ == "__main__":
    unittest.main()

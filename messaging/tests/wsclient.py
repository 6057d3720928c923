"""A small RFC 6455 websocket client on asyncio streams, for tests and bench/message_latency.py.

It talks to a real Daphne over TCP (the scale-out test and the benchmark), so it speaks the
wire protocol itself: handshake with Origin and Cookie, masked client frames, ping/pong,
fragmented and close frames.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import struct
from urllib.parse import urlsplit

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class HandshakeRefused(Exception):
    pass


class WsClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self._reader = reader
        self._writer = writer
        self.close_code: int | None = None

    @classmethod
    async def connect(cls, url: str, *, origin: str, cookie: str = "", timeout: float = 5) -> WsClient:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {parts.path or '/'} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: {origin}",
        ]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status_line, *header_lines = head.decode("latin1").split("\r\n")
        if " 101 " not in status_line + " ":
            writer.close()
            raise HandshakeRefused(status_line)
        headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines if h)}
        expected = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()  # noqa: S324
        if headers.get("sec-websocket-accept") != expected:
            writer.close()
            raise HandshakeRefused("bad Sec-WebSocket-Accept")
        return cls(reader, writer)

    async def _send_frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self._writer.write(header + mask + masked)
        await self._writer.drain()

    async def send_json(self, data: object) -> None:
        await self._send_frame(0x1, json.dumps(data).encode())

    async def _read_frame(self) -> tuple[bool, int, bytes]:
        b0, b1 = await self._reader.readexactly(2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", await self._reader.readexactly(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", await self._reader.readexactly(8))
        mask = await self._reader.readexactly(4) if b1 & 0x80 else b""
        payload = await self._reader.readexactly(n)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bool(b0 & 0x80), b0 & 0x0F, payload

    async def recv_text(self) -> str | None:
        """The next text message; None once the server closed (close_code is then set)."""
        parts: list[bytes] = []
        while True:
            try:
                fin, opcode, payload = await self._read_frame()
            except (asyncio.IncompleteReadError, ConnectionError):
                return None
            if opcode == 0x8:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                return None
            if opcode == 0x9:
                await self._send_frame(0xA, payload)
                continue
            if opcode in (0x1, 0x2, 0x0):
                parts.append(payload)
                if fin:
                    return b"".join(parts).decode()

    async def recv_json(self, timeout: float = 5) -> dict | None:
        text = await asyncio.wait_for(self.recv_text(), timeout)
        return None if text is None else json.loads(text)

    async def close(self) -> None:
        try:
            await self._send_frame(0x8, struct.pack("!H", 1000))
        except ConnectionError:
            pass
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except ConnectionError:
            pass

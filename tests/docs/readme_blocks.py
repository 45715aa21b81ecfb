"""The fenced blocks of README.md, and what a recorded `curl --trace` says was sent and answered.

Conventions the README test holds every block to (RULINGS 23; written for whoever adds a block):
- A ```sh / ```bash block runs as written in a fresh `bash -e`, in an empty directory that links the repository's
  top-level files (so `docs/examples/...` resolve and files a block writes stay out of the repository), with
  `localhost:8000` meaning the test's own `make run`-style server. It defines every variable it uses.
- Every HTTP answer is 2xx unless a comment in the block says `expect NNN` (one or more codes, e.g.
  `# a stale version: expect 412`); each code a block expects must also occur.
- No call rolls at random: a request with a body whose answer lists a generated die (`"supplied": false`) or a
  `seed` must itself carry a `seed` (or send every face, so nothing is generated).
- `jq` is not a prerequisite (Quick start lists them): blocks parse JSON with `python3`.
- `<!-- readme-test: skip (why) -->` on the line before a fence leaves the block out; only for commands that
  install packages or start the server itself (`make run`, `pip install`, `npm install`).
- The ```python and ```ts snippets run against the same server through clients generated as the README says.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

SHELLS = frozenset({"sh", "bash", "shell"})
SKIP = re.compile(r"<!--\s*readme-test:\s*skip\b(.*?)-->")
EXPECT = re.compile(r"#.*?\bexpects?\s+((?:[1-5]\d\d)(?:\s*(?:,|or|and|/)\s*[1-5]\d\d)*)")


@dataclass(frozen=True)
class Block:
    """One fenced block: its info string, the README line of its opening fence, its text."""

    language: str
    line: int
    text: str
    skip: str | None = None

    @property
    def label(self) -> str:
        return f"README.md line {self.line} (```{self.language})"

    def expected_statuses(self) -> set[int]:
        """The non-2xx codes the block's comments say it expects."""
        codes: set[int] = set()
        for match in EXPECT.finditer(self.text):
            codes.update(int(code) for code in re.findall(r"\d{3}", match.group(1)))
        return codes


def blocks(readme: Path) -> list[Block]:
    """Every fenced block of `readme`, in order."""
    lines = readme.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        opening = re.match(r"^(`{3,})\s*([\w+-]*)", lines[index])
        if not opening:
            index += 1
            continue
        fence, language, start = opening.group(1), opening.group(2).lower(), index
        index += 1
        body: list[str] = []
        while index < len(lines) and not lines[index].startswith(fence):
            body.append(lines[index])
            index += 1
        previous = next((lines[i] for i in range(start - 1, -1, -1) if lines[i].strip()), "")
        skip = SKIP.search(previous)
        found.append(Block(language, start + 1, "\n".join(body) + "\n",
                           skip.group(1).strip(" ():-") or "no reason given" if skip else None))
        index += 1
    return found


@dataclass
class Exchange:
    """One HTTP request curl sent and the answer it got."""

    request_line: str = ""
    request_body: bytes = b""
    status: int | None = None
    headers: list[str] = field(default_factory=list)
    body: bytes = b""

    def json_body(self, which: str) -> Any:
        raw = self.request_body if which == "request" else _dechunked(self)
        try:
            return json.loads(raw)
        except ValueError:
            return None

    def summary(self) -> str:
        text = self.body[:400].decode("utf-8", "replace")
        return f"{self.request_line} -> {self.status}: {text}"


def exchanges(trace: str) -> list[Exchange]:
    """The exchanges in the text of `curl --trace FILE` (hex dump sections)."""
    found: list[Exchange] = []
    section: str | None = None
    chunk = bytearray()

    def close() -> None:
        if section is None or not found:
            return
        current = found[-1]
        if section == "=> Send header":
            current.request_line = bytes(chunk).split(b"\r\n", 1)[0].decode("latin1")
        elif section == "=> Send data":
            current.request_body += bytes(chunk)
        elif section == "<= Recv header":
            line = bytes(chunk).decode("latin1").rstrip("\r\n")
            status = re.match(r"HTTP/[\d.]+ (\d{3})", line)
            if status and not status.group(1).startswith("1"):
                current.status, current.headers = int(status.group(1)), []
            elif line:
                current.headers.append(line)
        elif section == "<= Recv data":
            current.body += bytes(chunk)

    for line in trace.splitlines():
        header = re.match(r"^(=> Send header|=> Send data|<= Recv header|<= Recv data|== Info|=> Send SSL data|"
                          r"<= Recv SSL data)", line)
        if header:
            close()
            section, chunk = header.group(1), bytearray()
            if section == "=> Send header" and (not found or found[-1].status is not None or
                                                found[-1].request_line):
                found.append(Exchange())
            continue
        dump = re.match(r"^[0-9a-f]{4,}: ((?:[0-9a-f]{2} ?)+)", line)
        if dump and section:
            chunk.extend(bytes.fromhex(dump.group(1)[:48].replace(" ", "")))
    close()
    return found


def _dechunked(exchange: Exchange) -> bytes:
    if not any(h.lower().replace(" ", "") == "transfer-encoding:chunked" for h in exchange.headers):
        return exchange.body
    out, rest = bytearray(), exchange.body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += rest[:size]
        rest = rest[size + 2:]
    return bytes(out)


def values_of(document: Any, key: str) -> Iterator[Any]:
    """Every value under `key` anywhere in a JSON document."""
    if isinstance(document, dict):
        for name, value in document.items():
            if name == key:
                yield value
            yield from values_of(value, key)
    elif isinstance(document, list):
        for item in document:
            yield from values_of(item, key)


def rolled_at_random(exchange: Exchange) -> bool:
    """The request had a body but no seed, and its answer shows dice the server generated; an answer that lists no
    dice (a simulation job) rolled at random when it shows a seed the request did not send."""
    request = exchange.json_body("request")
    if request is None or any(seed is not None for seed in values_of(request, "seed")):
        return False
    answer = exchange.json_body("response")
    supplied = list(values_of(answer, "supplied"))
    if supplied:  # some answers echo a fresh seed even when every face was sent: the dice say what was rolled
        return False in supplied
    return any(seed is not None for seed in values_of(answer, "seed"))

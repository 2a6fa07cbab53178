"""The engine's reading of a page process's facts: anything but the expected next fact, in the expected
shape, is the page writing to the engine's channel.

The channel is a pipe that only this page's box holds, so whatever arrives on it is this page's
own doing: a page can at most misreport itself, and then only within these rules."""
from __future__ import annotations

import json

CHANNEL_MESSAGE = "the page wrote to the engine's channel ({}); its process was stopped"


class ChannelError(Exception):
    def __init__(self, why: str):
        super().__init__(CHANNEL_MESSAGE.format(why))


def _require(condition: bool, why: str) -> None:
    if not condition:
        raise ChannelError(why)


def _valid_frame(frame, blocks: int) -> bool:
    if not isinstance(frame, dict) or not isinstance(frame.get("line"), int) or not isinstance(frame.get("name"), str):
        return False
    if "block" in frame:
        return isinstance(frame["block"], int) and 0 <= frame["block"] < blocks
    return isinstance(frame.get("file"), str) and isinstance(frame.get("text"), (str, type(None)))


def _valid_exception(exc, blocks: int) -> bool:
    if exc is None:
        return True
    return (isinstance(exc, dict) and isinstance(exc.get("message"), str)
            and isinstance(exc.get("qualnames"), list) and exc["qualnames"]
            and all(isinstance(q, str) for q in exc["qualnames"])
            and isinstance(exc.get("frames"), list) and all(_valid_frame(f, blocks) for f in exc["frames"])
            and isinstance(exc.get("exit_code", ""), str))


class FactReader:
    """Checks each fact of one job against what the page process may say next."""

    def __init__(self, indices: list[int], blocks: int, probe: bool = False):
        self.expected = list(indices)  # the blocks still to start, in order
        self.blocks = blocks
        self.probe = probe
        self.current: int | None = None
        self.done = False

    def read(self, line: bytes) -> dict:
        try:
            fact = json.loads(line)
        except ValueError:
            raise ChannelError("a line that is not JSON") from None
        _require(isinstance(fact, dict), "a line that is not a JSON object")
        _require(not self.done, "a message after the page ended")
        event = fact.get("event")
        if self.probe:
            _require(event == "device", f"an unexpected {event!r} message")
            self.done = True
        elif event == "start":
            _require(self.current is None and self.expected and fact.get("index") == self.expected[0],
                     "a block start out of order")
            self.current = self.expected.pop(0)
        elif event == "end":
            _require(fact.get("index") == self.current and self.current is not None, "a block result out of order")
            _require(isinstance(fact.get("stdout"), str) and isinstance(fact.get("duration_s"), (int, float))
                     and isinstance(fact.get("output_limit"), bool)
                     and _valid_exception(fact.get("exception"), self.blocks), "a malformed block result")
            self.current = None
        elif event == "done":
            _require(self.current is None, "the end of the page in the middle of a block")
            timings = fact.get("timings", {})
            _require(isinstance(timings, dict) and all(isinstance(k, str) and isinstance(v, (int, float))
                                                       for k, v in timings.items()), "malformed timings")
            self.done = True
        else:
            raise ChannelError(f"an unknown {event!r} message")
        return fact

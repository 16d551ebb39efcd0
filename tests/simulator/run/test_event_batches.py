"""The driver's reading of a worker's pipe: events cut anywhere by the reads come out whole."""

import subprocess
import sys

import anyio

from tau_sim.simulator.core.events import UserMessage, encode
from tau_sim.simulator.run import event_batches

CHILD = """
import sys, time
data = sys.stdin.buffer.read()
cuts = [int(c) for c in sys.argv[1:]]
start = 0
for cut in cuts + [len(data)]:
    sys.stdout.buffer.write(data[start:cut])
    sys.stdout.buffer.flush()
    start = cut
    time.sleep(0.1)
"""


def test_lines_cut_by_the_pipe_are_joined_and_an_unfinished_last_line_is_dropped() -> None:
    events = [
        UserMessage(conversation="run-1/000000", seq=i, ts=float(i), text="é" * i * 40)
        for i in range(1, 6)
    ]
    lines = b"".join(encode(e) + b"\n" for e in events)
    data = lines + b'{"kind":"user_message","text":"cut'  # the worker was killed mid-write
    # inside the first line, inside a multi-byte character, just after a newline, at the end
    cuts = [7, lines.index("é".encode()) + 1, lines.index(b"\n") + 1, len(lines) - 3]

    async def read() -> list[list[object]]:
        async with await anyio.open_process(
            [sys.executable, "-c", CHILD, *map(str, sorted(cuts))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        ) as process:
            assert process.stdin is not None and process.stdout is not None
            await process.stdin.send(data)
            await process.stdin.aclose()
            return [list(batch) async for batch in event_batches(process.stdout)]

    batches = anyio.run(read)
    assert [e for batch in batches for e in batch] == events
    assert len(batches) > 1  # delivered as the pipe brought them, not at the end

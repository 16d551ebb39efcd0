"""What the tests share: ``cli`` (the real ``tau-sim`` command in a subprocess), ``servers``
(HTTP servers on 127.0.0.1), ``wire`` (OpenAI and Anthropic response bodies), ``require`` (skip
or fail on a missing optional dependency), ``disks`` (a small tmpfs, filled), and two programs
the tests start: ``eio_fs`` (a FUSE disk that fails) and ``tiny_server`` (a stand-in model
server)."""

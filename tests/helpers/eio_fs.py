"""A FUSE file system whose disk starts failing: every write past a byte budget is EIO.

``python -m tests.helpers.eio_fs SOURCE MOUNTPOINT BUDGET HEALED`` mounts SOURCE at MOUNTPOINT
(in the foreground, until unmounted) passing every call through to SOURCE, except that once
BUDGET bytes have been written every further write (but to the ``-shm`` file SQLite maps
to memory) and fsync fails with ``EIO``: the kernel
hands the error to SQLite exactly as a failing disk would. Once the file HEALED (a path outside
the mount) exists, the disk is healed. The test of an I/O error mid-run uses it where FUSE is
available (``/dev/fuse``, libfuse and permission to mount).
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

import mfusepy as fuse


class FailingDisk(fuse.Operations):  # type: ignore[misc]
    """Passthrough to ``source``; writes fail with EIO once ``budget`` bytes were written."""

    use_ns = True

    def __init__(self, source: str, budget: int, healed: str) -> None:
        self.source = source
        self.budget = budget
        self.healed = healed
        self.written = 0

    def _path(self, path: str) -> str:
        return os.path.join(self.source, path.lstrip("/"))

    def _spend(self, size: int) -> None:
        if self.written + size > self.budget and not os.path.exists(self.healed):
            raise fuse.FuseOSError(errno.EIO)
        self.written += size

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        try:
            st = os.lstat(self._path(path))
        except OSError as exc:
            raise fuse.FuseOSError(exc.errno) from None
        keys = ("st_mode", "st_nlink", "st_size", "st_uid", "st_gid")
        out: dict[str, Any] = {k: getattr(st, k) for k in keys}
        out.update(st_atime=st.st_atime_ns, st_mtime=st.st_mtime_ns, st_ctime=st.st_ctime_ns)
        return out

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self._path(path))]

    def access(self, path: str, amode: int) -> int:
        if not os.access(self._path(path), amode):
            raise fuse.FuseOSError(errno.EACCES)
        return 0

    def open(self, path: str, flags: int) -> int:
        return os.open(self._path(path), flags)

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        return os.open(self._path(path), os.O_RDWR | os.O_CREAT | os.O_TRUNC, mode)

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        return os.pread(fh, size, offset)

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        if not path.endswith("-shm"):  # SQLite maps it: a failed page there is SIGBUS, not EIO
            self._spend(len(data))
        return os.pwrite(fh, data, offset)

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        os.truncate(self._path(path), length)
        return 0

    def fsync(self, path: str, datasync: int, fh: int) -> int:
        self._spend(0)
        os.fsync(fh)
        return 0

    def flush(self, path: str, fh: int) -> int:
        return 0

    def release(self, path: str, fh: int) -> int:
        os.close(fh)
        return 0

    def unlink(self, path: str) -> int:
        os.unlink(self._path(path))
        return 0

    def rename(self, old: str, new: str) -> int:
        os.rename(self._path(old), self._path(new))
        return 0

    def chmod(self, path: str, mode: int) -> int:
        os.chmod(self._path(path), mode)
        return 0

    def utimens(self, path: str, times: tuple[int, int] | None = None) -> int:
        os.utime(self._path(path), ns=times)
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        st = os.statvfs(self._path(path))
        keys = ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_frsize", "f_namemax")
        return {k: getattr(st, k) for k in keys}


def main() -> None:
    source, mountpoint, budget, healed = sys.argv[1:5]
    disk = FailingDisk(source, int(budget), healed)
    fuse.FUSE(disk, mountpoint, foreground=True, nothreads=True)


if __name__ == "__main__":
    main()

"""The host's memory after a call, against the soft limit over which the
studio replaces it (R-host-memory), and the sentence a tool's MemoryError gets.
"""

from __future__ import annotations

import os
import resource

PAGE = os.sysconf("SC_PAGE_SIZE")


class Memory:
    """Reads the host's resident size; kept open, a read is one pread (a few µs),
    cheap enough for every call."""

    def __init__(self, soft_mb: int | None) -> None:
        self.soft_mb = soft_mb or None
        self._statm = os.open("/proc/self/statm", os.O_RDONLY) if self.soft_mb else None

    def resident_mb(self) -> int:
        if self._statm is None:
            raise RuntimeError("no soft limit was set, so the host does not read its memory")
        return int(os.pread(self._statm, 128, 0).split()[1]) * PAGE >> 20

    def over(self) -> dict | None:
        """{rss_mb, soft_mb} when the host is over its soft limit, else None."""
        if self.soft_mb is None:
            return None
        rss = self.resident_mb()
        return {"rss_mb": rss, "soft_mb": self.soft_mb} if rss > self.soft_mb else None


def memory_error_text(tool: str, error: MemoryError) -> str:
    """What the model reads: the cap it hit, so it can ask for less."""
    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    cap = ("" if limit == resource.RLIM_INFINITY
           else f"; the tool host allows {limit >> 20} MB of address space")
    said = f" ({error})" if str(error) else ""
    return (f"MemoryError: {tool} ran out of memory{said}{cap}; call it again with less at "
            "once (a smaller input, fewer items, or in parts)")

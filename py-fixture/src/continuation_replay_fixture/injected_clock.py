"""The lab's injected clock for the SDK's requestState boundary.

mcp.server.request_state reads `time.time()` through its module global `time` when it stamps `iat`/`exp` and when it
checks them; the SDK has no clock parameter. Every time decision must see WIRE_CLOCK_EPOCH, or two processes of one
case would disagree about what is expired, so that one module's `time` is replaced by a frozen clock (the seed's Python
server did the same). Nothing else in the process is affected.
"""

import time as _real_time
from types import ModuleType


class FrozenClock:
    """Looks like the `time` module to its reader, but time() is the injected epoch."""

    def __init__(self, epoch_seconds: int) -> None:
        if isinstance(epoch_seconds, bool) or not isinstance(epoch_seconds, int) or epoch_seconds < 0:
            raise ValueError("the injected clock must be whole, non-negative epoch seconds")
        self.epoch_seconds = epoch_seconds

    def time(self) -> float:
        return float(self.epoch_seconds)

    def __getattr__(self, name: str):
        return getattr(_real_time, name)


def pin_request_state_clock(module: ModuleType, epoch_seconds: int) -> FrozenClock:
    """Points `module.time` (the SDK's request_state module) at a frozen clock; returns it."""
    if not isinstance(getattr(module, "time", None), (ModuleType, FrozenClock)):
        raise RuntimeError(f"{module.__name__} no longer reads the clock through a module global named time")
    clock = FrozenClock(epoch_seconds)
    module.time = clock  # type: ignore[attr-defined]
    return clock

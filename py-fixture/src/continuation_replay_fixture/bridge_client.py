"""The fixture's side of the JSON line bridge (docs/typescript-fixture.md, "The bridge"), the twin of
ts-fixture/src/bridge-client.ts: ONE long-lived bridge child, calls serialised (one line written, one line read), a
new child after any machinery failure. A machinery failure (the child died, answered something that is not a bridge
reply, answered without being asked, or did not answer in time) is a BridgeMachineryFailure naming the exit status or
signal and the child's last stderr line; the bridge's own application errors are ordinary answers.
"""

import asyncio
import json
import signal
import sys
from dataclasses import dataclass
from typing import BinaryIO, Optional, Sequence, Union

DEFAULT_CALL_TIMEOUT_S = 8.0
MAX_STDERR_NOTE = 160
MAX_REPLY_BYTES = 1 << 20


class BridgeMachineryFailure(Exception):
    pass


@dataclass(frozen=True)
class BridgeOk:
    result: dict
    ok: bool = True


@dataclass(frozen=True)
class BridgeRefusal:
    error: str
    detail: str
    ok: bool = False


BridgeAnswer = Union[BridgeOk, BridgeRefusal]


def read_answer(line: bytes) -> Optional[BridgeAnswer]:
    """A bridge reply line, or None if it is not one."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    if value.get("ok") is True and isinstance(value.get("result"), dict):
        return BridgeOk(value["result"])
    if value.get("ok") is False and isinstance(value.get("error"), str) and isinstance(value.get("detail"), str):
        return BridgeRefusal(value["error"], value["detail"])
    return None


def request_line(request: dict) -> bytes:
    """One compact JSON line in UTF-8, as the TypeScript client writes it (non-ASCII text raw, so a long title does not
    grow sixfold against the bridge's 256 KiB line limit); text that UTF-8 cannot carry (an unpaired surrogate) goes
    as \\u escapes, which the bridge's guard then refuses."""
    try:
        text = json.dumps(request, ensure_ascii=False, separators=(",", ":"))
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(request, separators=(",", ":")).encode("ascii") + b"\n"


def _describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    return str(returncode)


class _BridgeChild:
    """One bridge process and its pipes."""

    def __init__(self, process: asyncio.subprocess.Process, stderr: Optional[BinaryIO]) -> None:
        self.process = process
        self._stderr = stderr
        self._last_stderr_line = ""
        self._pending: Optional[asyncio.Future] = None
        self.death: Optional[str] = None
        self.exit: asyncio.Future = asyncio.get_running_loop().create_future()
        self._stderr_done = asyncio.ensure_future(self._pump_stderr())
        self._stdout_task = asyncio.ensure_future(self._read_stdout())
        self._exit_task = asyncio.ensure_future(self._await_exit())

    @classmethod
    async def spawn(cls, argv: Sequence[str], env: dict, stderr: Optional[BinaryIO]) -> "_BridgeChild":
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            limit=MAX_REPLY_BYTES + 1,
        )
        return cls(process, stderr)

    @property
    def exited(self) -> bool:
        return self.death is not None

    @property
    def pid(self) -> int:
        return self.process.pid

    def failure(self, what: str) -> BridgeMachineryFailure:
        return BridgeMachineryFailure(f"bridge machinery failure: {what}; {self._last_stderr_line[:MAX_STDERR_NOTE]}")

    async def exchange(self, line: bytes, timeout: float) -> bytes:
        if self.death is not None:
            raise self.failure(self.death)
        pending = asyncio.get_running_loop().create_future()
        self._pending = pending
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(line)
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the child died; its exit settles `pending` with the status
        try:
            return await asyncio.wait_for(asyncio.shield(pending), timeout)
        except asyncio.TimeoutError:
            self._pending = None
            self.kill()
            raise self.failure(f"no reply within {int(timeout * 1000)} ms") from None

    def kill(self) -> None:
        if self.death is None and self.process.returncode is None:
            try:
                self.process.kill()
            except ProcessLookupError:
                pass

    async def end(self, grace: float) -> None:
        """Ends the child's input (the bridge exits at end of input); kills it if it has not exited after `grace`."""
        if self.death is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.close()
            except (BrokenPipeError, ConnectionResetError):
                pass
            try:
                await asyncio.wait_for(asyncio.shield(self.exit), grace)
            except asyncio.TimeoutError:
                self.kill()
        await asyncio.shield(self.exit)

    def _settle(self, outcome: "bytes | BridgeMachineryFailure") -> None:
        pending, self._pending = self._pending, None
        if pending is None or pending.done():
            if isinstance(outcome, bytes):
                # Output nobody asked for: the line protocol is out of step, so this child cannot be trusted any more.
                self.kill()
            return
        if isinstance(outcome, bytes):
            pending.set_result(outcome)
        else:
            pending.set_exception(outcome)

    async def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        while True:
            try:
                line = await self.process.stdout.readline()
            except (ValueError, asyncio.LimitOverrunError):
                self._settle(self.failure("reply too long"))
                self.kill()
                return
            if not line:
                return  # end of output; the exit settles whatever is pending
            if not line.endswith(b"\n"):
                return  # a last line without its newline: the child is ending
            self._settle(line[:-1])

    async def _pump_stderr(self) -> None:
        assert self.process.stderr is not None
        while True:
            line = await self.process.stderr.readline()
            if not line:
                return
            if self._stderr is not None:
                try:
                    self._stderr.write(line)
                    self._stderr.flush()
                except (OSError, ValueError):
                    pass
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            if text.strip() != "":
                self._last_stderr_line = text

    async def _await_exit(self) -> None:
        returncode = await self.process.wait()
        # The last stderr line names why it died: read stderr to its end first (bounded: a grandchild could hold it).
        try:
            await asyncio.wait_for(asyncio.shield(self._stderr_done), 2.0)
        except asyncio.TimeoutError:
            pass
        self.death = _describe_exit(returncode)
        self._settle(self.failure(self.death))
        if not self.exit.done():
            self.exit.set_result(self.death)


class BridgeClient:
    def __init__(
        self,
        argv: Sequence[str],
        env: dict,
        timeout: float = DEFAULT_CALL_TIMEOUT_S,
        stderr: Optional[BinaryIO] = None,
    ) -> None:
        if not argv:
            raise TypeError("the bridge command is empty")
        self._argv = list(argv)
        self._env = dict(env)
        self._timeout = timeout
        self._stderr = stderr if stderr is not None else sys.stderr.buffer
        self._child: Optional[_BridgeChild] = None
        self._lock = asyncio.Lock()
        self._closed = False
        self._retired: "list[_BridgeChild]" = []
        self.spawned = 0

    async def start(self) -> None:
        """Starts the child now rather than on the first call, so the JVM warms up while the client connects."""
        async with self._lock:
            if not self._closed:
                await self._current()

    async def call(self, request: dict) -> BridgeAnswer:
        async with self._lock:
            if self._closed:
                raise BridgeMachineryFailure("bridge machinery failure: bridge closed; ")
            child = await self._current()
            try:
                line = await child.exchange(request_line(request), self._timeout)
                answer = read_answer(line)
                if answer is None:
                    raise child.failure("invalid reply")
                return answer
            except BridgeMachineryFailure:
                self._discard(child)
                raise

    @property
    def pid(self) -> Optional[int]:
        return None if self._child is None else self._child.pid

    @property
    def child_exit(self) -> "Optional[asyncio.Future]":
        """Settles with the exit status or signal once the current child has exited; None while none is running."""
        return None if self._child is None else self._child.exit

    async def close(self, grace: float = 3.0) -> None:
        self._closed = True
        child, self._child = self._child, None
        if child is not None:
            await child.end(grace)
        # Children killed after a machinery failure: reap them, so none outlives the client.
        for retired in self._retired:
            await retired.end(grace)
        self._retired.clear()

    async def _current(self) -> _BridgeChild:
        if self._child is None or self._child.exited:
            try:
                self._child = await _BridgeChild.spawn(self._argv, self._env, self._stderr)
            except OSError as error:
                raise BridgeMachineryFailure(f"bridge machinery failure: cannot start the bridge ({error.strerror}); ")
            self.spawned += 1
        return self._child

    def _discard(self, child: _BridgeChild) -> None:
        child.kill()
        self._retired = [c for c in self._retired if not c.exited] + [child]
        if self._child is child:
            self._child = None


def bridge_error_text(kind: str, detail: str) -> str:
    """operation_* -> the code itself; an invalid request -> the guard's message; anything else -> bridge_error: kind."""
    if kind in OPERATION_ERRORS:
        return kind
    if kind == INVALID_APPLICATION_REQUEST:
        return detail
    return f"bridge_error: {kind}"


OPERATION_ERRORS = (
    "operation_conflict",
    "operation_authority_expired",
    "operation_retention_expired",
    "operation_in_progress",
)
INVALID_APPLICATION_REQUEST = "invalid_application_request"

"""Worker processes for the suites that compile many small programs.

Code generation runs in-process (the ExecutionEngine): a bug in generated
code can kill the process. The suites (onnx_conformance.py, opinfo.py)
therefore run their cases in worker processes that read one request per line
on stdin and answer JSON lines on stdout; a worker that dies or hangs is
killed and replaced, and only the case it was running fails.

A worker script prints ``ready`` once it is set up, then serves requests::

    def serve(handle):            # in the worker process
        ...                       # see serve() below

    pool_map(items, work, [sys.executable, script, "--worker"], jobs=2)
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["Worker", "pool_map", "serve", "worker_env"]


def worker_env() -> dict[str, str]:
    """The environment of a worker: this one, one OpenMP thread per worker
    (the workers share the machine's cores)."""
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


class Worker:
    """One worker process: `command` must print ``ready``, then answer
    requests (one line each) with one or more JSON lines on stdout.

    Args:
        command: argv of the worker (e.g. ``[sys.executable, script,
            "--worker"]``).
        env: its environment (see :func:`worker_env`).
    """

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.command = command
        self.env = env
        self.timed_out = False
        self._start()

    def _start(self) -> None:
        self.timed_out = False
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=self.env,
        )
        line = self.process.stdout.readline().strip()
        if line != "ready":
            raise RuntimeError(f"worker {self.command} did not start: {line!r}")

    def send(self, request: str) -> bool:
        """Writes one request line; False if the worker is dead."""
        try:
            self.process.stdin.write(request + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next JSON line, or None if the worker died or did not answer
        within `timeout` seconds (then it is killed and ``timed_out`` set)."""

        def kill() -> None:
            self.timed_out = True
            self.process.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            line = self.process.stdout.readline()
        except (OSError, ValueError):
            line = ""
        finally:
            timer.cancel()
        return json.loads(line) if line else None

    def exit_code(self) -> int | None:
        """The exit code of a dead worker (None if it still runs after 5 s:
        its stdout closed first)."""
        try:
            return self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return None

    def restart(self) -> None:
        """Kills this process (if alive) and starts a fresh one."""
        self.close()
        self._start()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


def pool_map(
    items: Iterable[Any],
    work: Callable[[Worker, Any], None],
    command: list[str],
    jobs: int = 2,
    env: dict[str, str] | None = None,
) -> None:
    """Calls ``work(worker, item)`` for every item, from `jobs` threads that
    each own one :class:`Worker`; `work` restarts its worker when it died.

    Raises:
        whatever `work` raises (after all threads stopped).
    """
    env = env if env is not None else worker_env()
    todo: queue.Queue[Any] = queue.Queue()
    for item in items:
        todo.put(item)
    errors: list[BaseException] = []

    def thread_main() -> None:
        try:
            worker = Worker(command, env)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
            return
        try:
            while not errors:
                try:
                    item = todo.get_nowait()
                except queue.Empty:
                    break
                work(worker, item)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            worker.close()

    threads = [threading.Thread(target=thread_main) for _ in range(max(1, jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def serve(handle: Callable[[str], Iterable[dict[str, Any]]]) -> None:
    """The worker's side: prints ``ready``, then for each request line on
    stdin prints the JSON dicts that ``handle(line)`` yields, one per line
    (flushed at once, so the parent sees how far a request got)."""
    print("ready", flush=True)
    for line in sys.stdin:
        line = line.strip()
        if line:
            for answer in handle(line):
                print(json.dumps(answer), flush=True)

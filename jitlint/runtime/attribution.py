"""From the children's reports to verdicts: which compiles belong to which finding, and which
recompilations no finding explains (JIT900).  Stdlib only; never imports JAX.

Also used in the user's own process by ``count_compiles()`` to read JAX's cache-miss
explanations.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

# JAX's own words (jax._src.interpreters.partial_eval.explain, jax 0.4.3x-0.10):
#   TRACING CACHE MISS at /p/x.py:27:4 (<module>):
#     never seen function:
#       <lambda> id=1398 defined at /p/x.py:27
#   TRACING CACHE MISS at /p/x.py:20 (<module>):
#     for f defined at /p/x.py:13
_HEADER = re.compile(r"TRACING CACHE MISS at (?P<file>.+?):(?P<line>\d+)(?::\d+)? \((?P<caller>.*)\):\s*$")
_NEVER_SEEN = re.compile(r"^\s*(?P<name>.+?) id=\d+(?: defined at (?P<file>.+):(?P<line>\d+))?\s*$")
_FOR = re.compile(r"^\s*for (?P<name>.+?) defined at (?P<file>.+):(?P<line>\d+)\s*$")
_WRAPPED = re.compile(r"^[\w.]+\((?P<inner>.*)\)$")  # jit(f), pmap(f)

_LIBRARY_PARTS = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep,
                  os.sep + "jax" + os.sep, os.sep + "jaxlib" + os.sep)


@dataclass(frozen=True)
class Miss:
    """One of JAX's tracing-cache-miss explanations."""

    call_file: Optional[str]
    call_line: Optional[int]
    name: Optional[str]
    def_file: Optional[str]
    def_line: Optional[int]
    reason: str


def parse_miss(text: str, cwd: Optional[str] = None) -> Miss:
    lines = text.splitlines()
    call_file = call_line = name = def_file = def_line = None
    rest = []
    for index, line in enumerate(lines):
        if index == 0:
            match = _HEADER.match(line.strip())
            if match:
                call_file, call_line = _path(match["file"], cwd), int(match["line"])
                continue
        match = (_FOR.match(line) or _NEVER_SEEN.match(line)) if name is None else None
        if match and (match.re is _FOR or index > 0 and "never seen" in lines[index - 1]):
            name = match["name"]
            if match["file"]:
                def_file, def_line = _path(match["file"], cwd), int(match["line"])
            continue
        if line.strip():
            rest.append(line.strip())
    reason = " ".join(rest).replace("never seen function: ", "never seen function; ")
    return Miss(call_file, call_line, name, def_file, def_line, reason)


def _path(path: str, cwd: Optional[str]) -> str:
    if cwd and not os.path.isabs(path):
        path = os.path.join(cwd, path)
    return os.path.realpath(path)


def inner_name(fun_name: Optional[str]) -> str:
    match = _WRAPPED.match(fun_name or "")
    return match["inner"] if match else (fun_name or "")


def is_library(path: Optional[str]) -> bool:
    return path is None or path.startswith("<") or any(part in path for part in _LIBRARY_PARTS)


def is_informative(reason: str) -> bool:
    return bool(reason) and reason.strip(" :") != "never seen function"


# ---------------------------------------------------------------------------- compiles
@dataclass
class Compile:
    fun_name: str
    name: str
    stack: list[tuple[str, int, str]]  # user frames, innermost first (real paths)
    miss: Optional[Miss]  # None: not a user function (an eager jnp op) or not explained

    def frame_in(self, path: str) -> Optional[tuple[str, int, str]]:
        return next((f for f in self.stack if f[0] == path), None)

    def call_site(self) -> Optional[tuple[str, int, str]]:
        """The innermost frame in the user's own code (not a library, not the stdlib)."""
        return next((f for f in self.stack if not is_library(f[0]) and not _is_stdlib(f[0])), None)


def _is_stdlib(path: str) -> bool:
    return bool(re.search(r"[\\/]lib[\\/]python3\.\d+[\\/][^\\/]+\.py$", path))


def compiles_of(report: dict) -> list[Compile]:
    """The report's compile events, each paired with its own cache-miss explanation."""
    cwd = report.get("cwd")
    misses = [parse_miss(text, cwd) for text in report.get("misses", ())]
    result = []
    for event in report.get("compiles", ()):
        fun_name = event.get("fun_name") or ""
        name = inner_name(fun_name)
        stack = [(_path(f[0], cwd), int(f[1]), str(f[2])) for f in event.get("stack", ())]
        candidates = [misses[i] for i in event.get("misses", ()) if 0 <= i < len(misses)]
        result.append(Compile(fun_name, name, stack, _pair(name, candidates)))
    return result


def _pair(name: str, candidates: Sequence[Miss]) -> Optional[Miss]:
    """The explanation of this compile among those logged since the previous one: the last
    with the same function name (the others are inner jits traced along the way)."""
    for miss in reversed(candidates):
        if miss.name == name or (miss.name == "<unknown>" and name == "<unnamed function>"):
            return miss
    return None


# ---------------------------------------------------------------------------- verdicts
@dataclass
class Runtime:
    """What a run showed about one finding; the ``runtime`` object of the JSON output."""

    verdict: str  # confirmed | not reproduced | not reached | raised <Error> | run failed | not run
    compiles: Optional[int] = None
    calls: Optional[int] = None
    reason: Optional[str] = None  # JAX's cache-miss explanation, when it gave one
    detail: str = ""
    stderr: Optional[str] = None  # the tail of a failed run's stderr

    def to_dict(self) -> dict:
        data = {"verdict": self.verdict, "compiles": self.compiles, "calls": self.calls,
                "reason": self.reason, "detail": self.detail}
        if self.stderr is not None:
            data["stderr"] = self.stderr
        return data

    def summary(self) -> str:
        return f"{self.verdict}: {self.detail}" if self.detail else self.verdict


@dataclass
class Evidence:
    """Everything the runs that could reach one file recorded."""

    reports: list[dict] = field(default_factory=list)
    compiles: list[list[Compile]] = field(default_factory=list)  # per report


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def times(n: int, what: str) -> str:
    if what == "compiled":
        return {1: "once", 2: "twice"}.get(n, f"{n} times")
    return f"{n} {what}" + ("" if n == 1 else "s")


def measure(site, evidence: Evidence) -> tuple[int, Optional[int], Optional[Miss], Optional[dict]]:
    """(compiles, calls or None if not counted, the last explanation, the raise) at a site."""
    compiles = 0
    last_miss: Optional[Miss] = None
    calls: Optional[int] = 0 if site.count is not None else None
    raised = None
    for report, events in zip(evidence.reports, evidence.compiles):
        for event in events:
            if matches(site, event):
                compiles += 1
                if event.miss is not None and (last_miss is None or is_informative(event.miss.reason)):
                    last_miss = event.miss
        if calls is not None:
            if report.get("tracer") != "ok":
                calls = None
            else:
                calls += int(report.get("lines", {}).get(str(site.ident), 0))
        outcome = report.get("outcome") or {}
        if outcome.get("status") == "raised" and raised is None:
            cwd = report.get("cwd")
            frame = next((f for f in outcome.get("stack", ()) if _path(f[0], cwd) == site.path), None)
            if frame is not None and site.first <= int(frame[1]) <= site.last:
                raised = outcome
    return compiles, calls, last_miss, raised


def matches(site, event: Compile) -> bool:
    if event.miss is None:
        return False  # eager jnp ops compile too; they are nobody's finding
    frame = event.frame_in(site.path)
    if frame is not None and site.first <= frame[1] <= site.last:
        return True
    miss = event.miss
    return miss.def_file == site.path and miss.def_line in site.def_lines


def verdict(site, evidence: Evidence, failure: Optional[str], stderr: Optional[str]) -> Runtime:
    """``failure``: why the run meant to reach this site failed (None if it did not)."""
    compiles, calls, miss, raised = measure(site, evidence)
    reason = miss.reason if miss is not None and is_informative(miss.reason) else None
    if raised is not None:
        message = (raised.get("message") or "").strip().splitlines()
        detail = _clip(message[0]) if message else ""
        return Runtime(f"raised {raised.get('type')}", compiles, calls, reason, detail)
    counted = f"compiled {times(compiles, 'compiled')}" + (
        f" in {times(calls, 'call')}" if calls is not None else "")
    if compiles >= 2:
        return Runtime("confirmed", compiles, calls, reason, counted)
    if failure is not None:
        return Runtime("run failed", compiles, calls, reason, failure, stderr)
    if compiles == 0 and calls == 0:
        return Runtime("not reached", 0, 0, None, "the flagged code never ran")
    if compiles == 0:
        return Runtime("not reproduced", 0, calls, None,
                       "no compile at this site" + (f" in {times(calls, 'call')}" if calls else ""))
    return Runtime("not reproduced", compiles, calls, reason, counted)


# ---------------------------------------------------------------------------- JIT900
@dataclass
class Recompilation:
    """A user function compiled more than once at one call site, that no finding explains."""

    call_file: str
    call_line: int
    name: str
    def_file: str
    def_line: int
    compiles: int
    reason: Optional[str]


def recompilations(evidence: Iterable[tuple[dict, list[Compile]]], sites: Sequence) -> list[Recompilation]:
    groups: dict[tuple, list[Compile]] = {}
    for _report, events in evidence:
        for event in events:
            miss = event.miss
            if miss is None or miss.def_file is None or miss.def_line is None or is_library(miss.def_file):
                continue  # eager ops, callable instances, library internals
            if any(matches(site, event) for site in sites):
                continue
            site = event.call_site()
            if site is None:
                continue
            groups.setdefault((site[0], site[1], event.name, miss.def_file, miss.def_line), []).append(event)
    found = []
    for (call_file, call_line, name, def_file, def_line), events in groups.items():
        if len(events) < 2:
            continue
        reasons = [e.miss.reason for e in events if e.miss is not None and is_informative(e.miss.reason)]
        found.append(Recompilation(call_file, call_line, name, def_file, def_line, len(events),
                                   reasons[-1] if reasons else None))
    return sorted(found, key=lambda r: (r.call_file, r.call_line, r.name))

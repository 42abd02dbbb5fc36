"""From the children's reports to verdicts: which compiles belong to which finding, and which
recompilations no finding explains (JIT900).  Stdlib only; never imports JAX.

Also used in the user's own process by ``count_compiles()`` to read JAX's cache-miss
explanations.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from jitlint.runtime.bootstrap import library_of

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

# The names of the programs JAX compiles for lax control flow called outside jit
# (``lax.fori_loop`` runs as ``scan`` or ``while``, ``lax.switch`` and ``lax.cond`` as ``cond``,
# ``lax.map`` as ``scan``): measured on jax 0.10.2 by tests/test_confirm_units.py.
LAX_CONTROL_FLOW_PROGRAMS = frozenset({"scan", "while", "cond"})

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


def is_informative(reason: str) -> bool:
    return bool(reason) and reason.strip(" :") != "never seen function"


# ---------------------------------------------------------------------------- compiles
Libraries = Sequence[Sequence]  # the child's ``library_dirs()``: [[directory, name], ...]


@dataclass
class Compile:
    fun_name: str
    name: str
    stack: list[tuple[str, int, str]]  # user frames, innermost first (real paths)
    miss: Optional[Miss]  # None: not a user function (an eager jnp op) or not explained
    made: list[tuple[str, int, str]] = field(default_factory=list)  # where the jit was created
    target: Optional[tuple[str, int, str]] = None  # the function the jit wraps (file, line, name)
    jit: Optional[int] = None  # the number of the jit object that compiled (None: not noted)
    libraries: Libraries = ()  # where the run's interpreter keeps libraries

    @property
    def is_jit(self) -> bool:
        """A jitted function's compile (JAX explained it, or user/library code made the jit);
        not one of JAX's eager operations."""
        return self.miss is not None or bool(self.made)

    def library(self, path: Optional[str]) -> Optional[str]:
        """The library a file belongs to in the run (None: the user's code)."""
        return "<unknown>" if path is None else library_of(path, self.libraries)

    def frame_in(self, path: str) -> Optional[tuple[str, int, str]]:
        return next((f for f in self.stack if f[0] == path), None)

    def call_site(self) -> Optional[tuple[str, int, str]]:
        """The innermost frame in the user's own code (not a library, not the stdlib)."""
        return self._own(self.stack)

    def made_at(self) -> Optional[tuple[str, int, str]]:
        """Where the user's code created the jit (itself or through a library's jit)."""
        return self._own(self.made)

    def made_here(self) -> Optional[tuple[str, int, str]]:
        """Where the user's code called ``jax.jit`` itself (not through a library)."""
        made = self.made[0] if self.made else None
        return made if made is not None and self.library(made[0]) is None else None

    def maker(self) -> Optional[str]:
        """The library whose code made the jit (equinox, flax), if one did."""
        return self.library(self.made[0][0]) if self.made else None

    def definition(self) -> Optional[tuple[str, int]]:
        """The user's function behind the compile: JAX's "defined at" when that is the user's
        code; else the function the jit wraps (a partial's function, a bound method's); else,
        for a library's jit (equinox's filter_jit, flax's nnx.jit), where the user made it."""
        miss = self.miss
        if miss is not None and miss.def_file is not None and miss.def_line is not None \
                and self.library(miss.def_file) is None:
            return miss.def_file, miss.def_line
        if self.target is not None and self.library(self.target[0]) is None:
            return self.target[0], self.target[1]
        made = self.made_at()
        return (made[0], made[1]) if made is not None else None

    def _own(self, stack: Sequence[tuple[str, int, str]]) -> Optional[tuple[str, int, str]]:
        return next((f for f in stack if self.library(f[0]) is None), None)


def compiles_of(report: dict) -> list[Compile]:
    """The report's compile events, each paired with its own cache-miss explanation."""
    cwd = report.get("cwd")
    libraries = report.get("libraries") or ()
    misses = [parse_miss(text, cwd) for text in report.get("misses", ())]
    result = []
    for event in report.get("compiles", ()):
        fun_name = event.get("fun_name") or ""
        name = inner_name(fun_name)
        stack = [(_path(f[0], cwd), int(f[1]), str(f[2])) for f in event.get("stack", ())]
        candidates = [misses[i] for i in event.get("misses", ()) if 0 <= i < len(misses)]
        made = [(_path(f[0], cwd), int(f[1]), str(f[2])) for f in event.get("made") or ()]
        target = event.get("target")
        result.append(Compile(fun_name, name, stack, _pair(name, candidates), made,
                              (_path(target[0], cwd), int(target[1]), str(target[2]))
                              if target else None, event.get("jit"), libraries))
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
    # the sites' idents -> {(report index, event index): idents of the sites it belongs to}
    _owners: dict = field(default_factory=dict)

    def owned(self, sites: Sequence) -> dict:
        """Which of ``sites`` each compile belongs to (see ``owners``), computed once."""
        key = tuple(site.ident for site in sites)
        if key not in self._owners:
            self._owners[key] = {(r, e): frozenset(site.ident for site in owners(event, sites))
                                 for r, events in enumerate(self.compiles)
                                 for e, event in enumerate(events)}
        return self._owners[key]


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def times(n: int, what: str) -> str:
    if what == "compiled":
        return {1: "once", 2: "twice"}.get(n, f"{n} times")
    return f"{n} {what}" + ("" if n == 1 else "s")


# JAX wraps the errors it raises in a filtered traceback and adds lines of its own; the error's
# own first line is what says what went wrong.
_BOILERPLATE = ("For simplicity, JAX has removed its internal frames",
                "The stack trace below excludes JAX-internal frames",
                "The preceding is the original exception", "----")
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)\b")


def first_line(message: str) -> str:
    """The first line of an exception's message that is its own (not JAX's boilerplate)."""
    for line in message.splitlines():
        line = line.strip()
        if line and not line.startswith(_BOILERPLATE):
            return _clip(line)
    return ""


def exception_line(stderr: str) -> str:
    """From a traceback's text, the ``Type: message`` line (not the URL or JAX boilerplate
    that may follow it)."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if _EXCEPTION_LINE.match(line) and not line.startswith(_BOILERPLATE):
            return _clip(line)
    return lines[-1] if lines else ""


@dataclass
class Measured:
    """What the runs recorded at one site."""

    compiles: int = 0
    # compiles per jit object: (report index, its number in that run; None: not noted)
    objects: Counter = field(default_factory=Counter)
    calls: Optional[int] = None  # executions of the flagged statement; None when not counted
    misses: list[Miss] = field(default_factory=list)  # JAX's explanations of its compiles
    raised: Optional[dict] = None  # {"type", "message", "caught"}
    stale: Optional[dict] = None  # the child's record for a read/write site

    @property
    def miss(self) -> Optional[Miss]:
        """The last informative explanation (else the last one)."""
        informative = [m for m in self.misses if is_informative(m.reason)]
        return (informative or self.misses or [None])[-1]


def measure(site, evidence: Evidence, sites: Sequence = ()) -> Measured:
    """``sites``: every finding of the run (a jit made on another finding's lines is that
    finding's, whoever calls it)."""
    found = Measured(calls=0 if site.count is not None else None)
    owned = evidence.owned(sites or [site])
    for r, (report, events) in enumerate(zip(evidence.reports, evidence.compiles)):
        for e, event in enumerate(events):
            if site.ident in owned[(r, e)]:
                found.compiles += 1
                found.objects[(r, event.jit)] += 1
                if event.miss is not None:
                    found.misses.append(event.miss)
        if found.calls is not None:
            if report.get("tracer") != "ok":
                found.calls = None
            else:
                found.calls += int(report.get("lines", {}).get(str(site.ident), 0))
        if found.raised is None:
            found.raised = _raised(site, report)
        record = (report.get("stale") or {}).get(str(site.ident))
        if record is not None and record.get("traces"):
            found.stale = _merge_stale(found.stale, record)
    return found


def _raised(site, report: dict) -> Optional[dict]:
    """The exception raised at the site: the run's own (uncaught) one, or, for a finding that
    predicts an error, one the program caught (seen passing through the site's lines)."""
    outcome = report.get("outcome") or {}
    cwd = report.get("cwd")
    if outcome.get("status") == "raised":
        frame = next((f for f in outcome.get("stack", ()) if _path(f[0], cwd) == site.path), None)
        if frame is not None and site.holds(int(frame[1])):  # the finding's lines, or where it runs
            return {"type": outcome.get("type"), "message": outcome.get("message") or "",
                    "caught": False}
    seen = (report.get("raises") or {}).get(str(site.ident))
    if seen is None or site.kind != "error":
        return None
    caught = not (outcome.get("status") == "raised" and outcome.get("type") == seen.get("type")
                  and outcome.get("message") == seen.get("message"))
    return {"type": seen.get("type"), "message": seen.get("message") or "", "caught": caught}


def _merge_stale(before: Optional[dict], record: dict) -> dict:
    if before is None:
        return dict(record)
    merged = dict(before)
    for key in ("traces", "calls", "reused", "changed"):
        merged[key] = int(before.get(key) or 0) + int(record.get(key) or 0)
    for key in ("was", "now", "traced", "last"):
        merged[key] = before.get(key) or record.get(key)
    return merged


def owners(event: Compile, sites: Sequence) -> list:
    """The findings a compile belongs to.  A jit object belongs to the finding on whose lines
    the user's code made it (``scale = jax.jit(partial(f, 1.0))``, called on the next line),
    and to no other finding: not to one on the line that calls it (a ragged batch passed to a
    jit re-made each step is not what recompiled).  Otherwise: the findings on whose lines it
    was called, or, for a callable created at run time, where JAX says it is defined."""
    if not event.is_jit:
        # eager jnp ops compile too; they are nobody's finding, except the program JAX builds
        # for lax control flow run outside jit, which is what an eager-control-flow finding predicts
        if event.name not in LAX_CONTROL_FLOW_PROGRAMS:
            return []
        return [site for site in sites if site.eager_control_flow and _called_or_defined_at(site, event)]
    made = event.made_here()
    if made is not None:
        here = [site for site in sites if site.path == made[0] and site.first <= made[1] <= site.last]
        if here:
            return here
    return [site for site in sites if _called_or_defined_at(site, event)]


def _called_or_defined_at(site, event: Compile) -> bool:
    frame = event.frame_in(site.path)
    if frame is not None and site.holds(frame[1]):
        return True
    miss = event.miss
    return miss is not None and miss.def_file == site.path and miss.def_line in site.def_lines


def verdict(site, evidence: Evidence, failure: Optional[str], stderr: Optional[str],
            sites: Sequence = ()) -> Runtime:
    """``failure``: why the run meant to reach this site failed (None if it did not);
    ``sites``: all the findings of the run."""
    found = measure(site, evidence, sites)
    compiles, calls = found.compiles, found.calls
    miss = found.miss
    reason = miss.reason if miss is not None and is_informative(miss.reason) else None
    if found.raised is not None:
        raised = found.raised
        name = f"raised {raised.get('type')}" + (" (caught)" if raised.get("caught") else "")
        return Runtime(name, compiles, calls, reason, first_line(raised.get("message") or ""))
    if site.kind in ("read", "write"):
        return _stale_verdict(site, found, failure, stderr)
    counted = f"compiled {times(compiles, 'compiled')}" + (
        f" in {times(calls, 'call')}" if calls is not None else "")
    again = max(found.objects.values(), default=0) >= 2  # one jit object compiled again
    if site.kind == "compile" and compiles >= 2 and (again or not site.per_object):
        return Runtime("confirmed", compiles, calls, reason, counted)
    if failure is not None:
        return Runtime("run failed", compiles, calls, reason, failure, stderr)
    if not compiles and calls == 0:
        return Runtime("not reached", 0, 0, None, "the flagged code never ran")
    if site.kind == "error":
        return Runtime("not reproduced", compiles, calls, reason,
                       "ran" + (f" {times(calls, 'time')}" if calls else "") + " without raising")
    if compiles == 0:
        return Runtime("not reproduced", 0, calls, None,
                       "no compile at this site" + (f" in {times(calls, 'call')}" if calls else ""))
    if compiles >= 2:  # a finding about one function compiling again; each was a new one
        return Runtime("not reproduced", compiles, calls, reason,
                       f"{counted}, each by a different jit object (none compiled again)")
    return Runtime("not reproduced", compiles, calls, reason, counted)


def _values(values: Optional[dict]) -> str:
    return ", ".join(f"`{name}` = {value}" for name, value in (values or {}).items())


def _stale_verdict(site, found: Measured, failure: Optional[str], stderr: Optional[str]) -> Runtime:
    """A stale value is confirmed by a call that reused the compiled program while the value
    the body read (JIT601) differed from the one it was traced with, or that skipped the
    body's write (JIT602); a compile count says nothing about it."""
    record = found.stale
    if record is None or not record.get("traces"):
        if failure is not None:
            return Runtime("run failed", None, None, None, failure, stderr)
        return Runtime("not reached", None, 0, None, "the jitted function was never traced")
    traces, calls = int(record["traces"]), int(record.get("calls") or 0)
    reused, changed = int(record.get("reused") or 0), int(record.get("changed") or 0)
    ran = f"traced {times(traces, 'time')} in {times(calls, 'call')}"
    if site.kind == "read" and changed:
        return Runtime("confirmed", None, calls, None,
                       f"{_values(record.get('was'))} when traced, {_values(record.get('now'))} "
                       f"at a later call that reused the compiled program ({ran}; "
                       f"{changed} of them used the old value)")
    if site.kind == "write" and reused:
        return Runtime("confirmed", None, calls, None,
                       f"the body ran {times(traces, 'time')} in {times(calls, 'call')}: "
                       f"{_values(record.get('traced'))} was written when traced and still "
                       f"{_values(record.get('last'))} after {times(reused, 'call')} that reused "
                       f"the compiled program and skipped the write")
    if failure is not None:
        return Runtime("run failed", None, calls, None, failure, stderr)
    if not calls:
        return Runtime("not reproduced", None, calls, None,
                       f"traced {times(traces, 'time')}; its calls could not be watched")
    if site.kind == "read":
        return Runtime("not reproduced", None, calls, None,
                       f"{ran}; the value stayed {_values(record.get('traced'))}")
    return Runtime("not reproduced", None, calls, None,
                   f"{ran}; no call reused the compiled program")


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
    reasons: list[str]  # JAX's explanations, each once, in order
    library: Optional[str] = None  # the library that made the jit (equinox, flax), if one did

    @property
    def reason(self) -> Optional[str]:
        return "; ".join(self.reasons) if self.reasons else None

    def cause(self) -> str:
        """What changed from call to call, in the words of JAX's reasons."""
        causes = []
        for reason in self.reasons:
            cause = _cause(reason)
            if cause not in causes:
                causes.append(cause)
        return "; ".join(causes) if causes else "it was compiled again with different inputs"


def _cause(reason: str) -> str:
    if "never seen function" in reason or "re-defined repeatedly" in reason:
        return "the function object is new each time (it is re-created before every call); create it once"
    if "Static(" in reason or "static arg" in reason.lower():
        return "a static argument takes a new value each time; pass it as an array or keep its values few"
    if "weak_type" in reason:
        return "a Python scalar and an array (weak and strong types) alternate; pass one kind"
    if "different input types" in reason:
        detail = reason.split("different input types:", 1)[1].strip(" :*")
        return f"argument shapes or dtypes change ({_clip(detail, 80)}); pad or cast to one"
    if "different input pytree" in reason:
        return "the argument structure changes (pytree); keep the same containers and keys"
    if "Tracing context" in reason:
        return "the tracing context (a config or context manager) changes between calls"
    return _clip(reason, 100)


def _intended(compiles: int, reasons: Sequence[str]) -> bool:
    """Two compiles for two values of a static argument (a train/eval flag): the variation the
    static rules allow on purpose (JIT401 stays quiet on a bool or two-value static)."""
    return compiles == 2 and bool(reasons) and all(
        _cause(reason).startswith("a static argument") for reason in reasons)


def _by_call_site(events: Iterable[Compile]) -> dict[tuple[str, int, str, str, int], list[Compile]]:
    """The compiles of the user's jitted functions, grouped by (call file, call line, name,
    definition file, definition line)."""
    groups: dict[tuple[str, int, str, str, int], list[Compile]] = {}
    for event in events:
        if not event.is_jit:
            continue  # eager ops
        definition = event.definition()
        if definition is None:
            continue  # library internals, callable instances JAX cannot place
        site = event.call_site()
        if site is None:
            continue
        groups.setdefault((site[0], site[1], event.name, definition[0], definition[1]),
                          []).append(event)
    return groups


@dataclass(frozen=True)
class CompileCount:
    """How many times one user function was compiled at one call site in a run: what shows a
    fix working once no finding is left to carry a count."""

    call_file: str
    call_line: int
    name: str
    def_file: str
    def_line: int
    compiles: int


def compile_counts(events: Iterable[Compile]) -> list[CompileCount]:
    return sorted((CompileCount(*key, len(found)) for key, found in _by_call_site(events).items()),
                  key=lambda c: (c.call_file, c.call_line, c.name))


def recompilations(evidence: Iterable[tuple[dict, list[Compile]]], sites: Sequence) -> list[Recompilation]:
    unexplained = (event for _report, events in evidence for event in events
                   if not owners(event, sites))
    groups = _by_call_site(unexplained)
    found = []
    for (call_file, call_line, name, def_file, def_line), events in groups.items():
        if len(events) < 2:
            continue
        reasons: list[str] = []
        for event in events:
            if event.miss is not None and is_informative(event.miss.reason) \
                    and event.miss.reason not in reasons:
                reasons.append(event.miss.reason)
        if _intended(len(events), reasons):
            continue
        library = events[-1].maker()
        found.append(Recompilation(call_file, call_line, name, def_file, def_line, len(events),
                                   reasons, library))
    return sorted(found, key=lambda r: (r.call_file, r.call_line, r.name))

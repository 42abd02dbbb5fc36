"""The project's call graph: which functions of the project each module calls, and how.

A rule asks ``rules/_context.py`` how a function runs (traced, repeated, once); that analysis
sees the callers in the function's own module.  A function nothing in its module calls (a
public helper, ``inference_time`` called from ``main.py``) is unknown there.  Its callers in
other modules and notebooks are read here, from the ``ast`` walk the engine makes of every
file anyway (``project.scan_module``): each call of a project function (imported, or of the
module's own top-level functions and methods) with where it runs in its module (module level,
a loop, a function, handed to a jit or transform, handed to a program runner), and each
function's own role (jitted by a decorator, an entry point, a test, a setup function).
``ProjectCalls`` joins the modules' records and answers, for a function, (how, evidence).

The name tables are shared with ``rules/_context.py``: both judge roles alike.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from typing import Iterable, Optional

TRACED = "traced"
REPEATED = "repeated"
ONCE = "once"
UNKNOWN = "unknown"

# Transforms that trace the functions handed to them (by the last part of their name, in
# JAX's and its ecosystem's namespaces).  ``tree_map`` and friends call eagerly: not here.
TRACING_TRANSFORMS = frozenset({
    "jit", "pjit", "pmap", "vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian",
    "jvp", "vjp", "linearize", "checkpoint", "remat", "named_call", "shard_map", "xmap",
    "eval_shape", "make_jaxpr", "custom_vjp", "custom_jvp", "custom_root",
    "custom_linear_solve", "scan", "fori_loop", "while_loop", "cond", "switch", "map",
    "associative_scan", "checkify", "filter_jit", "filter_pmap", "filter_vmap", "filter_grad",
    "filter_value_and_grad", "filter_checkpoint", "filter_custom_vjp", "filter_custom_jvp",
    "filter_eval_shape", "filter_make_jaxpr",
})
TRANSFORM_NAMESPACES = ("jax.", "equinox.", "flax.", "haiku.", "chex.", "diffrax.")
NOT_TRACING = ("jax.tree_util.", "jax.tree.", "jax.debug.", "jax.experimental.io_callback")
ECOSYSTEM = frozenset({"jax", "equinox", "flax", "haiku", "chex", "optax", "numpyro", "jaxtyping"})
MEMOISERS = frozenset({"functools.cache", "functools.lru_cache", "jax._src.util.cache",
                       "jax._src.util.weakref_lru_cache", "jax._src.util.memoize"})
MEMO_WORDS = re.compile(r"cache|memo|once", re.IGNORECASE)
# Functions that run once per program, object or test.
RUN_ONCE_NAMES = frozenset({
    "main", "_main", "cli", "run_main", "app_main", "train", "fit", "train_and_evaluate",
    "__init__", "__post_init__", "__new__", "__init_subclass__", "__set_name__", "__enter__",
    "setup", "setUp", "setUpClass", "setUpModule", "setup_method", "setup_class", "setup_module",
    "setup_function", "tearDown", "tearDownClass",
})
# Initialisation and setup functions: once per model, program or object.
SETUP_NAMES = re.compile(r"^_?(init|initialize|initialise|setup|build)(_|$)")
TEST_FILE = re.compile(r"(^|/)(test_[^/]*|[^/]*_test|[^/]*_tests|conftest)\.py$")
ENTRY_POINT_WORDS = re.compile(r"fixture|command|main|group|entrypoint|^cli$|^app$|^run$", re.IGNORECASE)
# Program runners: the function handed to them is the program's entry point (a sweep agent
# runs it once per trial, each with its own configuration: a distinct program each time).
RUNNERS = frozenset({"absl.app.run", "fire.Fire", "typer.run", "multiprocessing.Process",
                     "threading.Thread", "wandb.agent", "ray.tune.run", "ray.tune.Tuner"})


def runs_once_by_name(name: str) -> bool:
    """An entry point, constructor, test or setup function by its name."""
    return name in RUN_ONCE_NAMES or name.startswith(("test", "main_")) or name.endswith("_main") \
        or bool(SETUP_NAMES.match(name))


def is_transform(qualname: str) -> bool:
    return qualname.startswith(TRANSFORM_NAMESPACES) and not qualname.startswith(NOT_TRACING) \
        and qualname.rsplit(".", 1)[-1] in TRACING_TRANSFORMS


def is_test_file(path: str) -> bool:
    return bool(TEST_FILE.search(path.replace("\\", "/")))


@dataclass(frozen=True)
class CallRecord:
    """One call (or hand-off) of a project function: ``callee`` as the project names it
    (``pkg.mod.f``, ``pkg.mod.Class.method``), in the caller module's ``caller`` (a top-level
    def or ``Class.method``; "" at module level), ``loop``: inside a loop there."""

    callee: str
    caller: str
    loop: bool
    line: int
    kind: str = "call"  # "call"; "traced": handed to a jit or transform; "runner": to absl.app.run ...
    cell: Optional[int] = None  # in a notebook: the cell, ``line`` counted in it

    def where(self, path: str) -> str:
        """``train.py:88``, or ``explore.ipynb:cell 3:line 2`` (as the findings are located)."""
        short = _short(path)
        return f"{short}:cell {self.cell}:line {self.line}" if self.cell is not None else f"{short}:{self.line}"


@dataclass(frozen=True)
class ModuleCalls:
    """What one module tells the call graph.  Deterministic and picklable."""

    module: str
    path: str
    roles: tuple[tuple[str, str], ...] = ()  # (def, TRACED or ONCE) by its decorators or name
    calls: tuple[CallRecord, ...] = ()


class CallCollector:
    """Fed by project.scan_module's walk: the defs it enters and the calls it meets, each with
    the frame (caller, loops, class) they are in."""

    def __init__(self) -> None:
        self.defs: list[tuple[str, ast.AST]] = []  # (qualname in the module, node)
        self.calls: list[tuple[ast.Call, tuple[str, int, str]]] = []

    @staticmethod
    def enter(node: ast.AST, frame: tuple[str, int, str], defs: list) -> tuple[str, int, str]:
        """The frame inside ``node`` (a def, class or loop) entered from ``frame``."""
        caller, loops, cls = frame
        kind = type(node)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            if caller:  # a nested def: its calls count as its enclosing def's (run from there)
                return frame
            name = f"{cls}.{node.name}" if cls else node.name  # type: ignore[attr-defined]
            defs.append((name, node))
            return (name, 0, "")
        if kind is ast.ClassDef:
            return (caller, loops, "" if caller or cls else node.name)  # type: ignore[attr-defined]
        return (caller, loops + 1, cls)  # a loop

    def module_calls(self, module: str, path: str, bound: dict[str, set[str]], meanings,
                     callees: dict[int, set[str]]) -> ModuleCalls:
        """The records, the callees resolved through ``bound`` (``meanings(expr, bound)``: the
        dotted names an expression may stand for; ``callees``: those of each call's function,
        by the call's id, already resolved by the scan) or to the module's own defs."""
        own = {name for name, _ in self.defs}
        test = is_test_file(path)
        roles = []
        for name, node in self.defs:
            role = ONCE if test else _role(name, node, bound, meanings)
            if role is not None:
                roles.append((name, role))

        def resolve(expr: ast.expr, caller: str, found: Optional[set[str]] = None) -> set[str]:
            if found is None:
                found = meanings(expr, bound)
            if isinstance(expr, ast.Name) and expr.id in own and expr.id not in bound:
                found = {f"{module}.{expr.id}"}
            elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) \
                    and expr.value.id in ("self", "cls") and "." in caller:
                method = f"{caller.split('.')[0]}.{expr.attr}"
                if method in own:
                    found = {f"{module}.{method}"}
            return found

        records: set[CallRecord] = set()
        for call, (caller, loops, _) in self.calls:
            found = resolve(call.func, caller, callees[id(call)])
            if not found:
                continue
            kind = next((k for callee in found for k in [_hand_off(callee)] if k), None)
            if kind is not None:
                for arg in call.args:
                    if isinstance(arg, (ast.Name, ast.Attribute)):
                        for target in resolve(arg, caller):
                            records.add(CallRecord(target, caller, loops > 0, call.lineno, kind))
            for callee in found:
                if not callee.startswith(LIBRARIES):
                    records.add(CallRecord(callee, caller, loops > 0, call.lineno))
        # one record per (callee, caller, loop, kind): the first line
        first: dict[tuple, CallRecord] = {}
        for record in sorted(records, key=lambda r: r.line):
            first.setdefault((record.callee, record.caller, record.loop, record.kind), record)
        return ModuleCalls(module, path, tuple(sorted(roles)),
                           tuple(sorted(first.values(), key=lambda r: (r.callee, r.line, r.kind))))


# Callees that are never the project's own (a big share of every module's calls)
LIBRARIES = tuple(f"{name}." for name in (*ECOSYSTEM, "numpy", "np", "os", "sys", "math",
                                           "functools", "itertools", "collections", "typing",
                                           "tensorflow", "torch", "logging", "time", "re", "json"))


def _hand_off(callee: str) -> Optional[str]:
    if is_transform(callee):
        return "traced"
    if callee in RUNNERS:
        return "runner"
    return None


def _role(name: str, node: ast.AST, bound: dict[str, set[str]], meanings) -> Optional[str]:
    """TRACED or ONCE by the def's decorators or name; None when only its callers tell."""
    for decorator in node.decorator_list:  # type: ignore[attr-defined]
        expr = decorator.func if isinstance(decorator, ast.Call) else decorator
        names = meanings(expr, bound) or {_dotted(expr)}
        if isinstance(decorator, ast.Call) and decorator.args and any(n.endswith("partial") for n in names):
            names = meanings(decorator.args[0], bound) or {_dotted(decorator.args[0])}
        for qualname in names:
            if is_transform(qualname):
                return TRACED
            last = qualname.rsplit(".", 1)[-1]
            if qualname in MEMOISERS or MEMO_WORDS.search(last) or ENTRY_POINT_WORDS.search(last):
                return ONCE
    method = name.rsplit(".", 1)[-1]
    cls = name.split(".")[0] if "." in name else ""
    if runs_once_by_name(method) or cls.startswith("Test"):
        return ONCE
    return None


def _dotted(expr: ast.expr) -> str:
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, ast.Name):
        parts.append(expr.id)
    return ".".join(reversed(parts))


class ProjectCalls:
    """The modules' records joined: how each function of the project runs, from its callers
    everywhere (a fixed point like rules/_context.py's, over the whole project)."""

    def __init__(self, modules: Iterable[ModuleCalls]) -> None:
        self.roles: dict[str, str] = {}
        self.sites: dict[str, list[tuple[ModuleCalls, CallRecord]]] = {}
        for module in modules:
            for name, role in module.roles:
                self.roles[f"{module.module}.{name}"] = role
            for record in module.calls:
                self.sites.setdefault(record.callee, []).append((module, record))
        self._verdicts: dict[str, Optional[tuple[str, str]]] = {}

    def verdict(self, qualname: str) -> Optional[tuple[str, str]]:
        """(TRACED, ONCE or REPEATED, evidence in words) of ``qualname``, None when its
        callers do not show it (none, or callers whose own context is unknown)."""
        if qualname in self._verdicts:
            return self._verdicts[qualname]
        self._verdicts[qualname] = None  # cycle guard: recursion shows nothing
        result = self._compute(qualname)
        self._verdicts[qualname] = result
        return result

    def _compute(self, qualname: str) -> Optional[tuple[str, str]]:
        role = self.roles.get(qualname)
        if role is not None:
            return role, ""
        hows = []
        for module, record in self.sites.get(qualname, ()):
            caller = f"{module.module}.{record.caller}" if record.caller else ""
            if caller == qualname:
                continue  # recursion: runs wherever the function runs
            how = self._site(module, record, caller)
            if how is None:
                return None  # one caller not known: neither once nor traced is shown
            hows.append(how)
        if not hows:
            return None
        repeated = next((how for how in hows if how[0] == REPEATED), None)
        if repeated is not None:
            return repeated
        if all(how[0] == TRACED for how in hows):
            return TRACED, hows[0][1]
        return ONCE, hows[0][1]

    def _site(self, module: ModuleCalls, record: CallRecord, caller: str) -> Optional[tuple[str, str]]:
        where = record.where(module.path)
        if record.kind == "traced":
            return TRACED, f"handed to a transform at {where}"
        if record.kind == "runner":
            return ONCE, f"run as the program at {where}"
        outer = self.verdict(caller) if caller else (ONCE, "")
        if outer is not None and outer[0] == TRACED:
            return TRACED, f"called from traced `{record.caller}` at {where}"
        if record.loop:
            return REPEATED, f"called on every iteration at {where}"
        if outer is None:
            return None
        if outer[0] == REPEATED:
            return REPEATED, f"called from `{record.caller}` at {where}, which runs repeatedly"
        return ONCE, f"called once at {where}"


def _short(path: str) -> str:
    """A path as the message shows it: relative to the working directory when below it."""
    relative = os.path.relpath(path) if os.path.isabs(path) else path
    return path if relative.startswith("..") else relative

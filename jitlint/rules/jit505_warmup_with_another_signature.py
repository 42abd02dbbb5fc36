from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._churn import forwarded_param
from jitlint.rules._context import calling_context
from jitlint.rules._jitted import JittedCall, called_positions, jitted_calls, jitted_functions
from jitlint.semantic import Frame, SemanticModel, argument_value
from jitlint.values import ValueFlow, array_rank, python_number, value_flow
from jitlint.walk import source_text

# Words of a comment that says a call is there to compile ahead: "# Warmup the jit",
# "# (Optional) warmup compile", "# trigger compilation".
WARM_UP_WORDS = ("warm", "compil")


class WarmupWithAnotherSignature(Rule):
    """
    ## What it does
    Flags a warm-up call of a jitted function (its result thrown away, `f(x)`,
    `f(x).block_until_ready()`, `_ = f(x)`, or a call a comment calls a warm-up or a compile)
    whose arguments have another shape than the calls of the loop that follows it: a Python
    number where the loop passes an array of rank 1 or more (`jnp.linspace(0, 10, 1000)`), or
    arrays of different ranks. The loop's call must be the next call of that function after the
    warm-up, in the same body, and the arguments compared are the traced ones whose kind is
    known on both sides (a Python number, or an array made with a known rank).

    ## Why is this bad?
    jit compiles once per abstract signature (shape, dtype, weak type). A warm-up with another
    signature compiles a program nothing reuses, and the loop's first call still compiles, in
    the middle of what the warm-up was meant to keep clean (a timing, the first training
    step). Measured on jax 0.10.2 (CPU): a notebook's jitted polynomial warmed up with
    `evaluate(1)` and timed on a `float32[1000]` array compiles 3 times in 8 calls (MD_JAX's
    Simple_Classes notebook); warmed up with the array, the timed loop compiles nothing.

    Two calls with different shapes are two programs, and that is often intended (JIT502
    leaves `f(1)` then `f(jnp.ones(2))` alone); only a call made to compile ahead, whose
    program the loop then never uses, is reported.

    ## Fix safety
    Warm up with the loop's own arguments (or arrays of their shape and dtype, such as
    `jnp.zeros_like(x)`). The warm-up then computes on those values instead: harmless for a
    pure function whose result is thrown away.
    """

    code = "JIT505"
    name = "warmup-with-another-signature"
    summary = "a warm-up call with other argument shapes than the loop it warms compiles a program nothing reuses"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def poly(x):
            return 2 * x**3 - x + 1

        x = jnp.linspace(0, 10, 1000)
        poly(1.0)  # warm up the jit
        for _ in range(100):
            poly(x).block_until_ready()
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def poly(x):
            return 2 * x**3 - x + 1

        x = jnp.linspace(0, 10, 1000)
        poly(x).block_until_ready()  # warm up the jit
        for _ in range(100):
            poly(x).block_until_ready()
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for wasted in wasted_warmups(ctx):
            warm, loop_call = wasted.warmup, wasted.loop_call
            yield Violation(warm.call, (
                f"`{source_text(warm.call, 50)}` warms up `{warm.jitted.name}` with `{source_text(wasted.warm_argument)}`, "
                f"{wasted.warm_kind}, but the loop after it calls it with "
                f"`{source_text(wasted.loop_argument)}`, {wasted.loop_kind}: another signature, so the "
                f"warm-up compiles a program nothing reuses and the loop's first call compiles again; "
                f"warm up with the loop's arguments: {source_text(loop_call.call, 60)}"),
                related=_evidence(loop_call),
                # both programs compile where the jit is called: at the loop's call, or in the
                # def it goes through
                repeated_at=loop_call.jitted.call, runs_at_repeat=True)


def _evidence(loop_call: "Entry") -> tuple[tuple[cst.CSTNode, str], ...]:
    if loop_call.call is loop_call.jitted.call:
        return ((loop_call.call, "the loop's call, which compiles again"),)
    return ((loop_call.call, "the loop's call"), (loop_call.jitted.call, "where it runs the jit, which compiles again"))


@dataclass
class Entry:
    """A call that runs a jitted function: the jit's own call, or a call of a def that hands
    its parameters to one (``def evaluate(self, x): return self._f(x)``)."""
    call: cst.Call
    frame: Frame
    jitted: JittedCall
    # traced parameter of the jit (its name, or its position where the wrapped def is not
    # known: ``self._f = jax.jit(function)``) -> the value this call gives it
    arguments: dict[object, cst.BaseExpression]


@dataclass
class WastedWarmup:
    warmup: Entry
    loop_call: Entry
    warm_argument: cst.BaseExpression
    warm_kind: str
    loop_argument: cst.BaseExpression
    loop_kind: str


def wasted_warmups(ctx: FileContext) -> list[WastedWarmup]:
    model, flow = ctx.model, value_flow(ctx)
    entries = sorted(_entries(ctx), key=lambda entry: model.order(entry.call))
    found: list[WastedWarmup] = []
    for index, warm in enumerate(entries):
        statement = model.call_site_of[warm.call].statement
        if not _is_warm_up(statement, warm.call):
            continue
        later = next((e for e in entries[index + 1:] if e.jitted.app is warm.jitted.app), None)
        if later is None or later.frame.scope is not warm.frame.scope \
                or all(warm.frame.is_inside(loop) for loop in later.frame.loops_in_scope()):
            continue  # the next call is not in a loop after the warm-up
        loops = [loop for loop in later.frame.loops_in_scope() if not warm.frame.is_inside(loop)]
        if any(_made_in(flow, value, later.frame, loops) for value in later.arguments.values()):
            continue  # a sweep (``x = jnp.linspace(0, 10, n)`` per size): no one warm-up fits it
        mismatch = _mismatch(model, flow, warm, later)
        if mismatch is not None:
            found.append(WastedWarmup(warm, later, *mismatch))
    return found


def _entries(ctx: FileContext) -> Iterator[Entry]:
    model, flow = ctx.model, value_flow(ctx)
    jitted = set(jitted_functions(ctx))
    for jc in jitted_calls(ctx):
        site = model.call_site_of.get(jc.call)
        if site is None or any(frame.node in jitted for frame in site.frame):
            continue  # inlined into a trace: compiles nothing of its own
        traced = {id(arg) for arg in jc.dynamic_args()}
        direct = {key: arg.value for key, arg in _keyed(jc) if id(arg) in traced}
        yield Entry(jc.call, site.frame, jc, direct)
        function = site.frame.enclosing_function()
        forwarded = {forwarded_param(model, flow, value, site.frame.scope, function): param
                     for param, value in direct.items()} if function is not None else {}
        forwarded.pop(None, None)
        if not forwarded:
            continue
        positions = called_positions(model, function)
        for caller in calling_context(ctx).call_sites(function):
            arguments = {}
            for own, param in forwarded.items():
                passed = argument_value(caller.node, positions.index(own) if own in positions else None, own)
                if passed is not None:
                    arguments[param] = passed
            if caller.statement is not None and arguments:
                yield Entry(caller.node, caller.frame, jc, arguments)


def _made_in(flow: ValueFlow, value: cst.BaseExpression, frame: Frame, loops: list[cst.CSTNode]) -> bool:
    """``value`` is a name (re)bound in one of ``loops``: it changes from pass to pass."""
    return isinstance(value, cst.Name) and any(
        binding.frame is not None and any(binding.frame.is_inside(loop) for loop in loops)
        for binding in flow.reaching(value, frame.scope))


def _keyed(jc: JittedCall) -> Iterator[tuple[object, cst.Arg]]:
    """(parameter name, or position when not known; argument) for each argument of ``jc``."""
    position = 0
    for param, arg in jc.passed():
        yield (param if param is not None else position), arg
        position += arg.keyword is None


def _is_warm_up(statement: Optional[cst.CSTNode], call: cst.Call) -> bool:
    """The statement holding ``call`` only runs it to compile: it throws the result away
    (``f(x)``, ``f(x).block_until_ready()``, ``jax.block_until_ready(f(x))``, ``_ = f(x)``),
    or a comment on it or just above says so."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    comments = [statement.trailing_whitespace.comment] + [line.comment for line in statement.leading_lines[-1:]]
    if any(c is not None and any(w in c.value.lower() for w in WARM_UP_WORDS) for c in comments):
        return True
    small = statement.body[0]
    if isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) and t.target.value == "_"
                                             for t in small.targets):
        value: cst.BaseExpression = small.value
    elif isinstance(small, cst.Expr):
        value = small.value
    else:
        return False
    if value is call:
        return True
    # ``f(x).block_until_ready()`` or ``jax.block_until_ready(f(x))``
    return isinstance(value, cst.Call) and (
        isinstance(value.func, cst.Attribute) and value.func.attr.value == "block_until_ready"
        and (value.func.value is call or len(value.args) == 1 and value.args[0].value is call))


def _mismatch(model: SemanticModel, flow: ValueFlow, warm: Entry, later: Entry
              ) -> Optional[tuple[cst.BaseExpression, str, cst.BaseExpression, str]]:
    """(warm-up argument, its kind, loop argument, its kind) of the first traced parameter the
    two calls fill with values of different known ranks."""
    for param, value in warm.arguments.items():
        other = later.arguments.get(param)
        first = _shape_kind(model, flow, value, warm.frame)
        second = _shape_kind(model, flow, other, later.frame) if other is not None else None
        if first is not None and second is not None and first[0] != second[0]:
            return value, first[1], other, second[1]
    return None


def _shape_kind(model: SemanticModel, flow: ValueFlow, expr: cst.BaseExpression, frame: Frame
                ) -> Optional[tuple[int, str]]:
    """(rank, description) of a Python number (rank 0) or of an array made with a known rank."""
    number = python_number(model, flow, expr, frame.scope)
    if number is not None:
        return 0, f"a Python {number}" if number != "number" else "a Python number"
    rank = array_rank(model, expr, frame.scope, frame)
    if rank is not None:
        return rank, f"a rank-{rank} array"
    return None

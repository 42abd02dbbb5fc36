from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._jitted import jitted_functions, scopes_within
from jitlint.rules._stale import SKIPPED_JITS


class GlobalStatementInJit(Rule):
    """
    ## What it does
    Flags a `global` statement, or a `nonlocal` statement naming a variable outside the jitted
    function, inside a jitted function.

    ## Why is this bad?
    The body of a jitted function runs only when JAX traces it: once per input signature, not
    once per call. A global it reads is frozen into the compiled code at the first trace; a
    global it writes is written once per compile (and holds a tracer if the value came from an
    argument, which fails later with `UnexpectedTracerError`). Measured on jax 0.10.2 (CPU): a
    jitted function doing `global calls; calls += 1`, called 5 times, leaves `calls == 1`.

    ## Fix safety
    Pass the value in as an argument and return the updated value; counting traces on purpose
    (a test of recompilation) is the one legitimate use: suppress it with `# noqa: JIT602`.
    """

    code = "JIT602"
    name = "global-statement-in-jit"
    summary = "global/nonlocal in a jitted function: runs once per trace, not once per call"

    INVALID = [
        """
        import jax

        total = 0.0

        @jax.jit
        def accumulate(x):
            global total
            total = total + x.sum()
            return x
        """,
    ]
    VALID = [
        """
        import jax

        @jax.jit
        def accumulate(total, x):
            return total + x.sum()

        total = 0.0

        def reset():
            global total
            total = 0.0
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for func, entry in jitted_functions(ctx).items():
            if any(app.jit.qualname in SKIPPED_JITS for app in entry.apps):
                continue
            own = scopes_within(ctx.model, func)
            name = func.name.value
            for node in _statements(func):
                names = [item.name.value for item in node.names]
                if isinstance(node, cst.Nonlocal) and all(_owner_inside(ctx, func, n, own) for n in names):
                    continue
                keyword = "global" if isinstance(node, cst.Global) else "nonlocal"
                listed = ", ".join(names)
                yield Violation(node, (
                    f"`{keyword} {listed}` in jitted `{name}`: the body runs only while jax traces "
                    f"it, so reads are frozen at the first trace and writes happen once per "
                    f"compile, not per call; pass the value in and return the new one"))


def _statements(func: cst.FunctionDef) -> list:
    found = []

    class _Find(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            found.append(node)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            found.append(node)

    func.body.visit(_Find())
    return found


def _owner_inside(ctx: FileContext, func: cst.FunctionDef, name: str, own: set[int]) -> bool:
    """Does a ``nonlocal name`` somewhere in ``func`` refer to a variable of ``func`` itself?"""
    for scope in {id(s): s for s in ctx.model.scope_of.values()}.values():
        if id(scope) in own and name in scope.nonlocal_names:
            current = scope.parent
            while current is not None:
                if name in current.bindings and name not in current.nonlocal_names:
                    if id(current) not in own:
                        return False
                    break
                current = current.parent
    return True

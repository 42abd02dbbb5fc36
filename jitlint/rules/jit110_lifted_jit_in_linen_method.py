from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import live_applications
from jitlint.rules._nnx import is_linen_module_class

LIFTED_JITS = frozenset({"flax.linen.jit"})


class LiftedJitInLinenMethod(Rule):
    """
    ## What it does
    Flags `nn.jit(...)` called inside a method of a Flax Linen module (`setup`, `__call__`, an
    `@nn.compact` method), e.g. `nn.jit(nn.Dense)(16)(x)` in `__call__`.

    ## Why is this bad?
    A Linen module's methods run again on every `init`/`apply`, so each run builds a new lifted
    class, and jit's cache, keyed on it, misses every time. Measured with flax 0.12.8, jax
    0.10.2: `model.apply` called 5 times compiles the lifted `core_fn` 6 times (once per
    `init`/`apply`) when `nn.jit(nn.Dense)` is built in `__call__` or in `setup`, and 2 times
    in all when the lifted class is built once at module level.

    ## Fix safety
    Build the lifted class once at module level (`JitDense = nn.jit(nn.Dense)`) or decorate the
    submodule class with `@nn.jit`, and instantiate that inside `__call__`. Parameters keep
    their names and shapes; only the recompiles go away.
    """

    code = "JIT110"
    name = "lifted-jit-in-linen-method"
    summary = "nn.jit built inside a Linen module method compiles again on every apply"

    INVALID = [
        """
        import flax.linen as nn

        class MLP(nn.Module):
            @nn.compact
            def __call__(self, x):
                x = nn.jit(nn.Dense)(16)(x)
                return nn.Dense(1)(nn.relu(x))
        """,
    ]
    VALID = [
        """
        import flax.linen as nn

        JitDense = nn.jit(nn.Dense)

        class MLP(nn.Module):
            @nn.compact
            def __call__(self, x):
                x = JitDense(16)(x)
                return nn.Dense(1)(nn.relu(x))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for app in live_applications(ctx):
            if app.jit.qualname not in LIFTED_JITS or app.call is None:
                continue
            method = app.frame.enclosing_function()
            if method is None:
                continue
            outer = ctx.model.functions[method]
            cls = outer.node if isinstance(outer.node, cst.ClassDef) else None
            if cls is None or not any(is_linen_module_class(base.value, outer.scope.parent or outer.scope,
                                                            ctx.model) for base in cls.bases):
                continue
            yield Violation(app.call, (
                f"nn.jit built inside `{cls.name.value}.{method.name.value}` makes a new lifted "
                f"class on every init/apply, so it compiles again on every call; build it once "
                f"at module level (e.g. `JitDense = nn.jit(nn.Dense)`) and use that here"))

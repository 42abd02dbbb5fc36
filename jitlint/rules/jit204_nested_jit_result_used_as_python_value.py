from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import tracer_uses


class NestedJitResultUsedAsPythonValue(Rule):
    """
    ## What it does
    Flags a Python-value operation (a shape or size, `float()` / `int()`, an `if`, a `range`
    bound: the ones JIT801-JIT806 know) inside a jitted function on the result of a call of
    another jitted function (`jax.jit` and its kin, `nnx.jit`; through a name, a method, or a
    plain helper in between; not `eqx.filter_jit`, which returns non-array outputs as they
    are), when that operation is fine on the same function's unjitted result: the value
    is traced only because the inner function is jitted.

    ## Why is this bad?
    Under an outer jit, calling a jitted function stages it into the outer trace: it returns
    tracers whatever its arguments, static ones included (jax#35090, jax#14666). Measured on jax
    0.10.2 (CPU): `jnp.arange(add1(k))` with `add1` jitted with `static_argnums=0` and `k` static in
    the outer jit raises `ConcretizationTypeError` on the first call, and so does `float(jit_f(N))`;
    with the plain `add1` / `f` both work; an `nnx.jit` inner function raises the same, an
    `eqx.filter_jit` one returning `i + 1` works (`fixtures/static/`).

    ## Fix safety
    Call the plain function inside jit (keep an unjitted version: `def add1(i)` and
    `add1_jit = jax.jit(add1, ...)` for the calls outside jit), or compute the value outside the
    jitted function and pass it as a static argument. The result is the same.
    """

    code = "JIT204"
    name = "nested-jit-result-used-as-python-value"
    summary = "a jitted function called inside jit returns tracers, even for static arguments"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=0)
        def add1(i):
            return i + 1

        @partial(jax.jit, static_argnums=0)
        def my_arange(k):
            return jnp.arange(add1(k))
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        def add1(i):
            return i + 1

        @partial(jax.jit, static_argnums=0)
        def my_arange(k):
            return jnp.arange(add1(k))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "nested":
                yield Violation(use.node, use.message, related=use.related)

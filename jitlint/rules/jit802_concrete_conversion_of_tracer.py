from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import tracer_uses


class ConcreteConversionOfTracer(Rule):
    """
    ## What it does
    Flags `int()`, `float()`, `complex()`, `bool()`, `.item()` and `.tolist()` applied to a
    traced value inside a jitted function (a non-static parameter or a value computed from one).
    `int(x.shape[0])`, `float(len(xs))` and conversions of static parameters stay silent.

    ## Why is this bad?
    These need the concrete value, which a tracer does not have. Measured on jax 0.10.2 (CPU):
    `int(x)`, `float(x)`, `complex(x)`, `x.item()` and `x.tolist()` raise
    `ConcretizationTypeError: Abstract tracer value encountered where concrete value is
    expected: traced array with shape float32[]`; `bool(x)` raises `TracerBoolConversionError`.

    ## Fix safety
    Keep the value an array: `x.astype(jnp.int32)` instead of `int(x)`; return it from the
    jitted function and convert outside. If it is really a Python number (a size, a flag),
    mark the parameter static instead: every distinct value then compiles once.
    """

    code = "JIT802"
    name = "concrete-conversion-of-tracer"
    summary = "int()/float()/bool()/.item()/.tolist() of a traced value raises under jit"
    severity = "error"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def mean_loss(pred, target):
            loss = jnp.mean((pred - target) ** 2)
            return float(loss)
        """,
        """
        import jax

        @jax.jit
        def first(x):
            return x[0].item()
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def mean_loss(pred, target):
            return jnp.mean((pred - target) ** 2)

        print(float(mean_loss(jnp.ones(3), jnp.zeros(3))))
        """,
        """
        import jax

        @jax.jit
        def rows(x):
            return x.reshape(int(x.shape[0]), -1)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "convert":
                yield Violation(use.node, use.message)

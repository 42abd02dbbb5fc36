from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import TRACING_CALL_NAMES, TRACING_METHODS, tracer_uses


class PrintOfTracer(Rule):
    """
    ## What it does
    Flags `print(...)` of a traced value (directly, in an f-string, `%` or `.format`) inside a
    jitted function.

    ## Why is this bad?
    A jitted function's Python body runs only while JAX traces it. Measured on jax 0.10.2
    (CPU): a jitted function with `print("new weights:", w)` called 3 times prints once,
    `new weights: JitTracer(float32[3])`, and never the values.

    Opt-in because `print` inside a jitted function is also JAX's own idiom for seeing when
    tracing happens: the JAX docs and maintainers print arguments (tracers included) to show
    that a function is being traced, and on code from public JAX issue threads this was about
    half of all findings of a default run. Enable it where you want every trace-time print of a
    traced value reported.

    ## Fix safety
    `jax.debug.print("x = {}", x)` prints the runtime values on every call; it is safe to swap
    in (it adds a host callback, so keep it out of hot loops in production).
    """

    code = "JIT804"
    name = "print-of-tracer"
    summary = "print of a traced value prints a tracer once at trace time; use jax.debug.print"
    prefilter_names = TRACING_CALL_NAMES  # code that lax.scan and friends trace outside jit
    prefilter_methods = TRACING_METHODS  # self.param(name, init_fn): flax traces init_fn in apply
    opt_in = True

    INVALID = [
        """
        import jax

        @jax.jit
        def step(x):
            y = x * 2
            print(f"y = {y}")
            return y
        """,
    ]
    VALID = [
        """
        import jax

        @jax.jit
        def step(x):
            y = x * 2
            jax.debug.print("y = {}", y)
            print("tracing step for shape", x.shape)
            return y
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "print":
                yield Violation(use.node, use.message)

from typing import Iterator

from jitlint.jaxfacts import NONDIFF_SPEC_TRANSFORMS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import TRACING_CALL_NAMES, tracer_uses


class TracerAsCustomVjpNondiffArgument(Rule):
    """
    ## What it does
    Flags a call, inside a jitted function (or one that `jax.vmap`, `lax.scan` and the other
    tracing calls trace), of a `jax.custom_vjp` function of the module with a traced value at
    one of its `nondiff_argnums` / `nondiff_argnames` (the decorator form
    `@partial(jax.custom_vjp, nondiff_argnums=(0,))` and the call form
    `f = jax.custom_vjp(_f, nondiff_argnums=(0,))`; `jitlint/jaxfacts.py:
    NONDIFF_SPEC_TRANSFORMS`). A Python value there (a static argument, a constant) stays
    silent, and so does `jax.custom_jvp`, which accepts tracers in those positions.

    ## Why is this bad?
    `nondiff_argnums` are meant for Python values (functions, flags, sizes). Measured on jax
    0.10.2 (CPU): a tracer given there raises `UnexpectedTracerError` ("Found a JAX Tracer
    object passed as an argument to a custom_vjp function in a position indicated by
    nondiff_argnums as non-differentiable") as soon as the call is traced under jit or vmap,
    whether or not anything is differentiated (jax#2912; `fixtures/trace_errors/`).

    ## Fix safety
    Make the argument a regular (differentiable) one: `fwd` takes it like the others and `bwd`
    returns `None` as its cotangent (JAX reads `None` as zero). If it really is a Python value,
    mark it static in the jit that calls the function.
    """

    code = "JIT810"
    name = "tracer-as-custom-vjp-nondiff-argument"
    summary = "a traced value at a custom_vjp's nondiff_argnums raises UnexpectedTracerError under jit"
    # code that lax.scan and friends trace outside jit; a file that makes a custom_vjp (vmap)
    prefilter_names = TRACING_CALL_NAMES | frozenset(NONDIFF_SPEC_TRANSFORMS)
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax

        @partial(jax.custom_vjp, nondiff_argnums=(0,))
        def clip_gradient(bound, x):
            return x

        def clip_fwd(bound, x):
            return x, None

        def clip_bwd(bound, _, g):
            return (jax.numpy.clip(g, -bound, bound),)

        clip_gradient.defvjp(clip_fwd, clip_bwd)

        @jax.jit
        def step(bound, x):
            return clip_gradient(bound, x)
        """,
    ]
    VALID = [
        """
        import jax

        @jax.custom_vjp
        def clip_gradient(bound, x):
            return x

        def clip_fwd(bound, x):
            return x, bound

        def clip_bwd(bound, g):
            return None, jax.numpy.clip(g, -bound, bound)

        clip_gradient.defvjp(clip_fwd, clip_bwd)

        @jax.jit
        def step(bound, x):
            return clip_gradient(bound, x)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "nondiff":
                yield Violation(use.node, use.message, related=use.related)

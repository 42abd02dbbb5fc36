from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import TRACING_CALL_NAMES, tracer_uses


class SingledispatchOnTracer(Rule):
    """
    ## What it does
    Flags a call, in traced code (a jitted function, one that `jax.vmap`, `jax.grad` or
    `lax.scan` traces, or a helper they call), of a `functools.singledispatch` function of the
    module with a traced first argument, when the function is registered for an array class
    (`jax.Array`, `jnp.ndarray`: JAX facts `ARRAY_DISPATCH_CLASSES`; through `@f.register`
    with an annotated parameter, `@f.register(jax.Array)`, `f.register(jax.Array, impl)`), not
    for `jax.core.Tracer`, and its fallback raises (`raise NotImplementedError(...)`). The same
    call outside traced code, with a static argument, or with a `jax.core.Tracer` registration
    stays silent. Reported at the registration for the array class (the fix adds the tracer
    class there), with the traced call as evidence.

    ## Why is this bad?
    `singledispatch` picks the implementation from `type(x).__mro__`. A concrete array's class
    derives from `jax.Array`; a tracer's class does not (`isinstance(tracer, jax.Array)` is
    True only because `jax.Array` answers `isinstance` by hand). So the function works on arrays
    in eager tests and, under jit, runs its fallback. Measured on jax 0.10.2 (CPU): registered
    for `jax.Array` or `jnp.ndarray`, a call under `jax.jit` or `jax.vmap` dispatches to the
    fallback; registered for `jax.core.Tracer` too, it reaches the array implementation
    (horqrux beb71b0: `NotImplementedError` from `eigen_probabilities` under jit;
    `fixtures/trace_errors/singledispatch_array_only_under_jit.py`).

    ## Fix safety
    Registering the array implementation for `jax.core.Tracer` as well changes nothing for
    concrete arrays. A fallback that tests `isinstance(x, jax.Array)` is the alternative.
    """

    code = "JIT817"
    name = "singledispatch-on-tracer"
    summary = "a singledispatch function registered for jax.Array runs its fallback on a tracer"
    prefilter_names = TRACING_CALL_NAMES
    severity = "error"

    INVALID = [
        """
        from functools import singledispatch

        import jax
        import jax.numpy as jnp


        @singledispatch
        def norm(state):
            raise NotImplementedError(type(state))


        @norm.register
        def _(state: jax.Array):
            return jnp.linalg.norm(state)


        @jax.jit
        def normalise(state):
            return state / norm(state)
        """,
    ]
    VALID = [
        """
        from functools import singledispatch

        import jax
        import jax.numpy as jnp


        @singledispatch
        def norm(state):
            raise NotImplementedError(type(state))


        @norm.register(jax.Array)
        @norm.register(jax.core.Tracer)
        def _(state):
            return jnp.linalg.norm(state)


        @jax.jit
        def normalise(state):
            return state / norm(state)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "dispatch":  # at the registration the fix extends, the traced call as evidence
                yield Violation(use.anchor or use.node, use.message,
                                related=((use.node, "called with a tracer here"), *use.related),
                                repeated_at=use.node, runs_at_repeat=True)  # --confirm: it raises there

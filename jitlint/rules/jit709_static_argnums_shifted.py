from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import shifted_static_argnums, static_marking


class StaticArgnumsShifted(Rule):
    """
    ## What it does
    Flags a `static_argnums` that marks array data static (a parameter annotated as an array,
    or one a call gives an array) and none of the parameters named as static values, while
    just as many parameters named so (`model_static`, `optimizer_static`: the halves of
    `eqx.partition` and the optimizer the body only calls) stay traced: the numbers point at
    the wrong parameters, usually because one was added or removed in front of them
    (IC-prediction 94defa6: a `parameters` argument added before `model_params`, with
    `static_argnums=[2, 4]` kept). Where no parameter is named so, just as many traced
    parameters that the body cannot take traced stand for them: one it calls (`step_fn(...)`, a
    function), one it hands to a static position of another jitted call, or one it uses as a
    Python value (`if explore:`): an index off by one (LegNav-Sim's Dreamer f8a51c4,
    `static_argnums=(4,)` marking the recurrent state `prev_h` instead of `explore`, 7).
    JIT301, JIT801 and JIT807 leave these parameters to this rule.

    ## Why is this bad?
    Both halves of the mistake raise at the first call. Measured on jax 0.10.2 (CPU,
    `fixtures/static/`): with `static_argnums=[2, 4]` over `(sequence, parameters,
    model_params, model_static, optimizer_state, optimizer_static)`, the call raises TypeError
    (the traced `model_static` holds the model's activation function, not a valid JAX type);
    left traced alone, the static arrays would raise ValueError (non-hashable static
    argument). With `static_argnums=[3, 5]` the training step runs and compiles once.

    ## Fix safety
    Name the static parameters (`static_argnames`): names do not move when the signature
    changes. Safe when the named parameters take hashable values at every call (a model's
    static half, an optax transformation, a string).
    """

    code = "JIT709"
    name = "static-argnums-shifted"
    summary = "static_argnums marks arrays and leaves traced the parameters meant static: shifted positions"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnums=3)
        def mse_loss(model_params, model_static, state: jax.Array, next_state: jax.Array):
            return model_static(model_params, state) - next_state
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnames=("model_static",))
        def mse_loss(model_params, model_static, state: jax.Array, next_state: jax.Array):
            return model_static(model_params, state) - next_state
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for shifted in shifted_static_argnums(ctx):
            marked = ", ".join(f"`{p}`" for p in shifted.marked)
            meant = ", ".join(f"`{p}`" for p in shifted.meant)
            several = len(shifted.meant) > 1
            names = ", ".join(f'"{p}"' for p in shifted.meant) + ("" if several else ",")
            yield Violation(static_marking(shifted.app, "static_argnums"), (
                f"`{shifted.spec.name}`'s static_argnums marks {marked} static, which "
                f"{'hold' if len(shifted.marked) > 1 else 'holds'} arrays, and leaves {meant} traced: "
                f"the positions look shifted (a parameter added or removed before them?), and the "
                f"first call raises (TypeError for a traced non-array value, ValueError for a static "
                f"array); name the static parameters instead: static_argnames=({names})"),
                related=shifted.evidence,
                # --confirm: the call that passes the arrays raises there
                repeated_at=shifted.call, runs_at_repeat=shifted.call is not None)

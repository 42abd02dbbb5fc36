from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._feedback import feedbacks


class OutputFedBackWithNewShape(Rule):
    """
    ## What it does
    Flags `state = step(state, ...)` in a loop when the jitted `step` returns `state` with
    another shape than it received: grown by `jnp.concatenate`/`jnp.append`/`jnp.pad`, given an
    axis by `state[None]`/`jnp.expand_dims`/`jnp.stack`, or given the batch's rank by a
    `keepdims=True` reduction while the initial value has fewer axes (a `jnp` function or an
    array method such as `batch.std(0, keepdims=True)`, directly, through a name assigned in
    the body, or through a helper def that returns one), or shortened by a slice that drops
    elements whatever the length (`x[::2] + x[1::2]`, `x[1:]`, `x[:-1]`). The step may be a jitted def or a
    jitted lambda bound to a name (`step = jax.jit(lambda t: jnp.concatenate([t, t[-1:]]))`).
    The state may be a pytree the step returns as a display (a dict, tuple, `dict(...)` or a
    class of the module built from its parts) with a field grown from the same field of the
    parameter: a KV cache `{"keys": jnp.concat([cache["keys"], k[None]]), ...}` (also the
    array-API spelling `jnp.concat`); `jnp.concat([window[1:], x[None]])` keeps a sliding
    window's length and is silent.

    ## Why is this bad?
    jit compiles once per input shape, and the output becomes the next input. Measured on jax
    0.10.2 (CPU): a generation step that appends one token with `jnp.concatenate` compiles on
    each of 5 iterations; a running mean `0.9 * state + 0.1 * jnp.mean(batch, axis=0,
    keepdims=True)` started from `jnp.zeros(5)` compiles 2 times in 5 steps (the state becomes
    `(1, 5)`), 1 time with `keepdims` dropped; the same through a helper
    (`batch_mean(batch)`) or `batch.std(0, keepdims=True)` also compiles 2 times in 5 steps.
    A pairwise sum `x[::2] + x[1::2]` fed back in `while x.shape[0] > 1` from 16 elements
    compiles 4 times in 4 calls. A decoding step that appends a row to each array of a dict KV
    cache compiles on each of 5 tokens (`fixtures/feedback/kv_cache_grown_with_array_api_concat.py`).

    ## Fix safety
    Keep the state's shape fixed: preallocate the full length and write with
    `.at[i].set(...)` (pass the position as an argument), use a fixed-size window, or make the
    initial value the shape the step returns. Changing the initial value's shape changes
    what downstream code sees; check the consumers.
    """

    code = "JIT510"
    calling_context = True
    name = "output-fed-back-with-new-shape"
    summary = "jitted function's output fed back as its input with another shape recompiles"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def extend(tokens, token):
            return jnp.concatenate([tokens, token[None]])

        tokens = jnp.zeros(1, dtype=jnp.int32)
        for step in range(5):
            tokens = extend(tokens, jnp.array(step))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def extend(tokens, token, position):
            return tokens.at[position].set(token)

        tokens = jnp.zeros(6, dtype=jnp.int32)
        for step in range(5):
            tokens = extend(tokens, jnp.array(step), step + 1)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for found in feedbacks(ctx):
            function = found.call.name
            often = "on every iteration" if found.every_call else "again after the first step"
            yield Violation(found.node, (
                f"`{function}` returns `{found.name}` with another shape than it received "
                f"({found.how}) and the loop feeds it back: it compiles {often}; "
                f"{found.fix or 'keep the shape fixed (preallocate and write with .at[i].set, or start from the shape it returns)'}"))

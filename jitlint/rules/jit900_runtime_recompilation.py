from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation


class RuntimeRecompilation(Rule):
    """
    ## What it does
    Only under `jitlint check --confirm`, which runs your code: reports a jitted function of
    your own code that compiled more than once at one call site during the run, where no static
    rule had a finding. The finding sits on the call that triggered the compiles; its message
    names the jitted function (its definition, or the line that made the jit), the count, and
    what changed, in words drawn from all of JAX's cache-miss explanations for that call: "the
    function object is new each time", "a static argument takes a new value each time",
    "argument shapes or dtypes change (at x, now f32[2] and before f32[4])". The JSON output's
    `runtime.reason` has JAX's own explanations. Static linting never reports JIT900.

    Jits that libraries make for your functions count as yours: `nnx.jit(model)(x)` built anew
    every step, `eqx.filter_jit`, a `jax.jit` of a `jax.vjp` pullback. Eager `jax.numpy`
    operations, which compile too, are not reported, nor jits a library makes for itself.
    Two compiles for two values of a static argument (a train/eval flag) are intended, as
    for JIT401, and not reported; two shapes are.

    ## Why is this bad?
    Every compile costs tracing plus XLA compilation time (milliseconds to minutes), and the
    static rules cannot see everything that changes from call to call: shapes that depend on
    the data (measured on jax 0.10.2, CPU: batches of 4, 3 and 3 rows from `np.array_split`
    compile a jitted step twice in 3 calls; a ragged last batch 4, 4, 4, 2 compiles twice in 4),
    dtypes that come from a file, static arguments computed at run time. The union of the
    static findings and these measured ones is what the run actually paid for.

    ## Fix safety
    Depends on the reason: pad or bucket inputs to a few fixed shapes (`jnp.pad`, drop the
    ragged last batch), cast to one dtype before the call, or keep static arguments to a small
    fixed set. Padding changes what the function computes on the padded rows: mask them.

    ## Example (found at run time)

    ```python
    import jax
    import numpy as np

    @jax.jit
    def step(batch):
        return (batch ** 2).mean()

    for batch in np.array_split(np.arange(10.0), 3):  # 4, 3, 3 rows
        step(batch)  # JIT900: jit(step) compiled twice at this call
    ```

    ## Use instead

    ```python
    for batch in np.array_split(np.arange(12.0), 3):  # every batch has 4 rows
        step(batch)
    ```
    """

    code = "JIT900"
    name = "runtime-recompilation"
    summary = "a jitted function recompiled at one call site during a --confirm run (runtime only)"
    severity = "warning"
    runtime_only = True  # found by measuring, never by static analysis

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        # Reported by `jitlint check --confirm` from the compiles it measures.
        return iter(())

from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import TRACING_CALL_NAMES, TRACING_METHODS, TRACING_TRANSFORM_NAMES, tracer_uses


class DataDependentShapeUnderJit(Rule):
    """
    ## What it does
    Flags, inside a jitted function (also one jitted through `functools.partial`,
    `jax.jit(partial(f, table))`, whose bound values are constants of the trace; and the module
    functions it calls with traced arguments),
    operations whose result's shape depends on the *values* of a traced array:
    boolean-mask indexing (`x[x > 0]`, `x[mask]`, `x.at[mask].set(0)`), and `jnp.nonzero`,
    `jnp.argwhere`, `jnp.flatnonzero`, `jnp.unique` (and `unique_*`), the set functions
    (`union1d`, `setdiff1d`, `intersect1d`, `setxor1d`), `jnp.compress`, `jnp.extract`,
    `jnp.bincount`, `jnp.repeat` with traced repeats, one-argument `jnp.where(cond)` and
    `x.nonzero()` called without the keyword that fixes the output size (`size=`, `length=`,
    `total_repeat_length=`). Which functions and keywords count is data
    (`jitlint/jaxfacts.py`, each entry checked against the installed JAX by the tests).
    The same calls with the size keyword, on a Python number, or the three-argument
    `jnp.where(cond, x, y)` stay silent; on a NumPy constant they count (jit stages the input
    out first: `jnp.unique(np_array)` raises too; `jnp.repeat` with constant repeats works).
    A parameter used as an index is a boolean mask when every call of the jitted function in
    the module passes one (`f(x, x > 0)`). Traced code also means the functions handed to
    `jax.vmap` and `lax.scan` / `fori_loop` / `while_loop` / `cond` / `map`, jitted or not,
    and the functions a library traces when it runs them: numpyro models and guides under
    `NUTS` / `HMC` / `SVI` / `Predictive` (their arguments stay as passed, their body is
    traced), blackjax log densities, jaxopt objectives, diffrax vector fields, a function
    `jax.closure_convert` converts (jax#7535; also imported from `jax._src`:
    `jaxfacts.PUBLIC_SPELLINGS`) (`jaxfacts.TRACING_CALLS`). There a mask computed by jax from
    a concrete global (`keep == 0` of `keep = jnp.array(...)`) is a tracer too, and so is a
    mask jax builds from constants (`jnp.concatenate([jnp.zeros(n, dtype=bool), ...]).ravel()`,
    ott#407: jit stages `jnp.zeros`; `jaxfacts.BOOL_DTYPES`, `MASK_KEEPING_METHODS`); the same
    mask built with NumPy is a constant and works.

    ## Why is this bad?
    XLA compiles programs with static shapes; a shape that depends on the data cannot be
    traced. Measured on jax 0.10.2 (CPU): `x[x > 0]` and `x.at[x > 0].set(0.0)` raise
    `NonConcreteBooleanIndexError: Array boolean indices must be concrete`; `jnp.nonzero(x)`,
    `jnp.where(x > 0)`, `jnp.unique(x)`, `jnp.bincount(x)` ... raise `ConcretizationTypeError`
    (`fixtures/trace_misuse/boolean_mask_*.py`, `nonzero_*.py`, each at the marked line).
    The same code works without jit, so it surfaces only when the function is first jitted.

    ## Fix safety
    Keep the shape fixed. For a mask, `jnp.where(mask, x, 0.0)` or a masked reduction
    (`jnp.sum(x, where=mask)`, `jnp.mean(x, where=mask)`); for `.at[mask].set(v)`,
    `jnp.where(mask, v, x)`. For the size-returning functions, pass an upper bound as `size=`
    (with `fill_value=` for the padding): the result then has that many entries, the valid ones
    first. Not fixed automatically: the bound is yours to choose.
    """

    code = "JIT806"
    name = "data-dependent-shape-under-jit"
    summary = "boolean mask or nonzero/unique/where(cond) without size= under jit raises at trace time"
    prefilter_names = TRACING_CALL_NAMES  # code that lax.scan and friends trace outside jit
    prefilter_methods = TRACING_METHODS  # self.param(name, init_fn): flax traces init_fn in apply
    prefilter_transforms = TRACING_TRANSFORM_NAMES  # jax.vmap(f) where f does a Python-value operation
    severity = "error"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def positive_mean(x):
            return jnp.mean(x[x > 0])
        """,
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def active_ids(scores):
            return jnp.nonzero(scores > 0.5)[0]
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def positive_mean(x):
            return jnp.mean(x, where=x > 0)
        """,
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def active_ids(scores):
            return jnp.nonzero(scores > 0.5, size=8, fill_value=-1)[0]
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "shape":
                yield Violation(use.node, use.message, related=use.related)

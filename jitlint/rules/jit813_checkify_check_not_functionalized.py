from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import JITTED_HERE, TRACING_CALL_NAMES, tracer_uses


class CheckifyCheckNotFunctionalized(Rule):
    """
    ## What it does
    Flags `checkify.check(...)` in code that jit (`jax.jit`, `eqx.filter_jit`, `nnx.jit`),
    `pmap` or lax control flow (`lax.scan`, `fori_loop`, `while_loop`, `cond`, `switch`,
    `map`) stages, directly or in a helper it calls, in a file that never calls
    `checkify.checkify`. It is shown at the jit that stages the check (where
    `checkify.checkify` goes, and where JAX raises, after tracing), with each check as
    evidence; a check a lax call stages outside any jit is shown where it is written. Under `vmap`, `grad` or `eval_shape` alone the check runs and is
    not flagged; a file that calls `checkify.checkify` anywhere is silent, since which
    function it wraps is not followed.

    ## Why is this bad?
    `checkify.check` is a staged assertion only once `checkify.checkify` has turned it into
    an error value the program returns. Measured on jax 0.10.2 (CPU): `jax.jit(f)(x)` for an
    `f` that calls `checkify.check(jnp.all(x > 0), "negative")` raises `ValueError: Cannot
    abstractly evaluate a checkify.check which was not functionalized`, with a traced and a
    constant predicate alike, and so do `lax.scan`, `fori_loop`, `cond`, `pmap` and
    `eqx.filter_jit` over it; `checkify.checkify(jax.jit(f))(x)` and
    `jax.jit(checkify.checkify(f))(x)` run and return `(error, out)`.

    ## Fix safety
    Wrapping changes the return value to `(error, out)`: callers must unpack it and call
    `error.throw()` where the check should raise. `equinox.error_if(x, cond, msg)` needs no
    wrapper but returns `x`, which must then be used.
    """

    code = "JIT813"
    name = "checkify-check-not-functionalized"
    summary = "checkify.check staged by jit or lax control flow without checkify.checkify raises ValueError"
    prefilter_names = TRACING_CALL_NAMES  # lax.scan and friends stage it outside jit too
    severity = "error"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp
        from jax.experimental import checkify

        @jax.jit
        def safe_log(x):
            checkify.check(jnp.all(x > 0), "log of a non-positive value")
            return jnp.log(x)

        print(safe_log(jnp.ones(3)))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp
        from jax.experimental import checkify

        def safe_log(x):
            checkify.check(jnp.all(x > 0), "log of a non-positive value")
            return jnp.log(x)

        checked_log = jax.jit(checkify.checkify(safe_log))
        err, out = checked_log(jnp.ones(3))
        err.throw()
        print(out)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        # shown at the jit (or lax call) that stages the check: that is where checkify.checkify
        # goes, and where JAX raises, after tracing; each check it stages is evidence
        staging: dict[int, tuple[cst.CSTNode, str, list]] = {}
        for use in tracer_uses(ctx):
            if use.kind != "unfunctionalized":
                continue
            anchor = next((node for node, why in use.related if why == JITTED_HERE), None)
            if anchor is None:
                yield Violation(use.node, use.message, related=use.related)
                continue
            found = staging.setdefault(id(anchor), (anchor, use.message, []))
            found[2].append((use.node, "the check it stages"))
        for anchor, message, checks in staging.values():
            yield Violation(anchor, message, related=tuple(checks))

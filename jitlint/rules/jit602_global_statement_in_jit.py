from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._stale import leak_used_later, state_flows


class GlobalStatementInJit(Rule):
    """
    ## What it does
    Flags outer state (a `global` / `nonlocal` variable, a list, dict or set defined outside or
    passed to the enclosing factory, an attribute of a static `self`, of an object a jitted
    closure captures from the method that defines it (`self.model.vf_state, loss =
    self.model.step_fn(rng, self.model.vf_state, ...)` in a step defined in `__init__`: CellFlow
    94499d7, the loss stays at its first value; a value computed by a call handed a traced
    argument counts as traced), or of a class or object the module binds at its top level: `RNG.key`, also through a method of such an object the
    jitted function calls: `tracker.log(loss)` appending to `self.history`, `keys.next_key()`
    splitting and storing `self._key` with no traced argument at all) that a jitted function
    writes, when that state flows into or out of the traced computation:
    a traced value stored in it (a leaked tracer), a PRNG key in it split or replaced, or the
    variable the body updates also read into the result. Also a bound method jitted as it is
    (`jax.jit(counter.count)`, or through transforms: `jax.jit(jax.vmap(env.reset))`) that
    updates an attribute of `self` from its old value and computes its result from it (returns
    it, or a local value made from it): the object is a constant of the trace (the JAX docs'
    stateful counter, jax PR #20732; a curriculum's episode counter, brax#537), shown at the
    update. Trace counters (`global n_traces;
    n_traces += 1`), `print` / logging of the state, `if` tests on it and records of concrete
    values (`shapes.append(x.shape)`) stay silent: that is JAX's own idiom for seeing when
    tracing happens. So does a value made on first use and kept (`if TABLE is None: TABLE =
    make_table()`, read into the result): it is the same for every call
    (`fixtures/trace_state/lazy_global_table_ok.py`).

    The leaked tracers of one function are one finding, at its first write, naming the others
    (one fix: return the new values).

    A helper written to run eagerly around a jit (it calls a jitted function itself and stores
    the result, `self.w, loss = self._step(self.w, x)`) is right where it is: when a jitted
    function calls it, the finding sits on that call (JAX-CORL 20's `train_n_step` calling
    `train`), with the store as a related location.

    ## Why is this bad?
    The body of a jitted function runs only when JAX traces it: once per input signature, not
    once per call. Measured on jax 0.10.2 (CPU): `global calls; calls = calls + 1; return calls`
    returns 1, 1, 1 in three calls (2 and 3 without jit); `global key; key, sub =
    random.split(key)` in a function jitted by `init = jit(init)` returns the same random number
    on every call; `global total; total = total + x.sum()` and `outs.append(jnp.tanh(x))` leave a
    tracer behind, and using it afterwards raises `UnexpectedTracerError`. A factory's
    `tot[0] += x` returns 1.0 twice (1.0 then 2.0 without jit), and `self.w = self.w - 0.1 *
    grads` in a method jitted with `static_argnums=(0,)` leaves a tracer on the object
    (`fixtures/trace_state/`, jax#12773 and jax#15136). An episode counter updated on `self` in
    a reset jitted as `jax.jit(jax.vmap(env.reset))` is 1 after five resets (5 without jit).

    ## Fix safety
    Pass the state in as an argument and return the new value (for PRNG keys: pass the key,
    return the split one). A counter of traces is fine as it is.
    """

    code = "JIT602"
    name = "global-statement-in-jit"
    summary = "jitted function writes outer state its computation reads or stores tracers in"

    INVALID = [
        """
        import jax

        total = 0.0

        @jax.jit
        def accumulate(x):
            global total
            total = total + x.sum()
            return x
        """,
    ]
    VALID = [
        """
        import jax

        @jax.jit
        def accumulate(total, x):
            return total + x.sum()

        total = 0.0

        def reset():
            global total
            total = 0.0
        """,
        """
        import jax

        n_traces = 0

        @jax.jit
        def step(x):
            global n_traces
            n_traces += 1  # a trace counter: counts traces, on purpose
            print("tracing step", n_traces)
            return x * 2
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        flows = sorted(state_flows(ctx), key=lambda f: ctx.model.order(f.node))  # the first write leads
        leaks: dict[int, list] = {}  # one finding per function for its leaked tracers: one fix
        # a tracer stored into module-level state that nothing uses afterwards raises nothing
        flows = [f for f in flows if f.kind != "leak" or leak_used_later(ctx, f)]
        for flow in flows:
            if flow.kind == "leak":
                leaks.setdefault(id(flow.function), []).append(flow)
        for flow in flows:
            others = []
            if flow.kind == "leak":
                first, *others = leaks[id(flow.function)]
                if flow is not first:
                    continue
            function = flow.named
            if flow.eager_call is not None and flow.kind in ("read", "leak"):
                yield _eager_helper_called(flow)  # the helper is right eagerly: the jitted call is the mistake
                continue
            if flow.kind == "prng":
                message = (f"{function} splits the PRNG key `{flow.name}` held in outer "
                           f"state: the split runs once, at trace time, so every call reuses the same "
                           f"random numbers and `{flow.name}` becomes a leaked tracer; pass the key in "
                           f"and return the new one")
            elif flow.kind == "leak":
                where = f"`{flow.keyword} {flow.name}`" if flow.keyword else f"`{flow.name}`"
                also = "" if not others else f" (and in {_listed([f'`{o.name}`' for o in others])})"
                message = (f"{function} stores a traced value in {where}{also}: the write runs "
                           f"only at trace time and leaves a leaked tracer (UnexpectedTracerError "
                           f"when used outside); return the value instead")
            else:
                updated = f"`{flow.keyword} {flow.name}`" if flow.keyword else f"`{flow.name}`"
                message = (f"{function} updates {updated} and reads it "
                           f"into its result: the update runs once per trace, not per call, so every "
                           f"call returns the value frozen at the first trace; pass it in and return "
                           f"the new value")
            yield Violation(flow.node, message, tuple((o.node, f"`{o.name}` written here too") for o in others[:3]))


def _eager_helper_called(flow) -> Violation:
    helper = flow.function.name.value
    updated = f"`{flow.keyword} {flow.name}`" if flow.keyword else f"`{flow.name}`"
    consequence = ("the update runs once per trace, not per call, so every call returns the value frozen "
                   "at the first trace") if flow.kind == "read" else \
        "the store runs only at trace time and leaves a leaked tracer (UnexpectedTracerError when used outside)"
    return Violation(flow.eager_call, (
        f"jitted `{flow.jitted_name}` calls `{helper}`, which runs a jitted step and stores into "
        f"{updated}: under jit {consequence}; call `{helper}` outside jit (a Python loop), or jit a "
        f"pure function that takes the state and returns the new one"), ((flow.node, f"{updated} written here"),))


def _listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and 2 more``."""
    if len(names) <= 2:
        return " and ".join(names)
    return f"{names[0]}, {names[1]} and {len(names) - 2} more"

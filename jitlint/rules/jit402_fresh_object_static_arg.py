from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._static import (
    fresh_receiver, fresh_value, static_receivers, static_uses, twin_objects,
)


class FreshObjectStaticArg(Rule):
    """
    ## What it does
    Flags an object created anew each time the code runs and passed at a static position of a
    jitted function: a lambda, a nested `def`, a `functools.partial(...)`, a bound method of a
    new object, or a new instance of a class (resolved within the linted tree) without
    `__eq__`, which hashes by identity, an optax transformation or schedule (`optax.adam(lr)`:
    a tuple of closures), a `jax.tree_util.Partial`. It fires when the call repeats: in a loop
    that creates the object, or in a function that is called repeatedly; when two such objects
    made alike (the same optax factory, a partial of the same function, the same class with
    the same arguments) reach one static parameter at different calls; and when a jitted
    method with a static `self` is called on a new identity-hashed instance each time
    (`Head(2.0)(x)` in a loop). Silent where the call runs traced: in a jitted body, or in a
    function that is handed to a jit or transform, or whose every caller runs traced (a
    helper of a jitted loss): it is traced once with its caller.

    ## Why is this bad?
    Static arguments are compared by hash and equality; these objects are equal only to
    themselves, so every new one is a cache miss. Measured on jax 0.10.2 (CPU), 5 calls each:
    a fresh plain instance, a fresh lambda or a fresh `functools.partial` as a static argument
    compiles 5 times; a bound method of a new object compiles 5 times. The same object reused,
    an equal tuple, a frozen dataclass, a class with `__eq__` and `__hash__`, or a bound method
    of the same object compile once. Two `optax.adam(...)` with equal settings compile twice
    (optax 0.2.8); `train()` building `optax.adam` and passing it static compiles once per
    `train()`; two `jtu.Partial(f)` compile twice; `Head(2.0)(x)` with `static_argnums=0` on
    `__call__` compiles 5 times in 5 calls.

    ## Fix safety
    Create the object once (hoist the lambda or partial out of the loop, define the function at
    module level) and pass the same object, or give the class value equality (a frozen
    dataclass). Safe when the object captures nothing that changes between calls.
    """

    code = "JIT402"
    calling_context = True
    name = "fresh-object-static-arg"
    summary = "a new lambda, function, partial or identity-hashed object as a static argument recompiles every call"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=0)
        def apply(fn, x):
            return fn(x)

        x = jnp.ones(3)
        for step in range(5):
            x = apply(lambda v: v * 2.0, x)
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=0)
        def apply(fn, x):
            return fn(x)

        double = lambda v: v * 2.0
        x = jnp.ones(3)
        for step in range(5):
            x = apply(double, x)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in static_uses(ctx):
            if use.spec.filtering:
                continue
            fresh = fresh_value(ctx, use)
            if fresh is not None and fresh.kind != "jit":
                yield Violation(use.arg, (
                    f"{use.where()} is {fresh.what} {fresh.when}; it is equal only to itself, so "
                    f"`{use.callee}` recompiles on every call; {fresh.fix}"))
        for receiver in static_receivers(ctx):
            fresh = fresh_receiver(ctx, receiver)
            if fresh is not None and fresh.kind == "instance":
                name = f"{receiver.cls.name.value}.{receiver.method}"
                yield Violation(receiver.receiver, (
                    f"`{name}` is jitted with a static `self`, and called on {fresh.what} "
                    f"{fresh.when}: `{name}` recompiles on every call; {fresh.fix}"))
        for use, fresh, first in twin_objects(ctx):
            earlier = " ".join(cst.Module([]).code_for_node(first.value).split())
            yield Violation(use.arg, (
                f"{use.where()} is {fresh.what}, created separately from `{earlier}` passed in "
                f"an earlier call; it is equal only to itself, so `{use.callee}` compiles again; "
                f"{fresh.fix}"))

from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._module_fields import ARRAY, instance_uses
from jitlint.rules._static import all_static_uses, static_receivers, unhashable, unhashable_receiver


class UnhashableStaticArg(Rule):
    """
    ## What it does
    Flags an unhashable value passed at a static position (`static_argnums` /
    `static_argnames`, resolved against the signature as `jax.jit` does; `jax.pmap`'s
    `static_broadcasted_argnums`, positional only) of a jitted function
    defined in this module or imported from another linted module: list, dict and set literals
    and comprehensions, `list(...)`/`dict(...)`/`set(...)`, `bytearray(...)`, `slice(...)`,
    `np.array`/`jnp.array`/`jnp.zeros`-style arrays, tuples containing any of these, instances of
    non-frozen `@dataclass` classes (eq=True sets `__hash__` to None) or of classes defining
    `__eq__` without `__hash__` (classes resolved within the linted tree), and a variable when
    every definition reaching the read is one of these (flow-sensitive: `x = [0]` twice is
    still a list; `x = tuple(x)` before the call is fine). Also any `jax.numpy` / `jax.random`
    result (a jax Array: `jnp.sum(x > 0)`), an instance of a frozen or `unsafe_hash=True` dataclass or an
    `equinox.Module` (both hash their fields) given a list, dict, set or array field, the static
    half of `eqx.partition(model, ...)` when a field of `model` is a list, dict or set, and the
    static `self` of a jitted method (`static_argnums=0`) when the class is a non-frozen
    `@dataclass` or an `equinox.Module` made with an array or container field. Also inside
    traced code (a jitted body, or a helper it calls): the call raises while tracing too.
    Also an `equinox.Module` or `flax.struct` dataclass whose field marked static
    (`eqx.field(static=True)`, `struct.field(pytree_node=False)`: the markers in
    `jitlint/jaxfacts.py`) holds an array, passed to any jitted function (a static field is
    pytree metadata for every jit) where a second instance can arrive: made in a loop or per
    call of a repeated function, or another instance passed to the same function earlier.

    ## Why is this bad?
    Static arguments are hashed to look up the compilation cache. Measured on jax 0.10.2:
    the call raises `ValueError: Non-hashable static arguments are not supported. An error
    occurred while trying to hash an object of type <class 'list'>, [1, 2]. The error was:
    TypeError: unhashable type: 'list'` (same for dict, set, arrays, slices, bytearray,
    eq=True dataclasses, `__eq__` without `__hash__`, and tuples containing a list), also
    when the call runs inside another jit's trace.
    A default value of a static parameter is never hashed (measured: no error), so defaults
    are not flagged. Measured the same ValueError for a frozen dataclass with a list field, an
    `equinox.Module` with a dict or list field as the static half of `eqx.partition` (equinox
    0.13.8), a Module with an array field or a non-frozen `@dataclass` as a static `self`, and
    `jnp.sum(...)` (jax Arrays are unhashable); a Module with a tuple field is fine. `jax.pmap`
    raises the same ValueError for an `unsafe_hash=True` dataclass holding an array at a
    `static_broadcasted_argnums` position (a tuple field is fine). An array
    in a static Module field: the first call works, the call with a second instance raises
    `ValueError: Exception raised while checking equality of metadata fields of pytree`
    (under `eqx.filter_jit` and `jax.jit` alike, and for a flax.struct dataclass); the same
    instance again is fine.

    ## Fix safety
    Pass a hashable equivalent: a tuple for a list, a frozenset for a set, a tuple of items or a
    frozen dataclass for a dict, `@dataclass(frozen=True)` for a config object. The jitted body
    may need small changes if it mutates the value (a static value should not be mutated).
    For an array in a static Module field, drop the static marking: the array is then traced.
    """

    code = "JIT301"
    name = "unhashable-static-arg"
    summary = "an unhashable value at a static argument position raises ValueError at call time"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames="axes")
        def total(x, axes):
            return x.sum(axis=axes)

        total(jnp.ones((2, 3)), axes=[0, 1])
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames="axes")
        def total(x, axes):
            return x.sum(axis=axes)

        total(jnp.ones((2, 3)), axes=(0, 1))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in all_static_uses(ctx):
            if use.spec.filtering:
                continue  # equinox treats containers as pytrees: no hashing of the container
            found = unhashable(ctx, use.value, use.scope)
            if found is not None:
                what, fix = found
                yield Violation(use.arg, (
                    f"{use.where()} is {what}; it is unhashable, so the call raises ValueError "
                    f"(non-hashable static argument); {fix}"))
        for receiver in static_receivers(ctx):
            found = unhashable_receiver(ctx, receiver)
            if found is not None:
                what, fix = found
                name = f"{receiver.cls.name.value}.{receiver.method}"
                yield Violation(receiver.receiver, (
                    f"`{name}` is jitted with a static `self`, which is {what}; it is unhashable, "
                    f"so the call raises ValueError (non-hashable static argument); {fix}"))
        for use in instance_uses(ctx):
            problem = use.problem
            if problem.kind == ARRAY:
                yield Violation(use.arg, (
                    f"a `{problem.cls}` instance made {use.when} is passed to `{use.callee}`, and its "
                    f"static field `{problem.field}` holds {problem.what}: a static field is part of the "
                    f"cache key, and comparing two instances' arrays raises ValueError on the "
                    f"call after the first; drop the static marking of `{problem.field}` (an "
                    f"array field is traced)"),
                    related=((problem.value, f"the array stored in `{problem.field}`"),))

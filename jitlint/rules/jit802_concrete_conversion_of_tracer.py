from typing import Iterator

from jitlint.jaxfacts import CONCRETE_PARAMS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._traced import TRACING_CALL_NAMES, TRACING_METHODS, TRACING_TRANSFORM_NAMES, tracer_uses


class ConcreteConversionOfTracer(Rule):
    """
    ## What it does
    Flags `int()`, `float()`, `complex()`, `bool()`, `.item()` and `.tolist()` applied to a
    traced value inside a jitted function (a non-static parameter or a value computed from one),
    placement queries a tracer cannot answer (`x.devices()`, `x.device`, `x.sharding`:
    `jaxfacts.PYTHON_VALUE_METHODS` / `PYTHON_VALUE_ATTRIBUTES`),
    and traced values where JAX needs a Python value: a `range(n)` bound, a shape
    (`jnp.zeros((n,))`, `x.reshape(n, -1)`, `jnp.arange(n)`), a slice bound (`x[:n]`), an index
    into a Python list or tuple (`x.shape[axis]` too), the count a list is repeated by
    (`[block] * n`), a number formatted with a spec (`f"{loss:.4f}"`, `"{:.2f}".format(x)`,
    `format(x, ".3f")`: TypeError) or a numeric %-conversion (`"%.2f" % x`:
    ConcretizationTypeError; `%s` and an f-string without a spec only call `str`), a size or axis argument (`jax.nn.one_hot(x, n)`,
    `jnp.sum(x, axis=k)`; every parameter of `jaxfacts.CONCRETE_PARAMS`, library calls too:
    flax's `Dropout(deterministic=...)`, chex's static assertions `chex.assert_equal` /
    `assert_scalar_*`, also under `@chex.chexify`), also in module functions the jitted body calls with traced arguments,
    and at the call of a jax function jitted as it is (`jax.jit(jax.nn.one_hot)(x, 3)`).
    `int(x.shape[0])`, `float(len(xs))`, sizes from `.shape`, `lax.dynamic_slice`, indexing an
    array with a tracer and static parameters stay silent, and so do arguments of `jax.random`
    functions that are arrays, not shapes (`permutation`'s `x`, `bernoulli`'s `p`,
    `categorical`'s `logits`). A parameter with a default counts as
    traced when a call in the module passes it. A shape or pad width built as a list first
    (`pad_config = [(0, 0)] * (x.ndim - 1) + [(pad, pad)]`, jax#27601) is read element by
    element, and so is one joined with a shape (`x.shape[:1] + tuple(hw) + (1,)`). A pytree
    leaf reaching such a place is shown where the fix goes: at the call passing the instance,
    or, for a field the class declares as Python ints (`resolution: Tuple[int, int]` in a
    `NamedTuple`, whose fields are all leaves; tapnet c1b0059), at that declaration. A jax
    operation on constants in traced code is staged too (omnistaging): `float(jnp.sqrt(...))`
    in a staticmethod or classmethod a jitted function calls on its class raises, also when
    the value replaces a `None` default the call leaves out (`if t_end is None: t_end =
    jnp.sqrt(...)`, jwave 38febdf), and so is indexing a concrete jax array an object bound
    outside the trace holds (`driver = Driver(x_a)` with `x_a = jnp.linspace(...)` stored as
    `self.x_a`, then `float(self.x_a[-1])` in the `__call__` a jitted step runs: adept's wave
    driver raises ConcretizationTypeError; a NumPy grid is fine).
    Traced code is all the code JIT801 lists (`jitlint rule JIT801`): jitted functions, and the
    functions that vmap, the lax loops, `model.apply`, equinox and nnx methods, transforms
    called in traced code and the libraries of `jaxfacts.TRACING_CALLS` trace.
    Under `jax.grad` alone only `float()`, `complex()` and `.tolist()` of a differentiated value raise.
    A value is traced when every assignment that can reach it under the jitted calls is: one
    under an `if` those calls never take (`if max_to_take is not None:` with `max_to_take` left
    at its `None` default) does not count (a notebook's nearest-neighbour search slicing by
    `valid_counts.max()`: IndexError).

    ## Why is this bad?
    These need the concrete value, which a tracer does not have. Measured on jax 0.10.2 (CPU):
    `int(x)`, `float(x)`, `complex(x)`, `x.item()` and `x.tolist()` raise
    `ConcretizationTypeError: Abstract tracer value encountered where concrete value is
    expected: traced array with shape float32[]`; `bool(x)` raises `TracerBoolConversionError`.
    `range(n)` and `[0.1, 0.01][i]` raise `TracerIntegerConversionError`; `jnp.zeros((n,))` and
    `x.reshape(n, -1)` (and a traced shape of `jax.random.normal`/`uniform`/`bernoulli`) raise
    `TypeError: Shapes must be 1D sequences of concrete values`;
    `x[:n]` raises `IndexError: Slice entries must be static integers`; `jnp.arange(n)`,
    `jax.nn.one_hot(x, n)`, `jnp.sum(x, axis=k)` and `jax.jit(jax.nn.one_hot)(x, 3)` raise
    `ConcretizationTypeError` (`fixtures/trace_misuse/`, each at the marked line).
    `chex.assert_equal(x.sum(), 1.0)` raises `TracerBoolConversionError` under `@chex.chexify`
    too (chex#387: chexify makes value assertions traced-safe, not static ones).

    ## Fix safety
    Keep the value an array: `x.astype(jnp.int32)` instead of `int(x)`; return it from the
    jitted function and convert outside. If it is really a Python number (a size, a flag),
    mark the parameter static instead: every distinct value then compiles once.
    """

    code = "JIT802"
    name = "concrete-conversion-of-tracer"
    summary = "int()/float()/.item(), a shape, bound or axis from a traced value raises under jit"
    prefilter_names = TRACING_CALL_NAMES  # code that lax.scan and friends trace outside jit
    prefilter_methods = TRACING_METHODS  # self.param(name, init_fn): flax traces init_fn in apply
    prefilter_transforms = TRACING_TRANSFORM_NAMES  # jax.vmap(f) where f does a Python-value operation
    prefilter_handed_functions = frozenset(CONCRETE_PARAMS)  # jax.make_jaxpr(jax.lax.integer_pow)(x, 4)
    severity = "error"

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def mean_loss(pred, target):
            loss = jnp.mean((pred - target) ** 2)
            return float(loss)
        """,
        """
        import jax

        @jax.jit
        def first(x):
            return x[0].item()
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def mean_loss(pred, target):
            return jnp.mean((pred - target) ** 2)

        print(float(mean_loss(jnp.ones(3), jnp.zeros(3))))
        """,
        """
        import jax

        @jax.jit
        def rows(x):
            return x.reshape(int(x.shape[0]), -1)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        for use in tracer_uses(ctx):
            if use.kind == "convert":
                yield Violation(use.node, use.message, related=use.related)

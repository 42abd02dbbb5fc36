from jitlint.rules._fresh import FreshCallableRule


class JitOfBoundMethod(FreshCallableRule):
    """
    ## What it does
    Flags `jax.jit(self.method)`, `jax.jit(obj.method)` and `jax.jit(Cls.classmethod)` (also a
    method inherited from a base class outside the file) in code that calls the result.
    Staticmethods and plain `Cls.method` are plain functions and stay silent, as do
    `self._f = jax.jit(self.f)` in `__init__`, a method pinned on the instance
    (`self.f = self.f`), and `jax.pmap(self.f)` / `eqx.filter_jit(self.f)`, whose caches compare
    bound methods of one object as equal (measured: 1 compile in 5 calls).

    The receiver's class is read where the code states it: `self`, a name assigned from
    `Cls(...)`, a parameter annotation (`model: Model`, `Optional[Model]`), a pytest fixture of
    the module that a test takes (its return annotation or the `Cls(...)` it returns),
    `self.attr` assigned once from `Cls(...)` (or annotated in the class body, or from an
    `__init__` parameter every construction fills with a `Cls(...)`: moscot's
    `jax.jit(self._output.apply)`, `fixtures/fresh/bound_method_of_wrapped_output_per_push.py`,
    whose `_apply` a base class's `push` calls through `self`), a field a class of the module
    declares with a class of the module (`state.model.apply` of a dataclass with `model: GPT`,
    a linen module: minGPT-flax's sampler, 5 compiles in 5 tokens, jitted once before the
    loop: 1), and classes of
    other modules of the project or of installed packages (their source read through the
    project index, never imported). An inherited name counts when a base that defines it is in
    view, or is a framework method (`flax.linen.Module.apply`/`init`); a base nobody can read
    keeps it silent. For a class defined elsewhere the advice warns that jitting once freezes
    any attribute the method reads that changes later. A loop over configurations (a literal
    collection, or one a library call lists: `itertools.product(depths, widths)`) that builds
    an object from each and jits its method compiles once per configuration, each a program
    of its own: left alone (`fixtures/fresh/ok_jit_per_library_listed_variant.py`).

    ## Why is this bad?
    Every attribute access of a method builds a new bound-method object, and JAX caches compiled
    code per wrapped object. Measured on jax 0.10.2 (CPU): `jax.jit(obj.method)(x)` in a loop,
    `jax.jit(self.method)` inside `__call__` and `jax.jit(Cls.classmethod)` all compile 5 times in
    5 calls; `jm = jax.jit(obj.method)` hoisted (or in `__init__`) compiles once. Written twice in
    a row, `jax.jit(obj.f)(x)` compiles twice (`fixtures/repetition/straight_line_bound_method.py`).
    Receivers typed by a fixture, an annotation, `self.attr` or an imported class compile 5 times
    in 5 steps as well (`fixtures/receivers/`), and so does `jax.jit(model.apply)` of a flax linen
    Module, a flax nnx Module's method, and a method of a `register_pytree_node_class` class:
    being a pytree does not make the bound method the same object. An equinox Module's bound
    method is a Module itself: `jax.jit(m.method)` per step compiles 5 times in 5 steps when its
    fields hash, and raises `TypeError: unhashable type` when a field is an array
    (`eqx.filter_jit(m.method)` compiles once).

    ## Fix safety
    Jitting once in `__init__` is safe when the method reads no attributes that later change.
    When it reads one that another method (or an assignment to the instance) changes, the
    message names it and advises a jitted function that takes that state as an argument
    instead: jitting the bound method once would freeze the attribute at its first trace
    (JIT601; measured: `fixtures/fresh/bound_method_reads_changing_state.py` jitted once in
    `__init__` prints the first weights' result on every step).
    """

    code = "JIT104"
    calling_context = True
    name = "jit-of-bound-method"
    summary = "jit of a bound method re-created on every access recompiles every time"
    kinds = ("bound-method",)

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        class Model:
            def apply(self, x):
                return x * 2.0

            def __call__(self, x):
                return jax.jit(self.apply)(x)

        model = Model()
        for _ in range(5):
            model(jnp.ones(3))
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        class Model:
            def __init__(self):
                self._apply = jax.jit(self.apply)

            def apply(self, x):
                return x * 2.0

            def __call__(self, x):
                return self._apply(x)

        model = Model()
        for _ in range(5):
            model(jnp.ones(3))
        """,
    ]

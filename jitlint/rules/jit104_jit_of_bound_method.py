from jitlint.rules._fresh import FreshCallableRule


class JitOfBoundMethod(FreshCallableRule):
    """
    ## What it does
    Flags `jax.jit(self.method)`, `jax.jit(obj.method)` and `jax.jit(Cls.classmethod)` in a loop
    or in a repeatedly called function that calls the result. Staticmethods and plain
    `Cls.method` are plain functions and stay silent, as does `self._f = jax.jit(self.f)` in
    `__init__`.

    ## Why is this bad?
    Every attribute access of a method builds a new bound-method object, and JAX caches compiled
    code per wrapped object. Measured on jax 0.10.2 (CPU): `jax.jit(obj.method)(x)` in a loop,
    `jax.jit(self.method)` inside `__call__` and `jax.jit(Cls.classmethod)` all compile 5 times in
    5 calls; `jm = jax.jit(obj.method)` hoisted (or in `__init__`) compiles once.

    ## Fix safety
    Jitting once in `__init__` is safe when the method reads no attributes that later change;
    otherwise pass them as arguments.
    """

    code = "JIT104"
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

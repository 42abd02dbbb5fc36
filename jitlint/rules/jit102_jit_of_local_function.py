from jitlint.rules._fresh import FreshCallableRule


class JitOfLocalFunction(FreshCallableRule):
    """
    ## What it does
    Flags jit applied to a function defined inside the enclosing function or loop body, in call
    form (`jax.jit(inner)`) or decorator form (`@jax.jit` on a nested `def`), when that code runs
    repeatedly and calls the result, directly or through a transform of it (`jax.grad(loss)(w)`,
    `eqx.filter_grad(loss)(...)` calls `loss`: equinox issue 307), or hands it to a library
    call that runs it (`scipy.optimize.minimize(loss, ...)`: `jaxfacts.FUNCTION_RUNNING_CALLS`)
    or to a function of the module that calls it or hands it on (`cls.from_loss(loss)`, ergo
    PR #338; a classmethod called as `Cls.method(...)` counts as called there). The code may run
    repeatedly through a `functools.partial` of its function (`sample_fn = partial(implicit,
    ...)`, then `sample_fn(seed=...)` per epoch: ntg's diffusion sampler, 6 compiles in 6
    previews). Also flags factories (`def make(c): ... return
    jax.jit(step)`) whose result is called right away in a loop (`make(0.5)(w, g)`), or made
    and called by a function that itself runs repeatedly (`cost_fn, grad_fn =
    self._build_functions(data)` in a `solve` called in a loop: scikit-robot#871), and the
    def a function or method builds and returns (`jax.jit(self._get_integrate_fn(...))` in an
    `unroll` called per chunk, or a closure it returns that jits what it builds each time it
    runs: jax-gcm 5aac6d3), also a method of an object the class stores (`run =
    self.module.get_inference_fn()` in a method called per plot, its result called per batch,
    in a loop or a comprehension: scvi-tools PR 1552), and a closure a method stores on
    `self` (also lazily) and calls through the attribute (paxml e4fad96), and a method of an
    object a dataclass field holds (`evaluator: Evaluator`, then `self.evaluator.unroll(...)`
    every few steps: jax_v_pytorch's training loop, 5 compiles in 5 evaluations), and a factory a
    dataclass field holds by default (`loss_fn: Callable = cross_entropy_loss`, then
    `self.loss_fn(self.model)` per step: flax-llm's Trainer, 10 compiles in 5 steps under
    value_and_grad; built once before the loop, 2), and a factory an object stores from its
    constructor's argument (`self.rollout_policy_fn = rollout_policy_fn` of
    `ExperimentDriver(..., make_policy)`, then `driver.rollout_policy_fn(params)` per trial
    handed to a method that jits it: safe-learning 1f7b162, 5 compiles in 5 trials; a policy of
    its parameters jitted once, 1). A step called over a list of `(x, y)`
    batches (`[(X[i:i + B], Y[i:i + B]) for i in ...]`, also a slice of it handed to the
    training function) that closes over the batch only as array data is one program fed new
    values: flagged (house_prices_mlp, 10 compiles in 5 steps); a batch handed to a function a
    mapping transform made (`jax.vmap(sentence_loss)(source_batch, target_batch)`) is array
    data too (non-linear-transformer d8930a1, 10 compiles in 5 batches).

    ## Why is this bad?
    A `def` statement creates a new function object each time it runs, and JAX caches compiled
    code per function object. Measured on jax 0.10.2 (CPU): an outer function called 5 times that
    does `jax.jit(inner)(x)` or decorates a nested `def` with `@jax.jit` compiles 5 times in 5
    calls; a `@jax.jit def` inside a loop body also compiles 5 times in 5 iterations. A
    `train_epoch` that builds `@jax.jit def step` and loops over its batches compiles once per
    epoch (5 in 5 epochs; 1 when the step is built once outside), and a factory returning
    `(Z, project, recover)` jitted closures, unpacked and called per iteration, compiles both
    every iteration; three solves that each rebuild a jitted cost and its gradient compile
    both three times; an `unroll` jitting the closure a method returns compiles on each of 5
    chunks (jitted once in `__init__`: once). A `@jax.jit def loss` inside a step function, only called as
    `jax.grad(loss)(w)`, compiles 5 times in 5 steps (`fixtures/fresh/`). A loop over a dict
    of variants that builds each and jits an evaluation closing over it compiles once per
    variant, each a program of its own: that is left alone (evosax's BBOB notebook), and so is
    a loop over configurations a library call lists (`pgx.available_envs()`,
    `itertools.product(depths, widths)`) that builds each and jits it (JIT104/105 too), and a
    function called once per level of a list built from literal sizes or factors, each level
    read through names the loop binds (`for lvl in levels: y = lvl["projections"]; align(y)`,
    tomojax's coarse-to-fine alignment: a new shape per level, 3 compiles for 3 levels jitted
    where it is or once; the same levels run for 2 epochs compile 6 times: flagged; a jit
    closing over a depth from `for depth in [1, 2, 3]` is one program per depth). A few
    call sites outside loops that give a parameter sizing the jit's arguments different values
    (`generate_sbi_dataset(500, key)` then `(100, key)` with `jax.random.uniform(key,
    (n_samples, 2))`) are two programs either way and stay silent; five calls of one size
    compile five times and are flagged. A loop over an item that sets a size (`for width in
    np.arange(2, 7): fit(int(width))` with a jit closing over `width` that shapes the weights)
    is a sweep of programs and stays silent; a loop over floats (`np.linspace(...)`,
    `np.arange(0, 2.1, 0.5)`, a list or NumPy array of float literals, a `np.concatenate` of
    such) sweeps data values through one program and is flagged, also when the jit tests the
    value (`if alpha != 0:`, two programs at most once it is an argument): a course lab's
    regularisation sweep, 5 compiles in 5 calls; hflow's interaction strengths,
    `fixtures/fresh/local_jit_step_per_swept_interaction_strength.py`, 5 in 5 (a NumPy
    array of particle counts shaping the step's noise: a program per count, silent).

    ## Fix safety
    Moving the function to module level is safe when it closes over nothing that changes; pass
    changing values as (static) arguments instead.
    """

    code = "JIT102"
    separate_findings = True  # each finding has its own --fix edit
    calling_context = True
    name = "jit-of-local-function"
    summary = "jit of a function defined in the enclosing body recompiles on every run of that body"
    kinds = ("local-def",)

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        def train_step(w, g):
            @jax.jit
            def update(w, g):
                return w - 0.1 * g
            return update(w, g)

        w = jnp.ones(3)
        for _ in range(5):
            w = train_step(w, jnp.ones(3))
        """,
        """
        import jax
        import jax.numpy as jnp

        def make_update(lr):
            def update(w, g):
                return w - lr * g
            return jax.jit(update)

        w = jnp.ones(3)
        for _ in range(5):
            w = make_update(0.1)(w, jnp.ones(3))
        """,
        """
        import jax
        import jax.numpy as jnp

        def train_epoch(w, batches):
            @jax.jit
            def step(w, g):
                return w - 0.1 * g

            for g in batches:
                w = step(w, g)
            return w

        w = jnp.ones(3)
        for epoch in range(5):
            w = train_epoch(w, [jnp.ones(3)] * 4)
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def update(w, g):
            return w - 0.1 * g

        w = jnp.ones(3)
        for _ in range(5):
            w = update(w, jnp.ones(3))
        """,
        """
        import jax
        import jax.numpy as jnp

        def main():
            def update(w, g):
                return w - 0.1 * g
            step = jax.jit(update)  # built once, reused by the loop
            w = jnp.ones(3)
            for _ in range(5):
                w = step(w, jnp.ones(3))
            return w
        """,
    ]

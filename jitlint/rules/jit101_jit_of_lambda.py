from jitlint.rules._fresh import FreshCallableRule


class JitOfLambda(FreshCallableRule):
    """
    ## What it does
    Flags `jax.jit(lambda ...)` (or any jit-like wrapper: `pjit`, `jax.pmap`, `nnx.jit`, a
    project's own `def my_jit(f, **kw): return jax.jit(f, **kw)` or decorator factory
    `def my_jit(**kw): return partial(jax.jit, **kw)`, in the same file or imported from
    another module of the project, also a staticmethod of a helper class:
    `global_defs.pmap_for_my_devices(f)`, jVMC PR 79), and an eager
    `jax.lax.scan`/`fori_loop`/`while_loop`/`map` outside any jit, given a lambda created anew
    each time the surrounding code runs.

    When the lambda reads the loop's own variable only as an operand of array arithmetic
    (`for lr in lrs: jax.jit(lambda p, g: p - lr * g)`), the message says to pass it as an
    argument; when the variable shapes the program (sizes, branches) or the loop times each
    variant (an autotuning sweep), one compile per value is inherent and nothing is reported.
    A value computed in the loop and read only as an operand (`scale = 0.5 * step`) gets the
    same advice: hoisting the jit alone would freeze it. A value bound by a default argument
    (`lambda p, g, lr=lr: p - lr * g`) is read where the lambda is made, as the loop's value:
    a decayed rate is flagged the same way (5 compiles in 5 epochs), a network made per swept
    width (`lambda x, net=net: net(x, 0.5)`) is a program per width and stays silent. Also a jit stored on the object in
    `__init__` (`self.act = jax.jit(lambda x: ...)`) of a class that a loop instantiates and
    calls on every iteration (not an object made once per run of an inner loop that reuses
    it), and a lambda in a function that a loop differentiates outside jit (`jax.grad(loss)(w)`
    runs `loss` again on every call), and a function that jits its own parameter (`policy =
    eqx.filter_jit(policy)` in `rollout(policy, obs)`) called in a loop that hands it a lambda
    made on every iteration (`partial_agent = lambda x: agent(x)[0]`: arturgalstyan's PPO, 5
    compiles in 5 episodes; one policy of the agent and the observation jitted once, 1).
    (It reads only files that mention `jit`, `pmap` or a jit wrapper of the project.)

    ## Why is this bad?
    JAX caches compiled code on the identity of the wrapped function. A new lambda is a new
    object, so every iteration traces and compiles again. Measured on jax 0.10.2 (CPU):
    `jax.jit(lambda x: x + 1)(x)` in a 5-step loop compiles 5 times in 5 calls; the same lambda
    bound once before the loop compiles once. `jax.lax.scan(lambda ...)` run eagerly in a
    5-step loop compiles the scan 5 times. `jax.jit(lambda p, g: p - lr * g)` per `lr` compiles
    once per value; `jax.jit(lambda p, g, lr: p - lr * g)` built once compiles once for all.
    A controller rebuilt on every one of 5 steps compiles its `__init__`'s jit 5 times; one
    agent per learning rate trained for 5 steps compiles once per agent. A `jax.pmap` of a
    lambda in a loss differentiated by `jax.grad` in 5 eager steps compiles 5 times (jax#3612).

    ## Fix safety
    Hoisting is safe when the lambda reads nothing that changes from one iteration to the next;
    pass such values as arguments instead of closing over them.
    """

    code = "JIT101"
    separate_findings = True  # each finding has its own --fix edit
    calling_context = True
    name = "jit-of-lambda"
    summary = "jit of a lambda created on every iteration or call recompiles every time"
    kinds = ("lambda",)

    INVALID = [
        """
        import jax
        import jax.numpy as jnp

        x = jnp.ones(3)
        for step in range(5):
            x = jax.jit(lambda v: v * 2.0)(x)
        """,
        """
        import jax

        def scale(x):
            return jax.jit(lambda v: v * 2.0)(x)

        for step in range(5):
            scale(step)
        """,
    ]
    VALID = [
        """
        import jax
        import jax.numpy as jnp

        double = jax.jit(lambda v: v * 2.0)
        x = jnp.ones(3)
        for step in range(5):
            x = double(x)
        """,
        """
        import jax

        @jax.jit
        def outer(x):
            return jax.jit(lambda v: v + 1)(x)  # inlined into outer's trace
        """,
    ]

# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: JIT601 at line 12, 19
# runtime: STALE COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp

lr = 0.1


@jax.jit
def step(params):
    return params - lr * params


def train(params):
    global lr
    for _ in range(3):
        params = step(params)
        lr = lr / 2
        print(params)
    return params


def main():
    train(jnp.ones(2))


if __name__ == "__main__":
    main()

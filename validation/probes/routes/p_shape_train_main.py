# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: a new shape or dtype compiles again)
# expect: JIT501 at line 15
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    return params - 0.1 * batch.mean()


def train(params, data):
    for size in (2, 4, 8):
        params = train_step(params, data[:size])
    return params


def main():
    print(train(jnp.zeros(()), jnp.arange(16.0)))


if __name__ == "__main__":
    main()

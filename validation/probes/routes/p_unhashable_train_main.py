# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: JIT301 at line 18
# runtime: ERROR ValueError
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def normalize(x, axes):
    return x / jnp.sum(x, axis=axes, keepdims=True)


def train(batches):
    axes = [0]
    for batch in batches:
        batch = normalize(batch, axes)
    return batch


def main():
    print(train([jnp.ones((2, 2))] * 2))


if __name__ == "__main__":
    main()

# source: https://docs.jax.dev/en/latest/jit-compilation.html (marking arguments as static: each new value compiles again)
# expect: JIT401 at line 18
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="epoch")
def train_step(params, batch, epoch):
    lr = 0.1 / (1 + epoch)
    return params - lr * (params - batch)


def train(params, batch, epochs):
    for epoch in range(epochs):
        params = train_step(params, batch, epoch=epoch)
    return params


def main():
    print(train(jnp.zeros(3), jnp.ones(3), 3))


if __name__ == "__main__":
    main()

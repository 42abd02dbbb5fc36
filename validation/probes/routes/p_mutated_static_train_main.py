# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static arguments must be hashable and immutable)
# expect: JIT603 at line 17, 22, 23
# runtime: STALE COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


class Config:
    def __init__(self, scale):
        self.scale = scale


@functools.partial(jax.jit, static_argnums=1)
def scaled(x, config):
    return x * config.scale


def train(x, config):
    for factor in (1.0, 2.0, 3.0):
        config.scale = factor
        print(scaled(x, config))


def main():
    train(jnp.ones(2), Config(1.0))


if __name__ == "__main__":
    main()

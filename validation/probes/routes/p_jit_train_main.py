# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: JIT101 at line 14
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


def loss(params):
    return jnp.sum(params ** 2)


def train(params):
    for _ in range(3):
        step = jax.jit(lambda p: p - 0.1 * jax.grad(loss)(p))
        params = step(params)
    return params


def main():
    print(train(jnp.ones(3)))


if __name__ == "__main__":
    main()

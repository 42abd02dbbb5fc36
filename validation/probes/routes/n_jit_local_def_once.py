# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


def main():
    @jax.jit
    def step(v):
        return jnp.tanh(v)

    x = jnp.ones(3)
    for _ in range(3):
        x = step(x)
    print(x)


if __name__ == "__main__":
    main()

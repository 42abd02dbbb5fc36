# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: JIT520 at line 10, 15
# expect: JIT101 at line 10, 15
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


def simulate(state, steps):
    return jax.lax.fori_loop(0, steps, lambda i, s: s + 0.1 * jnp.sin(s), state)


def train(state):
    for _ in range(3):
        state = simulate(state, 5)
    return state


def main():
    print(train(jnp.ones(2)))


if __name__ == "__main__":
    main()
